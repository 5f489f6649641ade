package engine

import (
	"context"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
)

// discard runs DISCARD ALL | PLANS | TEMP | SEQUENCES. ALL is, as in
// PostgreSQL, CLOSE ALL, RESET ALL, DEALLOCATE ALL and DISCARD TEMP (and
// may not run in a transaction block). joind caches no plans, so PLANS
// has nothing to drop; it keeps no per-session sequence state (currval,
// lastval) on this branch, so SEQUENCES has nothing to reset yet.
func (s *session) discard(ctx context.Context, x *sql.Discard) (string, error) {
	if x.What == "ALL" && s.fsm.state.inTransactionBlock() {
		return "", pgerr.New("25001", "DISCARD ALL cannot run inside a transaction block")
	}
	if x.What == "ALL" {
		for len(s.cursors) > 0 {
			s.dropCursor(s.cursors[0])
		}
		s.settings.ResetAll()
		for _, name := range s.objs.StatementNames() {
			s.objs.RemoveStatement(name)
		}
	}
	if x.What == "ALL" || x.What == "TEMP" {
		if err := s.temp.Discard(ctx); err != nil {
			return "", err
		}
	}
	return "DISCARD " + x.What, nil
}

// checkpoint runs CHECKPOINT: everything committed is already durable
// (a commit returns after its manifest is synced), so there is nothing to
// flush. PostgreSQL requires superuser or pg_checkpoint; every joind user
// is a superuser (pg_roles.rolsuper).
func (s *session) checkpoint() (string, error) { return "CHECKPOINT", nil }
