package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/commands"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgcopy"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

var _ wire.ExtendedSession = (*session)(nil)

// preparedStmt is a statement prepared by Parse or by PREPARE
// (prepare.go); both live in the connection's statement table.
type preparedStmt struct {
	s          *session
	raw        *sql.RawStatement // nil for an empty query string
	paramTypes []types.Type
	bound      sql.Statement // as bound at Parse, for Describe
	cols       []wire.ColumnDesc
	// text, created and fromSQL are what pg_prepared_statements shows.
	text    string
	created time.Time
	fromSQL bool
	// cache is the last Execute's binding, for the next (plancache.go).
	cache *bindCache
}

// Prepare implements wire.ExtendedSession. Parse starts the extended
// protocol's implicit transaction, as in PostgreSQL; an error here ends
// it (or fails the block).
func (s *session) Prepare(query string, paramOIDs []uint32) (wire.PreparedStatement, error) {
	if _, err := s.fire(evExtStmt, nil); err != nil {
		return nil, err
	}
	ps, err := s.prepareStmt(query, paramOIDs)
	if err != nil {
		_, _ = s.fire(evStmtErr, nil)
		return nil, err
	}
	return ps, nil
}

func (s *session) prepareStmt(query string, paramOIDs []uint32) (*preparedStmt, error) {
	raws, err := sql.Parse(query)
	if err != nil {
		return nil, err
	}
	if len(raws) > 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	if len(raws) == 0 {
		return &preparedStmt{s: s, text: query, created: time.Now()}, nil
	}
	pts := make([]types.Type, len(paramOIDs))
	for i, oid := range paramOIDs {
		if pts[i], _, err = types.TypeForParamOID(oid); err != nil {
			return nil, err
		}
	}
	ps, bound, err := s.prepareRaw(raws[0], pts, s.catalogOf(s.sharedTxn()))
	if s.fsm.state == stFailedBlock && (err != nil || !endsFailedBlock(bound)) {
		return nil, errAborted()
	}
	if err != nil {
		return nil, err
	}
	ps.text = query
	return ps, nil
}

// prepareRaw binds a statement to be prepared in cat, inferring the
// parameter types pts leaves Unknown; Parse and PREPARE share it.
func (s *session) prepareRaw(raw *sql.RawStatement, pts []types.Type, cat storage.Catalog) (*preparedStmt, sql.Statement, error) {
	ps := &preparedStmt{s: s, raw: raw, created: time.Now()}
	opts := s.bindOptions(s.evalContext(), pts)
	// Bound here only to infer parameter types and describe the result;
	// Execute binds again, at its start (and only then looks up the row
	// a WHERE CURRENT OF cursor is on).
	opts.CurrentOf = func(string, storage.Table) (storage.RowID, error) { return 0, nil }
	bound, err := s.bind(ps.raw, cat, opts)
	if err != nil {
		return nil, bound, err
	}
	ps.bound, ps.paramTypes = bound, opts.ParamTypes
	ps.cols = statementColumns(bound)
	if x, ok := bound.(*sql.Execute); ok {
		if inner, ok := s.preparedByName(x.Name); ok {
			ps.cols = inner.cols // EXECUTE returns its statement's rows
		}
	}
	return ps, bound, nil
}

// statementColumns is the RowDescription of a bound statement (nil: no rows).
func statementColumns(st sql.Statement) []wire.ColumnDesc {
	text := func(name string) []wire.ColumnDesc {
		return []wire.ColumnDesc{{Name: name, TypeOID: types.OIDText, TypeSize: -1, TypeMod: -1}}
	}
	switch x := st.(type) {
	case *sql.Query:
		return describe(x.Plan.Columns())
	case *sql.ModifyingWith:
		return statementColumns(x.Main)
	case *sql.Explain:
		t := x.PlanType()
		return []wire.ColumnDesc{{Name: "QUERY PLAN", TypeOID: t.OID(), TypeSize: t.Size(), TypeMod: -1}}
	case *sql.Insert:
		return describeReturning(x.Returning)
	case *sql.Update:
		return describeReturning(x.Returning)
	case *sql.Delete:
		return describeReturning(x.Returning)
	case *sql.Show:
		if x.Name == "all" {
			return append(append(text("name"), text("setting")...), text("description")...)
		}
		return text(showColumn(x.Name))
	}
	return nil
}

// describeReturning is the RowDescription of a RETURNING list (nil: none).
func describeReturning(cols []plan.Column) []wire.ColumnDesc {
	if cols == nil {
		return nil
	}
	return describe(cols)
}

func (p *preparedStmt) ParamOIDs() []uint32 {
	out := make([]uint32, len(p.paramTypes))
	for i, t := range p.paramTypes {
		out[i] = t.OID()
	}
	return out
}

func (p *preparedStmt) Columns() []wire.ColumnDesc { return p.cols }

func (p *preparedStmt) Close() {}

// Bind implements wire.PreparedStatement; a bad parameter value fails
// the transaction like a statement.
func (p *preparedStmt) Bind(params [][]byte, paramFormats, resultFormats []int16) (wire.Portal, error) {
	if _, err := p.s.fire(evExtStmt, nil); err != nil {
		return nil, err
	}
	pt, err := p.bind(params, paramFormats, resultFormats)
	if err != nil {
		_, _ = p.s.fire(evStmtErr, nil)
		return nil, err
	}
	return pt, nil
}

func (p *preparedStmt) bind(params [][]byte, paramFormats, resultFormats []int16) (*portal, error) {
	s := p.s
	pt := &portal{s: s, ps: p}
	if p.raw == nil {
		return pt, nil
	}
	f := s.format()
	now := time.Now()
	// A reg* parameter given by name ($1::regtype, psycopg's
	// TypeInfo.fetch) is read against the catalog the statement binds in.
	for i, t := range p.paramTypes {
		if i < len(params) && params[i] != nil && types.IsRegKind(t.ID) && s.cur == nil {
			if cat, ok := s.bindCatalog().(*commands.Catalog); ok {
				s.cur = cat
				defer func() { s.cur = nil }()
			}
			break
		}
	}
	pt.params = make([]types.Value, len(params))
	for i, b := range params {
		v, err := pgcopy.DecodeParam(i, b, paramFormats[i], p.paramTypes[i], f, now)
		if err != nil {
			return nil, err
		}
		pt.params[i] = v
	}
	cols := p.cols
	if f, ok := p.bound.(*sql.Fetch); ok && cols == nil && !f.Move {
		// FETCH returns its cursor's rows: Describe of the portal names
		// them (libpq's PQsendQueryParams describes every portal it runs).
		if c, err := s.lookupCursor(f.Name); err == nil {
			cols = c.describe()
		}
	}
	if cols != nil {
		pt.cols = make([]wire.ColumnDesc, len(cols))
		copy(pt.cols, cols)
		for i := range pt.cols {
			if i < len(resultFormats) {
				pt.cols[i].Format = resultFormats[i]
			}
		}
	}
	return pt, nil
}

// portal is a bound statement. It is bound again at its first Execute, in
// the transaction it runs in, so it sees the catalog as it is then. A query
// run with a row limit keeps its stream (and implicit transaction) open
// between Execute messages.
type portal struct {
	s      *session
	ps     *preparedStmt
	params []types.Value
	cols   []wire.ColumnDesc

	started bool
	done    bool
	q       *sql.Query
	ectx    *types.EvalContext
	txn     *storage.Txn // the shared transaction it reads
	stream  operators.Stream
	cancel  context.CancelFunc
	rec     arrow.Record
	row     int
	enc     *pgcopy.RowEncoder
	// statStart and sent are the query's start and rows sent over all
	// its Executes (pg_stat_statements, stats.go).
	statStart time.Time
	sent      int64
}

func (p *portal) Columns() []wire.ColumnDesc { return p.cols }

// resultFormats are the portal's result formats, one per column.
func (p *portal) resultFormats() []int16 {
	out := make([]int16, len(p.cols))
	for i, c := range p.cols {
		out[i] = c.Format
	}
	return out
}

// Close implements wire.Portal: a suspended query ends; its transaction
// goes on (a block's, or the pipeline's until Sync).
func (p *portal) Close() {
	p.stopStream()
	p.txn = nil
}

func (p *portal) stopStream() {
	if p.stream != nil {
		p.stream.Close()
		p.stream = nil
	}
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// finish ends the query after its last row or an error: StmtOK or
// StmtErr.
func (p *portal) finish(ctx context.Context, err error) error {
	p.stopStream()
	p.done = true
	if p.txn == nil {
		return err
	}
	p.txn = nil
	a := &txArgs{ctx: ctx}
	if err != nil {
		_, _ = p.s.fire(evStmtErr, a)
		return err
	}
	_, err = p.s.fire(evStmtOK, a)
	return err
}

// Execute implements wire.Portal.
func (p *portal) Execute(ctx context.Context, maxRows int, w wire.ResultWriter) (string, bool, error) {
	s := p.s
	if p.ps.raw == nil {
		return "", false, nil
	}
	if !p.started {
		p.started = true
		p.statStart = s.beginStatementStats()
		if _, err := s.fire(evExtStmt, nil); err != nil {
			return "", false, err
		}
		ectx := s.evalContext()
		opts := s.bindOptions(ectx, append([]types.Type(nil), p.ps.paramTypes...))
		cat := s.bindCatalog()
		var bound sql.Statement
		var bindErr error
		if q := p.ps.cachedBind(txnOf(cat), p.ps.paramTypes); q != nil {
			bound = q
		} else {
			bound, bindErr = s.bind(p.ps.raw, cat, opts)
			s.stmtPerms = opts.Perms
			if bindErr == nil {
				bindErr = p.ps.sameResult(bound)
			}
			if q, ok := bound.(*sql.Query); ok && bindErr == nil {
				p.ps.keepBind(txnOf(cat), q, p.ps.paramTypes)
			}
		}
		q, isQuery := bound.(*sql.Query)
		if !isQuery || bindErr != nil || s.fsm.state == stFailedBlock {
			p.done = true
			s.params, s.resultFormats = p.params, p.resultFormats()
			defer func() { s.params, s.resultFormats = nil, nil }()
			tag, err := s.execBound(ctx, bound, bindErr, ectx, w)
			s.finishStatement(p.ps.raw, bound, p.statStart, tag, err)
			return tag, false, err
		}
		plan.BindLimitParams(q.Plan, p.params)
		p.q, p.ectx = q, ectx
		p.txn, _ = s.statementTxn() // shared: ExtStmt left Idle
		s.beginStatementSettings()
		s.takeSnapshot(p.txn, bound, nil)
		if err := p.txn.Err(); err != nil {
			return "", false, p.finish(ctx, err)
		}
		s.cur = s.catalogOf(p.txn)
		err := s.checkPrivileges(q, q.Perms) // roles.go
		s.cur = nil
		if err != nil {
			return "", false, p.finish(ctx, err)
		}
	}
	if p.done {
		if p.q == nil {
			return "", false, pgerr.New(pgerr.FeatureNotSupported, "portal has already been run")
		}
		return "SELECT 0", false, nil
	}
	if s.fsm.state == stFailedBlock {
		return "", false, errAborted()
	}
	s.cur = s.catalogOf(p.txn)
	defer func() { s.cur = nil }()
	tctx, cancel, err := s.withStatementTimeout(ctx)
	if err != nil {
		return "", false, err
	}
	defer cancel()
	n, suspended, err := p.runQuery(tctx, p.q, maxRows, w)
	p.sent += n
	if err != nil {
		err = s.translateCancel(tctx, err)
		return "", false, p.finish(ctx, err)
	}
	if suspended {
		return "", true, nil
	}
	if err := p.finish(ctx, nil); err != nil {
		return "", false, err
	}
	s.finishStatement(p.ps.raw, p.q, p.statStart, fmt.Sprintf("SELECT %d", p.sent), nil)
	return fmt.Sprintf("SELECT %d", n), false, nil
}

// runQuery sends up to maxRows rows (0 = all) of the portal's query.
func (p *portal) runQuery(ctx context.Context, q *sql.Query, maxRows int, w wire.ResultWriter) (int64, bool, error) {
	s := p.s
	if p.enc == nil {
		s.params = p.params
		prep, _, err := s.prepare(q, p.ectx, false)
		s.params = nil
		if err != nil {
			return 0, false, err
		}
		// The stream outlives this Execute when the portal is suspended, so
		// it gets its own context; each Execute's context cancels it.
		sctx, scancel := context.WithCancel(context.WithoutCancel(ctx))
		p.cancel = scancel
		p.ectx.Ctx = sctx
		if p.stream, err = prep.q.Open(sctx); err != nil {
			return 0, false, err
		}
		p.enc = newPortalEncoder(q, p.cols, s.format())
	}
	stop := context.AfterFunc(ctx, p.cancel)
	defer stop()
	var n int64
	for maxRows <= 0 || n < int64(maxRows) {
		if p.rec == nil || p.row >= int(p.rec.NumRows()) {
			rec, err := p.stream.Next()
			if err == io.EOF {
				return n, false, nil
			}
			if err != nil {
				if ctx.Err() != nil {
					return n, false, ctx.Err()
				}
				return n, false, err
			}
			p.rec, p.row = rec, 0
			continue
		}
		if err := w.Row(p.enc.Encode(p.rec, p.row)); err != nil {
			return n, false, err
		}
		p.row++
		n++
	}
	// The limit is reached: suspended, unless the stream is exhausted
	// (PostgreSQL peeks no further either, so it also reports suspension).
	return n, true, nil
}

// newPortalEncoder encodes rows in each column's result format.
func newPortalEncoder(q *sql.Query, cols []wire.ColumnDesc, f *types.Format) *pgcopy.RowEncoder {
	pc := q.Plan.Columns()
	formats := make([]int16, len(pc))
	for i := range pc {
		if i < len(cols) {
			formats[i] = cols[i].Format
		}
	}
	return newRowEncoder(pc, formats, f)
}

// sessionInfo lets the binder answer current_setting(), current_user, ...
func (s *session) sessionInfo() *sql.SessionInfo {
	return &sql.SessionInfo{
		User:        s.sessionUser(),
		Database:    s.database,
		CurrentRole: s.currentRoleName(), Role: s.currentRole(), SessionRole: s.sessionRole(),
		Settings: s.settings,
		Objects:  sessionObjects{s},
		Activity: s.eng.opts.Activity, BackendPID: s.pid,
		Stats: s.eng.opts.Stats, FileDirs: s.eng.opts.CopyDirs,
	}
}

// bindOptions are a statement's binding options: the session, its
// prepared statements (for EXECUTE) and the parameter types pts.
func (s *session) bindOptions(ectx *types.EvalContext, pts []types.Type) *sql.BindOptions {
	return &sql.BindOptions{ParamTypes: pts, EvalContext: ectx, Session: s.sessionInfo(), Prepared: s.preparedParams,
		CurrentOf: s.currentOf}
}

// deallocStmt is DEALLOCATE, which wire runs (it owns prepared statements).
type deallocStmt struct {
	statement
	name string
	all  bool
}

func (d *deallocStmt) Deallocate() (string, bool) { return d.name, d.all }

// wrapStatement makes the wire.Statement of a parsed statement.
func wrapStatement(r *sql.RawStatement) wire.Statement {
	if d := r.AST().GetDeallocateStmt(); d != nil {
		return &deallocStmt{statement: statement{raw: r}, name: d.Name, all: d.Name == ""}
	}
	return &statement{raw: r}
}

// SQL implements wire.QueryText: the statement's text, which
// pg_stat_activity shows while the portal runs.
func (p *portal) SQL() string { return p.ps.text }
