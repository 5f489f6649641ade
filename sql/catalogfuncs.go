package sql

import (
	"github.com/joind/joind/settings"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// SessionInfo answers the functions about the session that clients call at
// connect: current_setting(), current_database(), current_user, ...
type SessionInfo struct {
	User     string
	Database string
	// Settings lists the session's settings for pg_settings (nil: none).
	Settings func() []settings.Row
}

// VersionString is what version() returns; drivers parse "PostgreSQL N.M".
const VersionString = "PostgreSQL 15.0 (joind) on x86_64-pc-linux-gnu, compiled by Go, 64-bit"

// catalogFunc binds the session and catalog functions that the types
// package cannot answer because they depend on the session; ok is false
// when name is not one of them.
func (b *binder) catalogFunc(name string, args []plan.Expr, loc int32) (e plan.Expr, ok bool, err error) {
	var si SessionInfo
	if b.opts != nil && b.opts.Session != nil {
		si = *b.opts.Session
	}
	text := func(s string) plan.Expr { return &plan.Const{Val: types.TextValue(s), T: types.TextType} }
	if e, ok, err := b.pgCatalogFunc(name, args, loc); ok {
		return e, ok, err
	}
	switch name {
	case "version":
		if len(args) == 0 {
			return text(VersionString), true, nil
		}
	case "current_database", "current_catalog":
		if len(args) == 0 {
			db := si.Database
			if db == "" {
				db = "joind"
			}
			return text(db), true, nil
		}
	case "current_schema":
		if len(args) == 0 {
			return text("public"), true, nil
		}
	case "current_user", "session_user", "user", "current_role", "getpgusername":
		if len(args) == 0 {
			u := si.User
			if u == "" {
				u = "joind"
			}
			return text(u), true, nil
		}
	case "pg_backend_pid":
		// Answered by the engine through the connection, not here.
		return nil, false, nil
	}
	return nil, false, nil
}

// catalogTable returns the pg_catalog / information_schema relation of
// that name (pgcatalog.go); unqualified names find pg_catalog's first.
func (b *binder) catalogTable(schema, name string) (storage.Table, bool) {
	return b.systemTable(schema, name)
}
