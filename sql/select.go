package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// boundQuery is a bound SELECT / VALUES / set operation.
type boundQuery struct {
	node  plan.Node
	names []string
	locs  []int32 // location of each output expression, for set-op errors
}

// cteEnv is a linked list of the WITH queries visible at a point.
type cteEnv struct {
	parent  *cteEnv
	name    string
	cte     *pg_query.CommonTableExpr
	def     *scope  // the query level whose WITH defined it
	bodyEnv *cteEnv // the CTEs its own body may reference
	// shared is the materialized body once bound (nil while unbound or
	// when each reference inlines its own copy); names its column names.
	shared *plan.CTE
	names  []string
	// inlined counts references bound as their own copy; volatile is set
	// when such a copy calls a volatile function.
	inlined  int
	volatile bool
	// self is set on the entry a recursive query's recursive term sees
	// itself through (recursive.go).
	self *recursiveRef
	// modifying is set for a data-modifying WITH query (modifyingwith.go).
	modifying *ModifyingCTE
}

func (e *cteEnv) lookup(name string) *cteEnv {
	for ; e != nil; e = e.parent {
		if e.name == name {
			return e
		}
	}
	return nil
}

// target is one entry of a SELECT list (junk entries are ORDER BY helpers).
type target struct {
	expr plan.Expr
	name string
	loc  int32
	junk bool
	// groupRef: the output column a GROUP BY item was found as (by name,
	// number, or as the first output equal to it) — PostgreSQL's
	// ressortgroupref, which with grouping sets makes even a constant
	// output the (nullable) group key.
	groupRef bool
}

// bindSelect binds a SelectStmt as a new query level below parent. It
// returns the level's scope, whose outerRefs are the correlation columns.
func (b *binder) bindSelect(sel *pg_query.SelectStmt, parent *scope, ctes *cteEnv, resolveUnknown bool) (*boundQuery, *scope, error) {
	if sel == nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "unsupported subquery")
	}
	s := &scope{parent: parent, ctes: ctes}
	if err := b.bindWith(s, sel.WithClause); err != nil {
		return nil, nil, err
	}
	// FOR UPDATE/SHARE is not a no-op in PostgreSQL: the row locks make
	// concurrent writers and TRUNCATE/DROP wait, NOWAIT and SKIP LOCKED
	// answer from them, and a locked row is re-read after a concurrent
	// change. Only a cursor takes row locks as it reads (cursor.go).
	if len(sel.LockingClause) > 0 && sel != b.lockingCursor {
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "SELECT FOR UPDATE/SHARE is not supported"), -1)
	}
	if sel.IntoClause != nil {
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "SELECT INTO is not supported"), -1)
	}
	var bq *boundQuery
	var err error
	switch {
	case sel.Op != pg_query.SetOperation_SETOP_NONE && sel.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED:
		bq, err = b.bindSetOp(sel, s)
		if err == nil {
			bq, err = b.finishOutput(s, bq, sel, true)
		}
	case len(sel.ValuesLists) > 0:
		bq, err = b.bindValues(sel, s)
		if err == nil {
			bq, err = b.finishOutput(s, bq, sel, false)
		}
	default:
		bq, err = b.bindSimpleSelect(sel, s, resolveUnknown)
	}
	if err != nil {
		return nil, nil, err
	}
	return bq, s, nil
}

// bindWith defines the WITH queries of w (nil: none) in scope s.
func (b *binder) bindWith(s *scope, w *pg_query.WithClause) error {
	if w != nil {
		seen := map[string]bool{}
		saved := b.futureCTEs
		defer func() { b.futureCTEs = saved }()
		ctes := w.Ctes
		if w.Recursive {
			var err error
			if ctes, err = b.recursiveOrder(w.Ctes); err != nil { // recursive.go
				return err
			}
		}
		for i, cn := range ctes {
			cte := cn.GetCommonTableExpr()
			if !w.Recursive {
				b.futureCTEs = append(saved[:len(saved):len(saved)], cteNames(w.Ctes[i:])...)
			}
			if seen[cte.Ctename] {
				return b.errAt(pgerr.New(pgerr.DuplicateAlias, "WITH query name \"%s\" specified more than once", cte.Ctename), cte.Location)
			}
			seen[cte.Ctename] = true
			if (cte.SearchClause != nil || cte.CycleClause != nil) && !(w.Recursive && refersTo(cte.Ctequery, cte.Ctename)) {
				// SEARCH/CYCLE add columns; only a recursive query may have them.
				return b.errAt(pgerr.New(pgerr.SyntaxError, "WITH query is not recursive"), cte.Location)
			}
			env := &cteEnv{parent: s.ctes, name: cte.Ctename, cte: cte, def: s, bodyEnv: s.ctes}
			if w.Recursive && refersTo(cte.Ctequery, cte.Ctename) {
				if err := b.defineRecursiveCTE(s, env); err != nil {
					return err
				}
				s.ctes = env
				continue
			}
			if cte.Ctequery.GetSelectStmt() == nil {
				if err := b.defineModifyingCTE(w, env); err != nil {
					return err
				}
				s.ctes = env
				continue
			}
			if err := b.defineCTE(s, env); err != nil {
				return err
			}
			s.ctes = env
		}
	}
	return nil
}

// refersTo reports whether a query mentions relation name (for WITH RECURSIVE).
func refersTo(n *pg_query.Node, name string) bool {
	found := false
	visitRangeVars(n, func(rv *pg_query.RangeVar) {
		if rv.Schemaname == "" && rv.Relname == name {
			found = true
		}
	})
	return found
}

func (b *binder) bindSimpleSelect(sel *pg_query.SelectStmt, s *scope, resolveUnknown bool) (*boundQuery, error) {
	var input plan.Node
	if len(sel.FromClause) == 0 {
		input = &plan.Values{Rows: [][]plan.Expr{{}}}
	} else {
		n, items, err := b.bindFromList(s, sel.FromClause)
		if err != nil {
			return nil, err
		}
		input, s.items = n, items
	}
	inputIDs := map[plan.ColumnID]bool{}
	for _, c := range input.Columns() {
		inputIDs[c.ID] = true
	}
	// Target list (and the WINDOW clause its OVER clauses may name).
	agg := &aggState{}
	s.agg, s.exprKind, s.win = agg, "SELECT", &winState{}
	if err := b.bindWindowDefs(s, sel.WindowClause); err != nil {
		return nil, err
	}
	var targets []*target
	for _, tn := range sel.TargetList {
		rt := tn.GetResTarget()
		if len(rt.Indirection) > 0 {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "subscripts are not supported"), rt.Location)
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && isStar(cr) {
			ts, err := b.expandStar(s, cr)
			if err != nil {
				return nil, err
			}
			targets = append(targets, ts...)
			continue
		}
		if ts, ok, err := b.expandFieldStar(s, rt.Val); ok { // rowexpr.go
			if err != nil {
				return nil, err
			}
			targets = append(targets, ts...)
			continue
		}
		e, err := b.bindExpr(s, rt.Val)
		if err != nil {
			return nil, err
		}
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
		}
		targets = append(targets, &target{expr: e, name: name, loc: nodeLocation(rt.Val)})
	}
	if len(targets) > maxTargetListEntries {
		return nil, errTooManyTargets()
	}

	// WHERE.
	var where plan.Expr
	if sel.WhereClause != nil {
		s.agg, s.exprKind = nil, "WHERE"
		e, err := b.bindExpr(s, sel.WhereClause)
		if err != nil {
			return nil, err
		}
		if where, err = b.coerceToBool(e, "WHERE"); err != nil {
			return nil, err
		}
	}

	// HAVING.
	var having plan.Expr
	if sel.HavingClause != nil {
		s.agg, s.exprKind = agg, "HAVING"
		e, err := b.bindExpr(s, sel.HavingClause)
		if err != nil {
			return nil, err
		}
		if having, err = b.coerceToBool(e, "HAVING"); err != nil {
			return nil, err
		}
	}

	// ORDER BY.
	s.agg, s.exprKind = agg, "ORDER BY"
	sorts, err := b.bindSortClause(s, sel.SortClause, &targets)
	if err != nil {
		return nil, err
	}

	// GROUP BY.
	s.agg, s.exprKind = nil, "GROUP BY"
	grouped := len(sel.GroupClause) > 0
	groups, sets, err := b.bindGroupClause(s, sel, targets) // groupingsets.go
	if err != nil {
		return nil, err
	}

	// DISTINCT.
	distinct := false
	var distinctOn []int // target positions of DISTINCT ON's keys (distincton.go)
	if len(sel.DistinctClause) > 0 && sel.DistinctClause[0].GetNode() != nil {
		s.agg, s.exprKind = agg, "DISTINCT ON"
		if distinctOn, sorts, err = b.bindDistinctOn(s, sel.DistinctClause, sorts, &targets); err != nil {
			return nil, err
		}
	} else if len(sel.DistinctClause) > 0 {
		distinct = true
		if err := b.checkTargetsEquality(targets); err != nil {
			return nil, err
		}
		for _, sk := range sorts {
			if targets[sk.target].junk {
				return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list"), sk.loc)
			}
		}
	}

	// LIMIT / OFFSET.
	s.agg = nil
	limit, offset, withTies, err := b.bindLimitOffset(s, sel)
	if err != nil {
		return nil, err
	}
	if s.win.deferred != nil {
		return nil, s.win.deferred
	}

	node := input
	if where != nil {
		node = &plan.Filter{Input: node, Pred: where}
	}
	node = b.groupingSetFuncs(node, groups, targets, &having)
	if agg.anyAgg || grouped || having != nil {
		an := &plan.Aggregate{Input: node, GroupBy: groups, Aggs: agg.calls}
		gcols := make([]plan.Column, len(groups))
		inCols := map[plan.ColumnID]plan.Column{}
		inNotNull := columnNotNull(input)
		for _, c := range input.Columns() {
			c.NotNull = inNotNull[c.ID]
			inCols[c.ID] = c
		}
		for i, g := range groups {
			if ref, ok := g.(*plan.ColRef); ok && inputIDs[ref.ID] {
				// A plain grouping column keeps its ID, so correlated
				// subqueries that read it stay valid above the Aggregate.
				gcols[i] = inCols[ref.ID]
			} else {
				gcols[i] = plan.Column{ID: b.ids.Next(), Name: "?column?", Type: g.Type()}
			}
		}
		an.Cols = append(append([]plan.Column{}, gcols...), agg.cols...)
		var gsets *groupingSets
		if sets != nil {
			if gsets, err = b.planGroupingSets(an, gcols, sets); err != nil {
				return nil, err
			}
		}
		node = an
		rg := &regrouper{b: b, groups: groups, gcols: gcols, inputIDs: inputIDs, sets: gsets}
		if err := b.checkDirectArgs(rg, agg.calls); err != nil {
			return nil, err
		}
		if node, err = rg.outerGroupings(node, agg); err != nil { // groupingsets.go
			return nil, err
		}
		for _, t := range targets {
			if gsets != nil && !t.groupRef && plan.Foldable(t.expr) {
				// A constant output that no GROUP BY item refers to stays
				// a constant (setrefs matches no Const), even where it
				// equals a group key.
				continue
			}
			if t.expr, err = rg.rewrite(t.expr); err != nil {
				return nil, err
			}
		}
		if having != nil {
			// A constant HAVING (or a constant conjunct of it) stays a
			// constant even where it equals a group key: PostgreSQL folds
			// it before setrefs could make it the (grouped-out) key.
			if having, err = rg.rewriteAt(having, false); err != nil {
				return nil, err
			}
			node = &plan.Filter{Input: node, Pred: having}
		}
		if err := s.win.regroup(rg); err != nil {
			return nil, err
		}
	}
	if node, err = b.buildWindows(s, node); err != nil {
		return nil, err
	}

	node = b.projectSets(node, targets, len(sorts) > 0)

	// Projection (with ORDER BY helper columns last).
	notNull := columnNotNull(node)
	proj := &plan.Project{Input: node}
	var names []string
	var locs []int32
	hasJunk := false
	for _, t := range targets {
		e := t.expr
		// DISTINCT needs an equality operator for every column, so it
		// resolves unknown literals to text even in a set operation's arm
		// (transformDistinctClause), before the set operation types them.
		if resolveUnknown || t.junk || distinct || distinctOn != nil {
			e = b.resolveUnknown(e)
		}
		col := plan.Column{ID: b.ids.Next(), Name: t.name, Type: e.Type(), NotNull: exprNotNull(e, notNull)}
		if ref, ok := e.(*plan.ColRef); ok {
			col.Table = b.colTable[ref.ID]
			if o, ok := b.colOrigin[ref.ID]; ok {
				col.TableOID, col.AttNum = o.TableOID, o.AttNum
				b.colOrigin[col.ID] = o
			}
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, col)
		if t.junk {
			hasJunk = true
		} else {
			names = append(names, t.name)
			locs = append(locs, t.loc)
		}
	}
	var out plan.Node = proj
	if distinct {
		out = &plan.Distinct{Input: out}
	}
	if len(sorts) > 0 {
		keys := make([]plan.SortKey, len(sorts))
		for i, sk := range sorts {
			c := proj.Cols[sk.target]
			keys[i] = plan.SortKey{Expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}, Desc: sk.desc, NullsFirst: sk.nullsFirst}
		}
		out = &plan.Sort{Input: out, Keys: keys}
	}
	if distinctOn != nil {
		out = distinctOnNode(out, proj, distinctOn)
	}
	if limit != nil || offset != nil || withTies {
		out = &plan.Limit{Input: out, Count: limit, Offset: offset, WithTies: withTies}
	}
	if hasJunk {
		top := &plan.Project{Input: out}
		for _, c := range proj.Cols[:len(names)] {
			top.Exprs = append(top.Exprs, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
			nc := c
			nc.ID = b.ids.Next()
			top.Cols = append(top.Cols, nc)
		}
		out = top
	}
	return &boundQuery{node: out, names: names, locs: locs}, nil
}

func isStar(cr *pg_query.ColumnRef) bool {
	if len(cr.Fields) == 0 {
		return false
	}
	return cr.Fields[len(cr.Fields)-1].GetAStar() != nil
}

func (b *binder) expandStar(s *scope, cr *pg_query.ColumnRef) ([]*target, error) {
	var out []*target
	add := func(cols []nsColumn) {
		for _, c := range cols {
			if c.noStar {
				continue
			}
			e := c.expr
			b.noteColumnUse(e)
			if ref, ok := e.(*plan.ColRef); ok {
				cp := *ref
				e = &cp
			}
			b.locs[e] = cr.Location
			out = append(out, &target{expr: e, name: c.name, loc: cr.Location})
		}
	}
	if len(cr.Fields) == 1 {
		any := false
		for _, it := range s.items {
			if it.colsVisible {
				add(it.cols)
				any = true
			}
		}
		if !any {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "SELECT * with no tables specified is not valid"), cr.Location)
		}
		return out, nil
	}
	rel := cr.Fields[len(cr.Fields)-2].GetString_().GetSval()
	it, lvl, err := b.lookupRel(s, rel, cr.Location)
	if err != nil {
		return nil, err
	}
	for _, c := range it.cols {
		b.noteOuter(s, lvl, c.expr)
	}
	add(it.cols)
	return out, nil
}

// sortItem is a resolved ORDER BY entry pointing at a target.
type sortItem struct {
	target     int
	desc       bool
	nullsFirst bool
	loc        int32
}

func (b *binder) bindSortClause(s *scope, clause []*pg_query.Node, targets *[]*target) ([]sortItem, error) {
	var out []sortItem
	for _, n := range clause {
		sb := n.GetSortBy()
		idx, err := b.findTarget(s, sb.Node, targets, "ORDER BY")
		if err != nil {
			return nil, err
		}
		desc, nf, err := b.sortDirection(sb, (*targets)[idx].expr.Type())
		if err != nil {
			return nil, err
		}
		out = append(out, sortItem{target: idx, desc: desc, nullsFirst: nf, loc: nodeLocation(sb.Node)})
	}
	return out, nil
}

// sortDirection resolves an ORDER BY entry's direction (USING included)
// and its NULLS FIRST, PostgreSQL's default being NULLS FIRST for DESC.
func (b *binder) sortDirection(sb *pg_query.SortBy, t types.Type) (desc, nullsFirst bool, err error) {
	if err := b.checkOrdering(t, nodeLocation(sb.Node)); err != nil {
		return false, false, err
	}
	desc = sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC
	if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
		if desc, err = b.usingDirection(sb, t); err != nil {
			return false, false, err
		}
	}
	nullsFirst = desc
	switch sb.SortbyNulls {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		nullsFirst = true
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		nullsFirst = false
	}
	return desc, nullsFirst, nil
}

// usingDirection resolves ORDER BY x USING op: PostgreSQL accepts a btree
// ordering operator of x's type, "<" sorting ascending and ">" descending
// (NULLS FIRST by default then, as for DESC).
func (b *binder) usingDirection(sb *pg_query.SortBy, t types.Type) (bool, error) {
	op := opName(sb.UseOp)
	if len(sb.UseOp) > 1 && (len(sb.UseOp) > 2 || sb.UseOp[0].GetString_().GetSval() != "pg_catalog") {
		return false, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "ORDER BY ... USING %s is not supported",
			strings.Join(nameParts(sb.UseOp), ".")), sb.Location)
	}
	if (op == "~<~" || op == "~>~") && (t.ID == types.Text || t.ID == types.Varchar || t.ID == types.Char) {
		// text_pattern_ops' ordering operators: byte order, which is
		// joind's C.UTF-8 text order.
		return op == "~>~", nil
	}
	if op != "<" && op != ">" {
		if _, err := types.ResolveOperator(op, t, t); err != nil {
			return false, b.wrapAt(err, sb.Location)
		}
		return false, b.errAt(pgerr.New(pgerr.WrongObjectType, "operator %s is not a valid ordering operator", op).
			WithHint("Ordering operators must be \"<\" or \">\" members of btree operator families."), sb.Location)
	}
	if _, err := types.ResolveOperator(op, t, t); err != nil {
		return false, b.wrapAt(err, sb.Location)
	}
	return op == ">", nil
}

// errNonIntegerConstant: a constant ORDER BY / GROUP BY item is an output
// column position, so any other constant (1.5, 'x', true, NULL) is an
// error, as in findTargetlistEntrySQL92.
func errNonIntegerConstant(b *binder, clause string, c *pg_query.A_Const) error {
	return b.errAt(pgerr.New(pgerr.SyntaxError, "non-integer constant in %s", clause), c.Location)
}

// findTarget is findTargetlistEntrySQL92/99 for ORDER BY: an output name or
// ordinal, else an expression over the input (added as a junk target
// unless equal to an existing one).
func (b *binder) findTarget(s *scope, n *pg_query.Node, targets *[]*target, clause string) (int, error) {
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		name := cr.Fields[0].GetString_().Sval
		found := -1
		for i, t := range *targets {
			if t.junk || t.name != name {
				continue
			}
			if found >= 0 && !exprEqual((*targets)[found].expr, t.expr) {
				return 0, b.errAt(pgerr.New(pgerr.AmbiguousColumn, "%s \"%s\" is ambiguous", clause, name), cr.Location)
			}
			if found < 0 {
				found = i
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	if c := n.GetAConst(); c != nil && (c.Isnull || c.GetIval() == nil) {
		return 0, errNonIntegerConstant(b, clause, c)
	}
	if c := n.GetAConst(); c != nil && c.GetIval() != nil && !c.Isnull {
		pos := int(c.GetIval().Ival)
		nonJunk := 0
		for _, t := range *targets {
			if !t.junk {
				nonJunk++
			}
		}
		if pos < 1 || pos > nonJunk {
			return 0, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "%s position %d is not in select list", clause, pos), c.Location)
		}
		return pos - 1, nil
	}
	e, err := b.bindExpr(s, n)
	if err != nil {
		return 0, err
	}
	for i, t := range *targets {
		if exprEqual(t.expr, e) {
			return i, nil
		}
	}
	*targets = append(*targets, &target{expr: e, name: "?column?", loc: nodeLocation(n), junk: true})
	return len(*targets) - 1, nil
}

// bindGroupItem resolves one GROUP BY item to an expression over the input:
// input column names win over output names (SQL99), then output names and
// ordinals, then arbitrary expressions.
func (b *binder) bindGroupItem(s *scope, n *pg_query.Node, targets []*target) (plan.Expr, error) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_GroupingSet:
		if x.GroupingSet.Kind == pg_query.GroupingSetKind_GROUPING_SET_EMPTY {
			return nil, nil // GROUP BY (): one group
		}
		return nil, b.errAt(pgerr.New(pgerr.InternalError, "grouping set %s is not a grouping expression", x.GroupingSet.Kind), nodeLocation(n))
	}
	fromTarget := func(t *target) (plan.Expr, error) {
		bad := false
		plan.Walk(t.expr, func(e plan.Expr) bool {
			if r, ok := e.(*plan.ColRef); ok && b.aggRefs[r.ID] {
				bad = true
			}
			return !bad
		})
		if bad {
			return nil, b.errAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in GROUP BY"), t.loc)
		}
		// A grouped output of unknown type is text, as the target list's
		// outputs are resolved (a parameter gets its type from it).
		t.expr = b.resolveUnknown(t.expr)
		return t.expr, nil
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		name := cr.Fields[0].GetString_().Sval
		inInput := false
		for _, it := range s.items {
			if !it.colsVisible {
				continue
			}
			for _, c := range it.cols {
				if c.name == name {
					inInput = true
				}
			}
		}
		if !inInput {
			var found *target
			for _, t := range targets {
				if t.junk || t.name != name {
					continue
				}
				if found != nil && !exprEqual(found.expr, t.expr) {
					return nil, b.errAt(pgerr.New(pgerr.AmbiguousColumn, "GROUP BY \"%s\" is ambiguous", name), cr.Location)
				}
				if found == nil {
					found = t
				}
			}
			if found != nil {
				return fromTarget(found)
			}
		}
	}
	if c := n.GetAConst(); c != nil && (c.Isnull || c.GetIval() == nil) {
		return nil, errNonIntegerConstant(b, "GROUP BY", c)
	}
	if c := n.GetAConst(); c != nil && c.GetIval() != nil && !c.Isnull {
		pos := int(c.GetIval().Ival)
		var nonJunk []*target
		for _, t := range targets {
			if !t.junk {
				nonJunk = append(nonJunk, t)
			}
		}
		if pos < 1 || pos > len(nonJunk) {
			return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", pos), c.Location)
		}
		return fromTarget(nonJunk[pos-1])
	}
	return b.bindExpr(s, n)
}

// bindLimitOffset binds LIMIT / FETCH FIRST and OFFSET, and whether the
// count is WITH TIES (the parser has checked there is an ORDER BY).
func (b *binder) bindLimitOffset(s *scope, sel *pg_query.SelectStmt) (plan.Expr, plan.Expr, bool, error) {
	withTies := sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES
	if c := sel.LimitCount.GetAConst(); withTies && c != nil && c.Isnull {
		return nil, nil, false, b.errAt(pgerr.New("2201W", "row count cannot be null in FETCH FIRST ... WITH TIES clause"), -1)
	}
	limit, err := b.bindLimitExpr(s, sel.LimitCount, "LIMIT")
	if err != nil {
		return nil, nil, false, err
	}
	offset, err := b.bindLimitExpr(s, sel.LimitOffset, "OFFSET")
	return limit, offset, withTies, err
}

func (b *binder) bindLimitExpr(s *scope, n *pg_query.Node, what string) (plan.Expr, error) {
	if n == nil {
		return nil, nil
	}
	if c := n.GetAConst(); c != nil && c.Isnull {
		return nil, nil // LIMIT ALL / LIMIT NULL
	}
	saved := s.exprKind
	s.exprKind = what
	e, err := b.bindExpr(s, n)
	s.exprKind = saved
	if err != nil {
		return nil, err
	}
	// Only variables of this level are forbidden (checkExprIsVarFree).
	local := map[plan.ColumnID]bool{}
	for _, it := range s.items {
		for _, c := range it.cols {
			var ids []plan.ColumnID
			collectColRefs(c.expr, &ids)
			for _, id := range ids {
				local[id] = true
			}
		}
	}
	var bad plan.Expr
	plan.Walk(e, func(x plan.Expr) bool {
		if r, ok := x.(*plan.ColRef); ok && bad == nil && local[r.ID] {
			bad = x
		}
		return true
	})
	if bad != nil {
		return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "argument of %s must not contain variables", what), b.locOf(bad))
	}
	out, err := b.coerce(e, types.Int8Type, coerceAssignment, b.locOf(e))
	if err == errCannotCoerce {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", what, typeName(e.Type())), b.locOf(e))
	}
	return out, err
}

// bindValues binds a VALUES list: one column per position, typed by
// select_common_type over the rows.
func (b *binder) bindValues(sel *pg_query.SelectStmt, s *scope) (*boundQuery, error) {
	s.exprKind = "VALUES"
	var rows [][]plan.Expr
	for _, ln := range sel.ValuesLists {
		items := ln.GetList().GetItems()
		if len(rows) > 0 && len(items) != len(rows[0]) {
			loc := int32(-1)
			if len(items) > 0 {
				loc = nodeLocation(items[0])
			}
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "VALUES lists must all be the same length"), loc)
		}
		row, err := b.bindList(s, items)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return b.valuesNode(rows, "VALUES")
}

func (b *binder) valuesNode(rows [][]plan.Expr, ctx string) (*boundQuery, error) {
	ncol := len(rows[0])
	v := &plan.Values{Rows: rows}
	bq := &boundQuery{node: v}
	for j := 0; j < ncol; j++ {
		col := make([]plan.Expr, len(rows))
		for i := range rows {
			col[i] = rows[i][j]
		}
		t, err := b.commonType(ctx, col)
		if err != nil {
			return nil, err
		}
		nn := true
		for i := range rows {
			if rows[i][j], err = b.coerceCommon(ctx, rows[i][j], t); err != nil {
				return nil, err
			}
			nn = nn && exprNotNull(rows[i][j], nil)
		}
		name := fmt.Sprintf("column%d", j+1)
		v.Cols = append(v.Cols, plan.Column{ID: b.ids.Next(), Name: name, Type: t, NotNull: nn})
		bq.names = append(bq.names, name)
		bq.locs = append(bq.locs, b.locOf(rows[0][j]))
	}
	return bq, nil
}

// bindSetOp binds UNION / INTERSECT / EXCEPT, unifying column types.
func (b *binder) bindSetOp(sel *pg_query.SelectStmt, s *scope) (*boundQuery, error) {
	var kind plan.SetOpKind
	ctx := "UNION"
	switch sel.Op {
	case pg_query.SetOperation_SETOP_INTERSECT:
		kind, ctx = plan.Intersect, "INTERSECT"
	case pg_query.SetOperation_SETOP_EXCEPT:
		kind, ctx = plan.Except, "EXCEPT"
	}
	// Leaves bind below s (which has no FROM items) so their outer
	// references are recorded on s too.
	l, _, err := b.bindSelect(sel.Larg, s, s.ctes, false)
	if err != nil {
		return nil, err
	}
	r, _, err := b.bindSelect(sel.Rarg, s, s.ctes, false)
	if err != nil {
		return nil, err
	}
	lc, rc := l.node.Columns(), r.node.Columns()
	if len(lc) != len(rc) {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "each %s query must have the same number of columns", ctx), firstLoc(r.locs))
	}
	out := &plan.SetOp{Op: kind, All: sel.All}
	lt := make([]types.Type, len(lc))
	for i := range lc {
		t, err := b.commonTypeOf(ctx, []types.Type{lc[i].Type, rc[i].Type}, []int32{l.locs[i], r.locs[i]})
		if err != nil {
			return nil, err
		}
		lt[i] = t
		if !sel.All || kind != plan.Union {
			if err := b.checkEquality(t, l.locs[i]); err != nil {
				return nil, err
			}
		}
	}
	if out.Left, err = b.castOutputs(l, lt, ctx); err != nil {
		return nil, err
	}
	if out.Right, err = b.castOutputs(r, lt, ctx); err != nil {
		return nil, err
	}
	for i := range lc {
		out.Cols = append(out.Cols, plan.Column{ID: b.ids.Next(), Name: l.names[i], Type: lt[i],
			NotNull: lc[i].NotNull && rc[i].NotNull && kind == plan.Union || (kind != plan.Union && lc[i].NotNull)})
	}
	return &boundQuery{node: out, names: l.names, locs: l.locs}, nil
}

func firstLoc(locs []int32) int32 {
	if len(locs) > 0 {
		return locs[0]
	}
	return -1
}

// castOutputs converts a query's outputs to ts, rewriting unknown literals
// of a top projection in place (so bad input reports at the literal).
func (b *binder) castOutputs(q *boundQuery, ts []types.Type, ctx string) (plan.Node, error) {
	cols := q.node.Columns()
	need := false
	for i, c := range cols {
		if c.Type != ts[i] {
			need = true
		}
	}
	if !need {
		return q.node, nil
	}
	if p, ok := q.node.(*plan.Project); ok {
		for i := range p.Exprs {
			if p.Cols[i].Type == ts[i] {
				continue
			}
			e, err := b.coerceCommon(ctx, p.Exprs[i], ts[i])
			if err != nil {
				return nil, err
			}
			p.Exprs[i] = e
			p.Cols[i].Type = ts[i]
		}
		return p, nil
	}
	if v, ok := q.node.(*plan.Values); ok {
		for j := range v.Cols {
			if v.Cols[j].Type == ts[j] {
				continue
			}
			for i := range v.Rows {
				e, err := b.coerceCommon(ctx, v.Rows[i][j], ts[j])
				if err != nil {
					return nil, err
				}
				v.Rows[i][j] = e
			}
			v.Cols[j].Type = ts[j]
		}
		return v, nil
	}
	p := &plan.Project{Input: q.node}
	for i, c := range cols {
		var e plan.Expr = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
		b.locs[e] = q.locs[i]
		e, err := b.coerceCommon(ctx, e, ts[i])
		if err != nil {
			return nil, err
		}
		nc := c
		nc.ID, nc.Type = b.ids.Next(), ts[i]
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, nc)
	}
	return p, nil
}

// finishOutput applies ORDER BY / LIMIT of a VALUES list or set operation,
// whose ORDER BY may name only output columns.
func (b *binder) finishOutput(s *scope, q *boundQuery, sel *pg_query.SelectStmt, setOp bool) (*boundQuery, error) {
	cols := q.node.Columns()
	item := &nsItem{colsVisible: true}
	for i, c := range cols {
		item.cols = append(item.cols, nsColumn{name: q.names[i], expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}})
	}
	s.items = []*nsItem{item}
	s.exprKind = "ORDER BY"
	var keys []plan.SortKey
	for _, n := range sel.SortClause {
		sb := n.GetSortBy()
		var e plan.Expr
		if c := sb.Node.GetAConst(); c != nil && (c.Isnull || c.GetIval() == nil) {
			return nil, errNonIntegerConstant(b, "ORDER BY", c)
		}
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			pos := int(c.GetIval().Ival)
			if pos < 1 || pos > len(cols) {
				return nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", pos), c.Location)
			}
			e = item.cols[pos-1].expr
		} else {
			cr := sb.Node.GetColumnRef()
			if setOp && (cr == nil || len(cr.Fields) != 1) {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
					WithDetail("Only result column names can be used, not expressions or functions.").
					WithHint("Add the expression/function to every SELECT, or move the UNION into a FROM clause."), nodeLocation(sb.Node))
			}
			var err error
			if e, err = b.bindExpr(s, sb.Node); err != nil {
				return nil, err
			}
		}
		desc, nf, err := b.sortDirection(sb, e.Type())
		if err != nil {
			return nil, err
		}
		keys = append(keys, plan.SortKey{Expr: e, Desc: desc, NullsFirst: nf})
	}
	s.items = nil
	limit, offset, withTies, err := b.bindLimitOffset(s, sel)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		q.node = &plan.Sort{Input: q.node, Keys: keys}
	}
	if limit != nil || offset != nil || withTies {
		q.node = &plan.Limit{Input: q.node, Count: limit, Offset: offset, WithTies: withTies}
	}
	return q, nil
}

// regrouper rewrites expressions above an Aggregate: grouped expressions
// become references to the group columns; any other input column is an error.
type regrouper struct {
	b        *binder
	groups   []plan.Expr
	gcols    []plan.Column
	inputIDs map[plan.ColumnID]bool
	sets     *groupingSets // nil: plain GROUP BY
}

func (r *regrouper) rewrite(e plan.Expr) (plan.Expr, error) {
	return r.rewriteAt(e, true)
}

// rewriteAt is rewrite of e, top when e is a whole output, HAVING or ORDER
// BY expression. With grouping sets a constant inside a larger expression
// stays a constant, as in PostgreSQL's setrefs (a grouped-out group column
// would make it NULL); a whole expression equal to a group key is that key.
func (r *regrouper) rewriteAt(e plan.Expr, top bool) (plan.Expr, error) {
	if g, ok := e.(*plan.GroupingFunc); ok {
		return r.grouping(g) // groupingsets.go
	}
	if r.sets != nil && !top && plan.Foldable(e) {
		return e, nil
	}
	for i, g := range r.groups {
		if exprEqual(e, g) {
			c := r.gcols[i]
			return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}, nil
		}
	}
	if err := r.checkWholeRow(e); err != nil { // rowtype.go
		return nil, err
	}
	switch x := e.(type) {
	case *plan.ColRef:
		if r.inputIDs[x.ID] {
			return nil, r.b.errAt(pgerr.New(pgerr.GroupingError, "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function",
				r.b.qualifiedName(x)), r.b.locOf(x))
		}
		return x, nil
	case *plan.Subquery:
		for _, id := range x.OuterRefs {
			if r.inputIDs[id] && !r.isGroupCol(id) {
				ref := &plan.ColRef{ID: id}
				loc, ok := r.b.outerLoc[id]
				if !ok {
					loc = r.b.locOf(x)
				}
				return nil, r.b.errAt(pgerr.New(pgerr.GroupingError, "subquery uses ungrouped column \"%s\" from outer query",
					r.b.qualifiedName(ref)), loc)
			}
		}
	}
	return plan.MapChildren(e, func(c plan.Expr) (plan.Expr, error) { return r.rewriteAt(c, false) })
}

func (r *regrouper) isGroupCol(id plan.ColumnID) bool {
	for _, c := range r.gcols {
		if c.ID == id {
			return true
		}
	}
	return false
}

func (b *binder) qualifiedName(r *plan.ColRef) string {
	if t := b.colTable[r.ID]; t != "" {
		return t + "." + b.colName[r.ID]
	}
	return b.colName[r.ID]
}

// columnNotNull maps a node's output columns to their NotNull flag.
// plan.Join.Columns passes its inputs' flags through unchanged, so the
// columns of an outer join's nullable side are cleared here.
func columnNotNull(n plan.Node) map[plan.ColumnID]bool {
	m := map[plan.ColumnID]bool{}
	for _, c := range n.Columns() {
		m[c.ID] = c.NotNull
	}
	plan.WalkNodes(n, func(x plan.Node) bool {
		if a, ok := x.(*plan.Apply); ok && a.Type == plan.LeftJoin {
			for _, c := range a.Right.Columns() {
				m[c.ID] = false
			}
		}
		if j, ok := x.(*plan.Join); ok {
			clear := func(side plan.Node) {
				for _, c := range side.Columns() {
					m[c.ID] = false
				}
			}
			switch j.Type {
			case plan.LeftJoin:
				clear(j.Right)
			case plan.RightJoin:
				clear(j.Left)
			case plan.FullJoin:
				clear(j.Left)
				clear(j.Right)
			}
		}
		return true
	})
	return m
}

// exprNotNull reports whether e is provably never NULL.
func exprNotNull(e plan.Expr, cols map[plan.ColumnID]bool) bool {
	switch x := e.(type) {
	case *plan.Const:
		return !x.Val.Null
	case *plan.ColRef:
		return cols[x.ID]
	case *plan.IsNull, *plan.BoolTest, *plan.IsDistinct:
		return true
	case *plan.Cast:
		return exprNotNull(x.Input, cols)
	case *plan.Coalesce:
		for _, a := range x.Args {
			if exprNotNull(a, cols) {
				return true
			}
		}
	}
	return false
}
