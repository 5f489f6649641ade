package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The binder's side of the system catalogs (package pgcatalog holds the
// catalogs themselves): finding a pg_catalog or information_schema
// relation, binding the object-identifier casts (::regclass, ::regtype,
// ::oid, ...) to pgcatalog's input and output functions, and binding a
// view's query when pg_class and pg_attribute list its columns.

// snapshot is the statement's view of the system catalogs, made at first
// use and shared by every catalog relation and function it binds.
func (b *binder) snapshot() *pgcatalog.Snapshot {
	if b.snap == nil {
		env := pgcatalog.Env{Views: viewColumner{b}, SearchPath: b.searchPath}
		if b.opts != nil && b.opts.Session != nil {
			si := b.opts.Session
			env.User, env.Database, env.Settings, env.Objects = si.User, si.Database, si.Settings, si.Objects
			env.Activity, env.BackendPID, env.Stats = si.Activity, si.BackendPID, si.Stats
			env.CurrentRole, env.Role, env.SessionRole = si.CurrentRole, si.Role, si.SessionRole
		}
		b.snap = pgcatalog.NewSnapshot(b.cat, env)
	}
	return b.snap
}

// viewColumner binds a view's query for its column definitions.
type viewColumner struct{ b *binder }

func (vc viewColumner) ViewColumns(v storage.View) ([]storage.ColumnDef, error) {
	b := vc.b
	raws, err := Parse(v.SQL)
	if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.InternalError, "unreadable view")
	}
	sub := newBinder(v.SQL, b.cat, b.opts)
	sub.expanding = append(append([]string(nil), b.expanding...), v.Name)
	q, _, err := sub.bindSelect(raws[0].stmt.GetSelectStmt(), nil, nil, true)
	if err != nil {
		return nil, err
	}
	var cols []storage.ColumnDef
	for i, c := range sub.finalQuery(q).Plan.Columns() {
		name := c.Name
		if i < len(v.Columns) {
			name = v.Columns[i]
		}
		cols = append(cols, storage.ColumnDef{Name: name, Type: c.Type})
	}
	return cols, nil
}

// catalogTable finds a pg_catalog or information_schema relation. An
// unqualified name means pg_catalog's when it has one: PostgreSQL searches
// pg_catalog before the user's schemas.
func (b *binder) catalogTable(schema, name string) (storage.Table, bool) {
	switch schema {
	case "", "pg_catalog", "information_schema":
		return pgcatalog.Lookup(b.snapshot(), schema, name)
	}
	return nil, false
}

// oidConst is an OID literal.
func oidConst(oid uint32) plan.Expr {
	return &plan.Const{Val: types.IntValue(int64(oid)), T: types.OidType}
}

func textConst(s string) plan.Expr { return &plan.Const{Val: types.TextValue(s), T: types.TextType} }

// regCast binds the cast to cid, the object-identifier type joind has no
// type for (an int8), and rejects a modifier on any of them; ok
// is false for any other target, which the ordinary cast binds (oid and
// the reg* types are types: types/regtypes.go).
func (b *binder) regCast(s *scope, tc *pg_query.TypeCast) (plan.Expr, bool, error) {
	tn := tc.TypeName
	if len(tn.ArrayBounds) > 0 || len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, false, nil
	}
	target := strings.ToLower(tn.Names[len(tn.Names)-1].GetString_().GetSval())
	_, isOIDKind := types.RegTypeByName(target)
	if len(tn.Typmods) > 0 && (target == "xid" || target == "xid8" || target == "pg_lsn" || target == "cid" || isOIDKind || target == "regconfig") {
		// None of these takes a modifier; never drop one silently.
		return nil, true, b.errAt(pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", target), tn.Location)
	}
	if target != "cid" {
		return nil, false, nil
	}
	arg, err := b.bindExpr(s, tc.Arg)
	if err != nil {
		return nil, true, err
	}
	e, err := b.coerce(arg, types.Int8Type, coerceExplicit, tc.Location)
	return e, true, err
}

// regCatalog is the reg* types' I/O over the statement's catalog
// snapshot, made at first use.
type regCatalog struct{ b *binder }

func (r regCatalog) RegIn(id types.ID, s string) (uint32, error) {
	return r.b.snapshot().RegCatalog().RegIn(id, s)
}

func (r regCatalog) RegOut(id types.ID, oid uint32) string {
	return r.b.snapshot().RegCatalog().RegOut(id, oid)
}

// RegCatalog is the reg* types' I/O over catalog cat as session si sees
// it (its search path, roles, temporary objects): what the session's
// output and run-time casts read names with.
func RegCatalog(cat storage.Catalog, si *SessionInfo) types.RegCatalog {
	return regCatalog{newBinder("", cat, &BindOptions{Session: si})}
}

// call is a strict built-in computed by f.
func (b *binder) call(name string, args []plan.Expr, result types.Type, f func([]types.Value) (types.Value, error)) plan.Expr {
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	return &plan.Call{Func: &types.Overload{Name: name, Args: at, Result: result, Strict: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) { return f(v) }}, Args: args}
}
