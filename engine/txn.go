package engine

import (
	"context"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"

	"github.com/joind/joind/storage"
)

// Transactions. Every statement runs in a storage.Txn: the one its state
// shares (a BEGIN block's, or the implicit transaction of a
// multi-statement Query or of an extended-protocol pipeline up to Sync),
// or in Idle an implicit one of its own that commits when the statement
// succeeds and is discarded when it fails, so a statement lands whole or
// not at all. Which one, and when it ends, is the state machine's
// (txnfsm.go). A statement must be bound with bindCatalog, so the tables
// it names are the ones its transaction sees (its own uncommitted
// CREATE/INSERT/DROP included).

// sharedTxn is the transaction the current state's statements share,
// begun by the first one that needs it; nil in Idle.
func (s *session) sharedTxn() *storage.Txn {
	switch s.fsm.state {
	case stImplicitMulti, stImplicitPipeline:
		if s.txn == nil {
			s.txn = s.eng.catalog.Begin()
		}
	case stInBlock, stFailedBlock:
	default:
		return nil
	}
	return s.txn
}

// bindCatalog returns the catalog the next statement is bound with: the
// shared transaction (reading what was committed before the statement,
// READ COMMITTED), or a fresh implicit transaction.
func (s *session) bindCatalog() storage.Catalog {
	if t := s.sharedTxn(); t != nil {
		t.NewStatement()
		return s.catalogOf(t)
	}
	s.dropImplicit()
	s.implicit = s.eng.catalog.Begin()
	return s.catalogOf(s.implicit)
}

// statementTxn returns the transaction a bound statement runs in and, when
// it is the statement's own (Idle), that transaction again: StmtOK or
// StmtErr settles it.
func (s *session) statementTxn() (txn, implicit *storage.Txn) {
	if t := s.sharedTxn(); t != nil {
		return t, nil
	}
	if s.implicit == nil {
		s.implicit = s.eng.catalog.Begin()
	}
	t := s.implicit
	s.implicit = nil
	return t, t
}

// dropImplicit discards an implicit transaction bound but not run (a
// transaction statement needs none).
func (s *session) dropImplicit() {
	if s.implicit != nil {
		s.implicit.Rollback()
		s.implicit = nil
	}
}

// BeginQuery implements wire.QueryBlock: the statements of a simple Query
// run outside a block share one implicit transaction, so a failure undoes
// them all; BEGIN inside the string turns it into the explicit block, and
// COMMIT or ROLLBACK inside it end it early (with PostgreSQL's warning).
func (s *session) BeginQuery(statements int) {
	ev := evQueryOne
	if statements > 1 {
		ev = evQueryMany
	}
	_, _ = s.fire(ev, nil)
}

// EndQuery implements wire.QueryBlock: it commits the implicit transaction
// of a multi-statement query, or discards it when a statement failed.
func (s *session) EndQuery(ctx context.Context, failed bool) error {
	ev := evQueryDone
	if failed {
		ev = evQueryFailed
	}
	_, err := s.fire(ev, &txArgs{ctx: ctx})
	return err
}

// Sync implements wire.PipelineBlock: it ends the extended protocol's
// implicit transaction (commits it; a failed statement already undid it).
func (s *session) Sync(ctx context.Context) error {
	_, err := s.fire(evSync, &txArgs{ctx: ctx})
	return err
}

// takeSnapshot fixes the transaction's snapshot and isolation level at its
// first statement that needs a snapshot: in PostgreSQL every statement but
// transaction control, SET and SHOW (PlannedStmtRequiresSnapshot).
func (s *session) takeSnapshot(t *storage.Txn, st sql.Statement, bindErr error) {
	if bindErr != nil {
		return
	}
	switch st.(type) {
	case *sql.Transaction, *sql.Set, *sql.Show, *sql.NoOp:
		return
	}
	t.TakeSnapshot(storage.ParseIsolation(s.settings.Get("transaction_isolation")))
}

// checkIsolationChange refuses to change transaction_isolation once the
// transaction has taken its snapshot, as PostgreSQL's check_XactIsoLevel.
func (s *session) checkIsolationChange(x *sql.Set) error {
	if x.Name != "transaction_isolation" {
		return nil
	}
	t := s.txn
	if t == nil || strings.EqualFold(strings.TrimSpace(x.Value), s.settings.Get("transaction_isolation")) {
		return nil
	}
	if t.SnapshotTaken() {
		return pgerr.New("25001", "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	}
	if t.InSavepoint() {
		return pgerr.New("25001", "SET TRANSACTION ISOLATION LEVEL must not be called in a subtransaction")
	}
	return nil
}
