package sql

import (
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// SessionInfo answers the functions about the session that clients call at
// connect: current_setting(), current_database(), current_user, ...
type SessionInfo struct {
	User     string
	Database string
	// Setting returns a run-time setting's current value (SHOW's text).
	Setting func(name string) (string, error)
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
	case "current_setting":
		if len(args) < 1 || len(args) > 2 {
			return nil, false, nil
		}
		c, isConst := args[0].(*plan.Const)
		if !isConst || (c.T.ID != types.Unknown && c.T.ID != types.Text && c.T.ID != types.Varchar) {
			return nil, true, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "current_setting() needs a constant setting name"), loc)
		}
		if c.Val.Null {
			return &plan.Const{Val: types.NullValue, T: types.TextType}, true, nil
		}
		missingOK := false
		if len(args) == 2 {
			if m, isC := args[1].(*plan.Const); isC && !m.Val.Null {
				missingOK = m.Val.I != 0 || strings.EqualFold(m.Val.S, "true") || m.Val.S == "t"
			}
		}
		if si.Setting == nil {
			return nil, true, b.errAt(pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", c.Val.S), loc)
		}
		v, err := si.Setting(c.Val.S)
		if err != nil {
			if missingOK {
				return &plan.Const{Val: types.NullValue, T: types.TextType}, true, nil
			}
			return nil, true, b.wrapAt(err, loc)
		}
		return text(v), true, nil
	}
	return nil, false, nil
}

// catalogTable returns the pg_catalog / information_schema relation of
// that name (pgcatalog.go); unqualified names find pg_catalog's first.
func (b *binder) catalogTable(schema, name string) (storage.Table, bool) {
	return b.systemTable(schema, name)
}
