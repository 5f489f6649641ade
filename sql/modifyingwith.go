package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// ModifyingWith is a statement whose WITH holds data-modifying statements
// (INSERT / UPDATE / DELETE [RETURNING]): each of Subs runs exactly once,
// referenced or not, in WITH order, its RETURNING rows filling its
// StatementRows; then Main runs, reading them through its CTE Scans.
//
// PostgreSQL runs every part over one snapshot, so no part sees another's
// changes. joind runs them one after another in the statement's
// transaction, where a later part would see an earlier one's changes; so
// no part may read (scan) a table an earlier part writes (0A000). Writes
// alone commute with that order: a later INSERT's rows are not seen by an
// earlier UPDATE or DELETE, as under one snapshot. (Two parts changing the
// same row is unpredictable in PostgreSQL too.)
type ModifyingWith struct {
	Subs []*ModifyingCTE
	Main Statement
}

// ModifyingCTE is one data-modifying WITH query.
type ModifyingCTE struct {
	Name string
	Stmt Statement // *Insert, *Update or *Delete
	// Rows receives the RETURNING rows (nil: the statement has none).
	Rows *plan.StatementRows
}

func (*ModifyingWith) statement() {}

// topWith is the WITH clause of a top-level statement: the only place a
// data-modifying WITH query may stand.
func topWith(n *pg_query.Node) *pg_query.WithClause {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		return x.SelectStmt.WithClause
	case *pg_query.Node_InsertStmt:
		return x.InsertStmt.WithClause
	case *pg_query.Node_UpdateStmt:
		return x.UpdateStmt.WithClause
	case *pg_query.Node_DeleteStmt:
		return x.DeleteStmt.WithClause
	}
	return nil
}

// hasModifyingCTE reports whether w holds a data-modifying WITH query.
func hasModifyingCTE(w *pg_query.WithClause) bool {
	if w == nil {
		return false
	}
	for _, n := range w.Ctes {
		if n.GetCommonTableExpr().GetCtequery().GetSelectStmt() == nil {
			return true
		}
	}
	return false
}

// defineModifyingCTE binds a data-modifying WITH query of w.
func (b *binder) defineModifyingCTE(w *pg_query.WithClause, env *cteEnv) error {
	cte := env.cte
	switch cte.Ctequery.GetNode().(type) {
	case *pg_query.Node_InsertStmt, *pg_query.Node_UpdateStmt, *pg_query.Node_DeleteStmt:
	default:
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "data-modifying statements in WITH are not supported"), cte.Location)
	}
	if w == nil || w != b.topWith {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level"), cte.Location)
	}
	saved := b.dmlCTEs
	b.dmlCTEs = env.bodyEnv
	st, err := b.bindStatement(cte.Ctequery)
	b.dmlCTEs = saved
	if err != nil {
		return err
	}
	_, _, ret := dmlParts(st)
	m := &ModifyingCTE{Name: env.name, Stmt: st}
	if ret != nil {
		m.Rows = &plan.StatementRows{Name: env.name}
		for _, c := range ret {
			c.ID = b.ids.Next()
			m.Rows.Cols = append(m.Rows.Cols, c)
			env.names = append(env.names, c.Name)
		}
		env.shared = &plan.CTE{Name: env.name, Plan: m.Rows, Materialized: true}
	}
	env.modifying = m
	b.modifying = append(b.modifying, m)
	return nil
}

// dmlScope is the top scope of an INSERT, UPDATE or DELETE: it sees the
// earlier WITH queries when it is itself a WITH query.
func (b *binder) dmlScope() *scope { return &scope{ctes: b.dmlCTEs} }

// modifyingRef checks a reference to a data-modifying WITH query.
func (b *binder) modifyingRef(env *cteEnv, loc int32) error {
	if env.modifying.Rows == nil {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "WITH query \"%s\" does not have a RETURNING clause", env.name), loc)
	}
	return nil
}

// wrapModifying makes st, whose WITH held data-modifying queries, a
// ModifyingWith, refusing parts whose tables overlap (see ModifyingWith).
func (b *binder) wrapModifying(st Statement) (Statement, error) {
	if len(b.modifying) == 0 {
		return st, nil
	}
	// The parts in the order they run: the WITH queries, then the main
	// statement. A part reading a table an earlier part wrote would see
	// that part's changes, which PostgreSQL's one snapshot hides.
	var parts []Statement
	for _, m := range b.modifying {
		parts = append(parts, m.Stmt)
	}
	parts = append(parts, st)
	written := map[string]bool{}
	for _, p := range parts {
		for t := range readTables(p) {
			if written[t] {
				return nil, overlapErr(t)
			}
		}
		if t, _, _ := dmlParts(p); t != "" {
			written[t] = true
		}
	}
	return &ModifyingWith{Subs: b.modifying, Main: st}, nil
}

func overlapErr(table string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "reading table \"%s\" after a data-modifying statement in WITH wrote it is not supported", table)
}

// dmlParts is what an INSERT, UPDATE or DELETE writes, the query of its
// rows and its RETURNING columns (zero for other statements).
func dmlParts(st Statement) (table string, source *Query, returning []plan.Column) {
	switch x := st.(type) {
	case *Insert:
		return x.Table.Name(), x.Source, x.Returning
	case *Update:
		return x.Table.Name(), x.Source, x.Returning
	case *Delete:
		return x.Table.Name(), x.Source, x.Returning
	}
	return "", nil, nil
}

// readTables is the set of tables st's query reads (scans, subqueries and
// WITH queries included).
func readTables(st Statement) map[string]bool {
	_, q, _ := dmlParts(st)
	if x, ok := st.(*Query); ok {
		q = x
	}
	out := map[string]bool{}
	if q != nil {
		scannedTables(q.Plan, out, map[*plan.CTE]bool{})
	}
	if ins, ok := st.(*Insert); ok && ins.OnConflict != nil {
		out[ins.Table.Name()] = true // its conflicts are the rows it finds there
	}
	return out
}
func scannedTables(n plan.Node, out map[string]bool, seen map[*plan.CTE]bool) {
	switch x := n.(type) {
	case *plan.Scan:
		out[x.Table.Name()] = true
	case *plan.CTEScan:
		if !seen[x.CTE] {
			seen[x.CTE] = true
			scannedTables(x.CTE.Plan, out, seen)
		}
	}
	for _, e := range n.Expressions() {
		plan.Walk(e, func(e plan.Expr) bool {
			if sq, ok := e.(*plan.Subquery); ok {
				scannedTables(sq.Plan, out, seen)
			}
			return true
		})
	}
	for _, c := range n.Children() {
		scannedTables(c, out, seen)
	}
}
