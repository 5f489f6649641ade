package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// User-defined functions in LANGUAGE sql. CREATE FUNCTION checks the body
// as PostgreSQL's sql_function_validator does (every statement parsed and
// analysed with the parameters typed, the final one's columns matching
// the declared result: check_sql_fn_retval) and stores it as SQL text. A
// call binds the body afresh with its arguments in place of the
// parameters (function_call.go), as a view's text is bound at each use.

// CreateFunction is CREATE [OR REPLACE] FUNCTION.
type CreateFunction struct {
	Replace bool
	Func    storage.Function
}

// DropFunction is DROP FUNCTION; Missing are the IF EXISTS names that
// matched nothing, as PostgreSQL's NOTICE spells them.
type DropFunction struct {
	Funcs   []storage.Function
	Missing []string
}

func (*CreateFunction) statement() {}
func (*DropFunction) statement()   {}

// FunctionCatalogOf is cat's user functions (nil: a catalog without).
func FunctionCatalogOf(cat storage.Catalog) storage.FunctionCatalog {
	fc, _ := cat.(storage.FunctionCatalog)
	return fc
}

// FuncSignature is f's name and input types as PostgreSQL's messages
// hints print them (format_procedure): f13(integer,text).
func FuncSignature(f storage.Function) string {
	var ts []string
	for _, t := range f.InputTypes() {
		ts = append(ts, t.SQLName())
	}
	return f.Name + "(" + strings.Join(ts, ",") + ")"
}

func (b *binder) bindCreateFunction(cf *pg_query.CreateFunctionStmt) (Statement, error) {
	if cf.IsProcedure {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE PROCEDURE is not supported")
	}
	schema, name, err := b.createNamed(nameParts(cf.Funcname), "functions") // names.go
	if err != nil {
		return nil, err
	}
	f := storage.Function{Schema: schema, Name: name, Volatility: 'v'}
	var body string
	haveBody := false
	for _, o := range cf.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "language":
			f.Language = strings.ToLower(d.Arg.GetString_().GetSval())
		case "as":
			items := d.Arg.GetList().GetItems()
			if len(items) != 1 {
				return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "only one AS item needed for language \"%s\"", f.Language)
			}
			body, haveBody = items[0].GetString_().GetSval(), true
		case "volatility":
			switch d.Arg.GetString_().GetSval() {
			case "immutable":
				f.Volatility = 'i'
			case "stable":
				f.Volatility = 's'
			}
		case "strict":
			f.Strict = d.Arg.GetBoolean().GetBoolval()
		case "window":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "WINDOW functions in LANGUAGE sql are not supported")
		case "set":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SET clauses of functions are not supported")
		case "security":
			f.SecDef = d.Arg.GetBoolean().GetBoolval()
		case "leakproof":
			f.Leakproof = d.Arg.GetBoolean().GetBoolval()
		case "parallel", "cost", "rows", "support":
			// Planner hints joind does not act on.
		}
	}
	switch f.Language {
	case "":
		if cf.SqlBody == nil {
			return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "no language specified")
		}
		f.Language = "sql"
	case "sql":
	case "plpgsql", "c", "internal", "plperl", "plpython3u", "pltcl":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "functions in LANGUAGE %s are not supported; only LANGUAGE sql is", f.Language)
	default:
		return nil, pgerr.New(pgerr.UndefinedObject, "language \"%s\" does not exist", f.Language)
	}
	if err := b.functionParams(cf, &f); err != nil {
		return nil, err
	}
	switch {
	case cf.SqlBody != nil && haveBody:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "duplicate function body specified")
	case cf.SqlBody != nil:
		text, err := atomicBody(cf.SqlBody)
		if err != nil {
			return nil, err
		}
		f.Body, f.Atomic = text, true
	case !haveBody:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "no function body specified")
	default:
		f.Body = body
	}
	if err := b.validateFunctionBody(f); err != nil {
		return nil, err
	}
	return &CreateFunction{Replace: cf.Replace, Func: f}, nil
}

// functionParams fills f's parameters and result type from cf.
func (b *binder) functionParams(cf *pg_query.CreateFunctionStmt, f *storage.Function) error {
	var outs []storage.FuncArg
	seenDefault := false
	for _, n := range cf.Parameters {
		p := n.GetFunctionParameter()
		t, err := b.functionType(p.ArgType)
		if err != nil {
			return err
		}
		a := storage.FuncArg{Name: p.Name, Type: t, Mode: 'i'}
		switch p.Mode {
		case pg_query.FunctionParameterMode_FUNC_PARAM_OUT:
			a.Mode = 'o'
		case pg_query.FunctionParameterMode_FUNC_PARAM_INOUT:
			a.Mode = 'b'
		case pg_query.FunctionParameterMode_FUNC_PARAM_TABLE:
			a.Mode = 't'
		case pg_query.FunctionParameterMode_FUNC_PARAM_VARIADIC:
			return pgerr.New(pgerr.FeatureNotSupported, "VARIADIC parameters of SQL functions are not supported")
		}
		if a.Name != "" {
			for _, o := range f.Args {
				if o.Name == a.Name && (o.Input() && a.Input() || o.Output() && a.Output()) {
					return pgerr.New(pgerr.InvalidFunctionDefinition, "parameter name \"%s\" used more than once", a.Name)
				}
			}
		}
		if p.Defexpr != nil {
			if !a.Input() {
				return pgerr.New(pgerr.InvalidFunctionDefinition, "only input parameters can have default values")
			}
			text, err := deparseExpr(p.Defexpr)
			if err != nil {
				return err
			}
			if _, err := b.bindDefaultArg(text, a.Type); err != nil {
				return err
			}
			a.Default, seenDefault = text, true
		} else if a.Input() && seenDefault {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "input parameters after one with a default value must also have defaults")
		}
		if a.Output() {
			outs = append(outs, a)
		}
		f.Args = append(f.Args, a)
	}
	recordT := types.Type{ID: types.Record, Typmod: -1}
	switch {
	case cf.ReturnType == nil && len(outs) == 0:
		return pgerr.New(pgerr.InvalidFunctionDefinition, "function result type must be specified")
	case cf.ReturnType == nil && len(outs) == 1:
		f.Result = outs[0].Type
	case cf.ReturnType == nil:
		f.Result = recordT
	default:
		rt := proto.Clone(cf.ReturnType).(*pg_query.TypeName)
		f.RetSet, rt.Setof = rt.Setof, false
		t, err := b.functionType(rt)
		if err != nil {
			return err
		}
		f.Result = t
		if len(outs) == 1 && t != outs[0].Type && outs[0].Mode != 't' {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "function result type must be %s because of OUT parameters", outs[0].Type.SQLName())
		}
		if len(outs) > 1 && (t.ID != types.Record || t.UserOID != 0) {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "function result type must be record because of OUT parameters")
		}
	}
	return nil
}

// functionType resolves a parameter's or result's type: void and record
// besides the ordinary ones; polymorphic pseudo-types are not supported.
func (b *binder) functionType(tn *pg_query.TypeName) (types.Type, error) {
	names := nameParts(tn.Names)
	last := names[len(names)-1]
	switch {
	case last == "record" && len(tn.ArrayBounds) == 0:
		return types.Type{ID: types.Record, Typmod: -1}, nil
	case last == "void":
		return types.VoidType, nil
	case strings.HasPrefix(last, "any") && (last == "any" || strings.HasPrefix(last, "anyelement") || strings.HasPrefix(last, "anyarray") ||
		strings.HasPrefix(last, "anynonarray") || strings.HasPrefix(last, "anyenum") || strings.HasPrefix(last, "anyrange") ||
		strings.HasPrefix(last, "anymultirange") || strings.HasPrefix(last, "anycompatible")):
		return types.Type{}, pgerr.New(pgerr.FeatureNotSupported, "SQL functions over the polymorphic type %s are not supported", last)
	}
	t, err := b.typeFromName(tn)
	if err != nil {
		return types.Type{}, withoutPosition(err)
	}
	return t, nil
}

// atomicBody is the text of a SQL-standard body (RETURN expr, or BEGIN
// ATOMIC ... END): its statements deparsed, RETURN x as SELECT x.
func atomicBody(n *pg_query.Node) (string, error) {
	var stmts []*pg_query.Node
	if r := n.GetReturnStmt(); r != nil {
		stmts = []*pg_query.Node{returnAsSelect(r)}
	} else {
		for _, l := range n.GetList().GetItems() {
			for _, st := range l.GetList().GetItems() {
				if r := st.GetReturnStmt(); r != nil {
					st = returnAsSelect(r)
				}
				stmts = append(stmts, st)
			}
		}
	}
	var parts []string
	for _, st := range stmts {
		text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: st}}})
		if err != nil {
			return "", pgerr.Wrap(err, pgerr.InternalError, "cannot store the function's body: %v", err)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "; "), nil
}

func returnAsSelect(r *pg_query.ReturnStmt) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: &pg_query.SelectStmt{
		TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: r.Returnval, Location: -1}}}},
	}}}
}

// bindDefaultArg binds a parameter's DEFAULT text, coerced to its type.
func (b *binder) bindDefaultArg(text string, t types.Type) (plan.Expr, error) {
	raws, err := Parse("SELECT " + text)
	if err != nil || len(raws) != 1 {
		return nil, pgerr.New(pgerr.InternalError, "unreadable parameter default %q", text)
	}
	rt := raws[0].stmt.GetSelectStmt().TargetList[0].GetResTarget()
	saved := b.query
	b.query = "SELECT " + text
	defer func() { b.query = saved }()
	e, err := b.bindExpr(&scope{exprKind: "DEFAULT"}, rt.Val)
	if err != nil {
		return nil, withoutPosition(err)
	}
	if e, err = b.coerce(e, t, coerceAssignment, -1); err != nil {
		return nil, withoutPosition(err)
	}
	return e, nil
}

// bodyStatements parses f's body.
func bodyStatements(f storage.Function) ([]*pg_query.Node, error) {
	raws, err := Parse(f.Body)
	if err != nil {
		return nil, err
	}
	var out []*pg_query.Node
	for _, r := range raws {
		out = append(out, r.stmt)
	}
	return out, nil
}

// validateFunctionBody checks f's body as CREATE FUNCTION does: its
// SELECTs bound with the parameters as typed placeholders, the last one's
// columns against the result type. Data-modifying statements are only
// parsed (calling them is not supported).
func (b *binder) validateFunctionBody(f storage.Function) error {
	stmts, err := bodyStatements(f)
	if err != nil {
		return err
	}
	var args []plan.Expr
	for i, t := range f.InputTypes() {
		args = append(args, &plan.Param{Index: i + 1, T: t})
	}
	saved := b.query
	b.query = f.Body
	defer func() { b.query = saved }()
	if len(stmts) == 0 || stmts[len(stmts)-1].GetSelectStmt() == nil && !isDML(stmts[len(stmts)-1]) {
		if f.Result.ID == types.Void {
			return nil
		}
		return errRetMismatch(f, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
	}
	for i, st := range stmts {
		sel := st.GetSelectStmt()
		if sel == nil {
			continue
		}
		q, _, err := b.bindFuncSelect(f, sel, args)
		if err != nil {
			return bodyPosition(saved, f.Body, err)
		}
		if i == len(stmts)-1 {
			if _, err := b.funcResult(f, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// bodyPosition moves the position of an error in body to where the body
// stands in the CREATE FUNCTION statement stmt, as PostgreSQL reports it.
func bodyPosition(stmt, body string, err error) error {
	e := pgerr.As(err)
	i := strings.Index(stmt, body)
	if e.Position == 0 || i < 0 || body == "" {
		return withoutPosition(err)
	}
	return e.WithPosition(utf8.RuneCountInString(stmt[:i]) + e.Position)
}

func isDML(n *pg_query.Node) bool {
	return n.GetInsertStmt() != nil || n.GetUpdateStmt() != nil || n.GetDeleteStmt() != nil || n.GetMergeStmt() != nil
}

func errRetMismatch(f storage.Function, detail string) error {
	return pgerr.New(pgerr.InvalidFunctionDefinition, "return type mismatch in function declared to return %s", f.Result.SQLName()).
		WithDetail("%s", detail).WithWhere(fmt.Sprintf("SQL function \"%s\"", f.Name))
}

// paramScope is the scope a body's names resolve in last: the input
// parameters by name and, as hidden "$n" columns, by position, each the
// call's argument expression (a placeholder when validating).
func paramScope(f storage.Function, args []plan.Expr) *scope {
	it := &nsItem{name: f.Name, colsVisible: true}
	i := 0
	for _, a := range f.Args {
		if !a.Input() {
			continue
		}
		if a.Name != "" {
			it.cols = append(it.cols, nsColumn{name: a.Name, table: f.Name, expr: args[i], noStar: true})
		}
		it.cols = append(it.cols, nsColumn{name: fmt.Sprintf("$%d", i+1), table: f.Name, expr: args[i], noStar: true})
		i++
	}
	return &scope{items: []*nsItem{it}, exprKind: "function body"}
}

// bindFuncSelect binds one SELECT of f's body with args for its
// parameters; the scope returned is the SELECT's own, whose outerRefs are
// the caller's columns the arguments read.
func (b *binder) bindFuncSelect(f storage.Function, sel *pg_query.SelectStmt, args []plan.Expr) (*boundQuery, *scope, error) {
	ps := paramScope(f, args)
	saved := b.funcScope
	b.funcScope = ps
	defer func() { b.funcScope = saved }()
	return b.bindSelect(sel, ps, nil, true)
}

// funcParam resolves $n inside a function body: the call's argument,
// noted as an outer reference of every level between s and the body.
func (b *binder) funcParam(s *scope, idx int, loc int32) (plan.Expr, bool, error) {
	if b.funcScope == nil {
		return nil, false, nil
	}
	name := fmt.Sprintf("$%d", idx)
	for _, c := range b.funcScope.items[0].cols {
		if c.name == name {
			lvl := 0
			for cur := s; cur != nil && cur != b.funcScope; cur = cur.parent {
				lvl++
			}
			b.noteOuter(s, lvl, c.expr)
			return c.expr, true, nil
		}
	}
	return nil, true, b.errAt(pgerr.New("42P02", "there is no parameter $%d", idx), loc)
}

// funcResult checks the final SELECT q of f's body against f's result
// (check_sql_fn_retval) and returns its columns coerced, with assignment
// casts, to the result's column types.
func (b *binder) funcResult(f storage.Function, q *boundQuery) ([]plan.Expr, error) {
	cols := q.node.Columns()
	want := funcResultColumns(f)
	if want == nil && anonymousRecord(f) {
		// RETURNS record without OUT parameters: the caller's column
		// definition list types the columns.
		var out []plan.Expr
		for _, c := range cols {
			out = append(out, b.resolveUnknown(&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}))
		}
		return out, nil
	}
	if want == nil {
		// A scalar result: exactly one column.
		if len(cols) != 1 {
			return nil, errRetMismatch(f, "Final statement must return exactly one column.")
		}
		want = []types.Type{f.Result}
	}
	if f.Result.ID == types.Void {
		return nil, nil
	}
	if len(cols) != len(want) {
		if len(cols) < len(want) {
			return nil, errRetMismatch(f, "Final statement returns too few columns.")
		}
		return nil, errRetMismatch(f, "Final statement returns too many columns.")
	}
	out := make([]plan.Expr, len(cols))
	for i, c := range cols {
		var e plan.Expr = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
		if c.Type.ID == types.Unknown {
			e = b.resolveUnknown(e)
		}
		ce, err := b.coerce(e, want[i], coerceAssignment, -1)
		if err != nil {
			if len(want) == 1 && funcResultColumns(f) == nil {
				return nil, errRetMismatch(f, fmt.Sprintf("Actual return type is %s.", c.Type.SQLName()))
			}
			return nil, errRetMismatch(f, fmt.Sprintf("Final statement returns %s instead of %s at column %d.", c.Type.SQLName(), want[i].SQLName(), i+1))
		}
		out[i] = ce
	}
	return out, nil
}

// funcResultColumns are the column types of a row-returning f (OUT or
// TABLE parameters, a composite or table row type); nil for a scalar.
func funcResultColumns(f storage.Function) []types.Type {
	names, ts := funcResultFields(f)
	if names == nil {
		return nil
	}
	return ts
}

// funcResultFields are the names and types of a row-returning f's
// columns; nil for a scalar (or an anonymous record without OUT
// parameters, whose columns the body decides).
func funcResultFields(f storage.Function) ([]string, []types.Type) {
	var names []string
	var ts []types.Type
	for _, a := range f.Args {
		if a.Output() {
			names, ts = append(names, a.Name), append(ts, a.Type)
		}
	}
	if len(names) > 1 {
		return names, ts
	}
	if len(names) == 1 {
		return nil, nil
	}
	if f.Result.ID == types.Record && f.Result.Domain == 0 {
		if d := f.Result.Desc(); d != nil {
			return append([]string(nil), d.Fields...), append([]types.Type(nil), d.Types...)
		}
	}
	return nil, nil
}

// anonymousRecord reports a function returning record whose columns
// only a column definition list names (no OUT parameters).
func anonymousRecord(f storage.Function) bool {
	if f.Result.ID != types.Record || f.Result.UserOID != 0 || f.Result.Domain != 0 {
		return false
	}
	for _, a := range f.Args {
		if a.Output() {
			return false
		}
	}
	return true
}

// visibleFunctions are the user functions named name: in schema if given
// ("" = every schema of the search path, in its order).
func (b *binder) visibleFunctions(schema, name string) []storage.Function {
	fc := FunctionCatalogOf(b.cat)
	if fc == nil {
		return nil
	}
	var path []pgcatalog.Namespace
	if schema != "" {
		ns, ok := b.snapshot().NamespaceByName(schema)
		if !ok {
			return nil
		}
		path = []pgcatalog.Namespace{ns}
	} else {
		path = b.snapshot().SearchPath().Schemas
	}
	all := fc.Functions()
	var out []storage.Function
	for _, ns := range path {
		if ns.Kind != pgcatalog.NsUser {
			continue
		}
		for _, f := range all {
			if f.Schema == ns.ID && f.Name == name {
				out = append(out, f)
			}
		}
	}
	return out
}

func (b *binder) bindDropFunction(ds *pg_query.DropStmt) (Statement, error) {
	out := &DropFunction{}
	for _, o := range ds.Objects {
		owa := o.GetObjectWithArgs()
		if owa == nil {
			return nil, pgerr.New(pgerr.SyntaxError, "DROP FUNCTION of this name is not supported")
		}
		f, missing, err := b.lookupFunction(owa, ds.MissingOk)
		switch {
		case err != nil:
			return nil, err
		case missing != "":
			out.Missing = append(out.Missing, missing)
		default:
			out.Funcs = append(out.Funcs, f)
		}
	}
	return out, nil
}

// AlterFunction is ALTER FUNCTION ... [IMMUTABLE | STABLE | VOLATILE |
// [NOT] STRICT | ...]: Func as it becomes.
type AlterFunction struct{ Func storage.Function }

func (*AlterFunction) statement() {}

func (b *binder) bindAlterFunction(af *pg_query.AlterFunctionStmt) (Statement, error) {
	f, _, err := b.lookupFunction(af.Func, false)
	if err != nil {
		return nil, err
	}
	for _, a := range af.Actions {
		d := a.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "volatility":
			f.Volatility = map[string]byte{"immutable": 'i', "stable": 's', "volatile": 'v'}[d.Arg.GetString_().GetSval()]
		case "strict":
			f.Strict = d.Arg.GetBoolean().GetBoolval()
		case "security":
			f.SecDef = d.Arg.GetBoolean().GetBoolval()
		case "leakproof":
			f.Leakproof = d.Arg.GetBoolean().GetBoolval()
		case "set", "reset":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SET clauses of functions are not supported")
		}
		// COST, ROWS, PARALLEL, SUPPORT: hints joind does not act on.
	}
	return &AlterFunction{Func: f}, nil
}

// lookupFunction finds the function an ObjectWithArgs names (DROP and
// ALTER FUNCTION); with missingOK, a name matching nothing is the
// NOTICE text PostgreSQL's IF EXISTS sends instead of an error.
func (b *binder) lookupFunction(owa *pg_query.ObjectWithArgs, missingOK bool) (storage.Function, string, error) {
	names := nameParts(owa.Objname)
	name, schema := names[len(names)-1], ""
	if len(names) > 1 {
		schema = names[len(names)-2]
		if _, ok := b.snapshot().NamespaceByName(schema); !ok {
			if missingOK {
				return storage.Function{}, fmt.Sprintf("schema \"%s\" does not exist, skipping", schema), nil
			}
			return storage.Function{}, "", pgerr.New("3F000", "schema \"%s\" does not exist", schema)
		}
	}
	cands := b.visibleFunctions(schema, name)
	if owa.ArgsUnspecified {
		switch {
		case len(cands) == 1:
			return cands[0], "", nil
		case len(cands) > 1:
			return storage.Function{}, "", pgerr.New(pgerr.AmbiguousFunction, "function name \"%s\" is not unique", name).
				WithHint("Specify the argument list to select the function unambiguously.")
		case missingOK:
			return storage.Function{}, fmt.Sprintf("function %s() does not exist, skipping", strings.Join(names, ".")), nil
		}
		return storage.Function{}, "", pgerr.New(pgerr.UndefinedFunction, "could not find a function named \"%s\"", strings.Join(names, "."))
	}
	var want []types.Type
	var written []string
	for _, a := range owa.Objargs {
		tn := a.GetTypeName()
		written = append(written, strings.Join(nameParts(tn.Names), "."))
		t, err := b.functionType(tn)
		if err != nil {
			if missingOK {
				want = nil
				break
			}
			return storage.Function{}, "", err
		}
		want = append(want, t)
	}
	for _, f := range cands {
		if len(want) == len(owa.Objargs) && SameTypeOIDs(f.InputTypes(), want) {
			return f, "", nil
		}
	}
	if missingOK {
		return storage.Function{}, fmt.Sprintf("function %s(%s) does not exist, skipping", strings.Join(names, "."), strings.Join(written, ", ")), nil
	}
	var ts []string
	for _, t := range want {
		ts = append(ts, t.SQLName())
	}
	return storage.Function{}, "", pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", strings.Join(names, "."), strings.Join(ts, ", "))
}

// SameTypeOIDs reports signatures of the same catalog types (what tells
// overloads apart).
func SameTypeOIDs(a, b []types.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].CatalogOID() != b[i].CatalogOID() {
			return false
		}
	}
	return true
}
