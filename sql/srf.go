package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Set-returning functions (generate_series). In FROM they become a
// plan.FunctionScan (ROWS FROM and WITH ORDINALITY included); in a SELECT
// list or ORDER BY they bind as plan.Calls whose overload is SetReturning,
// which projectSets then moves into plan.ProjectSet nodes below the
// projection, as PostgreSQL 10+ plans them. Anywhere else they are
// rejected with PostgreSQL's parse-time errors.

const setFuncHint = "You might be able to move the set-returning function into a LATERAL FROM item."

// checkSetFuncPlacement is PostgreSQL's check_srf_call_placement for a
// set-returning call at loc bound in scope s.
func (b *binder) checkSetFuncPlacement(s *scope, loc int32) error {
	if s.agg != nil && s.agg.inAgg {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "aggregate function calls cannot contain set-returning function calls").
			WithHint(setFuncHint), loc)
	}
	if s.setFuncsAllowed {
		return nil
	}
	switch s.exprKind {
	case "SELECT", "ORDER BY", "GROUP BY":
		return nil
	case "functions in FROM":
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions must appear at top level of FROM"), loc)
	case "":
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in this context"), loc)
	}
	return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", s.exprKind), loc)
}

// lastSetFunc is the set-returning call of es PostgreSQL would have bound
// last (post-order: an outer call after its arguments), not looking into
// subqueries; nil when there is none.
func lastSetFunc(es ...plan.Expr) plan.Expr {
	var last plan.Expr
	var visit func(e plan.Expr)
	visit = func(e plan.Expr) {
		if e == nil {
			return
		}
		for _, c := range e.Children() {
			visit(c)
		}
		if isSetFunc(e) {
			last = e
		}
	}
	for _, e := range es {
		visit(e)
	}
	return last
}

func isSetFunc(e plan.Expr) bool {
	c, ok := e.(*plan.Call)
	return ok && c.Func != nil && c.Func.SetReturning
}

// noSetFuncIn rejects a set-returning call in CASE or COALESCE (whose
// arguments PostgreSQL evaluates conditionally), at the last one's place.
func (b *binder) noSetFuncIn(what string, es ...plan.Expr) error {
	if srf := lastSetFunc(es...); srf != nil {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", what).
			WithHint(setFuncHint), b.locOf(srf))
	}
	return nil
}

// notASet is coerce_to_boolean's check: a condition must not return a set.
func (b *binder) notASet(e plan.Expr, what string) error {
	return b.notASetAt(e, what, b.locOf(e))
}

// notASetAt is notASet reporting the error at loc.
func (b *binder) notASetAt(e plan.Expr, what string, loc int32) error {
	if lastSetFunc(e) != nil {
		return b.errAt(pgerr.New(pgerr.DatatypeMismatch, "argument of %s must not return a set", what), loc)
	}
	return nil
}

// projectSets moves the set-returning calls of a SELECT list (targets,
// ORDER BY's junk targets included) into ProjectSet nodes over node (the
// FROM items, filtered and grouped), each call replaced by a reference to
// its result column. sorted says the query has an ORDER BY.
func (b *binder) projectSets(node plan.Node, targets []*target, sorted bool) plan.Node {
	exprs := make([]*plan.Expr, len(targets))
	for i, t := range targets {
		exprs[i] = &t.expr
	}
	node, pulled := b.pullSetFuncs(node, exprs)
	b.evalInProjectSet(node, exprs, pulled, sorted)
	return node
}

// evalInProjectSet moves the computed expressions of *exprs that read no
// set-returning result into the top ProjectSet node (if node is one),
// where PostgreSQL evaluates them: on each of its steps. Expressions with
// subqueries stay above, where the optimizer can unnest them; so do
// volatile ones under an ORDER BY, which PostgreSQL evaluates after the
// sort (make_sort_input_target), once per row.
func (b *binder) evalInProjectSet(node plan.Node, exprs []*plan.Expr, pulled []pulledSetFunc, sorted bool) {
	ps, ok := node.(*plan.ProjectSet)
	if !ok {
		return
	}
	results := map[plan.ColumnID]bool{}
	for _, p := range pulled {
		results[p.ref.ID] = true
	}
	for _, pe := range exprs {
		switch (*pe).(type) {
		case *plan.ColRef, *plan.Const:
			continue
		}
		if readsAny([]plan.Expr{*pe}, results) || holds(*pe, isSubquery) || (sorted && exprHasVolatile(*pe)) {
			continue
		}
		col := plan.Column{ID: b.ids.Next(), Name: "?column?", Type: (*pe).Type()}
		ps.Exprs = append(ps.Exprs, *pe)
		ps.ExprCols = append(ps.ExprCols, col)
		*pe = b.keepLoc(&plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}, *pe)
	}
}

// holds reports whether e or an expression inside it (not inside a
// subquery's plan) satisfies is.
func holds(e plan.Expr, is func(plan.Expr) bool) bool {
	found := false
	plan.Walk(e, func(x plan.Expr) bool {
		found = found || is(x)
		return !found
	})
	return found
}

func isSubquery(e plan.Expr) bool { _, ok := e.(*plan.Subquery); return ok }
func isColRef(e plan.Expr) bool   { _, ok := e.(*plan.ColRef); return ok }

// groupingSetFuncs evaluates the set-returning calls of GROUP BY below the
// grouping, as PostgreSQL does: ProjectSets over node (the filtered FROM
// items) compute them, and the grouping expressions, and the same calls in
// the targets and HAVING, read their columns instead.
func (b *binder) groupingSetFuncs(node plan.Node, groups []plan.Expr, targets []*target, having *plan.Expr) plan.Node {
	if lastSetFunc(groups...) == nil {
		return node
	}
	node, pulled := b.pullSetFuncs(node, exprPtrs(groups))
	same := func(e plan.Expr) plan.Expr {
		return plan.Rewrite(e, func(x plan.Expr) plan.Expr {
			if isSetFunc(x) {
				for _, p := range pulled {
					if exprEqual(x, p.call) {
						return p.ref
					}
				}
			}
			return x
		})
	}
	for _, t := range targets {
		t.expr = same(t.expr)
	}
	if *having != nil {
		*having = same(*having)
	}
	return node
}

// pulledSetFunc is a set-returning call moved into a ProjectSet (its
// arguments reading the ProjectSets below) and the column replacing it.
type pulledSetFunc struct {
	call plan.Expr
	ref  *plan.ColRef
}

// pullSetFuncs moves the set-returning calls of *exprs into ProjectSets
// over node. A call whose arguments hold another runs in a ProjectSet above
// that one's, so `generate_series(1, generate_series(1, 3))` expands each
// inner value, as PostgreSQL's split_pathtarget_at_srfs arranges them.
func (b *binder) pullSetFuncs(node plan.Node, exprs []*plan.Expr) (plan.Node, []pulledSetFunc) {
	var pulled []pulledSetFunc
	for {
		ps := &plan.ProjectSet{Input: node}
		// The columns this pass made: a call reading one waits a level.
		made := map[plan.ColumnID]bool{}
		for _, pe := range exprs {
			*pe = plan.Rewrite(*pe, func(e plan.Expr) plan.Expr {
				c, ok := e.(*plan.Call)
				if !ok || !isSetFunc(c) || readsAny(c.Args, made) || lastSetFunc(c.Args...) != nil {
					return e
				}
				col := plan.Column{ID: b.ids.Next(), Name: c.Func.Name, Type: c.Type()}
				b.colName[col.ID] = col.Name
				made[col.ID] = true
				ps.Funcs = append(ps.Funcs, plan.SetFunc{Func: c.Func, Args: c.Args})
				ps.FuncCols = append(ps.FuncCols, col)
				ref := &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name}
				pulled = append(pulled, pulledSetFunc{call: c, ref: ref})
				return b.keepLoc(ref, e)
			})
		}
		if len(ps.Funcs) == 0 {
			return node, pulled
		}
		node = ps
	}
}

// readsAny reports whether es reference a column of ids.
func readsAny(es []plan.Expr, ids map[plan.ColumnID]bool) bool {
	for _, e := range es {
		if holds(e, func(x plan.Expr) bool { r, ok := x.(*plan.ColRef); return ok && ids[r.ID] }) {
			return true
		}
	}
	return false
}

// bindRangeFunctionIn binds FROM f(...), ROWS FROM (f(...), ...) and
// either WITH ORDINALITY, with PostgreSQL's names: a lone function's
// column is named by the alias (else the function), ROWS FROM's by each
// function, then "ordinality"; a column alias list renames them in order.
func (b *binder) bindRangeFunctionIn(s *scope, rf *pg_query.RangeFunction, lateral []*nsItem) (plan.Node, []*nsItem, *scope, error) {
	var calls []*pg_query.FuncCall
	for _, fn := range rf.Functions {
		fl := fn.GetList().GetItems()
		fc := fl[0].GetFuncCall()
		if fc == nil {
			return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "unsupported function in FROM"), nodeLocation(fl[0]))
		}
		calls = append(calls, fc)
	}
	if len(calls) == 1 && !rf.Ordinality && funcName(calls[0].Funcname) == "pg_get_keywords" && len(calls[0].Args) == 0 { // pgcatalogfuncs.go
		if err := b.checkColumnDefinitionLists(rf, true); err != nil {
			return nil, nil, nil, err
		}
		return b.bindKeywords(s, rf)
	}
	if len(calls) == 1 && funcName(calls[0].Funcname) == "read_parquet" { // readparquet.go
		return b.bindReadParquet(s, rf, calls[0])
	}
	fs := &scope{parent: lateralScope(s, lateral), ctes: s.ctes, exprKind: "functions in FROM"}
	if len(calls) == 1 {
		if node, it, ok, err := b.userFuncInFrom(fs, rf, calls[0]); ok { // function_call.go
			if err != nil {
				return nil, nil, nil, err
			}
			s.rtes = append(s.rtes, rteInfo{alias: it.name})
			return node, []*nsItem{it}, fs, nil
		}
	}
	node := &plan.FunctionScan{Ordinality: rf.Ordinality}
	var names []string
	outNames := map[int]string{} // catalog functions' OUT columns, by position
	for _, fc := range calls {
		name := funcName(fc.Funcname)
		if arraySetFuncs[name] {
			fsets, err := b.bindArraySetFuncInFrom(fs, fc, name) // array.go
			if err != nil {
				return nil, nil, nil, err
			}
			for _, f := range fsets {
				node.Funcs = append(node.Funcs, f)
				names = append(names, name)
			}
			continue
		}
		if types.IsJSONToRecord(name) {
			sfs, err := b.bindJSONToRecord(fs, fc, name, rf) // jsonrecord.go
			if err != nil {
				return nil, nil, nil, err
			}
			for _, sf := range sfs {
				node.Funcs = append(node.Funcs, sf)
				names = append(names, name)
			}
			continue
		}
		if types.IsJSONPopulate(name) {
			sf, err := b.bindJSONPopulate(fs, fc, name, rf) // jsonrecord.go
			if err != nil {
				return nil, nil, nil, err
			}
			node.Funcs = append(node.Funcs, sf)
			names = append(names, name)
			continue
		}
		if types.IsRowSetFunc(name) {
			sfs, err := b.bindRowSetFunc(fs, fc, name) // jsonsrf.go
			if err != nil {
				return nil, nil, nil, err
			}
			for _, sf := range sfs {
				node.Funcs = append(node.Funcs, sf)
				names = append(names, name)
			}
			continue
		}
		if cf, ok := pgcatalog.LookupSetFunc(name, len(fc.Args)); ok {
			sfs, err := b.bindCatalogSetFunc(fs, fc, cf) // pgcatalogfuncs.go
			if err != nil {
				return nil, nil, nil, err
			}
			for i, sf := range sfs {
				node.Funcs = append(node.Funcs, sf)
				if cf.Out != nil {
					outNames[len(node.Funcs)-1] = cf.Out[i]
				}
				names = append(names, name)
			}
			continue
		}
		if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() == "information_schema" &&
			types.IsFunction("information_schema."+name) {
			// information_schema._pg_expandarray runs in a select list
			// (pgjdbc's calls); its FROM form, a record per element, not.
			return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "information_schema.%s in FROM is not supported", name), fc.Location)
		}
		if name != "generate_series" && !types.IsRowsFunction(name) {
			// A scalar function: a one-row set (jsonsrf.go).
			sf, err := b.bindScalarInFrom(fs, fc, name)
			if err != nil {
				return nil, nil, nil, err
			}
			node.Funcs = append(node.Funcs, sf)
			names = append(names, name)
			continue
		}
		args, err := b.bindList(fs, fc.Args)
		if err != nil {
			return nil, nil, nil, err
		}
		argTypes := make([]types.Type, len(args))
		for i, a := range args {
			argTypes[i] = a.Type()
		}
		want, err := b.setFuncSignature(name, argTypes)
		if err != nil {
			return nil, nil, nil, b.wrapAt(err, fc.Location)
		}
		if err := b.castArgs(args, want); err != nil {
			return nil, nil, nil, err
		}
		ov, err := types.ResolveFunction(name, want)
		if err != nil {
			return nil, nil, nil, b.wrapAt(err, fc.Location)
		}
		node.Funcs = append(node.Funcs, plan.SetFunc{Func: ov, Args: args})
		names = append(names, name)
	}
	jsonToRecord := len(calls) == 1 && types.IsJSONToRecord(funcName(calls[0].Funcname))
	defined := jsonToRecord // json[b]_to_record's list is its columns (jsonrecord.go)
	if !jsonToRecord {
		var err error
		if defined, err = b.recordColumnDefs(rf, node.Funcs, calls[0].Location); err != nil { // rowtype.go
			return nil, nil, nil, err
		}
	}
	if !defined {
		if err := b.checkColumnDefinitionLists(rf, false); err != nil {
			return nil, nil, nil, err
		}
	}
	alias := names[0]
	if rf.Alias != nil {
		alias = rf.Alias.Aliasname
		if len(calls) == 1 {
			names[0] = alias
		}
	}
	node.Alias = alias
	for i, f := range node.Funcs {
		if out := types.SetFuncOutName(f.Func.Name); out != "" {
			names[i] = out // an OUT parameter's name, alias or not
		}
		if out := outNames[i]; out != "" {
			names[i] = out // a catalog function's OUT parameter
		}
	}
	colTypes := make([]types.Type, 0, len(names)+1)
	for _, f := range node.Funcs {
		colTypes = append(colTypes, f.Func.Result)
	}
	if rf.Ordinality {
		names = append(names, "ordinality")
		colTypes = append(colTypes, types.Int8Type)
	}
	var out plan.Node = node
	if composite := !jsonToRecord && compositeSetFuncs(node.Funcs); composite { // to_record's columns are its list's, records kept whole
		// Each field of a composite result is a column (rowtype.go).
		for i, t := range colTypes {
			c := plan.Column{ID: b.ids.Next(), Name: names[i], Table: alias, Type: t}
			node.Cols = append(node.Cols, c)
		}
		var p *plan.Project
		p, names = expandCompositeColumns(b, node, alias)
		out = p
		colTypes = colTypes[:0]
		for _, c := range p.Cols {
			colTypes = append(colTypes, c.Type)
		}
	}
	if rf.Alias != nil {
		if len(rf.Alias.Colnames) > len(names) {
			return nil, nil, nil, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
				alias, len(names), len(rf.Alias.Colnames)), -1)
		}
		for i, cn := range rf.Alias.Colnames {
			names[i] = cn.GetString_().GetSval()
		}
	}
	it := &nsItem{name: alias, relVisible: true, colsVisible: true}
	for i, name := range names {
		var c plan.Column
		if p, ok := out.(*plan.Project); ok {
			p.Cols[i].Name = name
			c = p.Cols[i]
		} else {
			c = plan.Column{ID: b.ids.Next(), Name: name, Table: alias, Type: colTypes[i]}
			node.Cols = append(node.Cols, c)
		}
		b.colTable[c.ID], b.colName[c.ID] = alias, name
		it.cols = append(it.cols, nsColumn{name: name, table: alias, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: name}})
	}
	s.rtes = append(s.rtes, rteInfo{alias: alias})
	return out, []*nsItem{it}, fs, nil
}

// setFuncSignature is the argument types of a set-returning call in FROM:
// generate_series's own rules, the ordinary resolution for the others.
func (b *binder) setFuncSignature(name string, args []types.Type) ([]types.Type, error) {
	if name == "generate_series" {
		want, _, err := b.generateSeriesSignature(args)
		return want, err
	}
	ov, err := types.ResolveFunction(name, args)
	if err != nil {
		return nil, err
	}
	return ov.Args, nil
}

// caseConds lists the WHEN conditions of a CASE.
func caseConds(ws []plan.When) []plan.Expr {
	out := make([]plan.Expr, len(ws))
	for i, w := range ws {
		out[i] = w.Cond
	}
	return out
}

// inListNotASet is transformAExprIn's check for x IN (list) with a
// set-returning x: the constant items of a longer list form one = ANY
// (array) comparison, which may read a set; every other item becomes its
// own comparison, a condition that must not.
func (b *binder) inListNotASet(l plan.Expr, terms []plan.Expr) error {
	if lastSetFunc(l) == nil {
		return nil
	}
	constant := 0
	for _, t := range terms {
		if c, ok := t.(*plan.Call); ok && len(c.Args) == 2 && !holds(c.Args[1], isColRef) {
			constant++
		}
	}
	if constant > 1 && constant == len(terms) {
		return nil
	}
	return b.errAt(pgerr.New(pgerr.DatatypeMismatch, "argument of IN must not return a set"), b.locOf(l))
}

// insertSetRow is the source of INSERT ... VALUES (row) whose one row
// calls set-returning functions: the row as a SELECT list over no FROM
// item, one inserted row per ProjectSet row (cols: the table's columns).
func (b *binder) insertSetRow(row []plan.Expr, cols []plan.Column) plan.Node {
	exprs := exprPtrs(row)
	node, pulled := b.pullSetFuncs(&plan.Values{Rows: [][]plan.Expr{{}}}, exprs)
	b.evalInProjectSet(node, exprs, pulled, false)
	p := &plan.Project{Input: node, Exprs: row}
	for _, c := range cols {
		c.ID = b.ids.Next()
		p.Cols = append(p.Cols, c)
	}
	return p
}

// exprPtrs points at each expression of es, for rewriting them in place.
func exprPtrs(es []plan.Expr) []*plan.Expr {
	out := make([]*plan.Expr, len(es))
	for i := range es {
		out[i] = &es[i]
	}
	return out
}
