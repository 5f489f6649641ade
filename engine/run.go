package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/executor"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgcopy"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// run executes one bound statement and returns its command tag.
func (s *session) run(ctx context.Context, st sql.Statement, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	ectx.Ctx = ctx // pg_sleep ends when the statement is cancelled
	if err := s.readOnlyErr(st); err != nil {
		return "", err
	}
	switch x := st.(type) {
	case *sql.Query:
		n, err := s.runQuery(ctx, x, ectx, w)
		return fmt.Sprintf("SELECT %d", n), err
	case *sql.ModifyingWith:
		return s.runModifyingWith(ctx, x, ectx, w)
	case *sql.Explain:
		return "EXPLAIN", s.explain(ctx, x, ectx, w)
	case *sql.Copy:
		return s.copyStmt(ctx, x, ectx, w)
	case *sql.Set:
		return s.set(x, w)
	case *sql.SetRole:
		return s.setRole(x, w) // roles.go
	case *sql.Show:
		return "SHOW", s.show(x, w)
	case *sql.Discard:
		return s.discard(ctx, x)
	case *sql.Checkpoint:
		return s.checkpoint()
	case *sql.DeclareCursor:
		return s.declareCursor(ctx, x, ectx)
	case *sql.Fetch:
		return s.fetch(ctx, x, w)
	case *sql.ClosePortal:
		return s.closeCursors(x)
	case *sql.Prepare:
		return s.prepareSQL(x)
	case *sql.Execute:
		return s.executeSQL(ctx, x, ectx, w)
	case *sql.NoOp:
		if x.Notice != nil {
			if err := w.Notice(x.Notice); err != nil {
				return "", err
			}
		}
		return x.Tag, nil
	case *sql.Analyze:
		if x.Vacuum && s.fsm.state.inTransactionBlock() {
			return "", pgerr.New("25001", "VACUUM cannot run inside a transaction block")
		}
	case *sql.SetConstraints:
		if !s.fsm.state.inTransactionBlock() {
			if err := w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25P01", Message: "SET CONSTRAINTS can only be used in transaction blocks"}); err != nil {
				return "", err
			}
		}
	case *sql.CreateIndex:
		if x.Concurrently && s.fsm.state.inTransactionBlock() {
			return "", pgerr.New("25001", "CREATE INDEX CONCURRENTLY cannot run inside a transaction block")
		}
	}
	if tag, ok, err := s.executeRestarting(ctx, st, ectx, w); ok {
		return tag, err
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
	limit := s.memoryLimit()
	env := &operators.Env{Eval: ectx, BatchSize: s.eng.opts.BatchSize, Params: s.params, Spill: spill.NewSpace(s.eng.spillDir, limit),
		Scans: s.scanRecorder()}
	opts := s.planOptions(ectx)
	if partitions > 0 {
		opts.Partitions = partitions
	}
	eq, err := executor.Prepare(q.Plan, q.IDs, env, executor.Config{PlanOptions: opts, MemoryLimit: limit, Instrument: instrument})
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
	explainAfter := s.autoExplainMin()
	p, _, err := s.prepare(q, ectx, explainAfter >= 0)
	if err != nil {
		return 0, err
	}
	if explainAfter >= 0 {
		defer s.autoExplain(p, time.Now(), explainAfter)
	}
	cols := q.Plan.Columns()
	if err := w.Describe(describe(cols)); err != nil {
		return 0, err
	}
	enc := newRowEncoder(cols, nil, s.format())
	var n int64
	err = forEachBatch(ctx, p.op, func(rec arrow.Record) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := w.Row(enc.Encode(rec, i)); err != nil {
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
		out[i] = wire.ColumnDesc{Name: c.Name, TypeOID: c.Type.OID(), TypeSize: c.Type.Size(), TypeMod: c.Type.WireTypmod(),
			TableOID: c.TableOID, AttrNum: c.AttNum}
	}
	return out
}

func (s *session) explain(ctx context.Context, x *sql.Explain, ectx *types.EvalContext, w wire.ResultWriter) error {
	if x.DML != nil {
		return s.explainDML(ctx, x, ectx, w) // explaindml.go
	}
	p, _, err := s.prepare(x.Query, ectx, x.Analyze)
	if err != nil {
		return err
	}
	if x.Analyze {
		if err := p.q.Run(ctx, func(arrow.Record) error { return nil }); err != nil {
			return err
		}
	}
	if x.Format != "" {
		doc := optimizer.FormatExplain(p.q.ExplainTree(), x.Format, x.Costs)
		return sendPlanAs(w, x.PlanType(), []string{doc})
	}
	return sendPlan(w, p.q.Explain())
}

// newRowEncoder encodes rows of the given columns in formats (nil: text).
func newRowEncoder(cols []plan.Column, formats []int16, f *types.Format) *pgcopy.RowEncoder {
	ts := make([]types.Type, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	return pgcopy.NewRowEncoder(ts, formats, f)
}
