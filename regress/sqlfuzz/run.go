package sqlfuzz

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/types"
)

// sessionSetup is run on every connection: both servers see the same
// settings (PostgreSQL's text output under these is what joind promises).
var sessionSetup = []string{
	"SET DateStyle = 'ISO, MDY'",
	"SET TimeZone = 'UTC'",
	"SET IntervalStyle = 'postgres'",
}

const queryTimeout = 20 * time.Second

// peer is one server and an open connection to it.
type peer struct {
	name string
	dsn  string
	conn *pgconn.PgConn
	pg   bool // the PostgreSQL oracle (statement_timeout guards it)
	busy time.Duration
	// slowest query so far, to tune the generator's cost
	slowest     string
	slowestTime time.Duration
}

func (p *peer) note(sql string, d time.Duration) {
	p.busy += d
	if d > p.slowestTime {
		p.slowest, p.slowestTime = sql, d
	}
}

func (p *peer) connect() error {
	if p.conn != nil {
		p.conn.Close(context.Background())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, p.dsn)
	if err != nil {
		return fmt.Errorf("%s: connect: %v", p.name, err)
	}
	p.conn = c
	setup := sessionSetup
	if p.pg {
		setup = append(setup[:len(setup):len(setup)], "SET statement_timeout = '10s'")
	}
	for _, s := range setup {
		if _, err := c.Exec(ctx, s).ReadAll(); err != nil {
			return fmt.Errorf("%s: %s: %v", p.name, s, err)
		}
	}
	return nil
}

// exec runs statements that must succeed (schema setup).
func (p *peer) exec(stmts []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, s := range stmts {
		if _, err := p.conn.Exec(ctx, s).ReadAll(); err != nil {
			return fmt.Errorf("%s: %s: %v", p.name, s, err)
		}
	}
	return nil
}

// result is one query's outcome on one server.
type result struct {
	err   error  // nil: rows are valid
	state string // SQLSTATE of err ("" if not a server error)
	oids  []uint32
	rows  [][]string // text values; NULL is nullText
}

const nullText = "\x00NULL"

func (r *result) ok() bool { return r.err == nil }

// broken reports an error that is not a server ERROR (connection lost,
// timeout): the connection must be reopened.
func (r *result) broken() bool { return r.err != nil && r.state == "" }

func (p *peer) query(sql string) *result {
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	// Read through ResultReader, not ReadAll: ReadAll's Result has no
	// FieldDescriptions when there are no rows.
	mrr := p.conn.Exec(ctx, sql)
	res := &result{}
	n := 0
	for mrr.NextResult() {
		n++
		rr := mrr.ResultReader()
		res.oids = res.oids[:0]
		for _, f := range rr.FieldDescriptions() {
			res.oids = append(res.oids, f.DataTypeOID)
		}
		res.rows = res.rows[:0]
		for rr.NextRow() {
			vals := rr.Values()
			cells := make([]string, len(vals))
			for j, v := range vals {
				if v == nil {
					cells[j] = nullText
				} else {
					cells[j] = string(v)
				}
			}
			res.rows = append(res.rows, cells)
		}
		if _, err := rr.Close(); err != nil && res.err == nil {
			res.err = err
		}
	}
	if err := mrr.Close(); err != nil && res.err == nil {
		res.err = err
	}
	if res.err == nil && n == 0 {
		res.err = fmt.Errorf("no result")
	}
	if res.err != nil {
		var pe *pgconn.PgError
		if errors.As(res.err, &pe) {
			res.state = pe.Code
		}
		res.rows, res.oids = nil, nil
	}
	return res
}

// both runs sql on the two servers concurrently.
func both(j, pg *peer, sql string) (jr, pr *result) {
	done := make(chan struct{})
	go func() {
		t := time.Now()
		pr = pg.query(sql)
		pg.note(sql, time.Since(t))
		close(done)
	}()
	t := time.Now()
	jr = j.query(sql)
	j.note(sql, time.Since(t))
	<-done
	return jr, pr
}

// verdict classifies one differential comparison.
type verdict uint8

const (
	vAgree         verdict = iota
	vAgreeRepr             // equal once equal-but-differently-printed values are normalized
	vUnsupported           // joind 0A000
	vPGUnsupported         // PostgreSQL 0A000, joind answered
	vBothError             // same SQLSTATE class
	vOrderError            // a data exception on one side where evaluation order is open
	vTimeout               // a side timed out or lost its connection (not a verdict on the answer)
	vPrecedence            // both failed: joind with a data exception, PostgreSQL with an analysis error (FINDINGS.md #2)
	vDisagree
	vInternal // joind XX000
)

var verdictNames = []string{"agree", "agree-modulo-representative", "joind-0A000", "pg-0A000", "both-error",
	"order-dependent-error", "timeout", "error-precedence", "DISAGREE", "XX000"}

func (v verdict) String() string { return verdictNames[v] }

func (v verdict) failure() bool { return v == vDisagree || v == vInternal }

// compare decides the verdict for a query's two results, and a short
// signature of the failure kind (the shrinker keeps only candidates that
// fail the same way, not merely fail).
func compare(q *query, jr, pr *result) (v verdict, sig, detail string) {
	if jr.state == "XX000" {
		return vInternal, "XX000", "joind internal error: " + jr.err.Error()
	}
	if jr.broken() || pr.broken() {
		if jr.broken() && !pr.broken() && !isTimeout(jr.err) {
			return vDisagree, "joind-connection", "joind connection failed: " + jr.err.Error()
		}
		return vTimeout, "", fmt.Sprintf("joind: %v; postgres: %v", jr.err, pr.err)
	}
	if jr.state == "57014" || pr.state == "57014" {
		// statement_timeout: the oracle guards itself against runaway plans
		return vTimeout, "", fmt.Sprintf("joind: %v; postgres: %v", jr.err, pr.err)
	}
	if jr.state == "0A000" {
		return vUnsupported, "", jr.err.Error()
	}
	if pr.state == "0A000" {
		// PostgreSQL's own limitation (FULL JOIN on a non-mergeable condition, ...)
		return vPGUnsupported, "", pr.err.Error()
	}
	switch {
	case !jr.ok() && !pr.ok():
		if jr.state[:2] == pr.state[:2] || (isDataException(jr.state) && isDataException(pr.state)) {
			// which data exception comes first depends on evaluation order
			return vBothError, "", ""
		}
		if !q.strictPrecedence && isDataException(jr.state) && strings.HasPrefix(pr.state, "42") {
			return vPrecedence, "", fmt.Sprintf("joind %v, postgres %v", jr.err, pr.err)
		}
		return vDisagree, "classes " + jr.state + "/" + pr.state,
			fmt.Sprintf("error classes differ: joind %v, postgres %v", jr.err, pr.err)
	case !jr.ok() || !pr.ok():
		bad, other := jr, "joind"
		if jr.ok() {
			bad, other = pr, "postgres"
		}
		if (q.condEval || q.emptyInput || q.lenientData) && isDataException(bad.state) {
			return vOrderError, "", other + ": " + bad.err.Error()
		}
		return vDisagree, "only " + other + " " + bad.state, fmt.Sprintf("only %s failed: %v", other, bad.err)
	}
	if d := diffRows(q.mode, jr, pr, false); d != "" {
		if q.reprChoice && diffRows(q.mode, jr, pr, true) == "" {
			return vAgreeRepr, "", ""
		}
		// the kind of difference is part of the signature, so shrinking
		// cannot drift from a column-count to a value difference
		kind := "rows"
		if i := strings.IndexByte(d, ':'); i > 0 && !strings.HasPrefix(d, "rows") {
			kind = d[:i]
		}
		return vDisagree, kind, d
	}
	return vAgree, "", ""
}

func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err)
}

// isDataException: class 22 (data exception), 21 (cardinality violation)
// and 54000 (chr(0): null character not permitted) errors depend on which
// rows an expression is evaluated for.
func isDataException(state string) bool {
	return strings.HasPrefix(state, "22") || strings.HasPrefix(state, "21") || state == "54000"
}

// diffRows describes how the rows differ ("" = equal).
func diffRows(mode compareMode, jr, pr *result, normalize bool) string {
	if len(jr.oids) != len(pr.oids) {
		return fmt.Sprintf("column count: joind %d, postgres %d", len(jr.oids), len(pr.oids))
	}
	for i := range jr.oids {
		if jr.oids[i] != pr.oids[i] {
			return fmt.Sprintf("column %d type OID: joind %d, postgres %d", i, jr.oids[i], pr.oids[i])
		}
	}
	if mode == countOnly {
		if len(jr.rows) != len(pr.rows) {
			return fmt.Sprintf("row count: joind %d, postgres %d", len(jr.rows), len(pr.rows))
		}
		return ""
	}
	jl, pl := lines(jr, normalize), lines(pr, normalize)
	if mode == multiset {
		sort.Strings(jl)
		sort.Strings(pl)
	}
	if len(jl) == len(pl) {
		same := true
		for i := range jl {
			if jl[i] != pl[i] {
				same = false
				break
			}
		}
		if same {
			return ""
		}
	}
	return fmt.Sprintf("rows differ (%s):\njoind (%d rows):\n%s\npostgres (%d rows):\n%s",
		map[compareMode]string{multiset: "as multisets", ordered: "in order"}[mode],
		len(jl), show(jl), len(pl), show(pl))
}

func show(ls []string) string {
	const max = 30
	var b strings.Builder
	for i, l := range ls {
		if i == max {
			fmt.Fprintf(&b, "  ... %d more\n", len(ls)-max)
			break
		}
		b.WriteString("  " + strings.ReplaceAll(strings.ReplaceAll(l, nullText, "NULL"), "\x01", " | ") + "\n")
	}
	return b.String()
}

func lines(r *result, normalize bool) []string {
	out := make([]string, len(r.rows))
	for i, row := range r.rows {
		cells := row
		if normalize {
			cells = make([]string, len(row))
			for j, c := range row {
				cells[j] = normalizeText(c, r.oids[j])
			}
		}
		out[i] = strings.Join(cells, "\x01")
	}
	return out
}

// normalizeText maps values that compare equal but print differently to one
// text: numeric 1.50 and 1.5, float -0 and 0, interval '1 mon' and
// '30 days', bpchar 'a ' and 'a'. Used only where the query lets a server
// pick any member of a set of equal values (GROUP BY, DISTINCT, min/max,
// set operations).
func normalizeText(s string, oid uint32) string {
	if s == nullText {
		return s
	}
	switch oid {
	case types.OIDNumeric:
		if strings.Contains(s, ".") && !strings.ContainsAny(s, "eE") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		if s == "-0" {
			s = "0"
		}
	case types.OIDFloat4, types.OIDFloat8:
		if s == "-0" {
			s = "0"
		}
	case types.OIDBpchar:
		s = strings.TrimRight(s, " ")
	case types.OIDInterval:
		if v, err := types.ParseText(s, types.IntervalType); err == nil {
			// PostgreSQL compares intervals with 30-day months, 24-hour days
			const day = 86400 * 1000000
			days := int64(v.Iv.Months)*30 + int64(v.Iv.Days) + v.Iv.Micros/day
			rem := v.Iv.Micros % day
			if rem < 0 {
				rem += day
				days--
			}
			s = fmt.Sprintf("iv:%d:%d", days, rem)
		}
	}
	return s
}
