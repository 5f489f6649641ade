package engine

import (
	"context"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// Transactions. Every statement runs in a storage.Txn: the open block's
// (BEGIN ... COMMIT), or an implicit one of its own that commits when the
// statement succeeds and is discarded when it fails, so a statement lands
// whole or not at all. A statement must be bound with bindCatalog, so the
// tables it names are the ones its transaction sees (its own uncommitted
// CREATE/INSERT/DROP included).

// bindCatalog returns the catalog the next statement is bound with: the
// open block's transaction (reading what was committed before the
// statement under READ COMMITTED, the transaction's snapshot under
// REPEATABLE READ and SERIALIZABLE), or a fresh implicit transaction.
func (s *session) bindCatalog() storage.Catalog {
	if s.txn != nil {
		s.txn.NewStatement()
		return s.catalogOf(s.txn)
	}
	if s.multi {
		if s.multiTxn == nil {
			s.multiTxn = s.eng.catalog.Begin()
		}
		s.multiTxn.NewStatement()
		return s.catalogOf(s.multiTxn)
	}
	s.implicit = s.eng.catalog.Begin()
	return s.catalogOf(s.implicit)
}

// statementTxn returns the transaction a bound statement runs in and
// whether it is implicit (to be committed by endStatement).
func (s *session) statementTxn() (*storage.Txn, bool) {
	if s.txn != nil {
		return s.txn, false
	}
	if s.multi {
		if s.multiTxn == nil {
			s.multiTxn = s.eng.catalog.Begin()
		}
		return s.multiTxn, false
	}
	if s.implicit == nil {
		s.implicit = s.eng.catalog.Begin()
	}
	t := s.implicit
	s.implicit = nil
	return t, true
}

// endStatement commits or discards an implicit transaction. The commit is
// durable when it returns: only then does the client see CommandComplete.
func (s *session) endStatement(ctx context.Context, t *storage.Txn, implicit bool, err error) error {
	if !implicit {
		return err
	}
	if err != nil {
		t.Rollback()
		return err
	}
	return t.Commit(ctx)
}

// abortBlock discards the open block's transaction (ROLLBACK, a failed
// COMMIT, session end).
func (s *session) abortBlock() {
	if s.txn != nil {
		s.txn.Rollback()
		s.txn = nil
	}
	s.localAbort()
	s.tx = txIdle
}

// BeginQuery implements wire.QueryBlock: the statements of a simple Query
// run outside a block share one implicit transaction, so a failure undoes
// them all; BEGIN inside the string turns it into the explicit block, and
// COMMIT or ROLLBACK inside it end it early (with PostgreSQL's warning).
func (s *session) BeginQuery(statements int) {
	if statements < 2 || s.tx != txIdle {
		return
	}
	s.multi = true
	s.settings.Begin()
}

// EndQuery implements wire.QueryBlock: it commits the implicit transaction
// of a multi-statement query, or discards it when a statement failed.
func (s *session) EndQuery(ctx context.Context, failed bool) error {
	if !s.multi {
		return nil
	}
	s.multi = false
	t := s.multiTxn
	s.multiTxn = nil
	if failed {
		if t != nil {
			t.Rollback()
		}
		if s.tx == txIdle {
			s.localAbort()
		}
		return nil
	}
	if t != nil {
		if err := t.Commit(ctx); err != nil {
			if s.tx == txIdle {
				s.localAbort()
			}
			return err
		}
	}
	if s.tx == txIdle {
		s.localCommit(ctx)
	}
	return nil
}

// endImplicitBlock ends the multi-statement implicit transaction early, for
// COMMIT (commit=true) or ROLLBACK written inside the query string.
func (s *session) endImplicitBlock(ctx context.Context, commit bool) error {
	t := s.multiTxn
	s.multiTxn = nil
	// What came before is settled either way: later statements of the
	// string start a new implicit transaction.
	if !commit {
		if t != nil {
			t.Rollback()
		}
		s.localAbort()
		return nil
	}
	if t != nil {
		if err := t.Commit(ctx); err != nil {
			s.localAbort()
			return err
		}
	}
	s.localCommit(ctx)
	return nil
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
	if t == nil {
		t = s.multiTxn
	}
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
