package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// prefixLeft is the left operand type passed to types.ResolveOperator for a
// prefix operator.
var prefixLeft = types.NoArgType

// bindExpr binds one expression in scope s.
func (b *binder) bindExpr(s *scope, n *pg_query.Node) (plan.Expr, error) {
	e, err := b.bindExprInner(s, n)
	if err != nil {
		return nil, err
	}
	b.locs[e] = nodeLocation(n)
	return e, nil
}

func (b *binder) bindExprInner(s *scope, n *pg_query.Node) (plan.Expr, error) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		return b.bindColumnRef(s, x.ColumnRef)
	case *pg_query.Node_AConst:
		return b.bindConst(x.AConst)
	case *pg_query.Node_ParamRef:
		return b.bindParam(s, x.ParamRef)
	case *pg_query.Node_TypeCast:
		return b.bindTypeCast(s, x.TypeCast)
	case *pg_query.Node_AExpr:
		return b.bindAExpr(s, x.AExpr)
	case *pg_query.Node_BoolExpr:
		return b.bindBoolExpr(s, x.BoolExpr)
	case *pg_query.Node_NullTest:
		if e, ok, err := b.bindRowNullTest(s, x.NullTest); ok { // rowexpr.go
			return e, err
		}
		arg, err := b.bindExpr(s, x.NullTest.Arg)
		if err != nil {
			return nil, err
		}
		if arg.Type().ID == types.Record {
			return recordNullTest(arg, x.NullTest.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL), nil // rowtype.go
		}
		return &plan.IsNull{Arg: arg, Negate: x.NullTest.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL}, nil
	case *pg_query.Node_BooleanTest:
		return b.bindBooleanTest(s, x.BooleanTest)
	case *pg_query.Node_CaseExpr:
		return b.bindCase(s, x.CaseExpr)
	case *pg_query.Node_CoalesceExpr:
		return b.bindCoalesce(s, x.CoalesceExpr)
	case *pg_query.Node_MinMaxExpr:
		return b.bindMinMax(s, x.MinMaxExpr)
	case *pg_query.Node_FuncCall:
		return b.bindFuncCall(s, x.FuncCall)
	case *pg_query.Node_SqlvalueFunction:
		return b.bindSQLValueFunction(x.SqlvalueFunction)
	case *pg_query.Node_SubLink:
		return b.bindSubLink(s, x.SubLink, false)
	case *pg_query.Node_CollateClause:
		return b.bindCollate(s, x.CollateClause) // collate.go
	case *pg_query.Node_RowExpr:
		return b.bindRowValue(s, x.RowExpr) // rowtype.go
	case *pg_query.Node_SetToDefault:
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "DEFAULT is not allowed in this context"), x.SetToDefault.Location)
	case *pg_query.Node_AArrayExpr:
		return b.bindArrayExpr(s, x.AArrayExpr, types.Type{}) // array.go
	case *pg_query.Node_AIndirection:
		if e, ok, err := b.arraySubscript(s, x.AIndirection); ok { // array.go
			return e, err
		}
		if e, ok, err := b.jsonbSubscript(s, x.AIndirection); ok { // jsonsubscript.go
			return e, err
		}
		if e, ok, err := b.textArraySubscript(s, x.AIndirection); ok { // catalog text arrays (pgcatalogfuncs.go)
			return e, err
		}
		if e, ok, err := b.fieldSelection(s, x.AIndirection); ok { // rowexpr.go
			return e, err
		}
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "subscripts and field selection are not supported"), nodeLocation(x.AIndirection.Arg))
	case *pg_query.Node_GroupingFunc:
		return b.bindGroupingFunc(s, x.GroupingFunc) // groupingsets.go
	}
	return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "expression %s is not supported", nodeTypeName(n)), nodeLocation(n))
}

func (b *binder) bindColumnRef(s *scope, cr *pg_query.ColumnRef) (plan.Expr, error) {
	var names []string
	for _, f := range cr.Fields {
		switch v := f.GetNode().(type) {
		case *pg_query.Node_String_:
			names = append(names, v.String_.Sval)
		case *pg_query.Node_AStar:
			if len(names) == 1 && len(cr.Fields) == 2 {
				return b.wholeRow(s, names[0], cr.Location) // rowtype.go
			}
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "row expansion via \"*\" is not supported here"), cr.Location)
		}
	}
	if b.domainValue != nil && len(names) == 1 && names[0] == "value" {
		return b.domainValue, nil // a domain CHECK's VALUE (usertypes_domain.go)
	}
	var col nsColumn
	var err error
	switch len(names) {
	case 1:
		col, err = b.lookupColumn(s, names[0], cr.Location)
	case 2:
		col, err = b.lookupQualified(s, names[0], names[1], cr.Location)
		if err != nil && pgerr.Code(err) == pgerr.UndefinedColumn {
			if e, ok, ferr := b.columnNotationCall(s, names[0], names[1], cr.Location); ok {
				return e, ferr
			}
		}
	case 3, 4:
		// [database.]schema.table.column: an unknown schema matches no
		// FROM item (PostgreSQL's refnameNamespaceItem).
		if len(names) == 4 {
			if names[0] != b.snapshot().Database() {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(names, ".")), cr.Location)
			}
			names = names[1:]
		}
		schema := names[0]
		if ns, ok := b.snapshot().NamespaceByName(schema); ok {
			schema = ns.Name
		}
		col, err = b.lookupQualifiedIn(s, schema, names[1], names[2], cr.Location)
	default:
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(names, ".")), cr.Location)
	}
	if err != nil {
		return nil, err
	}
	b.noteColumnUse(col.expr)
	if ref, ok := col.expr.(*plan.ColRef); ok {
		// A fresh node per reference, so error positions stay per reference.
		c := *ref
		return &c, nil
	}
	return col.expr, nil
}

// bindConst types a literal as PostgreSQL's make_const does.
func (b *binder) bindConst(c *pg_query.A_Const) (plan.Expr, error) {
	if c.Isnull {
		return &plan.Const{Val: types.NullValue, T: types.UnknownType}, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return &plan.Const{Val: types.IntValue(int64(v.Ival.Ival)), T: types.Int4Type}, nil
	case *pg_query.A_Const_Fval:
		s := v.Fval.Fval
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				// As make_const: an integer the lexer found too long
				// (the parser folds -2147483648 into one) is int4 if it fits.
				t := types.Int8Type
				if i == int64(int32(i)) {
					t = types.Int4Type
				}
				return &plan.Const{Val: types.IntValue(i), T: t}, nil
			}
		}
		val, err := types.ParseText(s, types.NumericType)
		if err != nil {
			return nil, b.wrapAt(err, c.Location)
		}
		return &plan.Const{Val: val, T: types.NumericType}, nil
	case *pg_query.A_Const_Sval:
		return &plan.Const{Val: types.TextValue(v.Sval.Sval), T: types.UnknownType}, nil
	case *pg_query.A_Const_Boolval:
		return &plan.Const{Val: types.BoolValue(v.Boolval.Boolval), T: types.BoolType}, nil
	case *pg_query.A_Const_Bsval:
		// B'101' and X'1F' arrive as "b101" / "x1F": bit_in reads the
		// prefix, and the constant is of type bit without a length.
		val, err := types.ParseText(v.Bsval.Bsval, types.BitType)
		if err != nil {
			return nil, b.wrapAt(err, c.Location)
		}
		return &plan.Const{Val: val, T: types.BitType}, nil
	}
	return nil, b.errAt(pgerr.New(pgerr.InternalError, "unrecognized constant"), c.Location)
}

func (b *binder) bindParam(s *scope, p *pg_query.ParamRef) (plan.Expr, error) {
	idx := int(p.Number)
	if idx < 1 {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedObject, "there is no parameter $%d", idx), p.Location)
	}
	if e, ok, err := b.funcParam(s, idx, p.Location); ok { // function.go
		return e, err
	}
	if b.params == nil {
		b.params = map[int]*plan.Param{}
	}
	if pr, ok := b.params[idx]; ok {
		return pr, nil
	}
	t := types.UnknownType
	if b.opts != nil && idx <= len(b.opts.ParamTypes) {
		t = b.opts.ParamTypes[idx-1]
	}
	pr := &plan.Param{Index: idx, T: t}
	b.params[idx] = pr
	return pr, nil
}

// typeFromName resolves a pg_query TypeName.
func (b *binder) typeFromName(tn *pg_query.TypeName) (types.Type, error) {
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return types.Type{}, b.errAt(pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers"), nodeLocation(m))
		}
		mods = append(mods, c.GetIval().Ival)
	}
	if tn.Setof {
		return types.Type{}, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "SETOF types are not supported"), tn.Location)
	}
	if tn.PctType {
		return types.Type{}, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%%TYPE references are not supported"), tn.Location)
	}
	t, err := types.FromTypeName(names, mods, len(tn.ArrayBounds))
	if err != nil {
		if ut, ok, uerr := b.userTypeFromName(names, len(mods), len(tn.ArrayBounds), tn.Location); ok { // usertypes.go
			return ut, uerr
		}
		if rt, ok := b.relationRowType(names); ok && len(mods) == 0 { // rowtype.go
			if len(tn.ArrayBounds) > 0 {
				rt = types.ArrayOf(rt)
			}
			return rt, nil
		}
		return types.Type{}, b.wrapAt(err, tn.Location)
	}
	return t, nil
}

func (b *binder) bindTypeCast(s *scope, tc *pg_query.TypeCast) (plan.Expr, error) {
	if e, ok, err := b.regCast(s, tc); ok { // object-identifier casts (pgcatalog.go)
		return e, err
	}
	if e, ok, err := b.rowToText(s, tc); ok { // rowexpr.go
		return e, err
	}
	t, err := b.typeFromName(tc.TypeName)
	if err != nil {
		return nil, err
	}
	var arg plan.Expr
	if ae := tc.Arg.GetAArrayExpr(); ae != nil && t.ID == types.Array {
		arg, err = b.bindArrayExpr(s, ae, t) // array.go
		b.locs[arg] = ae.Location
	} else {
		arg, err = b.bindExpr(s, tc.Arg)
	}
	if err != nil {
		return nil, err
	}
	loc := tc.Location
	if loc < 0 {
		loc = tc.TypeName.Location
	}
	return b.coerce(arg, t, coerceExplicit, loc)
}

// coercion contexts, as PostgreSQL's CoercionContext.
type coerceCtx uint8

const (
	coerceImplicit coerceCtx = iota
	coerceAssignment
	coerceExplicit
)

// coerce converts e to t in the given context: unknown literals and
// parameters take the type directly, other expressions get a plan.Cast
// when types.CanCast allows it. loc positions the "cannot cast" error.
func (b *binder) coerce(e plan.Expr, t types.Type, ctx coerceCtx, loc int32) (plan.Expr, error) {
	from := e.Type()
	if from == t {
		return e, nil
	}
	if t.Domain != 0 || from.Domain != 0 {
		return b.coerceDomain(e, t, ctx, loc) // usertypes_domain.go
	}
	if t.ElemDomain != 0 && from.ID == types.Unknown {
		// '{...}'::posint[]: read as the base type's array, then each
		// element checked against the domain (types' castArray): here, as
		// PostgreSQL's input function, where the session can evaluate
		// the domain's constraints, else at execution.
		base := types.ArrayOf(t.ElemType().BaseType())
		v, err := b.coerce(e, base, ctx, loc)
		if err != nil {
			return nil, err
		}
		if c, ok := v.(*plan.Const); ok && b.evalContext().Domains != nil {
			w, err := types.CastValue(b.evalContext(), c.Val, base, t, ctx == coerceExplicit)
			if err != nil {
				return nil, b.wrapAt(err, b.locOf(e))
			}
			return b.keepLoc(&plan.Const{Val: w, T: t}, e), nil
		}
		return b.keepLoc(&plan.Cast{Input: v, T: t, Explicit: ctx == coerceExplicit}, e), nil
	}
	switch x := e.(type) {
	case *plan.Const:
		if from.ID == types.Unknown {
			if x.Val.Null {
				return b.keepLoc(&plan.Const{Val: types.NullValue, T: t}, e), nil
			}
			// Input conversion ignores the typmod (except for interval);
			// the length coercion then follows the cast context.
			in := t
			if t.ID != types.Interval && t.ID != types.Record { // a record's typmod is its fields
				in.Typmod = -1
			}
			// Literals are read with the session's settings: DateStyle's
			// field order for dates and timestamps, TimeZone for timestamptz.
			v, err := types.ParseTextCtx(b.evalContext(), x.Val.S, in)
			if err != nil {
				return nil, b.wrapAt(err, b.locOf(e))
			}
			b.noteStoredLiteral(e, v, in)
			if in != t {
				// A length coercion runs at execution in PostgreSQL: no position.
				w, err := types.CastValue(b.evalContext(), v, in, t, ctx == coerceExplicit)
				if err != nil {
					if b.lazyCasts {
						return b.keepLoc(&plan.Cast{Input: &plan.Const{Val: v, T: in}, T: t, Explicit: ctx == coerceExplicit}, e), nil
					}
					return nil, err
				}
				v = w
			}
			return b.keepLoc(&plan.Const{Val: v, T: t}, e), nil
		}
	case *plan.Param:
		if from.ID == types.Unknown {
			// As PostgreSQL's coerce_type: the parameter takes the type
			// without its modifier (its value is read with typmod -1) and a
			// length coercion follows, so $1 into an interval month column
			// reads '3' as seconds, and $1::varchar(3) truncates.
			x.T = t
			x.T.Typmod = -1
			if t.Typmod < 0 || t.ID == types.Record { // a record's typmod is its fields
				x.T = t
				return e, nil
			}
			return b.keepLoc(&plan.Cast{Input: e, T: t, Explicit: ctx == coerceExplicit}, e), nil
		}
	}
	if from.ID == types.Unknown {
		// An unknown-typed non-literal (e.g. a subquery output): text input.
		return b.keepLoc(&plan.Cast{Input: e, T: t, Explicit: ctx == coerceExplicit}, e), nil
	}
	if from.ID == t.ID && from.Elem == t.Elem && from.UserOID == t.UserOID {
		// Same type, different typmod: a length/precision coercion.
		return b.keepLoc(&plan.Cast{Input: e, T: t, Explicit: ctx == coerceExplicit}, e), nil
	}
	imp, asg, exp := types.CanCast(from, t)
	ok := imp || (ctx >= coerceAssignment && asg) || (ctx == coerceExplicit && exp)
	if !ok {
		if ctx == coerceExplicit {
			return nil, b.errAt(pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", typeName(from), typeName(t)), loc)
		}
		return nil, errCannotCoerce
	}
	if c, isConst := e.(*plan.Const); isConst && !types.CastStable(from.ID, t.ID) {
		// Fold immutable casts of constants, as PostgreSQL's
		// eval_const_expressions would. A failing one stays a cast: the
		// planner's error is raised by optimizer.PlanTimeError, and only if
		// the expression survives pruning. Stable casts (text to date, ...)
		// run per row at execution, as in PostgreSQL.
		if v, err := types.CastValue(b.evalContext(), c.Val, from, t, ctx == coerceExplicit); err == nil {
			return b.keepLoc(&plan.Const{Val: v, T: t}, e), nil
		}
	}
	return b.keepLoc(&plan.Cast{Input: e, T: t, Explicit: ctx == coerceExplicit}, e), nil
}

// evalContext is what the binder folds constants with: the session's,
// with the reg* types' names read from the statement's own snapshot.
func (b *binder) evalContext() *types.EvalContext {
	ctx := types.EvalContext{}
	if b.opts != nil && b.opts.EvalContext != nil {
		ctx = *b.opts.EvalContext
	}
	f := types.DefaultFormat
	if ctx.Format != nil {
		f = *ctx.Format
	}
	f.Reg = regCatalog{b}
	ctx.Format = &f
	return &ctx
}

var errCannotCoerce = pgerr.New(pgerr.CannotCoerce, "cannot coerce")

func (b *binder) keepLoc(n, old plan.Expr) plan.Expr {
	if l, ok := b.locs[old]; ok {
		if _, has := b.locs[n]; !has {
			b.locs[n] = l
		}
	}
	return n
}

func (b *binder) locOf(e plan.Expr) int32 {
	if l, ok := b.locs[e]; ok {
		return l
	}
	return -1
}

// typeName is format_type_be: the SQL name without modifiers.
func typeName(t types.Type) string {
	return t.BaseSQLName()
}

// coerceToBool is coerce_to_boolean: unknown literals become bool, other
// non-boolean types are an error naming the clause.
func (b *binder) coerceToBool(e plan.Expr, what string) (plan.Expr, error) {
	if err := b.notASet(e, what); err != nil {
		return nil, err
	}
	t := e.Type()
	if t.ID == types.Bool {
		return e, nil
	}
	if t.ID == types.Unknown {
		return b.coerce(e, types.BoolType, coerceImplicit, b.locOf(e))
	}
	return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", what, typeName(t)), b.locOf(e))
}

// operator applies a binary (or prefix, when l is nil) operator.
func (b *binder) operator(name string, l, r plan.Expr, loc int32) (plan.Expr, error) {
	return b.operatorMemo(name, l, r, loc, nil)
}

// operatorMemo is operator with the overloads already resolved for this
// name and left operand, by right operand type: an IN list of 100,000
// constants resolves its operator once per type, not per item (overload
// resolution depends on the operand types alone).
func (b *binder) operatorMemo(name string, l, r plan.Expr, loc int32, memo map[types.Type]*types.Overload) (plan.Expr, error) {
	lt := prefixLeft
	if l != nil {
		lt = l.Type()
	}
	ov, ok := memo[r.Type()]
	if !ok {
		var err error
		if ov, err = types.ResolveOperator(name, lt, r.Type()); err != nil {
			return nil, b.wrapAt(err, loc)
		}
		if memo != nil {
			memo[r.Type()] = ov
		}
	}
	var args []plan.Expr
	if l != nil {
		args = []plan.Expr{l, r}
	} else {
		args = []plan.Expr{r}
	}
	if err := b.castArgs(args, ov.Args); err != nil {
		return nil, err
	}
	call := &plan.Call{Func: ov, Args: args}
	b.locs[call] = loc
	return call, nil
}

// castArgs casts args in place to the overload's declared argument types.
func (b *binder) castArgs(args []plan.Expr, want []types.Type) error {
	for i := range args {
		if i >= len(want) {
			break
		}
		if args[i].Type() == want[i] {
			continue
		}
		// Overload resolution only picks implicitly castable arguments.
		c, err := b.coerce(args[i], want[i], coerceImplicit, b.locOf(args[i]))
		if err != nil {
			return err
		}
		args[i] = c
	}
	return nil
}

// castCallArgs is castArgs for a call whose arguments anyArg marks as
// declared "any": an untyped parameter there keeps no type (it takes its
// argument's own, and has none), so finishParams reports it as
// PostgreSQL's check_variable_parameters does.
func (b *binder) castCallArgs(args []plan.Expr, want []types.Type, anyArg []bool) error {
	for i, a := range args {
		if p, ok := a.(*plan.Param); ok && i < len(anyArg) && anyArg[i] && p.T.ID == types.Unknown {
			b.noteUntypedParam(p)
			want = append(want[:i:i], append([]types.Type{p.T}, want[i+1:]...)...)
		}
	}
	return b.castArgs(args, want)
}

// noteUntypedParam records a parameter used where it takes no type from
// its context ("any" arguments, ROW fields).
func (b *binder) noteUntypedParam(p *plan.Param) {
	if b.untypedParams == nil {
		b.untypedParams = map[int]bool{}
	}
	b.untypedParams[p.Index] = true
}

func opName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

// checkOperatorSchema checks OPERATOR(schema.op): every operator joind has
// is pg_catalog's, so public holds none and other schemas do not exist.
func (b *binder) checkOperatorSchema(a *pg_query.A_Expr, l, r plan.Expr) error {
	if len(a.Name) < 2 {
		return nil
	}
	schema := a.Name[0].GetString_().GetSval()
	switch {
	case len(a.Name) == 2 && schema == "pg_catalog":
		return nil
	case len(a.Name) == 2 && b.routinelessSchema(schema):
		op := schema + "." + opName(a.Name)
		hint := "No operator matches the given name and argument type. You might need to add an explicit type cast."
		if l != nil {
			op = typeName(l.Type()) + " " + op
			hint = "No operator matches the given name and argument types. You might need to add explicit type casts."
		}
		return b.errAt(pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s", op, typeName(r.Type())).WithHint("%s", hint), a.Location)
	case len(a.Name) > 2:
		return pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(nameParts(a.Name), "."))
	}
	return b.errAt(pgerr.New("3F000", "schema \"%s\" does not exist", schema), a.Location)
}

func nameParts(ns []*pg_query.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.GetString_().GetSval()
	}
	return out
}

func (b *binder) bindAExpr(s *scope, a *pg_query.A_Expr) (plan.Expr, error) {
	name := opName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP, pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		if le, ok := rowArgs(a.Lexpr); ok && a.Kind == pg_query.A_Expr_Kind_AEXPR_OP {
			if re, ok := rowArgs(a.Rexpr); ok { // rowexpr.go
				return b.bindRowComparison(s, name, le, re, a.Location)
			}
			if sl := a.Rexpr.GetSubLink(); sl != nil && sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
				// "row op (SELECT ...)" is a ROWCOMPARE sublink (transformAExprOp).
				rc := &pg_query.SubLink{SubLinkType: pg_query.SubLinkType_ROWCOMPARE_SUBLINK, Testexpr: a.Lexpr,
					OperName: a.Name, Subselect: sl.Subselect, Location: a.Location}
				return b.bindRowCompareSubLink(s, rc)
			}
		}
		var l plan.Expr
		var err error
		if a.Lexpr != nil {
			if l, err = b.bindExpr(s, a.Lexpr); err != nil {
				return nil, err
			}
		}
		r, err := b.bindExpr(s, a.Rexpr)
		if err != nil {
			return nil, err
		}
		if err := b.checkOperatorSchema(a, l, r); err != nil {
			return nil, err
		}
		return b.operator(name, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if le, ok := rowArgs(a.Lexpr); ok {
			if re, ok := rowArgs(a.Rexpr); ok { // rowexpr.go
				return b.bindRowDistinct(s, le, re, a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT, a.Location)
			}
		}
		l, r, err := b.bindPair(s, a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		c, err := b.operator("=", l, r, a.Location)
		if err != nil {
			return nil, err
		}
		call := c.(*plan.Call)
		return &plan.IsDistinct{Left: call.Args[0], Right: call.Args[1], Eq: call.Func,
			Negate: a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT}, nil
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := b.bindPair(s, a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		c, err := b.operator("=", l, r, a.Location)
		if err != nil {
			return nil, err
		}
		call := c.(*plan.Call)
		return &plan.NullIf{Left: call.Args[0], Right: call.Args[1], Eq: call.Func}, nil
	case pg_query.A_Expr_Kind_AEXPR_IN:
		if _, ok := rowArgs(a.Lexpr); ok {
			return b.bindRowIn(s, a, name) // rowexpr.go
		}
		l, err := b.bindExpr(s, a.Lexpr)
		if err != nil {
			return nil, err
		}
		list := a.Rexpr.GetList().GetItems()
		terms := make([]plan.Expr, 0, len(list))
		memo := map[types.Type]*types.Overload{}
		for _, item := range list {
			r, err := b.bindExpr(s, item)
			if err != nil {
				return nil, err
			}
			t, err := b.operatorMemo(name, l, r, a.Location, memo)
			if err != nil {
				return nil, err
			}
			terms = append(terms, t)
		}
		if err := b.inListNotASet(l, terms); err != nil {
			return nil, err
		}
		return inListTerms(name, terms), nil
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return b.bindBetween(s, a)
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		if e, ok, err := b.anyOverArray(s, a); ok { // array.go
			return e, err
		}
		if e, ok, err := b.anyOverText(s, a); ok { // catalog text arrays (pgcatalogfuncs.go)
			return e, err
		}
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "op ANY/ALL (array) is not supported"), a.Location)
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR:
		// The parser made it "~" (or "!~") over similar_to_escape(pattern
		// [, escape]), as PostgreSQL's does (types/similar.go).
		l, r, err := b.bindPair(s, a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		return b.operator(name, l, r, a.Location)
	}
	return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "operator kind %s is not supported", a.Kind.String()), a.Location)
}

func (b *binder) bindPair(s *scope, x, y *pg_query.Node) (plan.Expr, plan.Expr, error) {
	l, err := b.bindExpr(s, x)
	if err != nil {
		return nil, nil, err
	}
	r, err := b.bindExpr(s, y)
	if err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

func (b *binder) bindBetween(s *scope, a *pg_query.A_Expr) (plan.Expr, error) {
	x, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, err
	}
	bounds := a.Rexpr.GetList().GetItems()
	if len(bounds) != 2 {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "BETWEEN needs two bounds"), a.Location)
	}
	lo, hi, err := b.bindPair(s, bounds[0], bounds[1])
	if err != nil {
		return nil, err
	}
	// x BETWEEN lo AND hi  ==  x >= lo AND x <= hi; NOT: x < lo OR x > hi.
	within := func(lo, hi plan.Expr, negate bool) (plan.Expr, error) {
		op1, op2 := ">=", "<="
		if negate {
			op1, op2 = "<", ">"
		}
		c1, err := b.operator(op1, x, lo, a.Location)
		if err != nil {
			return nil, err
		}
		c2, err := b.operator(op2, x, hi, a.Location)
		if err != nil {
			return nil, err
		}
		// The AND (OR) PostgreSQL builds checks its arms as conditions.
		what := "AND"
		if negate {
			what = "OR"
		}
		for _, c := range []plan.Expr{c1, c2} {
			if err := b.notASetAt(c, what, b.locOf(x)); err != nil {
				return nil, err
			}
		}
		if negate {
			return &plan.Or{Args: []plan.Expr{c1, c2}}, nil
		}
		return &plan.And{Args: []plan.Expr{c1, c2}}, nil
	}
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
		return within(lo, hi, false)
	case pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		return within(lo, hi, true)
	}
	e1, err := within(lo, hi, a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM)
	if err != nil {
		return nil, err
	}
	e2, err := within(hi, lo, a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM)
	if err != nil {
		return nil, err
	}
	if a.Kind == pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM {
		return &plan.Or{Args: []plan.Expr{e1, e2}}, nil
	}
	return &plan.And{Args: []plan.Expr{e1, e2}}, nil
}

func (b *binder) bindBoolExpr(s *scope, be *pg_query.BoolExpr) (plan.Expr, error) {
	what := "AND"
	switch be.Boolop {
	case pg_query.BoolExprType_OR_EXPR:
		what = "OR"
	case pg_query.BoolExprType_NOT_EXPR:
		what = "NOT"
		// NOT (x IN (subquery)) is x <> ALL (subquery): exact under
		// three-valued logic and keeps the NOT IN shape for the planner.
		if len(be.Args) == 1 {
			if sl := be.Args[0].GetSubLink(); sl != nil && sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK &&
				(len(sl.OperName) == 0 || opName(sl.OperName) == "=") {
				return b.bindSubLink(s, sl, true)
			}
		}
	}
	var args []plan.Expr
	for _, a := range be.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		if e, err = b.coerceToBool(e, what); err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	switch be.Boolop {
	case pg_query.BoolExprType_AND_EXPR:
		return &plan.And{Args: args}, nil
	case pg_query.BoolExprType_OR_EXPR:
		return &plan.Or{Args: args}, nil
	}
	return &plan.Not{Arg: args[0]}, nil
}

func (b *binder) bindBooleanTest(s *scope, bt *pg_query.BooleanTest) (plan.Expr, error) {
	arg, err := b.bindExpr(s, bt.Arg)
	if err != nil {
		return nil, err
	}
	var kind plan.BoolTestKind
	what := "IS TRUE"
	switch bt.Booltesttype {
	case pg_query.BoolTestType_IS_TRUE:
		kind, what = plan.IsTrue, "IS TRUE"
	case pg_query.BoolTestType_IS_NOT_TRUE:
		kind, what = plan.IsNotTrue, "IS NOT TRUE"
	case pg_query.BoolTestType_IS_FALSE:
		kind, what = plan.IsFalse, "IS FALSE"
	case pg_query.BoolTestType_IS_NOT_FALSE:
		kind, what = plan.IsNotFalse, "IS NOT FALSE"
	case pg_query.BoolTestType_IS_UNKNOWN:
		kind, what = plan.IsUnknown, "IS UNKNOWN"
	case pg_query.BoolTestType_IS_NOT_UNKNOWN:
		kind, what = plan.IsNotUnknown, "IS NOT UNKNOWN"
	}
	if arg, err = b.coerceToBool(arg, what); err != nil {
		return nil, err
	}
	return &plan.BoolTest{Arg: arg, Kind: kind}, nil
}

func (b *binder) bindCase(s *scope, ce *pg_query.CaseExpr) (plan.Expr, error) {
	var testArg plan.Expr
	if ce.Arg != nil {
		var err error
		if testArg, err = b.bindExpr(s, ce.Arg); err != nil {
			return nil, err
		}
	}
	var whens []plan.When
	var results []plan.Expr
	for _, wn := range ce.Args {
		w := wn.GetCaseWhen()
		cond, err := b.bindExpr(s, w.Expr)
		if err != nil {
			return nil, err
		}
		if testArg != nil {
			// Simple CASE: arg = value.
			if cond, err = b.operator("=", testArg, cond, w.Location); err != nil {
				return nil, err
			}
		} else if cond, err = b.coerceToBool(cond, "CASE/WHEN"); err != nil {
			return nil, err
		}
		res, err := b.bindExpr(s, w.Result)
		if err != nil {
			return nil, err
		}
		whens = append(whens, plan.When{Cond: cond, Result: res})
		results = append(results, res)
	}
	var els plan.Expr
	if ce.Defresult != nil {
		var err error
		if els, err = b.bindExpr(s, ce.Defresult); err != nil {
			return nil, err
		}
	}
	if err := b.noSetFuncIn("CASE", append(append([]plan.Expr{testArg, els}, results...), caseConds(whens)...)...); err != nil {
		return nil, err
	}
	// PostgreSQL considers the ELSE result first when choosing the type.
	all := results
	if els != nil {
		all = append([]plan.Expr{els}, results...)
	}
	t, err := b.commonType("CASE", all)
	if err != nil {
		return nil, err
	}
	for i := range whens {
		if whens[i].Result, err = b.coerceCommon("CASE", whens[i].Result, t); err != nil {
			return nil, err
		}
	}
	if els != nil {
		if els, err = b.coerceCommon("CASE", els, t); err != nil {
			return nil, err
		}
	}
	return &plan.Case{Whens: whens, Else: els, T: t}, nil
}

func (b *binder) bindList(s *scope, nodes []*pg_query.Node) ([]plan.Expr, error) {
	out := make([]plan.Expr, 0, len(nodes))
	for _, n := range nodes {
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (b *binder) bindCoalesce(s *scope, ce *pg_query.CoalesceExpr) (plan.Expr, error) {
	args, err := b.bindList(s, ce.Args)
	if err != nil {
		return nil, err
	}
	if err := b.noSetFuncIn("COALESCE", args...); err != nil {
		return nil, err
	}
	t, err := b.commonType("COALESCE", args)
	if err != nil {
		return nil, err
	}
	for i := range args {
		if args[i], err = b.coerceCommon("COALESCE", args[i], t); err != nil {
			return nil, err
		}
	}
	return &plan.Coalesce{Args: args, T: t}, nil
}

// bindMinMax binds GREATEST/LEAST as a Call of a non-strict overload that
// ignores NULL arguments and compares with the type's ">" or "<" operator.
func (b *binder) bindMinMax(s *scope, mm *pg_query.MinMaxExpr) (plan.Expr, error) {
	name, op := "greatest", ">"
	if mm.Op == pg_query.MinMaxOp_IS_LEAST {
		name, op = "least", "<"
	}
	args, err := b.bindList(s, mm.Args)
	if err != nil {
		return nil, err
	}
	ctx := strings.ToUpper(name)
	t, err := b.commonType(ctx, args)
	if err != nil {
		return nil, err
	}
	argTypes := make([]types.Type, len(args))
	for i := range args {
		if args[i], err = b.coerceCommon(ctx, args[i], t); err != nil {
			return nil, err
		}
		argTypes[i] = t
	}
	if !types.HasOrdering(t) {
		return unorderedMinMax(name, argTypes, t, args), nil
	}
	cmp, err := types.ResolveOperator(op, t, t)
	if err != nil {
		return nil, b.wrapAt(err, mm.Location)
	}
	ov := &types.Overload{
		Name:   name,
		Args:   argTypes,
		Result: t,
		// As volatile as its comparison (greatest(date, timestamptz) is stable).
		Stable:   cmp.Stable,
		Volatile: cmp.Volatile,
		Eval: func(ctx *types.EvalContext, vals []types.Value) (types.Value, error) {
			best := types.NullValue
			for _, v := range vals {
				if v.Null {
					continue
				}
				if best.Null {
					best = v
					continue
				}
				better, err := cmp.Eval(ctx, []types.Value{v, best})
				if err != nil {
					return types.NullValue, err
				}
				if !better.Null && better.I != 0 {
					best = v
				}
			}
			return best, nil
		},
	}
	return &plan.Call{Func: ov, Args: args}, nil
}

func (b *binder) bindSQLValueFunction(f *pg_query.SQLValueFunction) (plan.Expr, error) {
	name := sqlValueFunctionName(f.Op)
	if name == "" {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s is not supported", f.Op.String()), f.Location)
	}
	if e, ok, err := b.catalogFunc(name, nil, f.Location); ok {
		return e, err
	}
	var args []types.Type
	var argExprs []plan.Expr
	if f.Typmod >= 0 {
		args = []types.Type{types.Int4Type}
		argExprs = []plan.Expr{&plan.Const{Val: types.IntValue(int64(f.Typmod)), T: types.Int4Type}}
	}
	ov, err := types.ResolveFunction(name, args)
	if err != nil {
		return nil, b.wrapAt(err, f.Location)
	}
	return &plan.Call{Func: ov, Args: argExprs}, nil
}

func sqlValueFunctionName(op pg_query.SQLValueFunctionOp) string {
	switch op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		return "current_date"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		return "current_time"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return "current_timestamp"
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		return "localtime"
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		return "localtimestamp"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		return "current_role"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER:
		return "current_user"
	case pg_query.SQLValueFunctionOp_SVFOP_USER:
		return "user"
	case pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:
		return "session_user"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return "current_catalog"
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		return "current_schema"
	}
	return ""
}

func funcName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func (b *binder) bindFuncCall(s *scope, fc *pg_query.FuncCall) (plan.Expr, error) {
	name := funcName(fc.Funcname)
	if len(fc.Funcname) > 1 {
		schema := fc.Funcname[0].GetString_().GetSval()
		switch {
		case len(fc.Funcname) > 2:
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s",
				strings.Join(nameParts(fc.Funcname), ".")), fc.Location)
		case schema == "information_schema" && types.IsFunction(schema+"."+name):
			// information_schema's helper functions (_pg_expandarray) are
			// registered under their qualified names.
			name = schema + "." + name
		case len(b.visibleFunctions(schema, name)) > 0: // function_call.go
			args, err := b.bindList(s, fc.Args)
			if err != nil {
				return nil, err
			}
			if e, ok, err := b.userFuncCall(s, schema, name, args, fc.Location); ok {
				return e, err
			}
			return nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s.%s(%s) does not exist", schema, name, argTypeList(args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		case b.routinelessSchema(schema):
			// Every function joind has outside user schemas is pg_catalog's.
			args, err := b.bindList(s, fc.Args)
			if err != nil {
				return nil, err
			}
			return nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s.%s(%s) does not exist", schema, name, argTypeList(args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		case schema != "pg_catalog":
			return nil, b.errAt(pgerr.New("3F000", "schema \"%s\" does not exist", schema), fc.Location)
		}
	}
	if err := b.checkWithinGroupSyntax(s, fc, name); err != nil {
		return nil, err
	}
	if fc.Over != nil {
		return b.bindWindowCall(s, fc, name)
	}
	if isWindowFuncName(name) && !fc.AggWithinGroup {
		return nil, b.errWindowNeedsOver(s, fc, name)
	}
	if fc.FuncVariadic {
		return b.bindVariadicCall(s, fc, name) // variadic.go
	}
	if hasNamedArgs(fc.Args) {
		return b.bindNamedArgCall(s, fc, name)
	}
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.AggWithinGroup || isAggregateName(name) {
		if !isAggregateName(name) {
			if err := b.notAggregate(s, fc, name); err != nil {
				return nil, err
			}
		}
		return b.bindAggregate(s, fc, name)
	}
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return nil, err
	}
	if len(fc.Funcname) == 1 && len(args) == 1 && args[0].Type().ID == types.Record {
		// Function syntax tries a function before the projection
		// (ParseFuncOrColumn): longname(f) calls longname even when f has
		// a column of that name.
		if e, ok, err := b.userFuncCall(s, "", name, args, fc.Location); ok { // function_call.go
			return e, err
		}
	}
	if e, ok, err := b.functionalFieldSelect(fc, name, args); ok { // funccast.go
		return e, err
	}
	if e, ok, err := b.catalogFunc(name, args, fc.Location); ok {
		return e, err
	}
	if isUnknownLiteral(args) { // funccast.go
		if e, ok, cerr := b.functionStyleCast(name, args, fc.Location); ok {
			return e, cerr
		}
	}
	if len(fc.Funcname) == 1 {
		if e, ok, err := b.userFuncCall(s, "", name, args, fc.Location); ok { // function_call.go
			return e, err
		}
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	ov, err := types.ResolveFunction(name, argTypes)
	if err == nil && name == "pg_column_size" {
		err = checkColumnSizeArg(args[0]) // funccast.go
	}
	if err != nil {
		if e, ok, cerr := b.functionStyleCast(name, args, fc.Location); ok { // funccast.go
			return e, cerr
		}
		return nil, b.wrapAt(err, fc.Location)
	}
	if ov.SetReturning {
		if err := b.checkSetFuncPlacement(s, fc.Location); err != nil {
			return nil, err
		}
	}
	if err := b.castCallArgs(args, ov.Args, ov.AnyArgs); err != nil {
		return nil, err
	}
	return &plan.Call{Func: ov, Args: args}, nil
}

// notAggregate is PostgreSQL's 42809 for aggregate syntax (*, DISTINCT,
// WITHIN GROUP, ORDER BY, FILTER) on a plain function; nil when name is no
// function for these arguments (the aggregate lookup then reports it).
func (b *binder) notAggregate(s *scope, fc *pg_query.FuncCall, name string) error {
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return err
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	if _, err := types.ResolveFunction(name, argTypes); err != nil {
		return nil
	}
	what := "FILTER"
	switch {
	case fc.AggStar:
		what = name + "(*)"
	case fc.AggDistinct:
		what = "DISTINCT"
	case fc.AggWithinGroup:
		what = "WITHIN GROUP"
	case len(fc.AggOrder) > 0:
		what = "ORDER BY"
	}
	return b.errAt(pgerr.New(pgerr.WrongObjectType, "%s specified, but %s is not an aggregate function", what, name), fc.Location)
}

// aggState collects the aggregate calls of one query level.
type aggState struct {
	calls  []plan.AggCall
	cols   []plan.Column
	locs   []int32
	inAgg  bool
	anyAgg bool
	// groupings are GROUPING(...)s of this level written inside subqueries
	// (groupingsets.go), which read them as outer columns.
	groupings []outerGrouping
}

func (b *binder) bindAggregate(s *scope, fc *pg_query.FuncCall, name string) (plan.Expr, error) {
	// The arguments decide which query level the aggregate belongs to, so
	// bind them first, remembering the outer-reference bookkeeping: if the
	// aggregate turns out to belong to an outer level, its arguments are
	// that level's columns and not outer references of this one.
	saved := saveOuterRefs(s)
	savedLoc := make(map[plan.ColumnID]int32, len(b.outerLoc))
	for k, v := range b.outerLoc {
		savedLoc[k] = v
	}
	var wasInAgg bool
	if s.agg != nil {
		wasInAgg, s.agg.inAgg = s.agg.inAgg, true
	}
	args, filter, err := b.bindAggArgs(s, fc)
	var order []aggOrderItem
	if err == nil {
		order, err = b.bindAggOrder(s, fc.AggOrder)
	}
	if s.agg != nil {
		s.agg.inAgg = wasInAgg
	}
	if err != nil {
		return nil, err
	}
	// PostgreSQL's check_agg_arguments: the aggregate's level is the
	// lowest level of the columns its arguments read.
	lvl, nestedLoc := b.aggLevel(s, append(append([]plan.Expr(nil), args...), orderExprs(order)...), filter)
	if nestedLoc >= 0 {
		return nil, b.errAt(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested"), nestedLoc)
	}
	target, err := b.aggTarget(s, lvl, "aggregate functions", fc.Location)
	if err != nil {
		return nil, err
	}
	if target.selfRef {
		return nil, b.errAt(pgerr.New(invalidRecursion, "aggregate functions are not allowed in a recursive query's recursive term"), fc.Location)
	}
	if lvl > 0 {
		restoreOuterRefs(saved)
		b.outerLoc = savedLoc
	}
	ref, err := b.addAggCall(target, fc, name, args, filter, order)
	if err != nil {
		return nil, err
	}
	// An outer aggregate is, from here, a reference to a column of that level.
	b.noteOuterAt(s, lvl, ref, fc.Location)
	return ref, nil
}

// aggTarget is the scope lvl levels up from s, which an aggregate or
// GROUPING (what, for the message) at loc belongs to: it must be a level
// that aggregates, outside the arguments of another of its aggregates.
func (b *binder) aggTarget(s *scope, lvl int, what string, loc int32) (*scope, error) {
	target := s
	for i := 0; i < lvl; i++ {
		target = target.parent
	}
	if target.agg == nil {
		kind := target.exprKind
		if kind == "" {
			kind = "this context"
		}
		return nil, b.errAt(pgerr.New(pgerr.GroupingError, "%s are not allowed in %s", what, kind), loc)
	}
	if target.agg.inAgg {
		return nil, b.errAt(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested"), loc)
	}
	return target, nil
}

func (b *binder) bindAggArgs(s *scope, fc *pg_query.FuncCall) ([]plan.Expr, plan.Expr, error) {
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return nil, nil, err
	}
	var filter plan.Expr
	if fc.AggFilter != nil {
		// No aggregate of this level may appear in FILTER.
		savedAgg, savedKind := s.agg, s.exprKind
		s.agg, s.exprKind = nil, "FILTER"
		filter, err = b.bindExpr(s, fc.AggFilter)
		s.agg, s.exprKind = savedAgg, savedKind
		if err != nil {
			return nil, nil, err
		}
		if filter, err = b.coerceToBool(filter, "FILTER"); err != nil {
			return nil, nil, err
		}
	}
	return args, filter, nil
}

// aggLevel is PostgreSQL's check_agg_arguments: the aggregate belongs to
// the nearest level (0 = s, 1 = its parent, ...) whose columns or
// aggregates its arguments read (0 when they read none). An argument that
// reads an aggregate of that same level is a nested aggregate: nestedLoc is
// then that aggregate's location (else -1).
func (b *binder) aggLevel(s *scope, args []plan.Expr, filter plan.Expr) (lvl int, nestedLoc int32) {
	var ids []plan.ColumnID
	for _, a := range args {
		collectColRefs(a, &ids)
	}
	if filter != nil {
		collectColRefs(filter, &ids)
	}
	want := map[plan.ColumnID]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for l, cur := 0, s; cur != nil && len(want) > 0; l, cur = l+1, cur.parent {
		if cur.agg != nil {
			for _, c := range cur.agg.cols {
				if want[c.ID] {
					return l, b.aggRefLoc(c.ID, append(append([]plan.Expr{}, args...), filter))
				}
			}
		}
		for _, it := range cur.items {
			for _, c := range it.cols {
				var cids []plan.ColumnID
				collectColRefs(c.expr, &cids)
				for _, id := range cids {
					if want[id] {
						return l, -1
					}
				}
			}
		}
	}
	return 0, -1
}

// aggRefLoc is where the aggregate read through column id was written in es.
func (b *binder) aggRefLoc(id plan.ColumnID, es []plan.Expr) int32 {
	loc := int32(-1)
	for _, e := range es {
		plan.Walk(e, func(x plan.Expr) bool {
			if r, ok := x.(*plan.ColRef); ok && r.ID == id && loc < 0 {
				loc = b.locOf(r)
			}
			return loc < 0
		})
	}
	return loc
}

type savedOuterRefs struct {
	s    *scope
	refs []plan.ColumnID
}

func saveOuterRefs(s *scope) []savedOuterRefs {
	var out []savedOuterRefs
	for cur := s; cur != nil; cur = cur.parent {
		out = append(out, savedOuterRefs{cur, append([]plan.ColumnID(nil), cur.outerRefs...)})
	}
	return out
}

func restoreOuterRefs(saved []savedOuterRefs) {
	for _, x := range saved {
		x.s.outerRefs = x.refs
	}
}

// resolveAggregateCall resolves an aggregate over args and converts them to
// its parameter types.
func (b *binder) resolveAggregateCall(fc *pg_query.FuncCall, name string, args []plan.Expr) (*types.AggOverload, error) {
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	ov, err := types.ResolveAggregate(name, argTypes, fc.AggStar)
	if err != nil {
		return nil, b.wrapAt(err, fc.Location)
	}
	return ov, b.castCallArgs(args, ov.Args, ov.AnyArgs)
}

// addAggCall registers an aggregate call with level t and returns a
// reference to its output column.
func (b *binder) addAggCall(t *scope, fc *pg_query.FuncCall, name string, args []plan.Expr, filter plan.Expr, order []aggOrderItem) (*plan.ColRef, error) {
	s := t
	var call plan.AggCall
	if fc.AggWithinGroup {
		var err error
		if call, err = b.resolveWithinGroup(fc, name, args, order); err != nil {
			return nil, err
		}
		call.Filter = filter
	} else {
		raw := append([]plan.Expr(nil), args...)
		ov, err := b.resolveAggregateCall(fc, name, args)
		if err != nil {
			return nil, err
		}
		call = plan.AggCall{Func: ov, Args: args, Distinct: fc.AggDistinct, Filter: filter}
		if err := b.checkDistinctArgs(fc, args); err != nil {
			return nil, err
		}
		if err := b.attachAggOrder(&call, raw, order); err != nil {
			return nil, err
		}
	}
	ov := call.Func
	for i, c := range s.agg.calls {
		// Identical aggregate calls share one computation.
		if c.Func.Name == call.Func.Name && c.Distinct == call.Distinct && exprsEqual(c.Args, call.Args) &&
			exprEqual(c.Filter, call.Filter) && len(c.Func.Args) == len(call.Func.Args) &&
			slices.Equal(c.Order, call.Order) && c.WithinGroup == call.WithinGroup {
			col := s.agg.cols[i]
			return &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}, nil
		}
	}
	col := plan.Column{ID: b.ids.Next(), Name: name, Type: ov.Result, NotNull: name == "count"}
	s.agg.calls = append(s.agg.calls, call)
	s.agg.cols = append(s.agg.cols, col)
	s.agg.locs = append(s.agg.locs, fc.Location)
	s.agg.anyAgg = true
	ref := &plan.ColRef{ID: col.ID, T: col.Type, Name: name}
	b.aggRefs[col.ID] = true
	return ref, nil
}

// isAggregateName reports whether name is one of the built-in aggregates
// (pgcatalog holds the list: PostgreSQL knows them by pg_proc.prokind).
func isAggregateName(name string) bool { return pgcatalog.IsAggregateName(name) }
