package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// invalidRecursion is PostgreSQL's SQLSTATE 42P19 (invalid_recursion).
const invalidRecursion = "42P19"

// recursiveRef is the self-reference of a WITH RECURSIVE query while its
// recursive term is bound: references read the working table.
type recursiveRef struct {
	wt    *plan.WorkTable
	cols  []plan.Column // the non-recursive term's output (types), then SEARCH's and CYCLE's columns
	names []string
	// starCols is how many of cols * expands to: not SEARCH's and CYCLE's.
	starCols int
}

// defineRecursiveCTE binds a WITH RECURSIVE query that refers to itself, as
// PostgreSQL's parse_cte.c: checkWellFormedRecursion on the raw tree, the
// non-recursive term, then the recursive term with the query's name
// reading the working table, whose column types are the non-recursive
// term's and must be the union's overall types.
func (b *binder) defineRecursiveCTE(s *scope, env *cteEnv) error {
	cte := env.cte
	sel := cte.Ctequery.GetSelectStmt()
	if sel == nil {
		return b.errAt(pgerr.New(invalidRecursion, "recursive query \"%s\" must not contain data-modifying statements", env.name), cte.Location)
	}
	if err := b.checkWellFormedRecursion(env.name, sel, cte.Location); err != nil {
		return err
	}
	if cc := cte.CycleClause; cc != nil && cc.CycleMarkValue != nil && cc.CycleMarkDefault != nil {
		if _, err := b.cycleMarkType(cc); err != nil {
			return err
		}
	}
	// The body sees the enclosing levels of the defining query, not its
	// FROM items; its own WITH is visible to both terms.
	top := &scope{parent: env.def.parent, ctes: env.bodyEnv}
	if err := b.bindWith(top, sel.WithClause); err != nil {
		return err
	}
	l, _, err := b.bindSelect(sel.Larg, top, top.ctes, true)
	if err != nil {
		return err
	}
	names := append([]string{}, l.names...)
	if len(cte.Aliascolnames) > 0 {
		if len(cte.Aliascolnames) > len(names) {
			return b.errAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
				env.name, len(names), len(cte.Aliascolnames)), cte.Location)
		}
		for i, cn := range cte.Aliascolnames {
			names[i] = cn.GetString_().GetSval()
		}
	}
	// PostgreSQL checks SEARCH and CYCLE after the recursive term; joind
	// before it, which the term may read their columns in.
	if err := b.checkSearchCycle(env.name, names, cte, sel); err != nil {
		return err
	}
	lc := l.node.Columns()
	sc, extra, err := b.searchCycleSpec(names, lc, cte)
	if err != nil {
		return err
	}
	self := &recursiveRef{wt: &plan.WorkTable{Name: env.name}, cols: append(append([]plan.Column{}, lc...), extra...), names: names, starCols: len(lc)}
	for _, c := range extra {
		self.names = append(self.names, c.Name)
	}
	selfEnv := &cteEnv{parent: top.ctes, name: env.name, cte: cte, def: env.def, self: self}
	rarg := sel.Rarg
	if sc != nil {
		rarg = carrySearchCycle(rarg, env.name, cte)
	}
	r, _, err := b.bindSelect(rarg, top, selfEnv, false)
	if err != nil {
		return err
	}
	if len(top.outerRefs) > 0 {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "WITH RECURSIVE query \"%s\" referencing an outer query is not supported", env.name), cte.Location)
	}
	rc := r.node.Columns()
	carried := rc[len(rc)-carriedCount(sc):]
	rc = rc[:len(rc)-len(carried)]
	if len(lc) != len(rc) {
		return b.errAt(pgerr.New(pgerr.SyntaxError, "each UNION query must have the same number of columns"), firstLoc(r.locs))
	}
	lt := make([]types.Type, len(lc))
	for i := range lc {
		t, err := b.commonTypeOf("UNION", []types.Type{lc[i].Type, rc[i].Type}, []int32{l.locs[i], r.locs[i]})
		if err != nil {
			return err
		}
		if t != lc[i].Type {
			return b.errAt(pgerr.New(pgerr.DatatypeMismatch, "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
				env.name, i+1, lc[i].Type.SQLName(), t.SQLName()).
				WithHint("Cast the output of the non-recursive term to the correct type."), l.locs[i])
		}
		lt[i] = t
	}
	for _, c := range carried {
		lt = append(lt, c.Type)
	}
	rec, err := b.castOutputs(r, lt, "UNION")
	if err != nil {
		return err
	}
	ru := &plan.RecursiveUnion{Name: env.name, All: sel.All, NonRecursive: l.node, Recursive: rec, WorkTable: self.wt, SearchCycle: sc}
	for i, c := range self.cols {
		ru.Cols = append(ru.Cols, plan.Column{ID: b.ids.Next(), Name: self.names[i], Type: c.Type})
	}
	// Evaluated once, as PostgreSQL always materializes a recursive query;
	// its only reference may still read it directly (streaming, so a LIMIT
	// above ends the iteration).
	env.shared = &plan.CTE{Name: env.name, Plan: ru, Materialized: cte.Ctematerialized == pg_query.CTEMaterialize_CTEMaterializeAlways}
	env.names = self.names
	return nil
}

// workTableScan is a reference to a recursive query from its recursive
// term: the working table, under fresh columns.
func (b *binder) workTableScan(s *scope, env *cteEnv, alias string, a *pg_query.Alias) (plan.Node, []*nsItem, error) {
	scan := &plan.WorkTableScan{WorkTable: env.self.wt}
	for i, c := range env.self.cols {
		scan.Cols = append(scan.Cols, plan.Column{ID: b.ids.Next(), Name: env.self.names[i], Type: c.Type})
	}
	s.selfRef = true
	it, err := b.itemFromQuery(&boundQuery{node: scan, names: append([]string{}, env.self.names...)}, alias, a)
	if err != nil {
		return nil, nil, err
	}
	for i := env.self.starCols; i < len(it.cols); i++ {
		it.cols[i].noStar = true
	}
	return scan, []*nsItem{it}, nil
}

// recursionContext is where a self-reference stands (parse_cte.c's
// RecursionContext); every context but recursionOK makes it an error.
type recursionContext int

const (
	recursionOK recursionContext = iota
	recursionNonRecursiveTerm
	recursionSublink
	recursionOuterJoin
	recursionIntersect
	recursionExcept
)

var recursionErrors = [...]string{
	recursionNonRecursiveTerm: "recursive reference to query \"%s\" must not appear within its non-recursive term",
	recursionSublink:          "recursive reference to query \"%s\" must not appear within a subquery",
	recursionOuterJoin:        "recursive reference to query \"%s\" must not appear within an outer join",
	recursionIntersect:        "recursive reference to query \"%s\" must not appear within INTERSECT",
	recursionExcept:           "recursive reference to query \"%s\" must not appear within EXCEPT",
}

// recursionCheck is checkWellFormedRecursion's walk over the raw tree.
type recursionCheck struct {
	b       *binder
	name    string
	context recursionContext
	refs    int
	err     error
	// hidden are the names of inner WITH queries in scope (innerwiths):
	// a reference to one of them is not a self-reference.
	hidden []string
}

// checkWellFormedRecursion is PostgreSQL's check of a recursive query's
// shape, with its errors and their order.
func (b *binder) checkWellFormedRecursion(name string, sel *pg_query.SelectStmt, loc int32) error {
	if sel.Op != pg_query.SetOperation_SETOP_UNION {
		return b.errAt(pgerr.New(invalidRecursion, "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", name), loc)
	}
	c := &recursionCheck{b: b, name: name, context: recursionNonRecursiveTerm}
	c.walkSelect(sel.Larg)
	c.context = recursionOK
	c.walkSelect(sel.Rarg)
	if c.err == nil && sel.WithClause != nil {
		c.context = recursionSublink
		for _, n := range sel.WithClause.Ctes {
			c.walk(n.ProtoReflect())
		}
	}
	if c.err != nil {
		return c.err
	}
	notImplemented := func(what string, n *pg_query.Node) error {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s in a recursive query is not implemented", what), nodeLocation(n))
	}
	switch {
	case len(sel.SortClause) > 0:
		return notImplemented("ORDER BY", sel.SortClause[0])
	case sel.LimitOffset != nil:
		return notImplemented("OFFSET", sel.LimitOffset)
	case sel.LimitCount != nil:
		return notImplemented("LIMIT", sel.LimitCount)
	case len(sel.LockingClause) > 0:
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE/SHARE in a recursive query is not implemented"), -1)
	}
	return nil
}

func (c *recursionCheck) walkSelect(sel *pg_query.SelectStmt) {
	if sel != nil {
		c.walk(sel.ProtoReflect())
	}
}

func (c *recursionCheck) walkNode(n *pg_query.Node) {
	if n != nil {
		c.walk(n.ProtoReflect())
	}
}

func (c *recursionCheck) walk(m protoreflect.Message) {
	if c.err != nil || !m.IsValid() {
		return
	}
	save := c.context
	switch x := m.Interface().(type) {
	case *pg_query.RangeVar:
		if x.Schemaname == "" && x.Relname == c.name && !contains(c.hidden, x.Relname) {
			if c.context != recursionOK {
				c.err = c.b.errAt(pgerr.New(invalidRecursion, recursionErrors[c.context], c.name), x.Location)
				return
			}
			c.refs++
			if c.refs > 1 {
				c.err = c.b.errAt(pgerr.New(invalidRecursion, "recursive reference to query \"%s\" must not appear more than once", c.name), x.Location)
			}
		}
		return
	case *pg_query.SelectStmt:
		if w := x.WithClause; w != nil {
			// A WITH query's name hides the recursive query's in the main
			// query and, but for RECURSIVE, only in the WITH queries after it.
			saved := c.hidden
			names := cteNames(w.Ctes)
			for i, n := range w.Ctes {
				vis := names[:i]
				if w.Recursive {
					vis = names
				}
				c.hidden = append(saved[:len(saved):len(saved)], vis...)
				c.walkNode(n.GetCommonTableExpr().GetCtequery())
			}
			c.hidden = append(saved[:len(saved):len(saved)], names...)
			c.walkSelectBody(x, save)
			c.hidden = saved
			return
		}
		c.walkSelectBody(x, save)
		return
	case *pg_query.JoinExpr:
		outer := func() {
			if save == recursionOK {
				c.context = recursionOuterJoin
			}
		}
		switch x.Jointype {
		case pg_query.JoinType_JOIN_LEFT:
			c.walkNode(x.Larg)
			outer()
			c.walkNode(x.Rarg)
		case pg_query.JoinType_JOIN_FULL:
			outer()
			c.walkNode(x.Larg)
			c.walkNode(x.Rarg)
		case pg_query.JoinType_JOIN_RIGHT:
			outer()
			c.walkNode(x.Larg)
			c.context = save
			c.walkNode(x.Rarg)
		default:
			c.walkNode(x.Larg)
			c.walkNode(x.Rarg)
		}
		c.context = save
		c.walkNode(x.Quals)
		return
	case *pg_query.SubLink:
		c.context = recursionSublink
		c.walkNode(x.Subselect)
		c.context = save
		c.walkNode(x.Testexpr)
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				c.walk(l.Get(i).Message())
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			c.walk(v.Message())
		}
		return c.err == nil
	})
}

// walkSelectBody is checkWellFormedSelectStmt: a SELECT's clauses, or an
// INTERSECT's or EXCEPT's sides in their contexts.
func (c *recursionCheck) walkSelectBody(x *pg_query.SelectStmt, save recursionContext) {
	if c.context == recursionOK {
		switch x.Op {
		case pg_query.SetOperation_SETOP_INTERSECT:
			if x.All {
				c.context = recursionIntersect
			}
			c.walkSelect(x.Larg)
			c.walkSelect(x.Rarg)
			c.context = save
			return
		case pg_query.SetOperation_SETOP_EXCEPT:
			if x.All {
				c.context = recursionExcept
			}
			c.walkSelect(x.Larg)
			c.context = recursionExcept
			c.walkSelect(x.Rarg)
			c.context = save
			return
		}
	}
	// PostgreSQL's raw_expression_tree_walker order.
	for _, l := range [][]*pg_query.Node{x.TargetList, x.FromClause, {x.WhereClause}, x.GroupClause, {x.HavingClause}, x.WindowClause} {
		for _, n := range l {
			c.walkNode(n)
		}
	}
	for _, l := range x.ValuesLists {
		c.walkNode(l)
	}
	for _, n := range append(append([]*pg_query.Node{}, x.SortClause...), x.LimitOffset, x.LimitCount) {
		c.walkNode(n)
	}
	c.walkSelect(x.Larg)
	c.walkSelect(x.Rarg)
}

// cteNames is the names of WITH queries ctes.
func cteNames(ctes []*pg_query.Node) []string {
	var out []string
	for _, n := range ctes {
		out = append(out, n.GetCommonTableExpr().GetCtename())
	}
	return out
}

// futureCTEHint adds PostgreSQL's detail and hint to e, a missing
// relation, when rv names a WITH query not visible from here.
func (b *binder) futureCTEHint(rv *pg_query.RangeVar, e *pgerr.Error) *pgerr.Error {
	if rv.Schemaname != "" {
		return e
	}
	for _, n := range b.futureCTEs {
		if n == rv.Relname {
			return e.WithDetail("There is a WITH item named \"%s\", but it cannot be referenced from this part of the query.", n).
				WithHint("Use WITH RECURSIVE, or re-order the WITH items to remove forward references.")
		}
	}
	return e
}

// cycleMarkType is the common type of CYCLE's mark values (TO v DEFAULT
// d), which PostgreSQL resolves before analyzing the query.
func (b *binder) cycleMarkType(cc *pg_query.CTECycleClause) (types.Type, error) {
	v, err := b.bindExpr(&scope{}, cc.CycleMarkValue)
	if err != nil {
		return types.Type{}, err
	}
	d, err := b.bindExpr(&scope{}, cc.CycleMarkDefault)
	if err != nil {
		return types.Type{}, err
	}
	return b.commonTypeOf("CYCLE", []types.Type{v.Type(), d.Type()}, []int32{nodeLocation(cc.CycleMarkValue), nodeLocation(cc.CycleMarkDefault)})
}

// checkSearchCycle makes PostgreSQL's checks of SEARCH and CYCLE: column
// lists against the query's columns names, then the rewriter's shape
// checks.
func (b *binder) checkSearchCycle(name string, cols []string, cte *pg_query.CommonTableExpr, sel *pg_query.SelectStmt) error {
	sc, cc := cte.SearchClause, cte.CycleClause
	if sc == nil && cc == nil {
		return nil
	}
	has := func(n string) bool { return contains(cols, n) }
	checkList := func(what string, list []*pg_query.Node, loc int32) error {
		seen := map[string]bool{}
		for _, n := range list {
			col := n.GetString_().GetSval()
			if !has(col) {
				return b.errAt(pgerr.New(pgerr.SyntaxError, "%s column \"%s\" not in WITH query column list", what, col), loc)
			}
			if seen[col] {
				return b.errAt(pgerr.New(pgerr.DuplicateColumn, "%s column \"%s\" specified more than once", what, col), loc)
			}
			seen[col] = true
		}
		return nil
	}
	used := func(what, col string, loc int32) error {
		if has(col) {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "%s column name \"%s\" already used in WITH query column list", what, col), loc)
		}
		return nil
	}
	same := func(a, b2 string, what string, loc int32) error {
		if a == b2 {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "%s are the same", what), loc)
		}
		return nil
	}
	if sc != nil {
		if err := checkList("search", sc.SearchColList, sc.Location); err != nil {
			return err
		}
		if err := used("search sequence", sc.SearchSeqColumn, sc.Location); err != nil {
			return err
		}
	}
	if cc != nil {
		if err := checkList("cycle", cc.CycleColList, cc.Location); err != nil {
			return err
		}
		if err := used("cycle mark", cc.CycleMarkColumn, cc.Location); err != nil {
			return err
		}
		if err := used("cycle path", cc.CyclePathColumn, cc.Location); err != nil {
			return err
		}
		if err := same(cc.CycleMarkColumn, cc.CyclePathColumn, "cycle mark column name and cycle path column name", cc.Location); err != nil {
			return err
		}
	}
	if sc != nil && cc != nil {
		if err := same(sc.SearchSeqColumn, cc.CycleMarkColumn, "search sequence column name and cycle mark column name", sc.Location); err != nil {
			return err
		}
		if err := same(sc.SearchSeqColumn, cc.CyclePathColumn, "search sequence column name and cycle path column name", sc.Location); err != nil {
			return err
		}
	}
	// The rewriter's (rewriteSearchAndCycle) shape checks.
	if sel.Larg.Op != pg_query.SetOperation_SETOP_NONE {
		return pgerr.New(pgerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the left side of the UNION must be a SELECT")
	}
	if sel.Rarg.Op != pg_query.SetOperation_SETOP_NONE {
		return pgerr.New(pgerr.SyntaxError, "with a SEARCH or CYCLE clause, the right side of the UNION must be a SELECT")
	}
	if (sel.Rarg.WithClause != nil && contains(cteNames(sel.Rarg.WithClause.Ctes), name)) || selfReferenceName(sel.Rarg.FromClause, name) == "" {
		return pgerr.New(pgerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the recursive reference to WITH query \"%s\" must be at the top level of its right-hand SELECT", name)
	}
	return nil
}

// recursiveOrder is the order WITH RECURSIVE's queries are bound in, as
// PostgreSQL's TopologicalSort: each after the others it references (any
// may reference any other), a query referencing only itself is recursive,
// and a cycle through two or more is 0A000. With a duplicate name the
// order is left alone (the duplicate is reported as it is bound).
func (b *binder) recursiveOrder(ctes []*pg_query.Node) ([]*pg_query.Node, error) {
	names := cteNames(ctes)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return ctes, nil
		}
		seen[n] = true
	}
	type item struct {
		node *pg_query.Node
		deps map[string]bool
	}
	items := make([]item, len(ctes))
	for i, n := range ctes {
		cte := n.GetCommonTableExpr()
		items[i] = item{node: n, deps: map[string]bool{}}
		for _, other := range names {
			if other != cte.Ctename && refersTo(cte.Ctequery, other) {
				items[i].deps[other] = true
			}
		}
	}
	for i := range items {
		j := i
		for j < len(items) && len(items[j].deps) > 0 {
			j++
		}
		if j == len(items) {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "mutual recursion between WITH items is not implemented"), items[i].node.GetCommonTableExpr().Location)
		}
		items[i], items[j] = items[j], items[i]
		done := items[i].node.GetCommonTableExpr().Ctename
		for k := i + 1; k < len(items); k++ {
			delete(items[k].deps, done)
		}
	}
	out := make([]*pg_query.Node, len(items))
	for i, it := range items {
		out[i] = it.node
	}
	return out, nil
}

// readsWorkTable reports whether n (or a subquery inside it) reads a
// recursive query's working table.
func readsWorkTable(n plan.Node) bool {
	if _, ok := n.(*plan.WorkTableScan); ok {
		return true
	}
	for _, e := range n.Expressions() {
		found := false
		plan.Walk(e, func(x plan.Expr) bool {
			if sq, ok := x.(*plan.Subquery); ok && readsWorkTable(sq.Plan) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	for _, c := range n.Children() {
		if readsWorkTable(c) {
			return true
		}
	}
	return false
}
