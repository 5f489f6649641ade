package engine

import (
	"context"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/wire"
)

// transaction runs transaction-control statements. BEGIN opens a
// storage transaction that the block's statements read and write through;
// COMMIT makes its changes durable and visible atomically, ROLLBACK (or
// COMMIT of a failed block) discards them. Savepoints snapshot the
// transaction's pending changes.
func (s *session) transaction(ctx context.Context, x *sql.Transaction, w wire.ResultWriter) (string, error) {
	warn := func(msg string) error {
		return w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25000", Message: msg})
	}
	switch x.Kind {
	case sql.TxBegin:
		if s.tx != txIdle {
			if err := warn("there is already a transaction in progress"); err != nil {
				return "", err
			}
			// Its modes still apply, as in PostgreSQL.
			return "BEGIN", s.applyModes(x.Modes)
		}
		if s.multiTxn != nil {
			// BEGIN inside a multi-statement query: the implicit
			// transaction becomes the explicit block.
			s.txn, s.multiTxn = s.multiTxn, nil
		} else {
			s.txn = s.eng.catalog.Begin()
		}
		s.tx = txOpen
		s.txStart = time.Now()
		if err := s.applyModes(x.Modes); err != nil {
			return "", err
		}
		return "BEGIN", nil
	case sql.TxCommit:
		was, txn := s.tx, s.txn
		s.txn, s.tx = nil, txIdle
		switch was {
		case txIdle:
			if err := s.endImplicitBlock(ctx, true); err != nil {
				return "", err
			}
			return "COMMIT", warn("there is no transaction in progress")
		case txFailed:
			txn.Rollback()
			s.localAbort()
			return "ROLLBACK", nil
		}
		err := txn.Commit(ctx)
		if err != nil {
			s.localAbort()
			return "", err
		}
		s.localCommit(ctx)
		return "COMMIT", nil
	case sql.TxRollback:
		was := s.tx
		s.abortBlock()
		if was == txIdle {
			if err := s.endImplicitBlock(ctx, false); err != nil {
				return "", err
			}
			return "ROLLBACK", warn("there is no transaction in progress")
		}
		return "ROLLBACK", nil
	case sql.TxSavepoint, sql.TxRelease, sql.TxRollbackTo:
		if s.tx == txIdle {
			return "", pgerr.New("25P01", "%s can only be used in transaction blocks", map[sql.TxKind]string{
				sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE SAVEPOINT", sql.TxRollbackTo: "ROLLBACK TO SAVEPOINT"}[x.Kind])
		}
		switch x.Kind {
		case sql.TxSavepoint:
			s.txn.Savepoint(x.Savepoint)
			s.localSavepoint(x.Savepoint)
			return "SAVEPOINT", nil
		case sql.TxRelease:
			if err := s.txn.Release(x.Savepoint); err != nil {
				return "", err
			}
			s.localRelease(x.Savepoint)
			return "RELEASE", nil
		}
		if err := s.txn.RollbackTo(x.Savepoint); err != nil {
			return "", err
		}
		s.localRollbackTo(x.Savepoint)
		s.tx = txOpen
		return "ROLLBACK", nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "transaction statement not supported")
}

// applyModes applies BEGIN's transaction modes to the block.
func (s *session) applyModes(modes []sql.Set) error {
	for i := range modes {
		if err := s.applySet(&modes[i]); err != nil {
			return err
		}
	}
	return nil
}
