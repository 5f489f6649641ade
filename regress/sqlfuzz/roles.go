package sqlfuzz

import (
	"fmt"
	"math/rand"
	"strings"
)

// Role statements: each round ends with a generated script of CREATE
// ROLE, GRANT/REVOKE (tables, columns, a sequence, memberships), SET ROLE
// and the statements whose outcome depends on them (reads, writes,
// nextval, has_*_privilege, relacl), run statement by statement on both
// servers. Every statement's outcome — its rows, or its SQLSTATE and
// message — must be the same; joind's 0A000 ends the script (the rest
// would run in a different state). The roles and the sequence are the
// worker's (prefix), dropped before and after.

// roleCase is one generated role script.
type roleCase struct {
	roles   []string
	seq     string
	setup   []string // CREATE ROLE, CREATE SEQUENCE, ...
	stmts   []string // compared statement by statement
	cleanup []string // run before and after, errors ignored
}

// roleCase generates a role script over the round's tables.
func (g *gen) roleCase(prefix string) *roleCase {
	r := g.r
	rc := &roleCase{seq: prefix + "sq"}
	for i := 0; i < 3; i++ {
		rc.roles = append(rc.roles, fmt.Sprintf("%sr%d", prefix, i))
	}
	rc.cleanup = []string{"RESET ROLE", "DROP SEQUENCE IF EXISTS " + rc.seq}
	for _, ro := range rc.roles {
		rc.cleanup = append(rc.cleanup, "DROP OWNED BY "+ro, "DROP ROLE IF EXISTS "+ro)
	}
	for _, ro := range rc.roles {
		opt := ""
		if r.Intn(4) == 0 {
			opt = " NOINHERIT"
		}
		rc.setup = append(rc.setup, "CREATE ROLE "+ro+opt)
	}
	rc.setup = append(rc.setup, "CREATE SEQUENCE "+rc.seq)
	n := 8 + r.Intn(12)
	for i := 0; i < n; i++ {
		rc.stmts = append(rc.stmts, g.roleStmt(rc))
	}
	return rc
}

var tablePrivNames = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "ALL"}

var seqPrivNames = []string{"USAGE", "SELECT", "UPDATE", "ALL"}

func pick(r *rand.Rand, xs []string) string { return xs[r.Intn(len(xs))] }

// privList is one to three of names, comma-separated (ALL alone).
func privList(r *rand.Rand, names []string) string {
	p := pick(r, names)
	if p == "ALL" || r.Intn(2) == 0 {
		return p
	}
	q := pick(r, names[:len(names)-1])
	if q == p {
		return p
	}
	return p + ", " + q
}

// roleStmt is one statement of the script.
func (g *gen) roleStmt(rc *roleCase) string {
	r := g.r
	t := g.s.tables[r.Intn(len(g.s.tables))]
	col := t.cols[r.Intn(len(t.cols))].name
	role := pick(r, rc.roles)
	who := role
	if r.Intn(6) == 0 {
		who = "PUBLIC"
	}
	opt := ""
	if r.Intn(4) == 0 {
		opt = " WITH GRANT OPTION"
	}
	switch r.Intn(16) {
	case 0, 1:
		return fmt.Sprintf("GRANT %s ON %s TO %s%s", privList(r, tablePrivNames), t.name, who, opt)
	case 2:
		grantOpt := ""
		if r.Intn(3) == 0 {
			grantOpt = "GRANT OPTION FOR "
		}
		return fmt.Sprintf("REVOKE %s%s ON %s FROM %s", grantOpt, privList(r, tablePrivNames), t.name, who)
	case 3:
		return fmt.Sprintf("GRANT %s (%s) ON %s TO %s%s", pick(r, []string{"SELECT", "INSERT", "UPDATE"}), col, t.name, who, opt)
	case 4:
		return fmt.Sprintf("GRANT %s ON SEQUENCE %s TO %s%s", privList(r, seqPrivNames), rc.seq, who, opt)
	case 5:
		return fmt.Sprintf("REVOKE %s ON SEQUENCE %s FROM %s", privList(r, seqPrivNames), rc.seq, who)
	case 6:
		return fmt.Sprintf("GRANT %s TO %s", pick(r, rc.roles), role)
	case 7, 8:
		return "SET ROLE " + role
	case 9:
		return "RESET ROLE"
	case 10:
		return "SELECT count(*) FROM " + t.name
	case 11:
		return fmt.Sprintf("SELECT count(%s) FROM %s", col, t.name)
	case 12:
		return fmt.Sprintf("SELECT nextval('%s') > 0", rc.seq)
	case 13:
		return fmt.Sprintf("SELECT has_table_privilege('%s', '%s', '%s'), has_sequence_privilege('%s', '%s', '%s')",
			role, t.name, pick(r, tablePrivNames[:7]), role, rc.seq, pick(r, seqPrivNames[:3]))
	case 14:
		return fmt.Sprintf("SELECT relname, relacl::text FROM pg_class WHERE relname IN ('%s', '%s') ORDER BY 1", t.name, rc.seq)
	default:
		return fmt.Sprintf("UPDATE %s SET %s = %s WHERE false", t.name, col, col)
	}
}

// script is the case as one text (the repro).
func (rc *roleCase) script() string {
	return strings.Join(append(append([]string(nil), rc.setup...), rc.stmts...), ";\n") + ";"
}

// outcome describes a result for comparison: its rows, or its error.
func outcome(res *result) string {
	if res.err != nil {
		return res.state + " " + errHead(res.err)
	}
	var rows []string
	for _, row := range res.rows {
		rows = append(rows, strings.Join(row, "|"))
	}
	return strings.Join(rows, "\n")
}

// runRoles runs rc on both servers: the first statement whose outcomes
// differ is a ROLES failure.
func (f *Fuzzer) runRoles(seed int64, sch *schema, rc *roleCase) error {
	defer func() {
		for _, s := range rc.cleanup {
			f.j.query(s)
			f.pg.query(s)
		}
	}()
	for _, s := range rc.cleanup {
		f.j.query(s)
		f.pg.query(s)
	}
	f.Stats.RoleCases++
	for i, s := range append(append([]string(nil), rc.setup...), rc.stmts...) {
		jr, pr := both(f.j, f.pg, s)
		if jr.broken() || pr.broken() {
			return f.reconnect(sch)
		}
		if jr.state == "0A000" {
			return nil
		}
		if jo, po := outcome(jr), outcome(pr); jo != po {
			f.fail(&Failure{Kind: "ROLES", Seed: seed, Schema: sch.script(), Query: rc.script(),
				Detail: fmt.Sprintf("statement %d: %s\n joind:    %s\n postgres: %s", i+1, s, jo, po)})
			return nil
		}
	}
	return nil
}
