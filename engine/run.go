package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/executor"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgcopy"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// run executes one bound statement and returns its command tag.
func (s *session) run(ctx context.Context, st sql.Statement, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if err := s.readOnlyErr(st); err != nil {
		return "", err
	}
	switch x := st.(type) {
	case *sql.Query:
		n, err := s.runQuery(ctx, x, ectx, w)
		return fmt.Sprintf("SELECT %d", n), err
	case *sql.Explain:
		return "EXPLAIN", s.explain(ctx, x, ectx, w)
	case *sql.CreateTable:
		return s.createTable(ctx, x, w)
	case *sql.CreateTableAs:
		return s.createTableAs(ctx, x, ectx, w)
	case *sql.DropTable:
		return s.dropTable(ctx, x, w)
	case *sql.CreateView:
		return s.createView(ctx, x)
	case *sql.DropView:
		return s.dropView(ctx, x, w)
	case *sql.Insert:
		return s.insert(ctx, x, ectx)
	case *sql.Copy:
		return s.copyStmt(ctx, x, ectx, w)
	case *sql.Truncate:
		return "TRUNCATE TABLE", s.cur.Truncate(ctx, x.Tables)
	case *sql.Set:
		return s.set(x, w)
	case *sql.Show:
		return "SHOW", s.show(x, w)
	case *sql.Discard:
		if x.What == "ALL" && s.fsm.state.inTransactionBlock() {
			return "", pgerr.New("25001", "DISCARD ALL cannot run inside a transaction block")
		}
		if x.What == "ALL" || x.What == "TEMP" {
			if err := s.discardTemp(ctx); err != nil {
				return "", err
			}
		}
		if x.What == "ALL" {
			s.settings.ResetAll()
		}
		return "DISCARD " + strings.ToUpper(x.What), nil
	case *sql.NoOp:
		return x.Tag, nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "statement type %T is not supported", st)
}

// prepared is a query planned and built into operators by the executor.
type prepared struct {
	q  *executor.Query
	op operators.Operator // q.Op: the root, one partition
}

// prepare plans q and builds its operators.
func (s *session) prepare(q *sql.Query, ectx *types.EvalContext, instrument bool) (*prepared, *operators.Env, error) {
	return s.prepareWith(q, ectx, instrument, 0)
}

// prepareWith is prepare with the partition count overridden (partitions >
// 0); COPY table TO uses 1 so rows leave in storage order, as PostgreSQL's
// do.
func (s *session) prepareWith(q *sql.Query, ectx *types.EvalContext, instrument bool, partitions int) (*prepared, *operators.Env, error) {
	env := &operators.Env{Eval: ectx, BatchSize: s.eng.opts.BatchSize, Params: s.params}
	opts := s.planOptions(ectx)
	if partitions > 0 {
		opts.Partitions = partitions
	}
	eq, err := executor.Prepare(q.Plan, q.IDs, env, executor.Config{PlanOptions: opts, MemoryLimit: s.eng.opts.MemoryLimit, Instrument: instrument})
	if err != nil {
		return nil, nil, err
	}
	return &prepared{q: eq, op: eq.Op}, env, nil
}

func (s *session) planOptions(ectx *types.EvalContext) optimizer.Options {
	return optimizer.Options{
		Partitions:         s.eng.opts.Partitions,
		CollectLeftMaxRows: 4 << 20,
		JoinMode:           s.settings.Get("joind.join_mode"),
		Eval:               ectx,
	}
}

// runQuery streams a query's rows to w and returns how many were sent.
func (s *session) runQuery(ctx context.Context, q *sql.Query, ectx *types.EvalContext, w wire.ResultWriter) (int64, error) {
	p, _, err := s.prepare(q, ectx, false)
	if err != nil {
		return 0, err
	}
	cols := q.Plan.Columns()
	if err := w.Describe(describe(cols)); err != nil {
		return 0, err
	}
	enc := newRowEncoder(cols, s.format())
	var n int64
	err = forEachBatch(ctx, p.op, func(rec arrow.Record) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := w.Row(enc.encode(rec, i)); err != nil {
				return err
			}
		}
		n += rec.NumRows()
		return nil
	})
	return n, err
}

// forEachBatch runs a plan's root operator to completion, calling f on each
// batch in order.
func forEachBatch(ctx context.Context, op operators.Operator, f func(arrow.Record) error) error {
	return executor.ForEachBatch(ctx, op, f)
}

// collect runs q and returns all its batches.
func (s *session) collect(ctx context.Context, q *sql.Query, ectx *types.EvalContext) ([]arrow.Record, error) {
	p, _, err := s.prepare(q, ectx, false)
	if err != nil {
		return nil, err
	}
	var out []arrow.Record
	err = forEachBatch(ctx, p.op, func(rec arrow.Record) error {
		out = append(out, rec)
		return nil
	})
	return out, err
}

func describe(cols []plan.Column) []wire.ColumnDesc {
	out := make([]wire.ColumnDesc, len(cols))
	for i, c := range cols {
		out[i] = wire.ColumnDesc{Name: c.Name, TypeOID: c.Type.OID(), TypeSize: c.Type.Size(), TypeMod: c.Type.Typmod,
			TableOID: c.TableOID, AttrNum: c.AttNum}
	}
	return out
}

// rowEncoder turns rows of a batch into DataRow values: text format, or per
// column binary (formats[c] == 1) for extended-protocol portals.
type rowEncoder struct {
	formats []int16 // nil: all text
	types   []types.Type
	f       *types.Format
	vals    [][]byte
	buf     []byte
}

func newRowEncoder(cols []plan.Column, f *types.Format) *rowEncoder {
	// buf starts non-nil: slicing a nil buffer yields nil, which the wire
	// sends as NULL, so a row of empty strings would arrive as NULLs.
	e := &rowEncoder{f: f, vals: make([][]byte, len(cols)), buf: make([]byte, 0, 256)}
	for _, c := range cols {
		e.types = append(e.types, c.Type)
	}
	return e
}

// encode returns row i of rec; the result is valid until the next call.
func (e *rowEncoder) encode(rec arrow.Record, i int) [][]byte {
	e.buf = e.buf[:0]
	ends := make([]int, len(e.types))
	for c, t := range e.types {
		v := types.GetValue(rec.Column(c), t, i)
		if v.Null {
			ends[c] = -1
			continue
		}
		if e.formats != nil && e.formats[c] == 1 {
			e.buf = pgcopy.AppendBinary(e.buf, v, t)
		} else {
			e.buf = types.FormatText(e.buf, v, t, e.f)
		}
		ends[c] = len(e.buf)
	}
	start := 0
	for c := range e.types {
		if ends[c] < 0 {
			e.vals[c] = nil
			continue
		}
		e.vals[c] = e.buf[start:ends[c]:ends[c]]
		start = ends[c]
	}
	return e.vals
}

func (s *session) explain(ctx context.Context, x *sql.Explain, ectx *types.EvalContext, w wire.ResultWriter) error {
	p, _, err := s.prepare(x.Query, ectx, x.Analyze)
	if err != nil {
		return err
	}
	if x.Analyze {
		if err := p.q.Run(ctx, func(arrow.Record) error { return nil }); err != nil {
			return err
		}
	}
	if err := w.Describe([]wire.ColumnDesc{{Name: "QUERY PLAN", TypeOID: types.OIDText, TypeSize: -1, TypeMod: -1}}); err != nil {
		return err
	}
	for _, line := range p.q.Explain() {
		if err := w.Row([][]byte{[]byte(line)}); err != nil {
			return err
		}
	}
	return nil
}

func (s *session) createTable(ctx context.Context, x *sql.CreateTable, w wire.ResultWriter) (string, error) {
	if s.relationExists(x.Name, x.Temp) && x.IfNotExists {
		return "CREATE TABLE", w.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
			Message: fmt.Sprintf("relation %q already exists, skipping", x.Name)})
	}
	_, err := s.createIn(ctx, x.Name, x.Columns, x.Temp, x.OnCommit)
	return "CREATE TABLE", err
}

// relationExists reports whether the schema a new table goes to (pg_temp
// or public) has a relation of that name.
func (s *session) relationExists(name string, temp bool) bool {
	if temp {
		_, ok := s.cur.LookupIn("pg_temp", name)
		return ok
	}
	_, ok := s.cur.LookupIn("public", name)
	return ok
}

// createIn creates a permanent or a temporary table.
func (s *session) createIn(ctx context.Context, name string, cols []storage.ColumnDef, temp bool, oc sql.OnCommit) (storage.Table, error) {
	if temp {
		return s.createTemp(ctx, name, cols, oc)
	}
	return s.cur.Create(ctx, name, cols)
}

func (s *session) createTableAs(ctx context.Context, x *sql.CreateTableAs, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if s.relationExists(x.Name, x.Temp) {
		if x.IfNotExists {
			return "CREATE TABLE AS", w.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
				Message: fmt.Sprintf("relation %q already exists, skipping", x.Name)})
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation %q already exists", x.Name)
	}
	var recs []arrow.Record
	if !x.WithNoData {
		var err error
		if recs, err = s.collect(ctx, x.Query, ectx); err != nil {
			return "", err
		}
	}
	t, err := s.createIn(ctx, x.Name, x.Columns, x.Temp, x.OnCommit)
	if err != nil {
		return "", err
	}
	if x.WithNoData {
		return "CREATE TABLE AS", nil
	}
	n, err := s.appendRecords(ctx, t, recs)
	if err != nil {
		// The statement's transaction is discarded: no table is left behind.
		return "", err
	}
	return fmt.Sprintf("SELECT %d", n), nil
}

func (s *session) dropTable(ctx context.Context, x *sql.DropTable, w wire.ResultWriter) (string, error) {
	// Each name goes to the schema it names, or the first on the search
	// path that has it: pg_temp, then public.
	type target struct {
		name string
		temp bool
	}
	var present []target
	var permanent []string
	for i, name := range x.Names {
		schema := ""
		if i < len(x.Schemas) {
			schema = x.Schemas[i]
		}
		_, isTemp := s.cur.LookupIn("pg_temp", name)
		if schema == "public" || schema == "pg_catalog" || (schema == "" && !isTemp) {
			if err := notATable(s.cur.Txn, name); err != nil {
				return "", err
			}
		}
		if isTemp && schema != "public" && schema != "pg_catalog" {
			present = append(present, target{name, true})
			continue
		}
		if schema != "pg_temp" {
			if _, ok := s.cur.LookupIn("public", name); ok {
				present = append(present, target{name, false})
				permanent = append(permanent, name)
				continue
			}
		}
		if !x.IfExists {
			return "", pgerr.New(pgerr.UndefinedTable, "table %q does not exist", name)
		}
		if err := w.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("table %q does not exist, skipping", name)}); err != nil {
			return "", err
		}
	}
	// Views depend on permanent tables only.
	if err := s.dropDependents(ctx, w, "table", permanent, x.Cascade); err != nil {
		return "", err
	}
	for _, t := range present {
		var err error
		if t.temp {
			err = s.temp.current().Drop(ctx, t.name)
		} else {
			err = s.cur.Txn.Drop(ctx, t.name)
		}
		if err != nil {
			return "", err
		}
	}
	return "DROP TABLE", nil
}

func (s *session) insert(ctx context.Context, x *sql.Insert, ectx *types.EvalContext) (string, error) {
	recs, err := s.collect(ctx, x.Source, ectx)
	if err != nil {
		return "", err
	}
	n, err := s.appendRecords(ctx, x.Table, recs)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("INSERT 0 %d", n), nil
}

// appendRecords checks NOT NULL constraints and appends the rows as one
// batch, so the statement lands whole or not at all.
func (s *session) appendRecords(ctx context.Context, t storage.Table, recs []arrow.Record) (int64, error) {
	defs := t.Columns()
	var total int64
	for _, r := range recs {
		total += r.NumRows()
		for c, d := range defs {
			if d.NotNull && r.Column(c).NullN() > 0 {
				return 0, s.notNullViolation(t, r, c)
			}
		}
	}
	if total == 0 {
		return 0, nil
	}
	cols := make([]arrow.Array, len(defs))
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: !d.NotNull}
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		if len(parts) == 1 {
			cols[c] = parts[0]
			continue
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return 0, pgerr.Wrap(err, pgerr.InternalError, "concatenating inserted rows: %v", err)
		}
		cols[c] = a
	}
	batch := array.NewRecord(arrow.NewSchema(fields, nil), cols, total)
	if err := s.cur.Append(ctx, t, batch); err != nil {
		return 0, err
	}
	return total, nil
}

// notNullViolation builds PostgreSQL's 23502 error for the first offending row.
func (s *session) notNullViolation(t storage.Table, r arrow.Record, col int) error {
	defs := t.Columns()
	row := 0
	for i := 0; i < int(r.NumRows()); i++ {
		if r.Column(col).IsNull(i) {
			row = i
			break
		}
	}
	f := s.format()
	vals := make([]string, len(defs))
	for c, d := range defs {
		v := types.GetValue(r.Column(c), d.Type, row)
		if v.Null {
			vals[c] = "null"
		} else {
			vals[c] = string(types.FormatText(nil, v, d.Type, f))
		}
	}
	return pgerr.New(pgerr.NotNullViolation, "null value in column %q of relation %q violates not-null constraint",
		defs[col].Name, t.Name()).WithDetail("Failing row contains (%s).", strings.Join(vals, ", "))
}

// readOnlyErr refuses a statement that writes in a read-only transaction
// (transaction_read_only on), as PostgreSQL: writing rows to a temporary
// table is allowed, any DDL is not.
func (s *session) readOnlyErr(st sql.Statement) error {
	if s.settings.Get("transaction_read_only") != "on" {
		return nil
	}
	var what string
	switch x := st.(type) {
	case *sql.CreateTable:
		what = "CREATE TABLE"
	case *sql.CreateTableAs:
		what = "CREATE TABLE AS"
	case *sql.DropTable:
		what = "DROP TABLE"
	case *sql.CreateView:
		what = "CREATE VIEW"
	case *sql.DropView:
		what = "DROP VIEW"
	case *sql.Truncate:
		what = "TRUNCATE TABLE"
	case *sql.Insert:
		if !s.cur.IsTemp(x.Table) {
			what = "INSERT"
		}
	case *sql.Copy:
		if x.From && !s.cur.IsTemp(x.Table) {
			what = "COPY FROM"
		}
	}
	if what == "" {
		return nil
	}
	return pgerr.New("25006", "cannot execute %s in a read-only transaction", what)
}
