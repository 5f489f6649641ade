package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// functionStyleCast is PostgreSQL's function-style cast: a call of one
// argument named like a type (int4(x), float8(x), text(x)) that no function
// matches is the explicit cast to that type when one exists (the cast
// functions int4(float8) and friends are pg_proc rows there; func_get_detail
// makes the other casts FUNCDETAIL_COERCION). ok=false leaves the call's
// own "does not exist" error standing.
func (b *binder) functionStyleCast(name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	t, err := types.FromTypeName([]string{name}, nil, 0)
	if err != nil || t.ID == types.Unknown {
		return nil, false, nil
	}
	from := args[0].Type()
	if from.ID == types.Record && isStringCategory(t.ID) {
		// func_get_detail: a composite's I/O conversion to a string type
		// is no function-style cast (text(row) does not exist).
		return nil, false, nil
	}
	if _, _, explicit := types.CanCast(from, t); !explicit && from.ID != types.Unknown {
		return nil, false, nil
	}
	e, err := b.coerce(args[0], t, coerceExplicit, loc)
	return e, true, err
}

// isUnknownLiteral reports a lone argument that is an untyped literal:
// func_get_detail makes typename('literal') a coercion, the type's input
// function, even where a function of that name takes another type
// (cidr('10.1.2.3/8') reads a cidr, it does not mask an inet).
func isUnknownLiteral(args []plan.Expr) bool {
	if len(args) != 1 {
		return false
	}
	c, ok := args[0].(*plan.Const)
	return ok && c.T.ID == types.Unknown
}

func isStringCategory(id types.ID) bool {
	switch id {
	case types.Text, types.Varchar, types.Char, types.Name:
		return true
	}
	return false
}

// functionalFieldSelect is ParseFuncOrColumn's projection: f(x) of one
// composite argument x with a field f, an unqualified name and no
// decoration, is x.f, tried before any function of that name.
func (b *binder) functionalFieldSelect(fc *pg_query.FuncCall, name string, args []plan.Expr) (plan.Expr, bool, error) {
	if len(fc.Funcname) != 1 || len(args) != 1 || args[0].Type().ID != types.Record {
		return nil, false, nil
	}
	d := args[0].Type().Desc()
	if d == nil {
		return nil, false, nil
	}
	for _, f := range d.Fields {
		if f == name {
			e, err := b.selectRecordField(args[0], name, fc.Location)
			return e, true, err
		}
	}
	return nil, false, nil
}

// columnNotationCall is ParseFuncOrColumn's column syntax over a FROM
// item's whole row: rel.name, when rel has no column name, calls the user
// function name(rel). ok is false when rel is no visible relation or no
// such function takes its row.
func (b *binder) columnNotationCall(s *scope, rel, name string, loc int32) (plan.Expr, bool, error) {
	if len(b.visibleFunctions("", name)) == 0 {
		return nil, false, nil
	}
	row, err := b.wholeRow(s, rel, loc) // rowtype.go
	if err != nil {
		return nil, false, nil
	}
	return b.userFuncCall(s, "", name, []plan.Expr{row}, loc)
}

// checkColumnSizeArg refuses pg_column_size of a column's value: in
// PostgreSQL its size depends on how the row was stored (1-byte varlena
// headers, compression), which joind's storage does not reproduce;
// computed values (expressions, constants) have the size a query gives
// them.
func checkColumnSizeArg(e plan.Expr) error {
	for {
		c, ok := e.(*plan.Cast)
		if !ok || c.Input.Type().BaseType() != c.T.BaseType() {
			break
		}
		e = c.Input
	}
	if _, ok := e.(*plan.ColRef); ok {
		return pgerr.New(pgerr.FeatureNotSupported, "pg_column_size of a column's stored value is not supported")
	}
	return nil
}
