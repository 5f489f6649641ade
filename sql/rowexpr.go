package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Row constructors compared with each other are expanded here into
// per-column comparisons, as PostgreSQL's make_row_comparison_op and
// make_row_distinct_op interpret them: `=` is the AND of the column
// equalities, `<>` their OR, `< <= > >=` the lexicographic order (the first
// column pair that is not equal decides; a NULL before that makes the result
// NULL), IS [NOT] DISTINCT FROM the OR of the columns' IS DISTINCT FROM, and
// `ROW(...) IS [NOT] NULL` is true when every column is [not] NULL. A column
// expression compared lexicographically appears in more than one term, so it
// is shared, never re-bound (and may not be volatile).

// rowArgs returns the elements of a row constructor (ROW(a, b) or (a, b)),
// nil and false for any other node.
func rowArgs(n *pg_query.Node) ([]*pg_query.Node, bool) {
	if r := n.GetRowExpr(); r != nil {
		return r.Args, true
	}
	return nil, false
}

// bindRowElems binds a row constructor's elements, expanding `t.*` into the
// relation's columns as transformRowExpr does.
func (b *binder) bindRowElems(s *scope, args []*pg_query.Node) ([]plan.Expr, error) {
	var out []plan.Expr
	for _, n := range args {
		if cr := n.GetColumnRef(); cr != nil && isStar(cr) {
			ts, err := b.expandStar(s, cr)
			if err != nil {
				return nil, err
			}
			for _, t := range ts {
				out = append(out, t.expr)
			}
			continue
		}
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// bindRowPair binds the two row constructors of a row comparison and checks
// they have the same, non-zero, number of columns.
func (b *binder) bindRowPair(s *scope, l, r []*pg_query.Node, loc int32) ([]plan.Expr, []plan.Expr, error) {
	ls, err := b.bindRowElems(s, l)
	if err != nil {
		return nil, nil, err
	}
	rs, err := b.bindRowElems(s, r)
	if err != nil {
		return nil, nil, err
	}
	return ls, rs, b.checkRowLengths(ls, rs, loc)
}

func (b *binder) checkRowLengths(ls, rs []plan.Expr, loc int32) error {
	if len(ls) != len(rs) {
		return b.errAt(pgerr.New(pgerr.SyntaxError, "unequal number of entries in row expressions"), loc)
	}
	if len(ls) == 0 {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "cannot compare rows of zero length"), loc)
	}
	return nil
}

// bindRowComparison binds `ROW(...) op ROW(...)`.
func (b *binder) bindRowComparison(s *scope, op string, l, r []*pg_query.Node, loc int32) (plan.Expr, error) {
	ls, rs, err := b.bindRowPair(s, l, r, loc)
	if err != nil {
		return nil, err
	}
	return b.rowComparison(op, ls, rs, loc)
}

// rowComparison compares two bound rows of equal length with op.
func (b *binder) rowComparison(op string, ls, rs []plan.Expr, loc int32) (plan.Expr, error) {
	var err error
	pair := func(name string, i int) (plan.Expr, error) {
		e, err := b.operator(name, ls[i], rs[i], loc)
		if err != nil {
			return nil, err
		}
		if t := e.Type(); t.ID != types.Bool {
			return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "row comparison operator must yield type boolean, not type %s", typeName(t)), loc)
		}
		return e, nil
	}
	terms := make([]plan.Expr, len(ls))
	for i := range ls {
		if terms[i], err = pair(op, i); err != nil {
			return nil, err
		}
	}
	if len(terms) == 1 {
		return terms[0], nil
	}
	switch op {
	case "=":
		return &plan.And{Args: terms}, nil
	case "<>":
		return &plan.Or{Args: terms}, nil
	case "<", "<=", ">", ">=", "~<~", "~<=~", "~>~", "~>=~":
		// The pattern operators are text_pattern_ops' and
		// bpchar_pattern_ops' ordering members, = their equality.
	default:
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "could not determine interpretation of row comparison operator %s", op).
			WithHint("Row comparison operators must be associated with btree operator families."), loc)
	}
	for i := range ls[:len(ls)-1] {
		// Each of these columns is read by two terms: a volatile one
		// would be computed twice, where PostgreSQL computes it once.
		if exprHasVolatile(ls[i]) || exprHasVolatile(rs[i]) {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "row comparison %s over volatile expressions is not supported", op), loc)
		}
	}
	return lexicographic(len(ls), op, pair)
}

// lexicographic is PostgreSQL's RowCompareExpr for an ordering op over n
// column pairs: l1 < r1 OR (l1 = r1 AND (... ln op rn)) (> for > and >=),
// whose three-valued result is RowCompareExpr's: the first pair that is not
// equal decides, and a NULL before it makes the result NULL. pair(name, i)
// compares the i-th columns with the operator name.
func lexicographic(n int, op string, pair func(name string, i int) (plan.Expr, error)) (plan.Expr, error) {
	cmp, err := pair(op, n-1)
	if err != nil {
		return nil, err
	}
	strict := op[:1]
	if op[0] == '~' {
		strict = op[:2] + "~" // ~<=~ → ~<~
	}
	for i := n - 2; i >= 0; i-- {
		lt, err := pair(strict, i)
		if err != nil {
			return nil, err
		}
		eq, err := pair("=", i)
		if err != nil {
			return nil, err
		}
		cmp = &plan.Or{Args: []plan.Expr{lt, &plan.And{Args: []plan.Expr{eq, cmp}}}}
	}
	return cmp, nil
}

// bindRowDistinct binds `ROW(...) IS [NOT] DISTINCT FROM ROW(...)`.
func (b *binder) bindRowDistinct(s *scope, l, r []*pg_query.Node, negate bool, loc int32) (plan.Expr, error) {
	ls, rs, err := b.bindRowPair(s, l, r, loc)
	if err != nil {
		return nil, err
	}
	terms := make([]plan.Expr, len(ls))
	for i := range ls {
		c, err := b.operator("=", ls[i], rs[i], loc)
		if err != nil {
			return nil, err
		}
		call := c.(*plan.Call)
		terms[i] = &plan.IsDistinct{Left: call.Args[0], Right: call.Args[1], Eq: call.Func, Negate: negate}
	}
	if len(terms) == 1 {
		return terms[0], nil
	}
	if negate {
		return &plan.And{Args: terms}, nil
	}
	return &plan.Or{Args: terms}, nil
}

// bindRowNullTest binds `ROW(...) IS [NOT] NULL` and `t IS [NOT] NULL` of
// a FROM item's whole row: every column NULL (not NULL), as ExecEvalRowNull
// does. It reports false for any other argument.
func (b *binder) bindRowNullTest(s *scope, nt *pg_query.NullTest) (plan.Expr, bool, error) {
	negate := nt.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL
	elems, _, ok, err := b.rowFields(s, nt.Arg)
	if !ok || err != nil {
		return nil, ok, err
	}
	if len(elems) == 0 {
		return &plan.Const{Val: types.BoolValue(true), T: types.BoolType}, true, nil
	}
	terms := make([]plan.Expr, len(elems))
	for i, e := range elems {
		terms[i] = &plan.IsNull{Arg: e, Negate: negate}
	}
	if len(terms) == 1 {
		return terms[0], true, nil
	}
	return &plan.And{Args: terms}, true, nil
}

// bindRowIn binds `ROW(...) [NOT] IN (ROW(...), ...)`: a row comparison per
// list item, OR'ed (AND'ed for NOT IN), as transformAExprIn does for rows.
func (b *binder) bindRowIn(s *scope, a *pg_query.A_Expr, op string) (plan.Expr, error) {
	le, _ := rowArgs(a.Lexpr)
	ls, err := b.bindRowElems(s, le)
	if err != nil {
		return nil, err
	}
	var terms []plan.Expr
	for _, item := range a.Rexpr.GetList().GetItems() {
		re, ok := rowArgs(item)
		if !ok {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "row expressions are not supported here"), nodeLocation(item))
		}
		rs, err := b.bindRowElems(s, re)
		if err != nil {
			return nil, err
		}
		if err := b.checkRowLengths(ls, rs, a.Location); err != nil {
			return nil, err
		}
		t, err := b.rowComparison(op, ls, rs, a.Location)
		if err != nil {
			return nil, err
		}
		terms = append(terms, t)
	}
	return inListTerms(op, terms), nil
}

// inListTerms combines the comparisons of x [NOT] IN (list): OR'ed for =,
// AND'ed for <> (NOT IN).
func inListTerms(op string, terms []plan.Expr) plan.Expr {
	if len(terms) == 1 {
		return terms[0]
	}
	if op == "<>" {
		return &plan.And{Args: terms}
	}
	return &plan.Or{Args: terms}
}

// Field selection without a record type: `(ROW(a, b)).f2` is b (an
// anonymous record's fields are f1, f2, ...), and `(t).c` or `(t.*).c` of a
// FROM item t is t.c. fieldSelection reports false for any other
// indirection.
func (b *binder) fieldSelection(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	if len(ind.Indirection) > 1 {
		return b.indirectionChain(s, ind)
	}
	if len(ind.Indirection) != 1 || ind.Indirection[0].GetString_() == nil {
		return nil, false, nil
	}
	field := ind.Indirection[0].GetString_().Sval
	loc := nodeLocation(ind.Arg)
	if tc := ind.Arg.GetTypeCast(); tc != nil && tc.Location >= 0 {
		loc = tc.Location // the coercion's position, as PostgreSQL's exprLocation
	}
	elems, names, ok, err := b.rowFields(s, ind.Arg)
	if !ok {
		// An argument that does not bind reports its own error first.
		e, err := b.bindExpr(s, ind.Arg)
		if err != nil {
			return nil, true, err
		}
		if e.Type().ID == types.Record {
			e, err = b.selectRecordField(e, field, loc) // rowtype.go
			return e, true, err
		}
		return nil, true, b.errAt(pgerr.New(pgerr.WrongObjectType, "column notation .%s applied to type %s, which is not a composite type", field, typeName(e.Type())), loc)
	}
	if err != nil {
		return nil, true, err
	}
	for i, n := range names {
		if n == field {
			return elems[i], true, nil
		}
	}
	if rel, isRel := wholeRowName(ind.Arg); isRel {
		return nil, true, b.missingColumn(s, rel, field, loc)
	}
	return nil, true, b.errAt(pgerr.New(pgerr.UndefinedColumn, "could not identify column \"%s\" in record data type", field), loc)
}

// rowFields binds the fields of a row-valued expression joind can take
// apart at bind time: a row constructor, or a FROM item's whole row.
func (b *binder) rowFields(s *scope, n *pg_query.Node) ([]plan.Expr, []string, bool, error) {
	if args, ok := rowArgs(n); ok {
		elems, err := b.bindRowElems(s, args)
		if err != nil {
			return nil, nil, true, err
		}
		names := make([]string, len(elems))
		for i := range elems {
			names[i] = fmt.Sprintf("f%d", i+1)
		}
		return elems, names, true, nil
	}
	rel, ok := wholeRowName(n)
	if !ok {
		return nil, nil, false, nil
	}
	cr := n.GetColumnRef()
	if !isStar(cr) {
		// A column of that name comes first (transformColumnRef); joind has
		// no composite columns.
		if b.columnNamed(s, rel) {
			return nil, nil, false, nil
		}
		// Neither a column nor a FROM item: the column error is the one.
		if _, _, err := b.lookupRel(s, rel, cr.Location); err != nil {
			return nil, nil, false, nil
		}
	}
	star := &pg_query.ColumnRef{Fields: []*pg_query.Node{pg_query.MakeStrNode(rel), {Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}, Location: cr.Location}
	ts, err := b.expandStar(s, star)
	if err != nil {
		return nil, nil, true, err
	}
	elems := make([]plan.Expr, len(ts))
	names := make([]string, len(ts))
	for i, t := range ts {
		elems[i], names[i] = t.expr, t.name
	}
	return elems, names, true, nil
}

// wholeRowName is the relation name of `t` or `t.*` used as a row value.
func wholeRowName(n *pg_query.Node) (string, bool) {
	cr := n.GetColumnRef()
	if cr == nil {
		return "", false
	}
	f := cr.Fields
	if len(f) == 2 && f[1].GetAStar() != nil || len(f) == 1 {
		if s := f[0].GetString_(); s != nil {
			return s.Sval, true
		}
	}
	return "", false
}

// expandFieldStar expands `(ROW(...)).*` and `(t).*` in a select list into
// one target per field.
func (b *binder) expandFieldStar(s *scope, n *pg_query.Node) ([]*target, bool, error) {
	ind := n.GetAIndirection()
	if ind == nil || len(ind.Indirection) == 0 || ind.Indirection[len(ind.Indirection)-1].GetAStar() == nil {
		return nil, false, nil
	}
	if k := len(ind.Indirection); k > 1 {
		// (x).f.*: the fields of (x).f.
		inner := &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: ind.Arg, Indirection: ind.Indirection[:k-1]}}}
		ind = &pg_query.A_Indirection{Arg: inner, Indirection: ind.Indirection[k-1:]}
	}
	elems, names, ok, err := b.rowFields(s, ind.Arg)
	if !ok {
		elems, names, err = b.recordFields(s, ind.Arg) // rowtype.go
	}
	if err != nil {
		return nil, true, err
	}
	loc := nodeLocation(ind.Arg)
	ts := make([]*target, len(elems))
	for i, e := range elems {
		ts[i] = &target{expr: e, name: names[i], loc: loc}
	}
	return ts, true, nil
}

// bindRowCompareSubLink binds `ROW(...) op (SELECT ...)`: the subquery yields
// at most one row (21000 otherwise; none compares as NULLs) compared with the
// row constructor as another row constructor would be. Each column becomes a
// scalar subquery of its own, bound afresh so every copy has its own column
// IDs; a subquery with volatile functions would give each copy its own
// values, so it is refused.
func (b *binder) bindRowCompareSubLink(s *scope, sl *pg_query.SubLink) (plan.Expr, error) {
	le, ok := rowArgs(sl.Testexpr)
	if !ok {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "ROWCOMPARE_SUBLINK subqueries are not supported"), sl.Location)
	}
	ls, err := b.bindRowElems(s, le)
	if err != nil {
		return nil, err
	}
	var rs []plan.Expr
	for i := 0; i == 0 || i < len(rs); i++ {
		q, child, err := b.bindSelect(sl.Subselect.GetSelectStmt(), s, s.ctes, true)
		if err != nil {
			return nil, err
		}
		cols := q.node.Columns()
		if i == 0 {
			if len(ls) < len(cols) {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery has too many columns"), sl.Location)
			}
			if len(ls) > len(cols) {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery has too few columns"), sl.Location)
			}
			if len(cols) > 1 && planHasVolatile(q.node) {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "row comparison with a subquery calling volatile functions is not supported"), sl.Location)
			}
			rs = make([]plan.Expr, len(cols))
		}
		c := cols[i]
		col := plan.Column{ID: b.ids.Next(), Name: c.Name, Type: c.Type}
		p := &plan.Project{Input: q.node, Exprs: []plan.Expr{&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}}, Cols: []plan.Column{col}}
		rs[i] = &plan.Subquery{Kind: plan.ScalarSubquery, Plan: p, OuterRefs: child.outerRefs, T: c.Type}
	}
	if err := b.checkRowLengths(ls, rs, sl.Location); err != nil {
		return nil, err
	}
	return b.rowComparison(opName(sl.OperName), ls, rs, sl.Location)
}

// rowToText binds `ROW(...)::text` (or varchar, char): the record's text
// form (record_out), computed from the fields without a record value, then
// cast as text is. Other casts of a row report false.
func (b *binder) rowToText(s *scope, tc *pg_query.TypeCast) (plan.Expr, bool, error) {
	args, ok := rowArgs(tc.Arg)
	if !ok || len(tc.TypeName.Names) == 0 || len(tc.TypeName.ArrayBounds) > 0 {
		return nil, false, nil
	}
	t, err := b.typeFromName(tc.TypeName)
	if err == nil && t.ID == types.Record {
		e, err := b.rowToComposite(s, args, t, tc) // rowtype.go
		return e, true, err
	}
	if err != nil || t.ID != types.Text && t.ID != types.Varchar && t.ID != types.Char {
		return nil, false, nil
	}
	elems, err := b.bindRowElems(s, args)
	if err != nil {
		return nil, true, err
	}
	ts := make([]types.Type, len(elems))
	for i, e := range elems {
		elems[i] = b.resolveUnknown(e)
		ts[i] = elems[i].Type()
	}
	loc := tc.Location
	if loc < 0 {
		loc = tc.TypeName.Location
	}
	e, err := b.coerce(&plan.Call{Func: types.RecordText(ts), Args: elems}, t, coerceExplicit, loc)
	return e, true, err
}

// indirectionChain is (x).f.g[1].h: the first step (a field, or the
// leading subscripts) as a one-step indirection, then each further field
// selected from the record so far and each run of subscripts applied to
// the array so far, as transformIndirection does.
func (b *binder) indirectionChain(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	steps := ind.Indirection
	for _, st := range steps {
		if st.GetAStar() != nil {
			return nil, false, nil // (x).f.*: the select list expands it
		}
	}
	n := 1
	if steps[0].GetString_() == nil {
		for n < len(steps) && steps[n].GetString_() == nil {
			n++
		}
	}
	if n == len(steps) {
		return nil, false, nil
	}
	first := &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: ind.Arg, Indirection: steps[:n]}}}
	e, err := b.bindExpr(s, first)
	if err != nil {
		return nil, true, err
	}
	loc := nodeLocation(ind.Arg)
	for i := n; i < len(steps); {
		if f := steps[i].GetString_(); f != nil {
			if e.Type().ID != types.Record {
				return nil, true, b.errAt(pgerr.New(pgerr.WrongObjectType, "column notation .%s applied to type %s, which is not a composite type", f.Sval, typeName(e.Type())), loc)
			}
			if e, err = b.selectRecordField(e, f.Sval, loc); err != nil { // rowtype.go
				return nil, true, err
			}
			i++
			continue
		}
		j := i
		for j < len(steps) && steps[j].GetString_() == nil {
			j++
		}
		if e.Type().ID != types.Array {
			return nil, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", typeName(e.Type())), loc)
		}
		if e, err = b.subscriptExpr(s, e, steps[i:j]); err != nil { // array.go
			return nil, true, err
		}
		i = j
	}
	return e, true, nil
}
