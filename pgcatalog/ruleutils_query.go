package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// pg_get_viewdef: ruleutils.c's get_query_def over a view's stored query.
// PostgreSQL prints the analysed query, so this deparser resolves what
// the parse tree leaves open as the parser would: each column reference
// qualified by its FROM item's name, each literal with the type it is
// coerced to ('x'::text), each implicit coercion of an operator's or
// function's argument shown as a cast ((t.d)::text), a select list item
// named unless its name is the column's. The layout is get_query_def's
// with PRETTYFLAG_INDENT (pg_get_viewdef's, both modes); pretty adds
// PRETTYFLAG_PAREN (isSimpleNode's parenthesis rules), without it every
// operator, boolean, test and cast brings its own parentheses.
//
// A query shape it has no rule for (WITH RECURSIVE, named windows and
// frames, LATERAL, ROWS FROM and column definition lists, array and row
// constructors, SQL-syntax functions but EXTRACT, ORDER BY / LIMIT over a
// set operation, JOIN aliases, ...) makes ViewDef print the view's stored
// text instead: PostgreSQL's parser deparsed, which reads the same but is
// not qualified.

// ruleError aborts a deparse the rules do not cover.
type ruleError struct{ what string }

func unsupported(format string, args ...any) { panic(ruleError{fmt.Sprintf(format, args...)}) }

// ViewDef is pg_get_viewdef's text of v (pretty: pg_get_viewdef(v, true)).
func (s *Snapshot) ViewDef(v storage.View, pretty bool) string {
	if out, ok := s.deparseView(v, pretty); ok {
		return out
	}
	return viewDef(v)
}

func (s *Snapshot) deparseView(v storage.View, pretty bool) (out string, ok bool) {
	tree, err := pg_query.Parse(v.SQL)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return "", false
	}
	defer func() {
		// A shape without a rule (ruleError), or one the rules misread:
		// the stored text rather than a failed statement.
		if r := recover(); r != nil {
			ok = false
		}
	}()
	d := &deparser{s: s, pretty: pretty}
	var b strings.Builder
	d.query(&b, tree.Stmts[0].Stmt.GetSelectStmt(), v.Columns, 0)
	return b.String() + ";", true
}

const (
	indentStd  = 8 // PRETTYINDENT_STD
	indentJoin = 4 // PRETTYINDENT_JOIN
	indentVar  = 4 // PRETTYINDENT_VAR
)

type deparser struct {
	s      *Snapshot // nil: no catalog (CHECK expressions: columns as written)
	pretty bool      // PRETTYFLAG_PAREN
	level  int       // indentLevel
	scopes []*dscope // innermost last
	// lastColumns are the output columns of the query last deparsed.
	lastColumns []storage.ColumnDef
}

// dscope is one query level's FROM items.
type dscope struct {
	items []*fromItem
	// merged are the USING columns of joins, by name, and what each
	// stands for.
	merged      map[string]dexpr
	mergedOrder []string
	// tlist is the select list, for ORDER BY / GROUP BY references.
	tlist []tlEntry
	// refnames are the names of this level's relations without alias,
	// unique over the enclosing levels (set_rtable_names: t, t_1, ...).
	refnames map[*pg_query.RangeVar]string
	// ctes are the WITH queries of this level: their output columns.
	ctes map[string][]storage.ColumnDef
}

type tlEntry struct {
	name string // the output name (alias or FigureColname)
	e    dexpr
}

type fromItem struct {
	refname string
	cols    []storage.ColumnDef
	// usingHidden are columns a JOIN USING merged away from a bare *.
	usingHidden map[string]bool
}

// exprKind classes of isSimpleNode.
type dkind int

const (
	dSimple dkind = iota // Var, Const, function-like, CASE
	dOp                  // operator
	dBool                // AND / OR / NOT
	dTest                // NULL test, sublink, IS DISTINCT FROM
	dCast                // a coercion: simple as its argument is
	dOther               // never simple (ScalarArrayOpExpr)
)

// dexpr is a deparsed expression.
type dexpr struct {
	s    string
	t    types.Type
	kind dkind
	op   string         // dOp: the operator; dBool: AND, OR, NOT
	arg  *dexpr         // dCast: the argument
	lit  *pg_query.Node // an untyped literal ('x', NULL) until coerced
	// isConst: a constant (GROUP BY forces its type label); isVar: a
	// column; funcLike: a function or aggregate call.
	isConst, isVar, funcLike bool
	colName                  string // isVar: the column's name
}

// --- layout (appendContextKeyword and friends) ---

func removeSpaces(b *strings.Builder) {
	s := b.String()
	t := strings.TrimRight(s, " ")
	if len(t) != len(s) {
		b.Reset()
		b.WriteString(t)
	}
}

func (d *deparser) keyword(b *strings.Builder, str string, before, after, plus int) {
	removeSpaces(b)
	b.WriteByte('\n')
	d.level += before
	if n := max(d.level, 0) + plus; n > 0 {
		b.WriteString(strings.Repeat(" ", n))
	}
	b.WriteString(str)
	d.level += after
	if d.level < 0 {
		d.level = 0
	}
}

// query is get_query_def of a SELECT at indent level start; names are
// the result's column names (a view's, or nil).
func (d *deparser) query(b *strings.Builder, sel *pg_query.SelectStmt, names []string, start int) {
	saved := d.level
	d.level = start
	defer func() { d.level = saved }()
	if sel.WithClause != nil && sel.Op != pg_query.SetOperation_SETOP_NONE {
		unsupported("WITH over a set operation")
	}
	if sel.Op != pg_query.SetOperation_SETOP_NONE {
		d.setop(b, sel, names)
		cols := d.lastColumns
		d.tail(b, sel, nil)
		d.lastColumns = cols
		return
	}
	if len(sel.ValuesLists) > 0 {
		if len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil || sel.WithClause != nil {
			unsupported("VALUES with clauses")
		}
		d.values(b, sel.ValuesLists)
		return
	}
	if len(sel.WindowClause) > 0 || sel.IntoClause != nil || len(sel.LockingClause) > 0 {
		unsupported("WINDOW")
	}
	sc := &dscope{merged: map[string]dexpr{}, refnames: map[*pg_query.RangeVar]string{}}
	d.scopes = append(d.scopes, sc)
	defer func() { d.scopes = d.scopes[:len(d.scopes)-1] }()
	if sel.WithClause != nil {
		d.with(b, sel.WithClause, sc)
	}
	d.nameRelations(sel.FromClause, sc)
	// FROM first: the select list resolves against it.
	var from strings.Builder
	d.level += indentStd // get_basic_select_query's indent
	selLevel := d.level
	for i, f := range sel.FromClause {
		if i == 0 {
			d.keyword(&from, " FROM ", -indentStd, indentStd, 2)
			d.fromItem(&from, f, sc)
			continue
		}
		from.WriteString(", ")
		var item strings.Builder
		d.fromItem(&item, f, sc)
		if !strings.HasPrefix(item.String(), "\n") {
			d.keyword(&from, "", -indentStd, indentStd, indentVar)
		} else {
			removeSpaces(&from)
		}
		from.WriteString(item.String())
	}
	d.level = selLevel
	b.WriteString(" SELECT")
	if len(sel.DistinctClause) > 0 {
		if len(sel.DistinctClause) == 1 && sel.DistinctClause[0].GetNode() == nil {
			b.WriteString(" DISTINCT")
		} else {
			var on []string
			for _, n := range sel.DistinctClause {
				on = append(on, d.expr(n).s)
			}
			b.WriteString(" DISTINCT ON (" + strings.Join(on, ", ") + ")")
		}
	}
	d.targetList(b, sel.TargetList, names, sc)
	b.WriteString(from.String())
	if sel.WhereClause != nil {
		d.keyword(b, " WHERE ", -indentStd, indentStd, 1)
		b.WriteString(d.coerced(d.expr(sel.WhereClause), types.BoolType).s)
	}
	if len(sel.GroupClause) > 0 {
		d.keyword(b, " GROUP BY ", -indentStd, indentStd, 1)
		var g []string
		for _, n := range sel.GroupClause {
			g = append(g, d.sortGroup(n, sc, false))
		}
		b.WriteString(strings.Join(g, ", "))
	}
	if sel.HavingClause != nil {
		d.keyword(b, " HAVING ", -indentStd, indentStd, 0)
		b.WriteString(d.coerced(d.expr(sel.HavingClause), types.BoolType).s)
	}
	d.tail(b, sel, sc) // at the select's level, as get_select_query_def
	d.lastColumns = nil
	for i, t := range sc.tlist {
		name := t.name
		if i < len(names) {
			name = names[i]
		}
		d.lastColumns = append(d.lastColumns, storage.ColumnDef{Name: name, Type: t.e.t})
	}
}

// values is get_values_def: each column of the common type of its rows.
func (d *deparser) values(b *strings.Builder, lists []*pg_query.Node) {
	var rows [][]dexpr
	for _, l := range lists {
		rows = append(rows, d.exprs(l.GetList().GetItems()))
	}
	cols := len(rows[0])
	d.lastColumns = nil
	colTypes := make([]types.Type, cols)
	for c := 0; c < cols; c++ {
		var col []dexpr
		for _, r := range rows {
			if len(r) != cols {
				unsupported("VALUES lists of different lengths")
			}
			col = append(col, r[c])
		}
		colTypes[c] = commonOf(col)
		d.lastColumns = append(d.lastColumns, storage.ColumnDef{Name: fmt.Sprintf("column%d", c+1), Type: colTypes[c]})
	}
	b.WriteString(" VALUES ")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		var items []string
		for c, e := range r {
			items = append(items, d.coerced(e, colTypes[c]).s)
		}
		b.WriteString("(" + strings.Join(items, ",") + ")")
	}
}

// tail is get_select_query_def's ORDER BY, OFFSET and LIMIT.
func (d *deparser) tail(b *strings.Builder, sel *pg_query.SelectStmt, sc *dscope) {
	if len(sel.SortClause) > 0 {
		if sc == nil {
			unsupported("ORDER BY of a set operation")
		}
		d.keyword(b, " ORDER BY ", -indentStd, indentStd, 1)
		b.WriteString(d.orderItems(sel.SortClause, sc))
	}
	if sel.LimitOffset != nil {
		d.keyword(b, " OFFSET ", -indentStd, indentStd, 0)
		b.WriteString(d.expr(sel.LimitOffset).s)
	}
	if sel.LimitCount != nil {
		if sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES {
			unsupported("WITH TIES")
		}
		d.keyword(b, " LIMIT ", -indentStd, indentStd, 0)
		if c := sel.LimitCount.GetAConst(); c != nil && c.Isnull {
			b.WriteString("ALL")
		} else {
			b.WriteString(d.expr(sel.LimitCount).s)
		}
	}
}

// setop is get_setop_query.
func (d *deparser) setop(b *strings.Builder, sel *pg_query.SelectStmt, names []string) {
	if sel.Op == pg_query.SetOperation_SETOP_NONE {
		needParen := len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil || sel.WithClause != nil
		if needParen {
			b.WriteByte('(')
		}
		d.query(b, sel, names, d.level)
		if needParen {
			b.WriteByte(')')
		}
		return
	}
	l, r := sel.Larg, sel.Rarg
	needParen := false
	if l.Op != pg_query.SetOperation_SETOP_NONE {
		needParen = !(l.Op == sel.Op && l.All == sel.All)
	}
	sub := 0
	if needParen {
		b.WriteByte('(')
		sub = indentStd
		d.keyword(b, "", sub, 0, 0)
	}
	d.setop(b, l, names)
	leftCols := d.lastColumns
	defer func() { d.lastColumns = leftCols }()
	if needParen {
		d.keyword(b, ") ", -sub, 0, 0)
	} else {
		d.keyword(b, "", -sub, 0, 0)
	}
	switch sel.Op {
	case pg_query.SetOperation_SETOP_UNION:
		b.WriteString("UNION ")
	case pg_query.SetOperation_SETOP_INTERSECT:
		b.WriteString("INTERSECT ")
	case pg_query.SetOperation_SETOP_EXCEPT:
		b.WriteString("EXCEPT ")
	}
	if sel.All {
		b.WriteString("ALL ")
	}
	needParen = r.Op != pg_query.SetOperation_SETOP_NONE
	sub = 0
	if needParen {
		b.WriteByte('(')
		sub = indentStd
	}
	d.keyword(b, "", sub, 0, 0)
	d.setop(b, r, names)
	d.level -= sub
	if needParen {
		d.keyword(b, ")", 0, 0, 0)
	}
}

// targetList is get_target_list (wrapColumn 0: an item a line).
func (d *deparser) targetList(b *strings.Builder, tl []*pg_query.Node, names []string, sc *dscope) {
	sep := " "
	colno := 0
	lastMultiline := false
	for _, n := range tl {
		rt := n.GetResTarget()
		if cr := rt.Val.GetColumnRef(); cr != nil {
			if _, star := cr.Fields[len(cr.Fields)-1].GetNode().(*pg_query.Node_AStar); star {
				for _, e := range d.star(cr, sc) {
					d.targetItem(b, &sep, &colno, &lastMultiline, e, e.colName, names, sc)
				}
				continue
			}
		}
		e := d.expr(rt.Val)
		if e.lit != nil {
			e = d.coerced(e, types.TextType)
		}
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
		}
		d.targetItem(b, &sep, &colno, &lastMultiline, e, name, names, sc)
	}
}

func (d *deparser) targetItem(b *strings.Builder, sep *string, colno *int, lastMultiline *bool, e dexpr, resname string, names []string, sc *dscope) {
	*colno++
	b.WriteString(*sep)
	*sep = ", "
	text := e.s
	attname := "?column?"
	if e.isVar {
		attname = e.colName
	}
	colname := resname
	if names != nil && *colno <= len(names) {
		colname = names[*colno-1]
	}
	if colname != "" && attname != colname {
		text += " AS " + QuoteIdentifier(colname)
	}
	sc.tlist = append(sc.tlist, tlEntry{name: resname, e: e})
	if strings.HasPrefix(text, "\n") {
		removeSpaces(b)
	} else if *colno > 1 {
		d.keyword(b, "", -indentStd, indentStd, indentVar)
	}
	b.WriteString(text)
	*lastMultiline = strings.Contains(text, "\n")
}

// star expands * or t.* to the FROM items' columns.
func (d *deparser) star(cr *pg_query.ColumnRef, sc *dscope) []dexpr {
	var out []dexpr
	if len(cr.Fields) == 1 {
		for _, name := range sc.mergedOrder {
			out = append(out, sc.merged[name])
		}
		for _, it := range sc.items {
			for _, c := range it.cols {
				if !it.usingHidden[c.Name] {
					out = append(out, varOf(it, c))
				}
			}
		}
		return out
	}
	if len(cr.Fields) != 2 {
		unsupported("qualified *")
	}
	ref := cr.Fields[0].GetString_().GetSval()
	for _, it := range sc.items {
		if it.refname == ref {
			for _, c := range it.cols {
				out = append(out, varOf(it, c))
			}
			return out
		}
	}
	unsupported("* of %s", ref)
	return nil
}

func varOf(it *fromItem, c storage.ColumnDef) dexpr {
	if it.refname == "" { // a CHECK expression's table
		return dexpr{s: QuoteIdentifier(c.Name), t: c.Type, isVar: true, colName: c.Name}
	}
	return dexpr{s: QuoteIdentifier(it.refname) + "." + QuoteIdentifier(c.Name), t: c.Type, isVar: true, colName: c.Name}
}

// orderItems is an ORDER BY list: each item with its direction and
// NULLS order where they are not the default.
func (d *deparser) orderItems(list []*pg_query.Node, sc *dscope) string {
	var items []string
	for _, n := range list {
		sb := n.GetSortBy()
		if sb.UseOp != nil {
			unsupported("ORDER BY USING")
		}
		var item string
		if sc != nil {
			item = d.sortGroup(sb.Node, sc, true)
		} else {
			item = d.groupItem(d.expr(sb.Node))
		}
		desc := sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC
		if desc {
			item += " DESC"
		}
		switch sb.SortbyNulls {
		case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
			if !desc {
				item += " NULLS FIRST"
			}
		case pg_query.SortByNulls_SORTBY_NULLS_LAST:
			if desc {
				item += " NULLS LAST"
			}
		}
		items = append(items, item)
	}
	return strings.Join(items, ", ")
}

// sortGroup is get_rule_sortgroupclause for an ORDER BY (order: output
// names first) or GROUP BY (input columns first) item.
func (d *deparser) sortGroup(n *pg_query.Node, sc *dscope, order bool) string {
	var e dexpr
	found := false
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		i := int(c.GetIval().Ival)
		if i < 1 || i > len(sc.tlist) {
			unsupported("position %d", i)
		}
		e, found = sc.tlist[i-1].e, true
	} else if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		name := cr.Fields[0].GetString_().GetSval()
		if _, in := d.lookupColumn(name, sc); !in || order {
			for _, t := range sc.tlist {
				if t.name == name {
					e, found = t.e, true
					break
				}
			}
		}
	}
	if !found {
		e = d.expr(n)
	}
	return d.groupItem(e)
}

// groupItem prints a sort or group expression (get_rule_sortgroupclause).
func (d *deparser) groupItem(e dexpr) string {
	if e.lit != nil {
		e = d.coerced(e, types.TextType)
	}
	switch {
	case e.isConst:
		return e.s // labelled already unless an integer
	case e.isVar:
		return e.s
	case d.pretty || e.funcLike:
		return "(" + e.s + ")"
	}
	return e.s
}

// --- FROM ---

func (d *deparser) fromItem(b *strings.Builder, n *pg_query.Node, sc *dscope) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		rv := x.RangeVar
		if cols, ok := d.cte(rv); ok {
			b.WriteString(QuoteIdentifier(rv.Relname))
			it := &fromItem{refname: rv.Relname, cols: append([]storage.ColumnDef(nil), cols...)}
			if rv.Alias != nil {
				it.refname = rv.Alias.Aliasname
				b.WriteString(" " + QuoteIdentifier(rv.Alias.Aliasname))
				d.colAliases(b, rv.Alias, it)
			}
			sc.items = append(sc.items, it)
			return
		}
		if d.s == nil {
			unsupported("no catalog")
		}
		r, ok := d.s.RelationByName(rv.Schemaname, rv.Relname)
		if !ok || (r.Kind != 'r' && r.Kind != 'v' && r.Kind != 'm' && r.Kind != 'f') || len(r.Columns) == 0 && r.Kind == 'v' {
			unsupported("relation %s", rv.Relname)
		}
		name := QuoteIdentifier(rv.Relname)
		if rv.Schemaname != "" {
			name = QuoteIdentifier(rv.Schemaname) + "." + name
		}
		if !rv.Inh {
			name = "ONLY " + name
		}
		b.WriteString(name)
		it := &fromItem{refname: rv.Relname, cols: visibleColumns(r)}
		if ref := sc.refnames[rv]; ref != "" && ref != rv.Relname {
			it.refname = ref
			b.WriteString(" " + QuoteIdentifier(ref))
		}
		if rv.Alias != nil {
			it.refname = rv.Alias.Aliasname
			b.WriteString(" " + QuoteIdentifier(rv.Alias.Aliasname))
			d.colAliases(b, rv.Alias, it)
		}
		sc.items = append(sc.items, it)
	case *pg_query.Node_RangeSubselect:
		rs := x.RangeSubselect
		if rs.Lateral {
			unsupported("LATERAL")
		}
		sub := rs.Subquery.GetSelectStmt()
		b.WriteByte('(')
		cols := d.subquery(b, sub, d.level)
		b.WriteByte(')')
		if rs.Alias == nil {
			unsupported("subquery without alias")
		}
		it := &fromItem{refname: rs.Alias.Aliasname, cols: cols}
		b.WriteString(" " + QuoteIdentifier(rs.Alias.Aliasname))
		d.colAliases(b, rs.Alias, it)
		sc.items = append(sc.items, it)
	case *pg_query.Node_RangeFunction:
		rf := x.RangeFunction
		if rf.Lateral || rf.Ordinality || rf.IsRowsfrom || len(rf.Coldeflist) > 0 || len(rf.Functions) != 1 {
			unsupported("function in FROM")
		}
		parts := rf.Functions[0].GetList().GetItems()
		if len(parts) != 2 && len(parts) != 1 || len(parts) == 2 && parts[1].GetNode() != nil && len(parts[1].GetList().GetItems()) > 0 {
			unsupported("function in FROM")
		}
		fc := parts[0].GetFuncCall()
		if fc == nil {
			unsupported("function in FROM")
		}
		call := d.funcCall(fc)
		if call.t.ID == types.Record || call.t.ID == types.Unknown {
			unsupported("function in FROM returning rows")
		}
		name := fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
		ref, col := name, name
		if rf.Alias != nil {
			ref, col = rf.Alias.Aliasname, rf.Alias.Aliasname
			if len(rf.Alias.Colnames) > 1 {
				unsupported("column aliases")
			}
			if len(rf.Alias.Colnames) == 1 {
				col = rf.Alias.Colnames[0].GetString_().GetSval()
			}
		}
		b.WriteString(call.s + " " + QuoteIdentifier(ref) + "(" + QuoteIdentifier(col) + ")")
		sc.items = append(sc.items, &fromItem{refname: ref, cols: []storage.ColumnDef{{Name: col, Type: call.t}}})
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		if j.Alias != nil || j.JoinUsingAlias != nil {
			unsupported("join alias")
		}
		paren := !d.pretty
		if paren {
			b.WriteByte('(')
		}
		d.fromItem(b, j.Larg, sc)
		nLeft := len(sc.items)
		switch j.Jointype {
		case pg_query.JoinType_JOIN_INNER:
			if j.Quals != nil || len(j.UsingClause) > 0 || j.IsNatural {
				d.keyword(b, " JOIN ", -indentStd, indentStd, indentJoin)
			} else {
				d.keyword(b, " CROSS JOIN ", -indentStd, indentStd, indentJoin)
			}
		case pg_query.JoinType_JOIN_LEFT:
			d.keyword(b, " LEFT JOIN ", -indentStd, indentStd, indentJoin)
		case pg_query.JoinType_JOIN_RIGHT:
			d.keyword(b, " RIGHT JOIN ", -indentStd, indentStd, indentJoin)
		case pg_query.JoinType_JOIN_FULL:
			d.keyword(b, " FULL JOIN ", -indentStd, indentStd, indentJoin)
		default:
			unsupported("join type")
		}
		rightParen := j.Rarg.GetJoinExpr() != nil
		if rightParen {
			b.WriteByte('(')
		}
		d.fromItem(b, j.Rarg, sc)
		if rightParen {
			b.WriteByte(')')
		}
		using := j.UsingClause
		if j.IsNatural {
			// The columns both sides have, in the left side's order.
			using = nil
			for _, it := range sc.items[:nLeft] {
				for _, c := range it.cols {
					if it.usingHidden[c.Name] {
						continue
					}
					if _, ok := findIn(sc.items[nLeft:], c.Name); ok {
						using = append(using, &pg_query.Node{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: c.Name}}})
					}
				}
			}
			if len(using) == 0 {
				unsupported("NATURAL JOIN without common columns")
			}
		}
		switch {
		case len(using) > 0:
			var names []string
			for _, u := range using {
				name := u.GetString_().GetSval()
				names = append(names, QuoteIdentifier(name))
				l, lok := findIn(sc.items[:nLeft], name)
				r, rok := findIn(sc.items[nLeft:], name)
				if !lok || !rok {
					unsupported("USING column %s", name)
				}
				keep, hide := l, r
				if j.Jointype == pg_query.JoinType_JOIN_RIGHT {
					keep, hide = r, l
				}
				if hide.usingHidden == nil {
					hide.usingHidden = map[string]bool{}
				}
				hide.usingHidden[name] = true
				if keep.usingHidden == nil {
					keep.usingHidden = map[string]bool{}
				}
				keep.usingHidden[name] = true
				c, _ := columnOf(keep, name)
				sc.merged[name] = varOf(keep, c)
				if j.Jointype == pg_query.JoinType_JOIN_FULL {
					// COALESCE of both sides: the join's own column, unqualified.
					sc.merged[name] = dexpr{s: QuoteIdentifier(name), t: c.Type, isVar: true, colName: name}
				}
				sc.mergedOrder = append(sc.mergedOrder, name)
			}
			b.WriteString(" USING (" + strings.Join(names, ", ") + ")")
		case j.Quals != nil:
			b.WriteString(" ON ")
			q := d.coerced(d.expr(j.Quals), types.BoolType).s
			if !d.pretty {
				q = "(" + q + ")"
			}
			b.WriteString(q)
		case j.Jointype != pg_query.JoinType_JOIN_INNER:
			b.WriteString(" ON TRUE")
		}
		if paren {
			b.WriteByte(')')
		}
	default:
		unsupported("FROM item")
	}
}

// nameRelations is set_rtable_names for one level: each relation without
// alias is named as itself unless an enclosing level uses the name.
func (d *deparser) nameRelations(from []*pg_query.Node, sc *dscope) {
	used := map[string]bool{}
	for _, o := range d.scopes[:len(d.scopes)-1] {
		for _, it := range o.items {
			used[it.refname] = true
		}
		for _, n := range o.refnames {
			used[n] = true
		}
	}
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		switch x := n.GetNode().(type) {
		case *pg_query.Node_RangeVar:
			rv := x.RangeVar
			if rv.Alias != nil {
				used[rv.Alias.Aliasname] = true
				return
			}
			name := rv.Relname
			for i := 1; used[name]; i++ {
				name = fmt.Sprintf("%s_%d", rv.Relname, i)
			}
			used[name] = true
			sc.refnames[rv] = name
		case *pg_query.Node_JoinExpr:
			walk(x.JoinExpr.Larg)
			walk(x.JoinExpr.Rarg)
		case *pg_query.Node_RangeSubselect:
			if x.RangeSubselect.Alias != nil {
				used[x.RangeSubselect.Alias.Aliasname] = true
			}
		}
	}
	for _, n := range from {
		walk(n)
	}
}

// cte finds the WITH query rv names.
func (d *deparser) cte(rv *pg_query.RangeVar) ([]storage.ColumnDef, bool) {
	if rv.Schemaname != "" {
		return nil, false
	}
	for i := len(d.scopes) - 1; i >= 0; i-- {
		if cols, ok := d.scopes[i].ctes[rv.Relname]; ok {
			return cols, true
		}
	}
	return nil, false
}

// with is get_with_clause.
func (d *deparser) with(b *strings.Builder, w *pg_query.WithClause, sc *dscope) {
	if w.Recursive {
		unsupported("WITH RECURSIVE")
	}
	d.level += indentStd
	b.WriteByte(' ')
	sep := "WITH "
	sc.ctes = map[string][]storage.ColumnDef{}
	for _, n := range w.Ctes {
		c := n.GetCommonTableExpr()
		if c.SearchClause != nil || c.CycleClause != nil || len(c.Aliascolnames) > 0 {
			unsupported("WITH options")
		}
		b.WriteString(sep + QuoteIdentifier(c.Ctename) + " AS ")
		switch c.Ctematerialized {
		case pg_query.CTEMaterialize_CTEMaterializeAlways:
			b.WriteString("MATERIALIZED ")
		case pg_query.CTEMaterialize_CTEMaterializeNever:
			b.WriteString("NOT MATERIALIZED ")
		}
		b.WriteByte('(')
		d.keyword(b, "", 0, 0, 0)
		cols := d.subquery(b, c.Ctequery.GetSelectStmt(), d.level)
		d.keyword(b, "", 0, 0, 0)
		b.WriteByte(')')
		sc.ctes[c.Ctename] = cols
		sep = ", "
	}
	d.level -= indentStd
	d.keyword(b, "", 0, 0, 0)
}

func visibleColumns(r Relation) []storage.ColumnDef {
	var out []storage.ColumnDef
	for _, c := range r.Columns {
		out = append(out, storage.ColumnDef{Name: c.Name, Type: c.Type})
	}
	return out
}

func (d *deparser) colAliases(b *strings.Builder, a *pg_query.Alias, it *fromItem) {
	if len(a.Colnames) == 0 {
		return
	}
	if len(a.Colnames) > len(it.cols) {
		unsupported("column aliases")
	}
	var names []string
	for i, c := range a.Colnames {
		it.cols[i].Name = c.GetString_().GetSval()
		names = append(names, QuoteIdentifier(it.cols[i].Name))
	}
	b.WriteString("(" + strings.Join(names, ", ") + ")")
}

func findIn(items []*fromItem, name string) (*fromItem, bool) {
	var found *fromItem
	for _, it := range items {
		if _, ok := columnOf(it, name); ok && !it.usingHidden[name] {
			if found != nil {
				unsupported("ambiguous %s", name)
			}
			found = it
		}
	}
	return found, found != nil
}

func columnOf(it *fromItem, name string) (storage.ColumnDef, bool) {
	for _, c := range it.cols {
		if c.Name == name {
			return c, true
		}
	}
	return storage.ColumnDef{}, false
}

// subquery deparses sel (a FROM subquery or a sublink) at level and
// returns its output columns.
func (d *deparser) subquery(b *strings.Builder, sel *pg_query.SelectStmt, level int) []storage.ColumnDef {
	if sel == nil {
		unsupported("subquery")
	}
	var sub strings.Builder
	d.query(&sub, sel, nil, level)
	b.WriteString(sub.String())
	return d.lastColumns
}

// --- expressions ---

func (d *deparser) lookupColumn(name string, sc *dscope) (dexpr, bool) {
	if e, ok := sc.merged[name]; ok {
		return e, true
	}
	var found *fromItem
	var col storage.ColumnDef
	for _, it := range sc.items {
		if c, ok := columnOf(it, name); ok && !it.usingHidden[name] {
			if found != nil {
				unsupported("ambiguous column %s", name)
			}
			found, col = it, c
		}
	}
	if found == nil {
		return dexpr{}, false
	}
	return varOf(found, col), true
}

func (d *deparser) columnRef(cr *pg_query.ColumnRef) dexpr {
	var parts []string
	for _, f := range cr.Fields {
		s := f.GetString_()
		if s == nil {
			unsupported("column reference")
		}
		parts = append(parts, s.Sval)
	}
	if len(d.scopes) == 0 {
		// A CHECK expression: its table's columns, as written.
		q := make([]string, len(parts))
		for i, p := range parts {
			q[i] = QuoteIdentifier(p)
		}
		return dexpr{s: strings.Join(q, "."), t: types.UnknownType, isVar: true, colName: parts[len(parts)-1]}
	}
	for i := len(d.scopes) - 1; i >= 0; i-- {
		sc := d.scopes[i]
		switch len(parts) {
		case 1:
			if e, ok := d.lookupColumn(parts[0], sc); ok {
				return e
			}
		case 2:
			for _, it := range sc.items {
				if it.refname == parts[0] {
					if c, ok := columnOf(it, parts[1]); ok {
						return varOf(it, c)
					}
					unsupported("column %s.%s", parts[0], parts[1])
				}
			}
		default:
			unsupported("qualified column")
		}
	}
	unsupported("column %s", strings.Join(parts, "."))
	return dexpr{}
}

// typeName formats t for a cast.
func typeName(t types.Type) string { return FormatType(t.OID(), t.Typmod, false) }

// coerced is e as an argument of type want: an untyped literal becomes a
// constant of that type, another type shows its (implicit) cast.
func (d *deparser) coerced(e dexpr, want types.Type) dexpr {
	if e.lit != nil {
		return d.constOf(e.lit, want)
	}
	if want.ID == types.Unknown || e.t.ID == types.Unknown || e.t.ID == want.ID && (e.t.Typmod == want.Typmod || want.Typmod < 0) {
		return e
	}
	if !concrete(want) {
		return e
	}
	return d.cast(e, want)
}

// concrete reports whether t is a real type (not polymorphic or any).
func concrete(t types.Type) bool {
	_, ok := TypeByOID(t.OID())
	return ok && t.ID != types.Record && t.ID != types.Array
}

// cast is get_coercion_expr.
func (d *deparser) cast(e dexpr, t types.Type) dexpr {
	arg := e.s
	if d.pretty {
		if !d.simple(e, dCast, "", true) {
			arg = "(" + arg + ")"
		}
	} else {
		arg = "(" + arg + ")"
	}
	ee := e
	return dexpr{s: arg + "::" + typeName(t), t: t, kind: dCast, arg: &ee}
}

// constOf is the constant literal lit coerced to t (get_const_expr).
func (d *deparser) constOf(lit *pg_query.Node, t types.Type) dexpr {
	c := lit.GetAConst()
	if t.ID == types.Unknown {
		t = types.TextType
	}
	if c.Isnull {
		return dexpr{s: "NULL::" + typeName(t), t: t, isConst: true}
	}
	sv := c.GetSval()
	if sv == nil {
		unsupported("literal")
	}
	quoted := "'" + strings.ReplaceAll(sv.Sval, "'", "''") + "'"
	if t.ID == types.Text {
		return dexpr{s: quoted + "::text", t: t, isConst: true}
	}
	out := FormatDefault(quoted, t)
	if out == quoted {
		unsupported("literal of %s", t.SQLName())
	}
	return dexpr{s: out, t: t, isConst: true}
}

// simple is isSimpleNode(e, parent) for PRETTY_PAREN.
func (d *deparser) simple(e dexpr, parent dkind, parentOp string, left bool) bool {
	switch e.kind {
	case dSimple:
		return true
	case dCast:
		return d.simple(*e.arg, dCast, "", true)
	case dOp:
		if parent == dOp {
			lo, hi := strings.Contains("+-", e.op) && len(e.op) == 1, strings.Contains("*/%", e.op) && len(e.op) == 1
			plo, phi := strings.Contains("+-", parentOp) && len(parentOp) == 1, strings.Contains("*/%", parentOp) && len(parentOp) == 1
			if !(lo || hi) || !(plo || phi) {
				return false
			}
			if hi && plo {
				return true
			}
			if lo && phi {
				return false
			}
			return left
		}
		fallthrough
	case dTest:
		switch parent {
		case dBool, dSimple:
			return true
		}
		return false
	case dBool:
		switch parent {
		case dBool:
			switch e.op {
			case "NOT", "AND":
				return parentOp == "AND" || parentOp == "OR"
			case "OR":
				return parentOp == "OR"
			}
			return false
		case dSimple:
			return true
		}
		return false
	}
	return false
}

// paren is get_rule_expr_paren: e under parent, parenthesized in pretty
// mode where isSimpleNode says so.
func (d *deparser) paren(e dexpr, parent dkind, parentOp string, left bool) string {
	if d.pretty && !d.simple(e, parent, parentOp, left) {
		return "(" + e.s + ")"
	}
	return e.s
}

func (d *deparser) wrap(s string) string {
	if d.pretty {
		return s
	}
	return "(" + s + ")"
}

func (d *deparser) expr(n *pg_query.Node) dexpr {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		return d.columnRef(x.ColumnRef)
	case *pg_query.Node_AConst:
		c := x.AConst
		switch {
		case c.Isnull, c.GetSval() != nil:
			return dexpr{lit: n, t: types.UnknownType, isConst: true}
		case c.GetIval() != nil:
			v := c.GetIval().Ival
			if v < 0 {
				return dexpr{s: "'" + strconv.Itoa(int(v)) + "'::integer", t: types.Int4Type, isConst: true}
			}
			return dexpr{s: strconv.Itoa(int(v)), t: types.Int4Type, isConst: true}
		case c.GetFval() != nil:
			s := c.GetFval().Fval
			if !strings.ContainsAny(s, ".eE") {
				if _, err := strconv.ParseInt(s, 10, 64); err == nil {
					return dexpr{s: "'" + s + "'::bigint", t: types.Int8Type, isConst: true}
				}
				return dexpr{s: s, t: types.Type{ID: types.Numeric, Typmod: -1}, isConst: true}
			}
			if strings.HasPrefix(s, "-") {
				return dexpr{s: "'" + s + "'::numeric", t: types.Type{ID: types.Numeric, Typmod: -1}, isConst: true}
			}
			return dexpr{s: s, t: types.Type{ID: types.Numeric, Typmod: -1}, isConst: true}
		case c.GetBoolval() != nil:
			if c.GetBoolval().Boolval {
				return dexpr{s: "true", t: types.BoolType, isConst: true}
			}
			return dexpr{s: "false", t: types.BoolType, isConst: true}
		}
	case *pg_query.Node_TypeCast:
		t, err := PlainTypeName(x.TypeCast.TypeName)
		if err != nil {
			unsupported("type")
		}
		arg := d.expr(x.TypeCast.Arg)
		if arg.lit != nil {
			return d.constOf(arg.lit, t)
		}
		if arg.t.ID == t.ID && arg.t.Typmod == t.Typmod {
			return arg
		}
		return d.cast(arg, t)
	case *pg_query.Node_AExpr:
		return d.aExpr(x.AExpr)
	case *pg_query.Node_BoolExpr:
		be := x.BoolExpr
		var parts []string
		op := map[pg_query.BoolExprType]string{pg_query.BoolExprType_AND_EXPR: "AND", pg_query.BoolExprType_OR_EXPR: "OR",
			pg_query.BoolExprType_NOT_EXPR: "NOT"}[be.Boolop]
		for _, a := range be.Args {
			e := d.coerced(d.expr(a), types.BoolType)
			parts = append(parts, d.paren(e, dBool, op, false))
		}
		if op == "NOT" {
			return dexpr{s: d.wrap("NOT " + parts[0]), t: types.BoolType, kind: dBool, op: op}
		}
		return dexpr{s: d.wrap(strings.Join(parts, " "+op+" ")), t: types.BoolType, kind: dBool, op: op}
	case *pg_query.Node_NullTest:
		a := d.expr(x.NullTest.Arg)
		if a.lit != nil {
			a = d.coerced(a, types.TextType)
		}
		s := d.paren(a, dTest, "", true)
		if x.NullTest.Nulltesttype == pg_query.NullTestType_IS_NULL {
			s += " IS NULL"
		} else {
			s += " IS NOT NULL"
		}
		return dexpr{s: d.wrap(s), t: types.BoolType, kind: dTest}
	case *pg_query.Node_FuncCall:
		return d.funcCall(x.FuncCall)
	case *pg_query.Node_CoalesceExpr:
		args := d.exprs(x.CoalesceExpr.Args)
		t := commonOf(args)
		var parts []string
		for _, a := range args {
			parts = append(parts, d.coerced(a, t).s)
		}
		return dexpr{s: "COALESCE(" + strings.Join(parts, ", ") + ")", t: t, funcLike: true}
	case *pg_query.Node_CaseExpr:
		return d.caseExpr(x.CaseExpr)
	case *pg_query.Node_SqlvalueFunction:
		if f, ok := sqlValueFunctions[x.SqlvalueFunction.Op]; ok && x.SqlvalueFunction.Typmod < 0 {
			return dexpr{s: f.name, t: f.t, funcLike: true}
		}
	case *pg_query.Node_SubLink:
		return d.subLink(x.SubLink)
	}
	unsupported("expression %T", n.GetNode())
	return dexpr{}
}

func (d *deparser) exprs(ns []*pg_query.Node) []dexpr {
	var out []dexpr
	for _, n := range ns {
		out = append(out, d.expr(n))
	}
	return out
}

var sqlValueFunctions = map[pg_query.SQLValueFunctionOp]struct {
	name string
	t    types.Type
}{
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:      {"CURRENT_DATE", types.DateType},
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP: {"CURRENT_TIMESTAMP", types.TimestampTZType},
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:    {"LOCALTIMESTAMP", types.Type{ID: types.Timestamp, Typmod: -1}},
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:      {"CURRENT_ROLE", types.NameType},
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER:      {"CURRENT_USER", types.NameType},
	pg_query.SQLValueFunctionOp_SVFOP_USER:              {"USER", types.NameType},
	pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:      {"SESSION_USER", types.NameType},
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:   {"CURRENT_CATALOG", types.NameType},
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:    {"CURRENT_SCHEMA", types.NameType},
}

// commonOf is select_common_type, simplified: the first typed input's
// type (all untyped: text).
func commonOf(es []dexpr) types.Type {
	for _, e := range es {
		if e.lit == nil && e.t.ID != types.Unknown {
			return types.Type{ID: e.t.ID, Typmod: -1}
		}
	}
	return types.TextType
}

func (d *deparser) binaryOp(op string, l, r dexpr) dexpr {
	lt, rt := l.t, r.t
	// A CHECK expression's columns are untyped here: as the other side.
	if l.isVar && lt.ID == types.Unknown {
		lt = rt
		if lt.ID == types.Unknown {
			lt = types.TextType
		}
	}
	if r.isVar && rt.ID == types.Unknown {
		rt = lt
		if rt.ID == types.Unknown {
			rt = types.TextType
		}
	}
	if lt.ID == types.Unknown && rt.ID == types.Unknown {
		lt, rt = types.TextType, types.TextType
	}
	ov, err := types.ResolveOperator(op, lt, rt)
	if err != nil || len(ov.Args) != 2 {
		unsupported("operator %s", op)
	}
	l, r = d.coerced(l, ov.Args[0]), d.coerced(r, ov.Args[1])
	s := d.paren(l, dOp, op, true) + " " + op + " " + d.paren(r, dOp, op, false)
	return dexpr{s: d.wrap(s), t: ov.Result, kind: dOp, op: op}
}

func (d *deparser) aExpr(a *pg_query.A_Expr) dexpr {
	opName := func() string {
		if len(a.Name) != 1 {
			unsupported("qualified operator")
		}
		return a.Name[0].GetString_().GetSval()
	}
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		op := opName()
		if op == "!=" {
			op = "<>"
		}
		if lr, rr := a.Lexpr.GetRowExpr(), a.Rexpr.GetRowExpr(); lr != nil && rr != nil {
			return d.rowCompare(op, lr, rr)
		}
		r := d.expr(a.Rexpr)
		if a.Lexpr == nil {
			if r.lit != nil {
				unsupported("prefix operator on a literal")
			}
			ov, err := types.ResolveOperator(op, types.Type{ID: types.NoArg}, r.t)
			if err != nil {
				unsupported("operator %s", op)
			}
			r = d.coerced(r, ov.Args[0])
			return dexpr{s: d.wrap(op + " " + d.paren(r, dOp, op, false)), t: ov.Result, kind: dOp, op: op}
		}
		return d.binaryOp(op, d.expr(a.Lexpr), r)
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		op := map[string]string{"~~": "~~", "!~~": "!~~", "~~*": "~~*", "!~~*": "!~~*"}[opName()]
		if op == "" {
			unsupported("LIKE")
		}
		return d.binaryOp(op, d.expr(a.Lexpr), d.expr(a.Rexpr))
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		bounds := a.Rexpr.GetList().GetItems()
		x := d.expr(a.Lexpr)
		lo, hi := d.expr(bounds[0]), d.expr(bounds[1])
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_BETWEEN {
			ge, le := d.binaryOp(">=", x, lo), d.binaryOp("<=", x, hi)
			s := d.paren(ge, dBool, "AND", false) + " AND " + d.paren(le, dBool, "AND", false)
			return dexpr{s: d.wrap(s), t: types.BoolType, kind: dBool, op: "AND"}
		}
		lt, gt := d.binaryOp("<", x, lo), d.binaryOp(">", x, hi)
		s := d.paren(lt, dBool, "OR", false) + " OR " + d.paren(gt, dBool, "OR", false)
		return dexpr{s: d.wrap(s), t: types.BoolType, kind: dBool, op: "OR"}
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, r := d.expr(a.Lexpr), d.expr(a.Rexpr)
		ov, err := types.ResolveOperator("=", l.t, r.t)
		if err != nil {
			unsupported("IS DISTINCT FROM")
		}
		l, r = d.coerced(l, ov.Args[0]), d.coerced(r, ov.Args[1])
		kw := " IS DISTINCT FROM "
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			kw = " IS NOT DISTINCT FROM "
		}
		return dexpr{s: d.wrap(d.paren(l, dTest, "", true) + kw + d.paren(r, dTest, "", false)), t: types.BoolType, kind: dTest}
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR:
		// x SIMILAR TO p: x ~ similar_to_escape(p [, escape]).
		op := opName()
		fc := a.Rexpr.GetFuncCall()
		if fc == nil || len(fc.Args) < 1 || len(fc.Args) > 2 {
			unsupported("SIMILAR TO")
		}
		l := d.coerced(d.expr(a.Lexpr), types.TextType)
		var args []string
		for _, n := range fc.Args {
			args = append(args, d.coerced(d.expr(n), types.TextType).s)
		}
		r := dexpr{s: "similar_to_escape(" + strings.Join(args, ", ") + ")", t: types.TextType, funcLike: true}
		s := d.paren(l, dOp, op, true) + " " + op + " " + r.s
		return dexpr{s: d.wrap(s), t: types.BoolType, kind: dOp, op: op}
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r := d.expr(a.Lexpr), d.expr(a.Rexpr)
		if l.lit != nil {
			l = d.coerced(l, types.TextType)
		}
		ov, err := types.ResolveOperator("=", l.t, r.t)
		if err != nil {
			unsupported("NULLIF")
		}
		l, r = d.coerced(l, ov.Args[0]), d.coerced(r, ov.Args[1])
		return dexpr{s: "NULLIF(" + l.s + ", " + r.s + ")", t: l.t, funcLike: true}
	case pg_query.A_Expr_Kind_AEXPR_IN:
		return d.inList(a)
	}
	unsupported("expression kind %v", a.Kind)
	return dexpr{}
}

// rowCompare is make_row_comparison_op for = and <>: the columns'
// comparisons ANDed (ORed).
func (d *deparser) rowCompare(op string, l, r *pg_query.RowExpr) dexpr {
	if len(l.Args) != len(r.Args) || op != "=" && op != "<>" {
		unsupported("row comparison")
	}
	join := "AND"
	if op == "<>" {
		join = "OR"
	}
	var parts []string
	for i := range l.Args {
		parts = append(parts, d.paren(d.binaryOp(op, d.expr(l.Args[i]), d.expr(r.Args[i])), dBool, join, false))
	}
	return dexpr{s: d.wrap(strings.Join(parts, " "+join+" ")), t: types.BoolType, kind: dBool, op: join}
}

// inList is transformAExprIn: x IN (a, b) as x = ANY (ARRAY[a, b]) over
// the common type, one element as x = a.
func (d *deparser) inList(a *pg_query.A_Expr) dexpr {
	op := a.Name[0].GetString_().GetSval()
	l := d.expr(a.Lexpr)
	items := d.exprs(a.Rexpr.GetList().GetItems())
	if len(items) == 1 {
		return d.binaryOp(op, l, items[0])
	}
	for _, it := range items {
		if it.isVar || !it.isConst {
			unsupported("IN list of expressions")
		}
	}
	t := commonOf(append([]dexpr{l}, items...))
	l = d.coerced(l, t)
	ov, err := types.ResolveOperator(op, t, t)
	if err != nil {
		unsupported("IN operator")
	}
	var el []string
	for _, it := range items {
		el = append(el, d.coerced(it, t).s)
	}
	quant := "ANY"
	if op == "<>" {
		quant = "ALL"
	}
	_ = ov
	s := d.paren(l, dOther, "", true) + " " + op + " " + quant + " (ARRAY[" + strings.Join(el, ", ") + "])"
	return dexpr{s: d.wrap(s), t: types.BoolType, kind: dOther}
}

func (d *deparser) funcCall(fc *pg_query.FuncCall) dexpr {
	if fc.AggWithinGroup || fc.FuncVariadic {
		unsupported("function call form")
	}
	var parts []string
	for _, n := range fc.Funcname {
		parts = append(parts, n.GetString_().GetSval())
	}
	name := parts[len(parts)-1]
	if len(parts) == 2 && parts[0] != "pg_catalog" || len(parts) > 2 {
		unsupported("qualified function")
	}
	if name == "extract" && len(fc.Args) == 2 && fc.Funcformat == pg_query.CoercionForm_COERCE_SQL_SYNTAX {
		field := fc.Args[0].GetAConst().GetSval()
		if field == nil {
			unsupported("EXTRACT")
		}
		src := d.expr(fc.Args[1])
		if src.lit != nil || !concrete(src.t) {
			unsupported("EXTRACT")
		}
		return dexpr{s: "EXTRACT(" + field.Sval + " FROM " + src.s + ")", t: types.Type{ID: types.Numeric, Typmod: -1}, funcLike: true}
	}
	if fc.AggStar {
		if name != "count" {
			unsupported("%s(*)", name)
		}
		return d.aggTail(fc, "count(*", types.Int8Type)
	}
	args := d.exprs(fc.Args)
	in := make([]types.Type, len(args))
	for i, a := range args {
		in[i] = a.t
	}
	var declared []types.Type
	var result types.Type
	if wt, ok := windowFunctions[name]; ok && fc.Over != nil {
		declared, result = in, wt
		if wt.ID == types.Unknown && len(in) > 0 {
			result = in[0]
		}
	} else if IsAggregateName(name) {
		ov, err := types.ResolveAggregate(name, in, false)
		if err != nil {
			unsupported("aggregate %s", name)
		}
		declared, result = ov.Args, ov.Result
	} else if ov, err := types.ResolveFunction(name, in); err == nil {
		declared, result = ov.Args, ov.Result
	} else {
		unsupported("function %s", name)
	}
	var out []string
	for i, a := range args {
		want := types.UnknownType
		if i < len(declared) {
			want = declared[i]
		}
		if a.lit != nil && want.ID == types.Unknown {
			want = types.TextType
		}
		out = append(out, d.coerced(a, want).s)
	}
	distinct := ""
	if fc.AggDistinct {
		distinct = "DISTINCT "
	}
	return d.aggTail(fc, QuoteIdentifier(name)+"("+distinct+strings.Join(out, ", "), result)
}

// windowFunctions are the window-only functions' result types (Unknown:
// the first argument's).
var windowFunctions = map[string]types.Type{
	"row_number": types.Int8Type, "rank": types.Int8Type, "dense_rank": types.Int8Type,
	"percent_rank": {ID: types.Float8, Typmod: -1}, "cume_dist": {ID: types.Float8, Typmod: -1}, "ntile": types.Int4Type,
	"lag": types.UnknownType, "lead": types.UnknownType, "first_value": types.UnknownType,
	"last_value": types.UnknownType, "nth_value": types.UnknownType,
}

// aggTail closes a call: an aggregate's ORDER BY and FILTER, a window
// function's OVER (get_agg_expr, get_windowfunc_expr).
func (d *deparser) aggTail(fc *pg_query.FuncCall, head string, t types.Type) dexpr {
	s := head
	if len(fc.AggOrder) > 0 {
		s += " ORDER BY " + d.orderItems(fc.AggOrder, nil)
	}
	s += ")"
	if fc.AggFilter != nil {
		s += " FILTER (WHERE " + d.coerced(d.expr(fc.AggFilter), types.BoolType).s + ")"
	}
	if w := fc.Over; w != nil {
		if w.Name != "" || w.Refname != "" || w.FrameOptions != 0x00002|0x00020|0x00400 {
			unsupported("window")
		}
		var parts []string
		if len(w.PartitionClause) > 0 {
			var p []string
			for _, n := range w.PartitionClause {
				p = append(p, d.groupItem(d.expr(n)))
			}
			parts = append(parts, "PARTITION BY "+strings.Join(p, ", "))
		}
		if len(w.OrderClause) > 0 {
			parts = append(parts, "ORDER BY "+d.orderItems(w.OrderClause, nil))
		}
		s += " OVER (" + strings.Join(parts, " ") + ")"
	}
	return dexpr{s: s, t: t, funcLike: true}
}

// caseExpr is get_rule_expr's CaseExpr (PRETTY_INDENT: a line a clause).
func (d *deparser) caseExpr(c *pg_query.CaseExpr) dexpr {
	var results []dexpr
	var conds []dexpr
	var arg *dexpr
	if c.Arg != nil {
		e := d.expr(c.Arg)
		if e.lit != nil {
			e = d.coerced(e, types.TextType)
		}
		arg = &e
	}
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		if arg != nil {
			v := d.expr(cw.Expr)
			ov, err := types.ResolveOperator("=", arg.t, v.t)
			if err != nil || ov.Args[0].ID != arg.t.ID {
				unsupported("CASE x WHEN")
			}
			conds = append(conds, d.coerced(v, ov.Args[1]))
		} else {
			conds = append(conds, d.coerced(d.expr(cw.Expr), types.BoolType))
		}
		results = append(results, d.expr(cw.Result))
	}
	var def *dexpr
	if c.Defresult != nil {
		e := d.expr(c.Defresult)
		def = &e
		results = append(results, e)
	}
	t := commonOf(results)
	var b strings.Builder
	if arg != nil {
		d.keyword(&b, "CASE "+arg.s, 0, indentVar, 0)
	} else {
		d.keyword(&b, "CASE", 0, indentVar, 0)
	}
	for i, cond := range conds {
		d.keyword(&b, "WHEN ", 0, 0, 0)
		b.WriteString(cond.s + " THEN " + d.coerced(results[i], t).s)
	}
	if def != nil {
		d.keyword(&b, "ELSE ", 0, 0, 0)
		b.WriteString(d.coerced(*def, t).s)
	} else {
		d.keyword(&b, "ELSE ", 0, 0, 0)
		b.WriteString("NULL::" + typeName(t))
	}
	d.keyword(&b, "END", -indentVar, 0, 0)
	return dexpr{s: b.String(), t: t}
}

// subLink is get_sublink_expr: EXISTS, IN, ANY/ALL and scalar subqueries.
func (d *deparser) subLink(sl *pg_query.SubLink) dexpr {
	sel := sl.Subselect.GetSelectStmt()
	var sub strings.Builder
	d.subquery(&sub, sel, d.level)
	inner := "(" + sub.String() + ")"
	cols := d.lastColumns
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return dexpr{s: "(EXISTS " + inner + ")", t: types.BoolType, kind: dTest}
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(cols) != 1 {
			unsupported("subquery columns")
		}
		return dexpr{s: inner, t: cols[0].Type, kind: dTest}
	case pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
		if len(cols) != 1 || sl.Testexpr == nil {
			unsupported("row IN")
		}
		op := "="
		if len(sl.OperName) == 1 {
			op = sl.OperName[0].GetString_().GetSval()
		}
		l := d.expr(sl.Testexpr)
		ov, err := types.ResolveOperator(op, l.t, cols[0].Type)
		if err != nil {
			unsupported("IN operator")
		}
		l = d.coerced(l, ov.Args[0])
		if sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK {
			return dexpr{s: "(" + d.paren(l, dTest, "", true) + " " + op + " ALL " + inner + ")", t: types.BoolType, kind: dTest}
		}
		if op == "=" {
			return dexpr{s: "(" + d.paren(l, dTest, "", true) + " IN " + inner + ")", t: types.BoolType, kind: dTest}
		}
		return dexpr{s: "(" + d.paren(l, dTest, "", true) + " " + op + " ANY " + inner + ")", t: types.BoolType, kind: dTest}
	}
	unsupported("sublink")
	return dexpr{}
}

// figureColname is FigureColname: a select list item's implicit name.
func figureColname(n *pg_query.Node) string {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		f := x.ColumnRef.Fields
		if s := f[len(f)-1].GetString_(); s != nil {
			return s.Sval
		}
	case *pg_query.Node_FuncCall:
		f := x.FuncCall.Funcname
		return f[len(f)-1].GetString_().GetSval()
	case *pg_query.Node_TypeCast:
		if name := figureColname(x.TypeCast.Arg); name != "?column?" {
			return name
		}
		tn := x.TypeCast.TypeName.Names
		return tn[len(tn)-1].GetString_().GetSval()
	case *pg_query.Node_CoalesceExpr:
		return "coalesce"
	case *pg_query.Node_CaseExpr:
		if x.CaseExpr.Defresult != nil {
			if name := figureColname(x.CaseExpr.Defresult); name != "?column?" {
				return name
			}
		}
		return "case"
	case *pg_query.Node_SubLink:
		switch x.SubLink.SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists"
		case pg_query.SubLinkType_EXPR_SUBLINK:
			if sel := x.SubLink.Subselect.GetSelectStmt(); sel != nil && len(sel.TargetList) == 1 {
				rt := sel.TargetList[0].GetResTarget()
				if rt.Name != "" {
					return rt.Name
				}
				return figureColname(rt.Val)
			}
		}
	}
	return "?column?"
}
