package engine

import (
	"github.com/joind/joind/sql"
)

// Transaction-control statements (BEGIN, COMMIT, ROLLBACK, SAVEPOINT,
// RELEASE, ROLLBACK TO) are events of the session's state machine
// (txnfsm.go: session.fireTx); its actions open the block's storage
// transaction, commit it durably, discard it, or snapshot its pending
// changes at a savepoint.

// applyModes applies BEGIN's transaction modes to the block.
func (s *session) applyModes(modes []sql.Set) error {
	for i := range modes {
		if err := s.applySet(&modes[i]); err != nil {
			return err
		}
	}
	return nil
}
