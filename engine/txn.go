package engine

import (
	"context"

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
// statement, READ COMMITTED), or a fresh implicit transaction.
func (s *session) bindCatalog() storage.Catalog {
	if s.txn != nil {
		s.txn.NewStatement()
		return s.txn
	}
	s.implicit = s.eng.catalog.Begin()
	return s.implicit
}

// statementTxn returns the transaction a bound statement runs in and
// whether it is implicit (to be committed by endStatement).
func (s *session) statementTxn() (*storage.Txn, bool) {
	if s.txn != nil {
		return s.txn, false
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
	s.restoreBlockSettings()
	s.tx = txIdle
}
