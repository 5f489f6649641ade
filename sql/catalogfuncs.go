package sql

import (
	"github.com/joind/joind/activity"
	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/stats"
)

// SessionInfo answers the functions about the session that clients call at
// connect: current_setting(), current_database(), current_user, ...
type SessionInfo struct {
	User string // the session user's name
	// CurrentRole is current_user's name; Role and SessionRole the OIDs
	// of current_user and session_user (roles.go).
	CurrentRole       string
	Role, SessionRole uint32
	Database          string
	// Settings are the session's settings, which pg_settings lists (nil: none).
	Settings *settings.Values
	// Objects lists the session's cursors and prepared statements.
	Objects pgcatalog.SessionObjects
	// Activity is the server's live backends; BackendPID this session's
	// process id (pg_stat_activity, pg_backend_pid).
	Activity   *activity.Registry
	BackendPID int32
	// Stats are the server's cumulative statistics (pg_stat_statements, ...).
	Stats *stats.Server
	// FileDirs are the directories server-side files may be read from
	// (copy_dirs; read_parquet).
	FileDirs []string
}

// VersionString is what version() returns; drivers parse "PostgreSQL N.M".
const VersionString = pgcatalog.VersionString

// catalogFunc binds the session and catalog functions that the types
// package cannot answer because they depend on the session or the catalog
// (pgcatalog/funcs.go); ok is false when name is not one of them.
func (b *binder) catalogFunc(name string, args []plan.Expr, loc int32) (e plan.Expr, ok bool, err error) {
	if name == "pg_typeof" && len(args) == 1 {
		e, err := b.pgTypeof(args) // pgtypeof.go
		return e, true, err
	}
	if e, ok, err := b.sequenceFunc(name, args, loc); ok {
		return e, true, err
	}
	return b.pgCatalogFunc(name, args, loc)
}
