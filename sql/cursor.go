package sql

import (
	"math"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The binding of SQL-level cursors and prepared statements: DECLARE,
// FETCH / MOVE, CLOSE, PREPARE, EXECUTE and CHECKPOINT. The engine keeps
// the cursors and statements (they live in the connection's portal and
// statement tables, shared with the extended protocol).

// DeclareCursor is DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO]
// SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query.
type DeclareCursor struct {
	Name   string
	Query  *Query
	Binary bool
	// Scroll and NoScroll are as written; neither: the engine decides as
	// PostgreSQL does (ScrollByDefault).
	Scroll, NoScroll bool
	Hold             bool
	// SQL is the text PostgreSQL shows in pg_cursors: the whole query
	// string the statement came from.
	SQL string
	// ForUpdate: SELECT ... FOR [NO KEY] UPDATE over one stored table;
	// the cursor locks each row as it reads it.
	ForUpdate bool
}

// FetchDirection is FETCH's direction, as PostgreSQL's FetchDirection.
type FetchDirection uint8

const (
	FetchForward FetchDirection = iota
	FetchBackward
	FetchAbsolute
	FetchRelative
)

// FetchAll is FETCH's count for ALL (PostgreSQL's FETCH_ALL, LONG_MAX).
const FetchAll = math.MaxInt64

// Fetch is FETCH / MOVE [direction] [FROM | IN] name.
type Fetch struct {
	Name      string
	Direction FetchDirection
	Count     int64 // FetchAll for ALL
	Move      bool
}

// ClosePortal is CLOSE name | ALL.
type ClosePortal struct {
	Name string
	All  bool
}

// Prepare is PREPARE name [(types)] AS statement. The statement is bound
// by the engine when it is prepared (with ParamTypes, Unknown where not
// given) and again at each EXECUTE.
type Prepare struct {
	Name       string
	ParamTypes []types.Type
	Stmt       *RawStatement
}

// Execute is EXECUTE name [(args)]: Args is a one-row query of the
// arguments, already coerced to the statement's parameter types.
type Execute struct {
	Name string
	Args *Query
}

// Checkpoint is CHECKPOINT.
type Checkpoint struct{}

func (*DeclareCursor) statement() {}
func (*Fetch) statement()         {}
func (*ClosePortal) statement()   {}
func (*Prepare) statement()       {}
func (*Execute) statement()       {}
func (*Checkpoint) statement()    {}

// CurrentOfLookup gives WHERE CURRENT OF the RowID of the row a cursor is
// on, in table t, or PostgreSQL's error (execCurrentOf).
type CurrentOfLookup func(cursor string, t storage.Table) (storage.RowID, error)

// bindCurrentOf binds UPDATE/DELETE ... WHERE CURRENT OF cursor as a
// filter keeping the target row the cursor is on.
func (b *binder) bindCurrentOf(input plan.Node, t *dmlTarget, c *pg_query.CurrentOfExpr) (plan.Node, error) {
	if b.opts.CurrentOf == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF is not supported")
	}
	rid, err := b.opts.CurrentOf(c.CursorName, t.table)
	if err != nil {
		return nil, err
	}
	pred, err := b.operator("=", &plan.ColRef{ID: t.rowID.ID, T: types.Int8Type, Name: t.rowID.Name},
		&plan.Const{Val: types.IntValue(int64(rid)), T: types.Int8Type}, -1)
	if err != nil {
		return nil, err
	}
	return &plan.Filter{Input: input, Pred: pred}, nil
}

// PreparedLookup gives EXECUTE the parameter types of a prepared
// statement; ok is false when there is no statement of that name.
type PreparedLookup func(name string) (params []types.Type, ok bool)

// PostgreSQL's cursor option bits (parsenodes.h).
const (
	cursorOptBinary      = 0x0001
	cursorOptScroll      = 0x0002
	cursorOptNoScroll    = 0x0004
	cursorOptInsensitive = 0x0008
	cursorOptHold        = 0x0020
)

func (b *binder) bindDeclareCursor(d *pg_query.DeclareCursorStmt) (Statement, error) {
	sel := d.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR must be a SELECT")
	}
	o := d.Options
	if o&cursorOptScroll != 0 && o&cursorOptNoScroll != 0 {
		return nil, pgerr.New("42P11", "cannot specify both SCROLL and NO SCROLL")
	}
	b.lockingCursor = sel
	q, err := b.bindQueryStmt(sel)
	b.lockingCursor = nil
	if err != nil {
		return nil, err
	}
	out := &DeclareCursor{Name: d.Portalname, Query: q, Binary: o&cursorOptBinary != 0,
		Scroll: o&cursorOptScroll != 0, NoScroll: o&cursorOptNoScroll != 0, Hold: o&cursorOptHold != 0,
		SQL: b.query}
	if len(sel.LockingClause) > 0 {
		// A locking cursor must be read as it goes (transformDeclareCursorStmt).
		lcs := lockingStrength(sel.LockingClause[0].GetLockingClause().GetStrength())
		switch {
		case out.Hold:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR WITH HOLD ... %s is not supported", lcs).
				WithDetail("Holdable cursors must be READ ONLY.")
		case out.Scroll:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DECLARE SCROLL CURSOR ... %s is not supported", lcs).
				WithDetail("Scrollable cursors must be READ ONLY.")
		case o&cursorOptInsensitive != 0:
			return nil, pgerr.New("42P11", "DECLARE INSENSITIVE CURSOR ... %s is not valid", lcs).
				WithDetail("Insensitive cursors must be READ ONLY.")
		}
		out.NoScroll = true // PostgreSQL: a plan with row marks never scrolls
		if err := b.cursorLocking(q, sel.LockingClause); err != nil {
			return nil, err
		}
		out.ForUpdate = true
	}
	return out, nil
}

// cursorLocking checks that a cursor's locking clause is one joind's row
// locks implement: FOR UPDATE or FOR NO KEY UPDATE (an exclusive lock, the
// one UPDATE and DELETE take), waiting for a holder, on a cursor that
// scans one stored table (the engine locks each row as the cursor reads
// it). Shared locks, NOWAIT, SKIP LOCKED and joins are not supported.
func (b *binder) cursorLocking(q *Query, clauses []*pg_query.Node) error {
	lc := clauses[0].GetLockingClause()
	unsupported := pgerr.New(pgerr.FeatureNotSupported, "SELECT FOR UPDATE/SHARE is not supported")
	if len(clauses) > 1 || lc.WaitPolicy != pg_query.LockWaitPolicy_LockWaitBlock {
		return unsupported
	}
	switch lc.Strength {
	case pg_query.LockClauseStrength_LCS_FORUPDATE, pg_query.LockClauseStrength_LCS_FORNOKEYUPDATE:
	default:
		return unsupported
	}
	if _, _, ok := SimpleScan(q.Plan); !ok {
		return unsupported
	}
	if len(lc.LockedRels) > 0 {
		return unsupported // FOR UPDATE OF
	}
	return nil
}

// SimpleScan finds the one scan of a stored table a plan is, under
// filters, projections and LIMIT only (PostgreSQL's search_plan_tree for
// a simply updatable cursor), with the projections above it (top first).
func SimpleScan(n plan.Node) (*plan.Scan, []*plan.Project, bool) {
	var projects []*plan.Project
	for {
		switch x := n.(type) {
		case *plan.Project:
			projects = append(projects, x)
			n = x.Input
			continue
		case *plan.Filter:
			n = x.Input
			continue
		case *plan.Limit:
			n = x.Input
			continue
		}
		break
	}
	scan, ok := n.(*plan.Scan)
	if !ok {
		return nil, nil, false
	}
	if _, ok := scan.Table.(storage.Segmented); !ok {
		return nil, nil, false // only stored tables have row ids
	}
	return scan, projects, true
}

// lockingStrength is PostgreSQL's LCS_asString.
func lockingStrength(s pg_query.LockClauseStrength) string {
	switch s {
	case pg_query.LockClauseStrength_LCS_FORKEYSHARE:
		return "FOR KEY SHARE"
	case pg_query.LockClauseStrength_LCS_FORSHARE:
		return "FOR SHARE"
	case pg_query.LockClauseStrength_LCS_FORNOKEYUPDATE:
		return "FOR NO KEY UPDATE"
	}
	return "FOR UPDATE"
}

func (b *binder) bindFetch(f *pg_query.FetchStmt) (Statement, error) {
	dir := map[pg_query.FetchDirection]FetchDirection{
		pg_query.FetchDirection_FETCH_FORWARD: FetchForward, pg_query.FetchDirection_FETCH_BACKWARD: FetchBackward,
		pg_query.FetchDirection_FETCH_ABSOLUTE: FetchAbsolute, pg_query.FetchDirection_FETCH_RELATIVE: FetchRelative,
	}[f.Direction]
	return &Fetch{Name: f.Portalname, Direction: dir, Count: f.HowMany, Move: f.Ismove}, nil
}

func (b *binder) bindPrepare(p *pg_query.PrepareStmt) (Statement, error) {
	pts := make([]types.Type, len(p.Argtypes))
	for i, n := range p.Argtypes {
		t, err := b.typeFromName(n.GetTypeName())
		if err != nil {
			return nil, err
		}
		if t.ID != types.Record { // a record's typmod is its fields
			// As PrepareQuery's typenameTypeId: a parameter has no typmod,
			// so PREPARE p(varchar(2)) takes 'abc' whole.
			t.Typmod = -1
		}
		pts[i] = t
	}
	inner := &RawStatement{query: b.query, stmt: p.Query, start: 0, end: len(b.query)}
	return &Prepare{Name: p.Name, ParamTypes: pts, Stmt: inner}, nil
}

// bindExecute binds EXECUTE's arguments as PostgreSQL's EvaluateParams:
// the count must match, each is coerced to its parameter's type with
// assignment rules.
func (b *binder) bindExecute(x *pg_query.ExecuteStmt) (Statement, error) {
	var pts []types.Type
	ok := false
	if b.opts.Prepared != nil {
		pts, ok = b.opts.Prepared(x.Name)
	}
	if !ok {
		return nil, pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", x.Name)
	}
	if len(x.Params) != len(pts) {
		return nil, pgerr.New(pgerr.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", x.Name).
			WithDetail("Expected %d parameters but got %d.", len(pts), len(x.Params))
	}
	row := make([]plan.Expr, len(pts))
	cols := make([]plan.Column, len(pts))
	s := &scope{exprKind: "EXECUTE parameters"}
	for i, n := range x.Params {
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		loc := nodeLocation(n)
		from := e.Type()
		c, err := b.coerce(e, pts[i], coerceAssignment, loc)
		if err == errCannotCoerce {
			return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "parameter $%d of type %s cannot be coerced to the expected type %s",
				i+1, typeName(from), typeName(pts[i])).WithHint("You will need to rewrite or cast the expression."), loc)
		}
		if err != nil {
			return nil, err
		}
		row[i] = c
		cols[i] = plan.Column{ID: b.ids.Next(), Name: "?column?", Type: pts[i]}
	}
	return &Execute{Name: x.Name, Args: &Query{Plan: &plan.Values{Rows: [][]plan.Expr{row}, Cols: cols}, IDs: b.ids}}, nil
}
