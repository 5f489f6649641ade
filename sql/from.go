package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// bindFromList binds a FROM clause: comma-separated items are cross joined.
// Subqueries and join conditions see s as their parent; s has no items yet,
// so they cannot see sibling items but do record outer references on s.
// LATERAL items (and functions) see the items to their left: an item that
// references them is joined by a plan.Apply instead.
func (b *binder) bindFromList(s *scope, from []*pg_query.Node) (plan.Node, []*nsItem, error) {
	return b.joinFromItems(s, nil, nil, from)
}

// joinFromItems cross-joins the FROM items from onto node (nil: none),
// whose namespace is items (UPDATE ... FROM and DELETE ... USING start
// from the target table).
func (b *binder) joinFromItems(s *scope, node plan.Node, items []*nsItem, from []*pg_query.Node) (plan.Node, []*nsItem, error) {
	for _, f := range from {
		n, its, lat, err := b.bindFromItem(s, f, items)
		if err != nil {
			return nil, nil, err
		}
		if err := checkNameConflicts(items, its); err != nil {
			return nil, nil, err
		}
		items = append(items, its...)
		switch {
		case node == nil:
			node = n
		case len(lat) > 0:
			node = &plan.Apply{Type: plan.CrossJoin, Left: node, Right: n, OuterRefs: lat}
		default:
			node = &plan.Join{Type: plan.CrossJoin, Left: node, Right: n}
		}
	}
	return node, items, nil
}

// lateralScope is the parent scope of a LATERAL item: s plus the FROM items
// to its left (none: s itself).
func lateralScope(s *scope, lateral []*nsItem) *scope {
	if len(lateral) == 0 {
		return s
	}
	// An aggregate over only these columns would belong to the level whose
	// FROM clause is being bound.
	return &scope{parent: s, ctes: s.ctes, items: lateral, exprKind: "FROM clause of their own query level"}
}

// lateralRefs returns the columns of the lateral items among refs.
func lateralRefs(refs []plan.ColumnID, lateral []*nsItem) []plan.ColumnID {
	if len(lateral) == 0 || len(refs) == 0 {
		return nil
	}
	ids := map[plan.ColumnID]bool{}
	for _, it := range lateral {
		for _, c := range it.cols {
			var cs []plan.ColumnID
			collectColRefs(c.expr, &cs)
			for _, id := range cs {
				ids[id] = true
			}
		}
	}
	var out []plan.ColumnID
	for _, id := range refs {
		if ids[id] && !containsID(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func containsID(ids []plan.ColumnID, id plan.ColumnID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// checkNameConflicts is checkNameSpaceConflicts: two visible relation
// names in one FROM clause may not coincide, unless both are unaliased
// relations of different schemas.
func checkNameConflicts(a, c []*nsItem) error {
	for _, x := range a {
		if !x.relVisible {
			continue
		}
		for _, y := range c {
			// Unaliased relations of different schemas do not conflict.
			if y.relVisible && x.name == y.name && (x.schema == "" || y.schema == "" || x.schema == y.schema) {
				return pgerr.New(pgerr.DuplicateAlias, "table name \"%s\" specified more than once", x.name)
			}
		}
	}
	return nil
}

// bindFromItem binds one FROM item. lateral lists the items to its left that
// a LATERAL item may reference; lat returns the columns of them it does
// reference (the caller joins it with a plan.Apply).
func (b *binder) bindFromItem(s *scope, n *pg_query.Node, lateral []*nsItem) (node plan.Node, items []*nsItem, lat []plan.ColumnID, err error) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		node, items, err = b.bindRangeVar(s, x.RangeVar)
		return node, items, nil, err
	case *pg_query.Node_RangeSubselect:
		node, items, lat, err = b.bindRangeSubselect(s, x.RangeSubselect, lateral)
		return node, items, lat, err
	case *pg_query.Node_RangeFunction:
		return b.bindRangeFunction(s, x.RangeFunction, lateral)
	case *pg_query.Node_JoinExpr:
		return b.bindJoin(s, x.JoinExpr, lateral)
	}
	return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "FROM item %s is not supported", nodeTypeName(n)), nodeLocation(n))
}

func (b *binder) bindRangeSubselect(s *scope, rs *pg_query.RangeSubselect, lateral []*nsItem) (plan.Node, []*nsItem, []plan.ColumnID, error) {
	{
		sel := rs.Subquery.GetSelectStmt()
		if rs.Alias == nil {
			loc := b.parenBefore(rs.Subquery)
			if sel != nil && len(sel.ValuesLists) > 0 && sel.Op == pg_query.SetOperation_SETOP_NONE {
				return nil, nil, nil, b.errAt(pgerr.New(pgerr.SyntaxError, "VALUES in FROM must have an alias").
					WithHint("For example, FROM (VALUES ...) [AS] foo."), loc)
			}
			return nil, nil, nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery in FROM must have an alias").
				WithHint("For example, FROM (SELECT ...) [AS] foo."), loc)
		}
		parent := s
		if rs.Lateral {
			parent = lateralScope(s, lateral)
		}
		q, child, err := b.bindSelect(sel, parent, s.ctes, true)
		if err != nil {
			return nil, nil, nil, err
		}
		it, err := b.itemFromQuery(q, rs.Alias.Aliasname, rs.Alias)
		if err != nil {
			return nil, nil, nil, err
		}
		s.rtes = append(s.rtes, rteInfo{alias: it.name})
		var lat []plan.ColumnID
		if rs.Lateral {
			lat = lateralRefs(child.outerRefs, lateral)
		}
		return q.node, []*nsItem{it}, lat, nil
	}
}

// itemFromQuery exposes a bound query's outputs as a FROM item.
func (b *binder) itemFromQuery(q *boundQuery, name string, alias *pg_query.Alias) (*nsItem, error) {
	cols := q.node.Columns()
	names := append([]string{}, q.names...)
	if alias != nil && len(alias.Colnames) > 0 {
		if len(alias.Colnames) > len(cols) {
			return nil, pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
				name, len(cols), len(alias.Colnames))
		}
		for i, cn := range alias.Colnames {
			names[i] = cn.GetString_().GetSval()
		}
	}
	it := &nsItem{name: name, relVisible: true, colsVisible: true}
	for i, c := range cols {
		it.cols = append(it.cols, nsColumn{name: names[i], table: name, notNull: c.NotNull,
			expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: names[i]}})
		b.colTable[c.ID], b.colName[c.ID] = name, names[i]
	}
	return it, nil
}

func (b *binder) bindRangeVar(s *scope, rv *pg_query.RangeVar) (plan.Node, []*nsItem, error) {
	name := rv.Relname
	alias := name
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	if rv.Schemaname == "" {
		if env := s.ctes.lookup(name); env != nil {
			if env.modifying != nil {
				if err := b.modifyingRef(env, rv.Location); err != nil {
					return nil, nil, err
				}
			}
			s.rtes = append(s.rtes, rteInfo{alias: alias, relname: name})
			return b.bindCTERef(s, env, alias, rv.Alias)
		}
	}
	rel, err := b.resolveRelation(rv)
	if err != nil {
		return nil, nil, err
	}
	b.qualifyStored(rv, rel)
	if rel.key != "" {
		b.noteDep(rel.key)
	}
	if !b.noScanPerm {
		b.notePerm(rel, storage.PrivSelect)
	}
	schema := "" // for schema.table.column references
	if rv.Alias == nil {
		schema = rel.ns.Name
	}
	if rel.kind == relView {
		s.rtes = append(s.rtes, rteInfo{alias: alias, relname: name})
		node, items, err := b.bindViewRef(rel.view, alias, rv)
		if err == nil {
			items[0].schema, items[0].rowType = schema, name
		}
		return node, items, err
	}
	tbl := rel.table
	defs := tbl.Columns()
	if rv.Alias != nil && len(rv.Alias.Colnames) > len(defs) {
		return nil, nil, pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			alias, len(defs), len(rv.Alias.Colnames))
	}
	s.rtes = append(s.rtes, rteInfo{alias: alias, relname: name})
	read, err := b.foreignScanTable(tbl) // foreign.go
	if err != nil {
		return nil, nil, err
	}
	scan := &plan.Scan{Table: read, Alias: alias}
	it := &nsItem{name: alias, relVisible: true, colsVisible: true, stored: true, schema: schema, rowType: name,
		rowTypeOID: registerRowType(tbl, name, defs)} // rowtype.go
	if rv.Alias != nil && len(rv.Alias.Colnames) > 0 {
		for _, d := range defs {
			it.rowFields = append(it.rowFields, d.Name)
		}
	}
	for i, d := range defs {
		cname := d.Name
		if rv.Alias != nil && i < len(rv.Alias.Colnames) {
			cname = rv.Alias.Colnames[i].GetString_().GetSval()
		}
		c := plan.Column{ID: b.ids.Next(), Name: cname, Table: alias, Type: d.Type, NotNull: d.NotNull,
			TableOID: pgcatalog.RelationOID(tbl), AttNum: attnumOf(d, i)}
		b.colOrigin[c.ID] = c
		scan.Cols = append(scan.Cols, c)
		scan.Ordinals = append(scan.Ordinals, i)
		it.cols = append(it.cols, nsColumn{name: cname, table: alias, notNull: d.NotNull,
			expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: cname}})
		b.colTable[c.ID], b.colName[c.ID] = alias, cname
	}
	return scan, []*nsItem{it}, nil
}

// notATable is the error for a statement that needs a stored table but
// names a view (what: "insert", "truncate", "copy from", "copy to"); nil
// when rv is no view.
func (b *binder) notATable(rv *pg_query.RangeVar, what string) error {
	r, err := b.resolveRelation(rv)
	if err != nil {
		return nil
	}
	if r.kind == relSequence {
		return sequenceNotATable(rv.Relname, what)
	}
	if r.kind != relView {
		return nil
	}
	switch what {
	case "insert":
		// PostgreSQL writes through simple views; joind does not.
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "inserting into a view is not supported"), rv.Location)
	case "update", "delete":
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s of a view is not supported", strings.ToUpper(what)), rv.Location)
	case "merge":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation \"%s\"", rv.Relname).
			WithDetail("This operation is not supported for views.")
	case "copy from":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy to view \"%s\"", rv.Relname).
			WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.")
	case "copy to":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy from view \"%s\"", rv.Relname).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	}
	return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", rv.Relname)
}

// lookupTable finds a table (stored, temporary or system) by name; a view
// or sequence is "relation does not exist" here (callers word their own
// error for one: notATable).
func (b *binder) lookupTable(rv *pg_query.RangeVar) (storageTable, error) {
	r, err := b.resolveRelation(rv)
	if err != nil {
		return nil, err
	}
	if r.kind == relView || r.kind == relSequence {
		name := rv.Relname
		if rv.Schemaname != "" {
			name = rv.Schemaname + "." + name
		}
		return nil, b.errAt(pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name), rv.Location)
	}
	return r.table, nil
}

// bindCTEBody binds a WITH query's body as referenced from scope s; corr
// reports that it reads outer query levels.
func (b *binder) bindCTEBody(s *scope, env *cteEnv) (q *boundQuery, corr, volatile bool, err error) {
	// The body sees the enclosing levels of the defining query, not its FROM items.
	bodyParent := &scope{parent: env.def.parent, ctes: env.bodyEnv}
	q, _, err = b.bindSelect(env.cte.Ctequery.GetSelectStmt(), bodyParent, env.bodyEnv, true)
	if err != nil {
		return nil, false, false, err
	}
	// The body's outer references (to levels above the defining query) are
	// correlation of every level from this reference up to the defining one.
	for cur := s; cur != nil; cur = cur.parent {
		for _, id := range bodyParent.outerRefs {
			cur.addOuterRef(id)
		}
		if cur == env.def {
			break
		}
	}
	if len(env.cte.Aliascolnames) > 0 {
		if len(env.cte.Aliascolnames) > len(q.names) {
			return nil, false, false, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified",
				env.name, len(q.names), len(env.cte.Aliascolnames)), env.cte.Location)
		}
		for i, cn := range env.cte.Aliascolnames {
			q.names[i] = cn.GetString_().GetSval()
		}
	}
	return q, len(bodyParent.outerRefs) > 0, planHasVolatile(q.node), nil
}

// defineCTE binds a WITH query where it is defined, as PostgreSQL analyzes
// every WITH query (referenced or not) before the query using it. As in
// PostgreSQL 12+, the query is materialized (evaluated once, every
// reference reading the same rows: plan.CTE) unless it may be inlined: NOT
// MATERIALIZED without volatile functions. A materialized query with one
// reference is inlined later by the optimizer when that cannot change the
// answer. A body that reads outer query levels is bound again at each
// reference (bindCTERef).
func (b *binder) defineCTE(s *scope, env *cteEnv) error {
	q, corr, volatile, err := b.bindCTEBody(s, env)
	if err != nil {
		return err
	}
	mode := env.cte.Ctematerialized
	// A body reading a recursive query's working table changes with every
	// iteration: like a correlated one, each reference binds its own copy.
	if !corr && !readsWorkTable(q.node) && (mode != pg_query.CTEMaterialize_CTEMaterializeNever || volatile) {
		env.shared = &plan.CTE{Name: env.name, Plan: q.node,
			Materialized: mode == pg_query.CTEMaterialize_CTEMaterializeAlways || volatile}
		env.names = q.names
	}
	return nil
}

// bindCTERef binds a reference to a WITH query (see defineCTE).
func (b *binder) bindCTERef(s *scope, env *cteEnv, alias string, a *pg_query.Alias) (plan.Node, []*nsItem, error) {
	if env.self != nil {
		return b.workTableScan(s, env, alias, a)
	}
	if env.shared != nil {
		return b.cteScan(env, alias, a)
	}
	q, _, volatile, err := b.bindCTEBody(s, env)
	if err != nil {
		return nil, nil, err
	}
	// An inlined body is bound afresh per reference; that is PostgreSQL's
	// answer only while the copies cannot differ.
	env.inlined++
	env.volatile = env.volatile || volatile
	if env.inlined > 1 && env.volatile {
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported,
			"WITH query \"%s\" referencing an outer query and calling volatile functions cannot be referenced more than once", env.name), env.cte.Location)
	}
	it, err := b.itemFromQuery(q, alias, a)
	if err != nil {
		return nil, nil, err
	}
	return q.node, []*nsItem{it}, nil
}

// cteScan is one reference to a materialized WITH query: fresh columns
// carrying the shared plan's.
func (b *binder) cteScan(env *cteEnv, alias string, a *pg_query.Alias) (plan.Node, []*nsItem, error) {
	cte := env.shared
	cte.Refs++
	scan := &plan.CTEScan{CTE: cte}
	for _, c := range cte.Plan.Columns() {
		nc := c
		nc.ID = b.ids.Next()
		if o, ok := b.colOrigin[c.ID]; ok {
			b.colOrigin[nc.ID] = o
		}
		scan.Cols = append(scan.Cols, nc)
	}
	it, err := b.itemFromQuery(&boundQuery{node: scan, names: append([]string{}, env.names...)}, alias, a)
	if err != nil {
		return nil, nil, err
	}
	return scan, []*nsItem{it}, nil
}

// planHasVolatile reports whether n (or a subquery inside it) calls a
// volatile function. A materialized WITH query it reads does not count: its
// rows are the same for every reader.
func planHasVolatile(n plan.Node) bool {
	for _, e := range n.Expressions() {
		if exprHasVolatile(e) {
			return true
		}
	}
	for _, c := range n.Children() {
		if planHasVolatile(c) {
			return true
		}
	}
	return false
}

// exprHasVolatile reports whether e (or a subquery inside it) calls a
// volatile function.
func exprHasVolatile(e plan.Expr) bool {
	found := false
	plan.Walk(e, func(x plan.Expr) bool {
		switch x := x.(type) {
		case *plan.Call:
			found = found || x.Func.Volatile
		case *plan.Subquery:
			found = found || planHasVolatile(x.Plan)
		}
		return !found
	})
	return found
}

// bindRangeFunction binds a function in FROM; like PostgreSQL's, its
// arguments may reference the items to its left (LATERAL or not).
func (b *binder) bindRangeFunction(s *scope, rf *pg_query.RangeFunction, lateral []*nsItem) (plan.Node, []*nsItem, []plan.ColumnID, error) {
	node, items, fs, err := b.bindRangeFunctionIn(s, rf, lateral)
	if err != nil {
		return nil, nil, nil, err
	}
	return node, items, lateralRefs(fs.outerRefs, lateral), nil
}

// generateSeriesSignature resolves generate_series's overloads:
// (int4, int4[, int4]), (int8, int8[, int8]), (numeric, numeric[, numeric])
// and (timestamp, timestamp, interval), choosing as PostgreSQL's function
// resolution would (unknown literals take the other arguments' type).
func (b *binder) generateSeriesSignature(args []types.Type) ([]types.Type, types.Type, error) {
	if ov, err := types.ResolveFunction("generate_series", args); err == nil {
		return ov.Args, ov.Result, nil
	}
	notFound := func() error {
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = a.BaseSQLName()
		}
		return pgerr.New(pgerr.UndefinedFunction, "function generate_series(%s) does not exist", strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if len(args) != 2 && len(args) != 3 {
		return nil, types.Type{}, notFound()
	}
	// Timestamp series.
	isDT := func(t types.Type) bool {
		return t.ID == types.Timestamp || t.ID == types.TimestampTZ || t.ID == types.Date
	}
	if len(args) == 3 && (isDT(args[0]) || isDT(args[1])) {
		if args[2].ID != types.Interval && args[2].ID != types.Unknown {
			return nil, types.Type{}, notFound()
		}
		// timestamp or timestamptz by PostgreSQL's resolution: dates take
		// the preferred timestamptz, as there.
		ov, err := types.ResolveFunction("generate_series", args)
		if err != nil {
			return nil, types.Type{}, notFound()
		}
		return ov.Args, ov.Result, nil
	}
	rank := map[types.ID]int{types.Unknown: 0, types.Int2: 1, types.Int4: 1, types.Int8: 2, types.Numeric: 3}
	best := 1
	for _, a := range args {
		r, ok := rank[a.ID]
		if !ok {
			return nil, types.Type{}, notFound()
		}
		best = max(best, r)
	}
	t := [...]types.Type{types.Int4Type, types.Int4Type, types.Int8Type, types.NumericType}[best]
	want := make([]types.Type, len(args))
	for i := range want {
		want[i] = t
	}
	return want, t, nil
}

// bindJoin binds a JOIN. Its right input may be LATERAL over its left
// input (and over lateral, the FROM items left of the whole join); a right
// input that references the left one makes the join a plan.Apply.
func (b *binder) bindJoin(s *scope, j *pg_query.JoinExpr, lateral []*nsItem) (plan.Node, []*nsItem, []plan.ColumnID, error) {
	left, litems, llat, err := b.bindFromItem(s, j.Larg, lateral)
	if err != nil {
		return nil, nil, nil, err
	}
	// SQL makes the left input visible to a LATERAL right input of a RIGHT
	// or FULL join too, but referencing it is an error.
	rightLateral := append([]*nsItem{}, lateral...)
	for _, it := range litems {
		if j.Jointype == pg_query.JoinType_JOIN_RIGHT || j.Jointype == pg_query.JoinType_JOIN_FULL {
			bad := *it
			bad.lateralBad = true
			it = &bad
		}
		rightLateral = append(rightLateral, it)
	}
	right, ritems, rlat, err := b.bindFromItem(s, j.Rarg, rightLateral)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkNameConflicts(litems, ritems); err != nil {
		return nil, nil, nil, err
	}
	// The whole join references what either input references of lateral;
	// the right input's references to the left input make it an Apply.
	lat := append(lateralRefs(llat, lateral), lateralRefs(rlat, lateral)...)
	applyRefs := lateralRefs(rlat, litems)
	var jt plan.JoinType
	switch j.Jointype {
	case pg_query.JoinType_JOIN_INNER:
		jt = plan.InnerJoin
	case pg_query.JoinType_JOIN_LEFT:
		jt = plan.LeftJoin
	case pg_query.JoinType_JOIN_RIGHT:
		jt = plan.RightJoin
	case pg_query.JoinType_JOIN_FULL:
		jt = plan.FullJoin
	default:
		return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "join type %s is not supported", j.Jointype.String()), -1)
	}
	lvis, rvis := visibleCols(litems), visibleCols(ritems)
	nullL := jt == plan.RightJoin || jt == plan.FullJoin
	nullR := jt == plan.LeftJoin || jt == plan.FullJoin
	join := &plan.Join{Type: jt, Left: left, Right: right}
	lside, rside := &nullSide{slot: &join.Left}, &nullSide{slot: &join.Right} // rowtype.go
	var using []string
	if j.IsNatural {
		for _, lc := range lvis {
			for _, rc := range rvis {
				if lc.name == rc.name && !contains(using, lc.name) {
					using = append(using, lc.name)
				}
			}
		}
	} else {
		for _, u := range j.UsingClause {
			name := u.GetString_().GetSval()
			if contains(using, name) {
				return nil, nil, nil, b.errAt(pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" appears more than once in USING clause", name), nodeLocation(u))
			}
			using = append(using, name)
		}
	}
	item := &nsItem{colsVisible: true}
	usedL, usedR := map[int]bool{}, map[int]bool{}
	if j.IsNatural || len(j.UsingClause) > 0 {
		var conds []plan.Expr
		for _, name := range using {
			li, err := findUsingCol(lvis, name, "left")
			if err != nil {
				return nil, nil, nil, err
			}
			ri, err := findUsingCol(rvis, name, "right")
			if err != nil {
				return nil, nil, nil, err
			}
			usedL[li], usedR[ri] = true, true
			l, r := lvis[li].expr, rvis[ri].expr
			b.noteColumnUse(l) // both sides are read (SELECT privileges)
			b.noteColumnUse(r)
			t, err := b.commonTypeOf("JOIN/USING", []types.Type{l.Type(), r.Type()}, []int32{-1, -1})
			if err != nil {
				return nil, nil, nil, err
			}
			if l, err = b.coerceCommon("JOIN/USING", l, t); err != nil {
				return nil, nil, nil, err
			}
			if r, err = b.coerceCommon("JOIN/USING", r, t); err != nil {
				return nil, nil, nil, err
			}
			eq, err := b.operator("=", l, r, -1)
			if err != nil {
				return nil, nil, nil, err
			}
			conds = append(conds, eq)
			merged := nsColumn{name: name, table: lvis[li].table}
			switch jt {
			case plan.RightJoin:
				merged.expr, merged.table, merged.notNull = r, rvis[ri].table, rvis[ri].notNull
			case plan.FullJoin:
				merged.expr = &plan.Coalesce{Args: []plan.Expr{l, r}, T: t}
				merged.notNull = lvis[li].notNull || rvis[ri].notNull
			default:
				merged.expr, merged.notNull = l, lvis[li].notNull
			}
			item.cols = append(item.cols, merged)
		}
		switch len(conds) {
		case 0:
		case 1:
			join.On = conds[0]
		default:
			join.On = &plan.And{Args: conds}
		}
	} else if j.Quals != nil {
		js := &scope{parent: s, ctes: s.ctes, items: append(append([]*nsItem{}, litems...), ritems...), exprKind: "JOIN conditions"}
		e, err := b.bindExpr(js, j.Quals)
		if err != nil {
			return nil, nil, nil, err
		}
		if join.On, err = b.coerceToBool(e, "JOIN/ON"); err != nil {
			return nil, nil, nil, err
		}
		for _, id := range js.outerRefs {
			s.addOuterRef(id)
		}
	} else if jt == plan.InnerJoin {
		join.Type = plan.CrossJoin
	}
	for i, c := range lvis {
		if !usedL[i] {
			if nullL {
				c.notNull = false
			}
			item.cols = append(item.cols, c)
		}
	}
	for i, c := range rvis {
		if !usedR[i] {
			if nullR {
				c.notNull = false
			}
			item.cols = append(item.cols, c)
		}
	}
	var items []*nsItem
	if j.Alias != nil {
		item.name, item.relVisible = j.Alias.Aliasname, true
		if len(j.Alias.Colnames) > len(item.cols) {
			return nil, nil, nil, pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
				item.name, len(item.cols), len(j.Alias.Colnames))
		}
		for i, cn := range j.Alias.Colnames {
			item.cols[i].name = cn.GetString_().GetSval()
		}
		for i := range item.cols {
			item.cols[i].table = item.name
		}
		items = []*nsItem{item}
	} else {
		for i, it := range append(append([]*nsItem{}, litems...), ritems...) {
			hidden := *it
			hidden.colsVisible = false
			if i < len(litems) && nullL {
				hidden.nullSide = hidden.nullSide.below(lside)
			} else if i >= len(litems) && nullR {
				hidden.nullSide = hidden.nullSide.below(rside)
			}
			items = append(items, &hidden)
		}
		items = append(items, item)
	}
	if ua := j.JoinUsingAlias; ua != nil && j.Alias == nil {
		// USING (...) AS name: a relation holding just the merged columns,
		// qualified-only, as PostgreSQL's join_using_alias (hidden, like
		// the inputs' names, by an alias of the whole join).
		alias := &nsItem{name: ua.Aliasname, relVisible: true}
		for _, c := range item.cols[:len(using)] {
			c.table = ua.Aliasname
			alias.cols = append(alias.cols, c)
		}
		if err := checkNameConflicts(append(append([]*nsItem{}, litems...), ritems...), []*nsItem{alias}); err != nil {
			return nil, nil, nil, err
		}
		items = append(items, alias)
	}
	if len(applyRefs) > 0 {
		typ := join.Type
		if typ != plan.InnerJoin && typ != plan.CrossJoin && typ != plan.LeftJoin {
			return nil, nil, nil, pgerr.New(pgerr.InternalError, "LATERAL reference under a %v join", typ)
		}
		apply := &plan.Apply{Type: typ, Left: join.Left, Right: join.Right, On: join.On, OuterRefs: applyRefs}
		lside.slot, rside.slot = &apply.Left, &apply.Right
		return apply, items, lat, nil
	}
	return join, items, lat, nil
}

func visibleCols(items []*nsItem) []nsColumn {
	var out []nsColumn
	for _, it := range items {
		if it.colsVisible {
			out = append(out, it.cols...)
		}
	}
	return out
}

func findUsingCol(cols []nsColumn, name, side string) (int, error) {
	found := -1
	for i, c := range cols {
		if c.name == name {
			if found >= 0 {
				return 0, pgerr.New(pgerr.AmbiguousColumn, "common column name \"%s\" appears more than once in %s table", name, side)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in %s table", name, side)
	}
	return found, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// parenBefore finds the "(" opening a FROM subquery, which pg_query does not
// locate: the earliest location inside it, then back over keywords.
func (b *binder) parenBefore(n *pg_query.Node) int32 {
	minLoc := int32(-1)
	visitLocations(n, func(l int32) {
		if l >= 0 && (minLoc < 0 || l < minLoc) {
			minLoc = l
		}
	})
	if minLoc < 0 {
		return -1
	}
	q := b.query
	best := int32(-1)
	for i := int(minLoc) - 1; i >= 0; i-- {
		c := q[i]
		switch {
		case c == '(':
			best = int32(i)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_':
		default:
			return best
		}
	}
	return best
}

// visitRangeVars calls f for every RangeVar inside n.
func visitRangeVars(n *pg_query.Node, f func(*pg_query.RangeVar)) {
	if n == nil {
		return
	}
	walkProto(n.ProtoReflect(), func(m protoreflect.Message) {
		if rv, ok := m.Interface().(*pg_query.RangeVar); ok {
			f(rv)
		}
	})
}

// visitLocations calls f with every "location" field inside n.
func visitLocations(n *pg_query.Node, f func(int32)) {
	if n == nil {
		return
	}
	walkProto(n.ProtoReflect(), func(m protoreflect.Message) {
		fd := m.Descriptor().Fields().ByName("location")
		if fd != nil && fd.Kind() == protoreflect.Int32Kind {
			f(int32(m.Get(fd).Int()))
		}
	})
}

func walkProto(m protoreflect.Message, f func(protoreflect.Message)) {
	f(m)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkProto(l.Get(i).Message(), f)
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			walkProto(v.Message(), f)
		}
		return true
	})
}

// nodeTypeName names a parse node's type for messages ("SelectStmt").
func nodeTypeName(n *pg_query.Node) string {
	if n == nil || n.GetNode() == nil {
		return "empty node"
	}
	name := string(n.ProtoReflect().WhichOneof(n.ProtoReflect().Descriptor().Oneofs().Get(0)).Message().Name())
	return strings.TrimPrefix(name, "pg_query.")
}

// nodeLocation returns PostgreSQL's exprLocation of a raw expression: the
// leftmost location within it (-1 if none).
func nodeLocation(n *pg_query.Node) int32 {
	minLoc := int32(-1)
	visitLocations(n, func(l int32) {
		if l >= 0 && (minLoc < 0 || l < minLoc) {
			minLoc = l
		}
	})
	return minLoc
}
