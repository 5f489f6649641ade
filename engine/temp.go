package engine

import (
	"context"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/storage"
)

// Session-local transactional state — settings, temporary tables
// (commands.TempTables: the session's pg_temp and its ON COMMIT actions)
// and cursors (cursor.go)
// — ends with the transaction it belongs to; the state machine's actions
// call these at the transaction's boundaries.

func (s *session) localCommit(ctx context.Context) {
	if st := s.eng.opts.Stats; st != nil {
		st.Databases.Of(s.dbName()).XactCommit.Add(1)
	}
	s.settings.Commit()
	s.temp.End(ctx, true)
	s.cursorsEnd(true)
}

func (s *session) localAbort() {
	if st := s.eng.opts.Stats; st != nil {
		st.Databases.Of(s.dbName()).XactRollback.Add(1)
	}
	s.settings.Abort()
	s.temp.End(context.Background(), false)
	s.cursorsEnd(false)
}

func (s *session) localSavepoint(name string) {
	s.settings.Savepoint(name)
	s.temp.Savepoint(name)
	s.cursorsSavepoint(name)
}

func (s *session) localRelease(name string) {
	s.settings.Release(name)
	s.temp.Release(name)
	s.cursorsRelease(name)
}

func (s *session) localRollbackTo(name string) {
	s.settings.RollbackTo(name)
	s.temp.RollbackTo(name)
	s.cursorsRollbackTo(name)
}

// catalogOf is the catalog a statement running in t binds with and writes
// through: the session's temporary tables in front of t (nil: no t).
func (s *session) catalogOf(t *storage.Txn) *commands.Catalog {
	if t == nil {
		return nil
	}
	return commands.NewCatalog(t, s.temp)
}
