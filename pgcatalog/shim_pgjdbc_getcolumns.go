package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v5"

// pgjdbc's DatabaseMetaData.getColumns numbers each relation's columns
// with a window function joind does not have:
//
//	row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum
//
// joind's pg_attribute has no system columns, so that row number is the
// column's position among the relation's live columns (attnum itself
// until a column is dropped) — as long as the query level keeps every
// column of a relation it keeps, and each once. AttnumRowNumber recognises
// the call and AttnumRowNumberSound checks the level; package sql binds
// the call to that position when both hold and both columns are
// pg_attribute's.

var _ = registerShim(Shim{
	Client: "pgjdbc 42.5 DatabaseMetaData.getColumns(catalog, \"public\", \"pc_jt\", \"%\")",
	Setup: []string{"DROP TABLE IF EXISTS pc_jt", "CREATE TABLE pc_jt (i2 smallint NOT NULL, v varchar(20) DEFAULT 'x', n numeric(10,3), " +
		"ts timestamp, iv interval)"},
	Query: `SELECT * FROM (SELECT n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'pc_jt') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum `,
})

// AttnumRowNumber recognises `row_number() OVER (PARTITION BY q.attrelid
// ORDER BY q.attnum)` (one qualifier q or none, ascending, no frame) and
// returns the two column references for the binder to check and bind, and
// their qualifier q; ok is false for any other call.
func AttnumRowNumber(fc *pg_query.FuncCall) (attrelid, attnum *pg_query.Node, q string, ok bool) {
	w := fc.Over
	if len(fc.Funcname) == 0 || fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval() != "row_number" ||
		len(fc.Args) != 0 || w == nil || w.Name != "" || w.Refname != "" ||
		len(w.PartitionClause) != 1 || len(w.OrderClause) != 1 || w.FrameOptions&0x1 != 0 {
		return nil, nil, "", false
	}
	part := w.PartitionClause[0].GetColumnRef()
	sb := w.OrderClause[0].GetSortBy()
	if part == nil || sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC || sb.Node.GetColumnRef() == nil {
		return nil, nil, "", false
	}
	last := func(cr *pg_query.ColumnRef) (string, string) {
		f := cr.Fields
		q := ""
		if len(f) == 2 {
			q = f[0].GetString_().GetSval()
		}
		return q, f[len(f)-1].GetString_().GetSval()
	}
	pq, pcol := last(part)
	oq, ocol := last(sb.Node.GetColumnRef())
	if pcol != "attrelid" || ocol != "attnum" || pq != oq {
		return nil, nil, "", false
	}
	return w.PartitionClause[0], sb.Node, pq, true
}

// PgAttributeOID is pg_attribute's OID: the binder checks that both
// columns of AttnumRowNumber come from it.
const PgAttributeOID = 1249

// AttnumRowNumberSound reports whether, at query level sel, the row number
// of AttnumRowNumber (over the pg_attribute reference q: its alias, or ""
// when unqualified) is attnum. It holds when the level's rows are its
// pg_attribute rows, each once and with whole relations kept or dropped:
//
//   - FROM holds only system catalogs, combined by inner and left joins
//     (pg_attribute itself never on a left join's nullable side); no
//     GROUP BY or HAVING;
//   - every other inner-joined catalog is determined by the pg_attribute
//     row through equalities on unique keys (`a.attrelid = c.oid`,
//     `c.relnamespace = n.oid`, `a.atttypid = t.oid`); a left-joined one
//     matches at most one row (its oid, pg_attrdef's (adrelid, adnum) or
//     pg_description's (objoid, objsubid), equated in its ON) or is always
//     empty;
//   - every other condition of WHERE and of the inner joins reads only
//     catalogs determined through attrelid (whole relations), or is
//     `a.attnum > 0` or `NOT a.attisdropped` (the binder numbers the live
//     columns of a relation that has dropped ones by position).
func AttnumRowNumberSound(sel *pg_query.SelectStmt, q string) bool {
	if sel == nil || len(sel.GroupClause) > 0 || sel.HavingClause != nil || len(sel.FromClause) == 0 {
		return false
	}
	l := &levelCheck{leaves: map[string]*Def{}, left: map[string][]*pg_query.Node{}}
	for _, f := range sel.FromClause {
		if !l.from(f, false) {
			return false
		}
	}
	if q == "" {
		q = "pg_attribute"
	}
	if d := l.leaves[q]; d == nil || d.Name != "pg_attribute" || d.Schema != pc || l.nullable[q] {
		return false
	}
	l.inner = append(l.inner, conjuncts(sel.WhereClause)...)
	// Edges: X.oid = Y.col means a row of Y determines X's.
	det := map[string][]string{} // Y → the leaves Y determines
	relDet := map[string][]string{}
	var filters []*pg_query.Node
	for _, c := range l.inner {
		x, y, ycol, ok := l.oidEquality(c)
		if !ok {
			filters = append(filters, c)
			continue
		}
		det[y] = append(det[y], x)
		if y != q || ycol == "attrelid" {
			relDet[y] = append(relDet[y], x)
		}
	}
	reach := func(from string, edges map[string][]string) map[string]bool {
		seen := map[string]bool{from: true}
		todo := []string{from}
		for len(todo) > 0 {
			y := todo[0]
			todo = todo[1:]
			for _, x := range edges[y] {
				if !seen[x] {
					seen[x] = true
					todo = append(todo, x)
				}
			}
		}
		return seen
	}
	byRow := reach(q, det)
	// Whole-relation catalogs: determined through attrelid. q itself is
	// not one (its other columns vary within a relation).
	whole := map[string]bool{}
	for _, x := range relDet[q] {
		for y := range reach(x, relDet) {
			whole[y] = true
		}
	}
	for alias := range l.leaves {
		if !l.nullable[alias] && !byRow[alias] {
			return false
		}
	}
	for alias, on := range l.left {
		if !l.atMostOne(alias, on) {
			return false
		}
	}
	for _, f := range filters {
		if !l.wholeRelationFilter(f, q, whole) {
			return false
		}
	}
	return true
}

// levelCheck collects a query level's FROM catalogs and conditions.
type levelCheck struct {
	leaves   map[string]*Def             // alias → catalog
	nullable map[string]bool             // on a left join's nullable side
	left     map[string][]*pg_query.Node // a left-joined catalog's ON conjuncts
	inner    []*pg_query.Node            // inner joins' ON conjuncts
}

func (l *levelCheck) from(n *pg_query.Node, nullable bool) bool {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		rv := x.RangeVar
		if rv.Schemaname != "" && rv.Schemaname != pc {
			return false
		}
		d := byName[pc+"."+rv.Relname]
		alias := rv.Relname
		if rv.Alias != nil {
			if len(rv.Alias.Colnames) > 0 {
				return false
			}
			alias = rv.Alias.Aliasname
		}
		if d == nil || l.leaves[alias] != nil {
			return false
		}
		l.leaves[alias] = d
		if nullable {
			if l.nullable == nil {
				l.nullable = map[string]bool{}
			}
			l.nullable[alias] = true
		}
		return true
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		if j.IsNatural || len(j.UsingClause) > 0 || j.Alias != nil {
			return false
		}
		switch j.Jointype {
		case pg_query.JoinType_JOIN_INNER:
			if !l.from(j.Larg, nullable) || !l.from(j.Rarg, nullable) {
				return false
			}
			if nullable {
				return j.Quals == nil // a condition inside a nullable side: not followed
			}
			l.inner = append(l.inner, conjuncts(j.Quals)...)
			return true
		case pg_query.JoinType_JOIN_LEFT:
			rv := j.Rarg.GetRangeVar()
			if rv == nil || !l.from(j.Larg, nullable) || !l.from(j.Rarg, true) {
				return false
			}
			alias := rv.Relname
			if rv.Alias != nil {
				alias = rv.Alias.Aliasname
			}
			l.left[alias] = conjuncts(j.Quals)
			return true
		}
	}
	return false
}

// conjuncts splits an AND tree.
func conjuncts(n *pg_query.Node) []*pg_query.Node {
	if n == nil {
		return nil
	}
	if b := n.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR {
		var out []*pg_query.Node
		for _, a := range b.Args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []*pg_query.Node{n}
}

// column resolves a column reference to its catalog alias and column name.
func (l *levelCheck) column(n *pg_query.Node) (alias, col string, ok bool) {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 || len(cr.Fields) > 2 {
		return "", "", false
	}
	col = cr.Fields[len(cr.Fields)-1].GetString_().GetSval()
	if col == "" {
		return "", "", false
	}
	if len(cr.Fields) == 2 {
		alias = cr.Fields[0].GetString_().GetSval()
		d := l.leaves[alias]
		return alias, col, d != nil && d.hasColumn(col)
	}
	for a, d := range l.leaves {
		if d.hasColumn(col) {
			if alias != "" {
				return "", "", false // ambiguous
			}
			alias = a
		}
	}
	return alias, col, alias != ""
}

func (d *Def) hasColumn(name string) bool {
	for _, c := range d.Cols {
		if c.Name == name {
			return true
		}
	}
	return false
}

// oidEquality recognises `X.oid = Y.col` (either way round, X and Y two
// catalogs): a row of Y determines X's.
func (l *levelCheck) oidEquality(n *pg_query.Node) (x, y, ycol string, ok bool) {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
		return "", "", "", false
	}
	la, lc, ok1 := l.column(e.Lexpr)
	ra, rc, ok2 := l.column(e.Rexpr)
	if !ok1 || !ok2 || la == ra {
		return "", "", "", false
	}
	switch {
	case rc == "oid":
		return ra, la, lc, true
	case lc == "oid":
		return la, ra, rc, true
	}
	return "", "", "", false
}

// atMostOne reports whether the left-joined catalog alias matches at most
// one row: its ON equates its unique key, or it is always empty.
func (l *levelCheck) atMostOne(alias string, on []*pg_query.Node) bool {
	d := l.leaves[alias]
	if d.rows == nil {
		return true
	}
	eq := map[string]bool{}
	for _, c := range on {
		e := c.GetAExpr()
		if e == nil || e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
			continue
		}
		for _, side := range []*pg_query.Node{e.Lexpr, e.Rexpr} {
			if a, col, ok := l.column(side); ok && a == alias {
				eq[col] = true
			}
		}
	}
	// pg_description's key is (objoid, classoid, objsubid), but joind
	// describes relations only (classoid is always pg_class's).
	return eq["oid"] || d.Name == "pg_attrdef" && eq["adrelid"] && eq["adnum"] ||
		d.Name == "pg_description" && eq["objoid"] && eq["objsubid"]
}

// wholeRelationFilter reports whether condition n keeps or drops whole
// relations: it reads only whole-relation catalogs and constants, or it
// is q.attnum > 0 or NOT q.attisdropped.
func (l *levelCheck) wholeRelationFilter(n *pg_query.Node, q string, whole map[string]bool) bool {
	if e := n.GetAExpr(); e != nil && e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && len(e.Name) == 1 &&
		e.Name[0].GetString_().GetSval() == ">" {
		if a, col, ok := l.column(e.Lexpr); ok && a == q && col == "attnum" {
			if c := e.Rexpr.GetAConst(); c != nil && c.GetIval() != nil && c.GetIval().Ival <= 0 {
				return true
			}
		}
	}
	if b := n.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_NOT_EXPR && len(b.Args) == 1 {
		if a, col, ok := l.column(b.Args[0]); ok && a == q && col == "attisdropped" {
			return true
		}
	}
	ok := true
	var walk func(m *pg_query.Node)
	walk = func(m *pg_query.Node) {
		if m == nil || !ok {
			return
		}
		switch x := m.GetNode().(type) {
		case *pg_query.Node_ColumnRef:
			a, col, found := l.column(m)
			ok = found && (whole[a] || a == q && col == "attrelid")
		case *pg_query.Node_AConst:
		case *pg_query.Node_AExpr:
			walk(x.AExpr.Lexpr)
			walk(x.AExpr.Rexpr)
		case *pg_query.Node_BoolExpr:
			for _, a := range x.BoolExpr.Args {
				walk(a)
			}
		case *pg_query.Node_List:
			for _, a := range x.List.Items {
				walk(a)
			}
		case *pg_query.Node_TypeCast:
			walk(x.TypeCast.Arg)
		case *pg_query.Node_NullTest:
			walk(x.NullTest.Arg)
		default:
			ok = false // a function, subquery, ...: not followed
		}
	}
	walk(n)
	return ok
}
