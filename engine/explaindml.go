package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// EXPLAIN [ANALYZE] of INSERT, UPDATE, DELETE and MERGE. The top node is
// the statement's target ("Update on t"); below it the plan of the query
// producing its rows. ANALYZE runs the statement through its command, as
// PostgreSQL does (the changes are made, and roll back with the
// transaction), and shows that query's plan with the actuals it ran with:
// the command's Collect of that query prepares it instrumented and keeps it
// (explainCapture).

// explainCapture is, while EXPLAIN ANALYZE runs a data-modifying statement,
// the query producing its rows and, once the command ran it, its
// instrumented plan.
type explainCapture struct {
	source *sql.Query
	ran    *prepared
}

func (s *session) explainDML(ctx context.Context, x *sql.Explain, ectx *types.EvalContext, w wire.ResultWriter) error {
	var p *prepared
	title := x.DML.Title
	if x.Analyze {
		if err := s.readOnlyErr(x.DML.Stmt); err != nil {
			return err
		}
		capture := &explainCapture{source: x.Query}
		s.explaining = capture
		out := &noticesOnly{w: w}
		start := time.Now()
		_, ok, err := s.executeRestarting(ctx, x.DML.Stmt, ectx, out)
		elapsed := time.Since(start)
		s.explaining = nil
		if err != nil {
			return err
		}
		if !ok || capture.ran == nil {
			return pgerr.New(pgerr.InternalError, "EXPLAIN ANALYZE: %T ran no query", x.DML.Stmt)
		}
		p = capture.ran
		// PostgreSQL's ModifyTable counts the rows it returns (RETURNING).
		title += fmt.Sprintf("  (actual rows=%d time=%.3f ms)", out.rows, float64(elapsed.Microseconds())/1000)
	} else {
		var err error
		if p, _, err = s.prepare(x.Query, ectx, false); err != nil {
			return err
		}
	}
	return sendPlan(w, optimizer.ExplainUnder(title, x.DML.Details, p.q.Explain()))
}

// collectExplained is Collect of the query EXPLAIN ANALYZE's statement
// modifies rows by: run instrumented, its plan kept for the EXPLAIN.
func (s *session) collectExplained(ctx context.Context, q *sql.Query, ectx *types.EvalContext) ([]arrow.Record, error) {
	p, _, err := s.prepare(q, ectx, true)
	if err != nil {
		return nil, err
	}
	var out []arrow.Record
	if err := p.q.Run(ctx, func(rec arrow.Record) error {
		out = append(out, rec)
		return nil
	}); err != nil {
		return nil, err
	}
	s.explaining.ran = p
	return out, nil
}

// sendPlan sends EXPLAIN's lines as its one text column, QUERY PLAN.
func sendPlan(w wire.ResultWriter, lines []string) error { return sendPlanAs(w, types.TextType, lines) }

// sendPlanAs sends EXPLAIN's lines as its one QUERY PLAN column of type t.
func sendPlanAs(w wire.ResultWriter, t types.Type, lines []string) error {
	if err := w.Describe([]wire.ColumnDesc{{Name: "QUERY PLAN", TypeOID: t.OID(), TypeSize: t.Size(), TypeMod: -1}}); err != nil {
		return err
	}
	for _, line := range lines {
		if err := w.Row([][]byte{[]byte(line)}); err != nil {
			return err
		}
	}
	return nil
}

// noticesOnly passes a command's notices to the client and counts its rows
// instead of sending them: EXPLAIN ANALYZE of a statement with RETURNING
// returns only the plan.
type noticesOnly struct {
	w    wire.ResultWriter
	rows int64
}

func (n *noticesOnly) Describe([]wire.ColumnDesc) error { return nil }
func (n *noticesOnly) Row([][]byte) error               { n.rows++; return nil }
func (n *noticesOnly) Notice(e *pgerr.Error) error      { return n.w.Notice(e) }
