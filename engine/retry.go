package engine

import (
	"context"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// READ COMMITTED for statements that change existing rows (UPDATE, DELETE,
// MERGE). A row such a statement deletes is locked (storage.Txn.Delete):
// it waits for a concurrent transaction holding the row, and when that one
// committed a change of the row, fails with storage.IsConcurrentUpdate's
// 40001. Under READ COMMITTED PostgreSQL then re-evaluates the row's new
// version (EvalPlanQual); joind restarts the statement instead: it undoes
// the statement's own changes (a statement-level savepoint), moves to a
// fresh snapshot, which shows the concurrent commit, and runs it again. A
// second session's `UPDATE t SET v = v + 1 WHERE id = 1` so waits for the
// first one's COMMIT and then adds to its result. Under REPEATABLE READ and
// SERIALIZABLE the snapshot cannot move, and the 40001 goes to the client,
// as in PostgreSQL ("could not serialize access due to concurrent update").

// maxStatementRestarts bounds the restarts of one statement: each one
// follows a commit that changed a row it writes, so a row under constant
// contention fails the statement eventually instead of spinning.
const maxStatementRestarts = 100

// restartSavepoint names the statement-level savepoint; no SQL name can
// contain a NUL byte.
const restartSavepoint = "\x00statement"

// changesRows reports whether st may delete rows (and so may meet a
// concurrent update).
func changesRows(st sql.Statement) bool {
	switch st := st.(type) {
	case *sql.Update, *sql.Delete, *sql.Merge:
		return true
	case *sql.Insert:
		return st.OnConflict != nil && st.OnConflict.Update // ON CONFLICT DO UPDATE
	}
	return false
}

// executeRestarting runs a command of package commands; under READ
// COMMITTED a statement that changes rows restarts after a concurrent
// update (see above).
func (s *session) executeRestarting(ctx context.Context, st sql.Statement, ectx *types.EvalContext, w wire.ResultWriter) (string, bool, error) {
	c := &command{s: s, ectx: ectx, w: w}
	if !changesRows(st) {
		return commands.Execute(ctx, c, st)
	}
	return s.restarting(ctx, func() (string, bool, error) { return commands.Execute(ctx, c, st) })
}

// restarting runs fn, which changes rows, again after a concurrent update
// under READ COMMITTED (see above), its changes undone first.
func (s *session) restarting(ctx context.Context, fn func() (string, bool, error)) (string, bool, error) {
	if storage.ParseIsolation(s.settings.Get("transaction_isolation")) != storage.ReadCommitted {
		return fn()
	}
	txn := s.cur.Txn
	for restarts := 0; ; restarts++ {
		txn.Savepoint(restartSavepoint)
		tag, ok, err := fn()
		if err == nil || !storage.IsConcurrentUpdate(err) || restarts == maxStatementRestarts || ctx.Err() != nil {
			_ = txn.Release(restartSavepoint)
			return tag, ok, err
		}
		if rerr := txn.RollbackTo(restartSavepoint); rerr != nil {
			return "", true, rerr
		}
		_ = txn.Release(restartSavepoint)
		txn.NewStatement()
	}
}
