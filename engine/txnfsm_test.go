package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// fsmWriter is a ResultWriter (and CopyChannel) that keeps the warnings
// and serves copyData to COPY FROM STDIN.
type fsmWriter struct {
	warnings []string
	copyData string
}

func (w *fsmWriter) Describe([]wire.ColumnDesc) error { return nil }
func (w *fsmWriter) Row([][]byte) error               { return nil }
func (w *fsmWriter) Notice(n *pgerr.Error) error {
	w.warnings = append(w.warnings, n.Message)
	return nil
}
func (w *fsmWriter) CopyIn(int16, int) (io.Reader, error) {
	return strings.NewReader(w.copyData), nil
}
func (w *fsmWriter) CopyOut(int16, int) (io.WriteCloser, error) {
	return nil, fmt.Errorf("no copy out")
}

// outcome is what a client sees of one step.
type outcome struct {
	tag, code, warning string
}

type fsmHarness struct {
	t     *testing.T
	s     *session
	trace []txKey
	tos   []txState
}

func newFSMHarness(t *testing.T, e *Engine) *fsmHarness {
	ws, err := e.NewSession(context.Background(), map[string]string{"user": "fsm"})
	if err != nil {
		t.Fatal(err)
	}
	h := &fsmHarness{t: t, s: ws.(*session)}
	h.s.fsm.trace = func(from txState, ev txEvent, to txState) {
		h.trace = append(h.trace, txKey{from, ev})
		h.tos = append(h.tos, to)
	}
	return h
}

// exec runs one statement as the simple protocol does (Parse, Execute).
func (h *fsmHarness) exec(q string, copyData string) outcome {
	w := &fsmWriter{copyData: copyData}
	sts, err := h.s.Parse(q)
	var tag string
	if err == nil {
		if len(sts) != 1 {
			h.t.Fatalf("%q: %d statements", q, len(sts))
		}
		tag, err = h.s.Execute(context.Background(), sts[0], w)
	}
	o := outcome{tag: tag, warning: strings.Join(w.warnings, "; ")}
	if err != nil {
		o.tag, o.code = "", pgerr.Code(err)
	}
	return o
}

// must runs a statement that has to succeed (reaching a state).
func (h *fsmHarness) must(q string) {
	if o := h.exec(q, ""); o.code != "" {
		h.t.Fatalf("%q: SQLSTATE %s", q, o.code)
	}
}

// ext runs one statement through the extended protocol (Parse, Bind,
// Execute), without Sync.
func (h *fsmHarness) ext(q string) outcome {
	ps, err := h.s.Prepare(q, nil)
	if err != nil {
		return errOutcome(err)
	}
	p, err := ps.Bind(nil, nil, nil)
	if err != nil {
		return errOutcome(err)
	}
	w := &fsmWriter{}
	tag, _, err := p.Execute(context.Background(), 0, w)
	if err != nil {
		return errOutcome(err)
	}
	return outcome{tag: tag, warning: strings.Join(w.warnings, "; ")}
}

func errOutcome(err error) outcome {
	if err == nil {
		return outcome{}
	}
	return outcome{code: pgerr.Code(err)}
}

// reach brings a fresh session into a state through real statements.
// Blocks carry a savepoint sp, so RELEASE and ROLLBACK TO have one.
func (h *fsmHarness) reach(st txState) {
	switch st {
	case stIdle:
	case stImplicitMulti:
		h.s.BeginQuery(2)
		h.must("SELECT 1")
	case stImplicitPipeline:
		if o := h.ext("SELECT 1"); o.code != "" {
			h.t.Fatalf("pipeline: %s", o.code)
		}
	case stInBlock:
		h.must("BEGIN")
		h.must("SAVEPOINT sp")
	case stFailedBlock:
		h.must("BEGIN")
		h.must("SAVEPOINT sp")
		if o := h.exec("SELECT 1/0", ""); o.code != "22012" {
			h.t.Fatalf("reach FailedBlock: %+v", o)
		}
	default:
		h.t.Fatalf("cannot reach %s directly", st)
	}
	if h.s.fsm.state != st {
		h.t.Fatalf("reached %s, want %s", h.s.fsm.state, st)
	}
}

const (
	noTxn     = "there is no transaction in progress"
	inTxn     = "there is already a transaction in progress"
	aborted   = "25P02"
	notInBloc = "25P01"
)

// fireStep makes the event happen the way a client makes it happen.
func (h *fsmHarness) fireStep(ev txEvent) outcome {
	ctx := context.Background()
	switch ev {
	case evStmtOK:
		return h.exec("SELECT 1", "")
	case evStmtErr:
		return h.exec("SELECT 1/0", "")
	case evBegin:
		return h.exec("BEGIN", "")
	case evCommit:
		return h.exec("COMMIT", "")
	case evRollback:
		return h.exec("ROLLBACK", "")
	case evSavepoint:
		return h.exec("SAVEPOINT sp2", "")
	case evRelease:
		return h.exec("RELEASE sp", "")
	case evRollbackTo:
		return h.exec("ROLLBACK TO sp", "")
	case evExtStmt:
		_, err := h.s.Prepare("SELECT 1", nil)
		return errOutcome(err)
	case evSync:
		return errOutcome(h.s.Sync(ctx))
	case evQueryOne:
		h.s.BeginQuery(1)
	case evQueryMany:
		h.s.BeginQuery(2)
	case evQueryDone:
		return errOutcome(h.s.EndQuery(ctx, false))
	case evQueryFailed:
		return errOutcome(h.s.EndQuery(ctx, true))
	case evClose:
		h.s.Close()
	default:
		h.t.Fatalf("no step for %s", ev)
	}
	return outcome{}
}

// wantOutcome is PostgreSQL's answer (checked on PostgreSQL 15) to each
// statement event in each state.
func wantOutcome(from txState, ev txEvent) outcome {
	implicit := from == stIdle || from == stImplicitMulti || from == stImplicitPipeline
	switch ev {
	case evExtStmt: // Parse of SELECT 1
		if from == stFailedBlock {
			return outcome{code: aborted}
		}
	case evStmtOK:
		return outcome{tag: "SELECT 1"}
	case evStmtErr:
		if from == stFailedBlock {
			return outcome{code: aborted}
		}
		return outcome{code: "22012"}
	case evBegin:
		switch from {
		case stInBlock:
			return outcome{tag: "BEGIN", warning: inTxn}
		case stFailedBlock:
			return outcome{code: aborted}
		}
		return outcome{tag: "BEGIN"}
	case evCommit:
		switch {
		case implicit:
			return outcome{tag: "COMMIT", warning: noTxn}
		case from == stFailedBlock:
			return outcome{tag: "ROLLBACK"}
		}
		return outcome{tag: "COMMIT"}
	case evRollback:
		if implicit {
			return outcome{tag: "ROLLBACK", warning: noTxn}
		}
		return outcome{tag: "ROLLBACK"}
	case evSavepoint, evRelease, evRollbackTo:
		if implicit {
			return outcome{code: notInBloc}
		}
		if from == stFailedBlock && ev != evRollbackTo {
			return outcome{code: aborted}
		}
		return outcome{tag: map[txEvent]string{evSavepoint: "SAVEPOINT", evRelease: "RELEASE", evRollbackTo: "ROLLBACK"}[ev]}
	}
	return outcome{}
}

// resolve is the state a table target names, for a session whose
// multi-statement Query flag is multi and which left origin for COPY.
func resolve(to txState, multi bool, origin txState) txState {
	switch to {
	case stNoBlock:
		if multi {
			return stImplicitMulti
		}
		return stIdle
	case stResume:
		return origin
	}
	return to
}

func (h *fsmHarness) took(k txKey, to txState) bool {
	for i, x := range h.trace {
		if x == k && h.tos[i] == to {
			return true
		}
	}
	return false
}

// TestTxFSMTransitions drives every row of txTable over a real session:
// it reaches the row's state through statements, fires the event as a
// client would, and checks the transition taken, the ReadyForQuery status
// and what the client sees. It fails for a row it does not cover.
func TestTxFSMTransitions(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	setup := newFSMHarness(t, e)
	setup.must("CREATE TABLE fsm_t (a int)")

	covered := map[txKey]bool{}
	for k, tr := range txTable {
		if k.from == stCopyIn || k.ev == evCopyStart {
			continue // below
		}
		t.Run(k.from.String()+"/"+k.ev.String(), func(t *testing.T) {
			h := newFSMHarness(t, e)
			h.reach(k.from)
			multi := h.s.fsm.multi || k.ev == evQueryMany
			h.trace, h.tos = nil, nil
			got := h.fireStep(k.ev)
			to := resolve(tr.to, multi && k.ev != evQueryDone && k.ev != evQueryFailed, k.from)
			if !h.took(k, to) {
				t.Fatalf("transition %s --%s--> %s not taken; trace %v", k.from, k.ev, to, h.trace)
			}
			if want := wantOutcome(k.from, k.ev); got != want {
				t.Errorf("outcome %+v, want %+v", got, want)
			}
			if k.ev != evClose {
				if st := h.s.TxStatus(); st != h.s.fsm.state.status() {
					t.Errorf("TxStatus %c, state %s", st, h.s.fsm.state)
				}
			}
			covered[k] = true
		})
	}

	// COPY FROM STDIN from every state it can start in: good data takes
	// CopyStart and CopyDone, a bad row CopyStart and CopyFail (22P02, and
	// the statement's failure in the state COPY returns to).
	for k := range txTable {
		if k.ev != evCopyStart {
			continue
		}
		for _, good := range []bool{true, false} {
			origin := k.from
			t.Run(fmt.Sprintf("%s/CopyStart/good=%v", origin, good), func(t *testing.T) {
				h := newFSMHarness(t, e)
				h.reach(origin)
				h.trace, h.tos = nil, nil
				data, end, want := "1\n", evCopyDone, outcome{tag: "COPY 1"}
				if !good {
					data, end, want = "x\n", evCopyFail, outcome{code: "22P02"}
				}
				got := h.exec("COPY fsm_t FROM STDIN", data)
				if got != want {
					t.Errorf("outcome %+v, want %+v", got, want)
				}
				if !h.took(k, stCopyIn) || !h.took(txKey{stCopyIn, end}, origin) {
					t.Fatalf("COPY from %s: trace %v -> %v", origin, h.trace, h.tos)
				}
				covered[k] = true
				covered[txKey{stCopyIn, end}] = true
			})
		}
	}

	for k := range txTable {
		if !covered[k] {
			t.Errorf("transition %s --%s--> not driven by the test", k.from, k.ev)
		}
	}
}

// TestTxFSMTableComplete checks the table names only real states and
// that every state but Closed can be left by Close (or is CopyIn, which a
// running statement holds).
func TestTxFSMTableComplete(t *testing.T) {
	for k, tr := range txTable {
		if k.from >= stNoBlock || k.ev >= numEvents {
			t.Errorf("row %v: bad key", k)
		}
		if tr.to > stResume {
			t.Errorf("row %v: bad target", k)
		}
	}
	for st := stIdle; st < stNoBlock; st++ {
		_, closes := txTable[txKey{st, evClose}]
		if closes != (st != stClosed && st != stCopyIn) {
			t.Errorf("state %s: Close row present=%v", st, closes)
		}
	}
}

// TestStartTransactionTag: START TRANSACTION answers with its own command
// tag wherever BEGIN would answer BEGIN (PostgreSQL 15, psql without -q).
func TestStartTransactionTag(t *testing.T) {
	runCursorSteps(t, []cursorStep{
		{"START TRANSACTION READ ONLY", "START TRANSACTION", ""},
		{"START TRANSACTION ISOLATION LEVEL REPEATABLE READ", "START TRANSACTION", ""},
		{"COMMIT", "COMMIT", ""},
		{"BEGIN", "BEGIN", ""},
		{"START TRANSACTION", "START TRANSACTION", ""},
		{"ROLLBACK", "ROLLBACK", ""},
	})
}
