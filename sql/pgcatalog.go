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
	return &plan.Const{Val: types.IntValue(int64(oid)), T: types.Int8Type}
}

func textConst(s string) plan.Expr { return &plan.Const{Val: types.TextValue(s), T: types.TextType} }

// regCast binds casts to the object-identifier types; ok is false for any
// other target type.
func (b *binder) regCast(s *scope, tc *pg_query.TypeCast) (plan.Expr, bool, error) {
	tn := tc.TypeName
	if len(tn.ArrayBounds) > 0 {
		// joind has no array types; an array literal is accepted only where
		// a text-encoded catalog array is read (textArrayArg).
		return nil, false, nil
	}
	if len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, false, nil
	}
	target := strings.ToLower(tn.Names[len(tn.Names)-1].GetString_().GetSval())
	loc := tc.Location
	// 'name'::regclass::text is the name, as PostgreSQL prints it.
	if target == "text" || target == "varchar" || target == "name" {
		if inner := tc.Arg.GetTypeCast(); inner != nil && len(inner.TypeName.Names) > 0 {
			it := strings.ToLower(inner.TypeName.Names[len(inner.TypeName.Names)-1].GetString_().GetSval())
			if pgcatalog.IsRegType(it) {
				e, ok, err := b.regCast(s, inner)
				if err != nil || !ok {
					return e, ok, err
				}
				if c, isConst := e.(*plan.Const); isConst && c.T.ID == types.Int8 {
					if c.Val.Null {
						return &plan.Const{Val: types.NullValue, T: types.TextType}, true, nil
					}
					e = textConst(b.snapshot().RegOut(it, c.Val.I))
				}
				if target == "name" {
					e, err = b.coerce(e, types.NameType, coerceExplicit, loc)
				}
				return e, true, err
			}
		}
	}
	if len(tn.Typmods) > 0 && (target == "oid" || target == "xid" || target == "cid" || pgcatalog.IsRegType(target)) {
		// None of these takes a modifier; never drop one silently.
		return nil, true, b.errAt(pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", target), tn.Location)
	}
	switch {
	case target == "oid" || target == "xid" || target == "cid":
		arg, err := b.bindExpr(s, tc.Arg)
		if err != nil {
			return nil, true, err
		}
		e, err := b.coerce(arg, types.Int8Type, coerceExplicit, loc)
		return e, true, err
	case !pgcatalog.IsRegType(target):
		return nil, false, nil
	}
	arg, err := b.bindExpr(s, tc.Arg)
	if err != nil {
		return nil, true, err
	}
	if c, isConst := arg.(*plan.Const); isConst {
		if c.Val.Null {
			return &plan.Const{Val: types.NullValue, T: types.Int8Type}, true, nil
		}
		switch c.T.ID {
		case types.Unknown, types.Text, types.Varchar, types.Char, types.Name:
			if target == "regproc" || target == "regprocedure" {
				return textConst(pgcatalog.RegProcName(c.Val.S)), true, nil
			}
			oid, err := b.snapshot().RegIn(target, c.Val.S)
			if err != nil {
				return nil, true, b.wrapAt(err, b.locOf(arg))
			}
			return oidConst(oid), true, nil
		}
	}
	switch arg.Type().ID {
	case types.Text, types.Varchar, types.Char, types.Name, types.Unknown:
		// A name computed at run time: look it up per row.
		arg, err = b.coerce(arg, types.TextType, coerceExplicit, loc)
		if err != nil {
			return nil, true, err
		}
		snap := b.snapshot()
		return b.call("to_"+target, []plan.Expr{arg}, types.Int8Type, func(v []types.Value) (types.Value, error) {
			oid, err := snap.RegIn(target, v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			return types.IntValue(int64(oid)), nil
		}), true, nil
	}
	arg, err = b.coerce(arg, types.Int8Type, coerceExplicit, loc)
	if err != nil {
		return nil, true, err
	}
	snap := b.snapshot()
	return b.call(target+"out", []plan.Expr{arg}, types.TextType, func(v []types.Value) (types.Value, error) {
		return types.TextValue(snap.RegOut(target, v[0].I)), nil
	}), true, nil
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
