package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

func strconvItoa(i int64) string { return strconv.FormatInt(i, 10) }

// figureColname is PostgreSQL's FigureColname: the implicit name of an
// output column.
func figureColname(n *pg_query.Node) string {
	name, strength := figureColnameInner(n)
	if strength == 0 {
		return "?column?"
	}
	return name
}

// figureColnameInner returns a name and its strength: 0 none, 1 a fallback
// (type name, "case"), 2 a real name.
func figureColnameInner(n *pg_query.Node) (string, int) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		f := x.ColumnRef.Fields
		if len(f) > 0 {
			if s := f[len(f)-1].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
	case *pg_query.Node_AIndirection:
		for i := len(x.AIndirection.Indirection) - 1; i >= 0; i-- {
			if s := x.AIndirection.Indirection[i].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
		return figureColnameInner(x.AIndirection.Arg)
	case *pg_query.Node_FuncCall:
		return funcName(x.FuncCall.Funcname), 2
	case *pg_query.Node_AExpr:
		if x.AExpr.Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	case *pg_query.Node_TypeCast:
		if name, s := figureColnameInner(x.TypeCast.Arg); s > 1 {
			return name, s
		}
		tn := x.TypeCast.TypeName
		if len(tn.Names) > 0 {
			return tn.Names[len(tn.Names)-1].GetString_().GetSval(), 1
		}
	case *pg_query.Node_CollateClause:
		return figureColnameInner(x.CollateClause.Arg)
	case *pg_query.Node_SubLink:
		switch x.SubLink.SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists", 2
		case pg_query.SubLinkType_ARRAY_SUBLINK:
			return "array", 2
		case pg_query.SubLinkType_EXPR_SUBLINK, pg_query.SubLinkType_MULTIEXPR_SUBLINK:
			sel := x.SubLink.Subselect.GetSelectStmt()
			for sel != nil && sel.Larg != nil {
				sel = sel.Larg
			}
			if sel != nil && len(sel.ValuesLists) > 0 {
				return "column1", 2
			}
			if sel != nil && len(sel.TargetList) > 0 {
				rt := sel.TargetList[0].GetResTarget()
				if rt.Name != "" {
					return rt.Name, 2
				}
				return figureColnameInner(rt.Val)
			}
		}
	case *pg_query.Node_CaseExpr:
		if x.CaseExpr.Defresult != nil {
			if name, s := figureColnameInner(x.CaseExpr.Defresult); s > 1 {
				return name, s
			}
		}
		return "case", 1
	case *pg_query.Node_AArrayExpr:
		return "array", 2
	case *pg_query.Node_RowExpr:
		return "row", 2
	case *pg_query.Node_CoalesceExpr:
		return "coalesce", 2
	case *pg_query.Node_MinMaxExpr:
		if x.MinMaxExpr.Op == pg_query.MinMaxOp_IS_GREATEST {
			return "greatest", 2
		}
		return "least", 2
	case *pg_query.Node_SqlvalueFunction:
		return sqlValueFunctionName(x.SqlvalueFunction.Op), 2
	case *pg_query.Node_GroupingFunc:
		return "grouping", 2
	}
	return "", 0
}

// Relation names. Every name of a relation goes through resolveRelation
// (a name that must exist) or createKey (a name being created): PostgreSQL's
// RangeVarGetRelid and RangeVarGetCreationNamespace over the statement's
// search path (pgcatalog.SearchPath). Stored relations are reached by
// their storage key (storage.TableKey: schema id and name), the session's
// temporary tables by name in their own catalog, system relations through
// pgcatalog.

// relKind says what a name resolved to.
type relKind uint8

const (
	relNone     relKind = iota
	relTable            // a stored or temporary table
	relView             // a stored view
	relSystem           // a pg_catalog or information_schema relation
	relSequence         // a sequence, read as a one-row table (sequenceTable)
)

// resolvedRel is a relation found by name.
type resolvedRel struct {
	kind  relKind
	table storage.Table    // relTable, relSystem, relSequence
	view  storage.View     // relView
	seq   storage.Sequence // relSequence
	ns    pgcatalog.Namespace
	key   string // storage key (relTable not temporary, relView, relSequence)
	temp  bool
}

// lookupPath is where an unqualified name is looked up: the search path,
// or, inside a view's stored text, pg_catalog then public (CREATE VIEW
// qualifies every other schema's relation: qualifyStored).
func (b *binder) lookupPath() []pgcatalog.Namespace {
	if len(b.expanding) > 0 {
		pc, _ := b.snapshot().NamespaceByName("pg_catalog")
		pub, _ := b.snapshot().NamespaceByName("public")
		return []pgcatalog.Namespace{pc, pub}
	}
	return b.snapshot().SearchPath().Schemas
}

// lookupStoredKey finds a permanent table by key (never a temporary one).
func (b *binder) lookupStoredKey(key string) (storage.Table, bool) {
	if tc, ok := b.cat.(TempCatalog); ok {
		return tc.LookupIn("public", key)
	}
	return b.cat.Lookup(key)
}

// findIn looks name up in one schema.
func (b *binder) findIn(ns pgcatalog.Namespace, name string) (resolvedRel, bool) {
	switch ns.Kind {
	case pgcatalog.NsTemp:
		if tc, ok := b.cat.(TempCatalog); ok {
			if t, ok := tc.LookupIn("pg_temp", name); ok {
				return resolvedRel{kind: relTable, table: t, ns: ns, temp: true}, true
			}
		}
	case pgcatalog.NsCatalog, pgcatalog.NsInfo:
		if t, ok := pgcatalog.Lookup(b.snapshot(), ns.Name, name); ok {
			return resolvedRel{kind: relSystem, table: t, ns: ns}, true
		}
	case pgcatalog.NsUser:
		key := ns.Key(name)
		if t, ok := b.lookupStoredKey(key); ok {
			return resolvedRel{kind: relTable, table: t, ns: ns, key: key}, true
		}
		if v, ok := b.cat.LookupView(key); ok {
			return resolvedRel{kind: relView, view: v, ns: ns, key: key}, true
		}
		if sc, ok := b.cat.(storage.SequenceCatalog); ok {
			if def, ok := sc.LookupSequence(key); ok {
				return resolvedRel{kind: relSequence, table: &sequenceTable{sc: sc, def: def}, seq: def, ns: ns, key: key}, true
			}
		}
	}
	return resolvedRel{}, false
}

// checkCatalogName applies PostgreSQL's rule for a three-part name: the
// first part must be the current database.
func (b *binder) checkCatalogName(rv *pg_query.RangeVar) error {
	if rv.Catalogname == "" || rv.Catalogname == b.snapshot().Database() {
		return nil
	}
	return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s.%s.%s\"",
		rv.Catalogname, rv.Schemaname, rv.Relname), rv.Location)
}

// resolveRelation finds the relation rv names (42P01 if none).
func (b *binder) resolveRelation(rv *pg_query.RangeVar) (resolvedRel, error) {
	if err := b.checkCatalogName(rv); err != nil {
		return resolvedRel{}, err
	}
	var path []pgcatalog.Namespace
	if rv.Schemaname == "" {
		path = b.lookupPath()
	} else if ns, ok := b.snapshot().NamespaceByName(rv.Schemaname); ok {
		if len(b.expanding) == 0 && !b.snapshot().SchemaUsable(ns) {
			return resolvedRel{}, b.errAt(pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", ns.Name), rv.Location)
		}
		path = []pgcatalog.Namespace{ns}
	}
	for _, ns := range path {
		if rv.Schemaname == "" && len(b.expanding) == 0 && !b.snapshot().SchemaUsable(ns) {
			continue // a schema on the path without USAGE is skipped
		}
		if r, ok := b.findIn(ns, rv.Relname); ok {
			if r.temp {
				b.usedTemp = true
			}
			return r, nil
		}
	}
	name := rv.Relname
	if rv.Schemaname != "" {
		name = rv.Schemaname + "." + name
	}
	return resolvedRel{}, b.errAt(b.futureCTEHint(rv, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)), rv.Location)
}

// createTarget is where CREATE puts the relation rv names: its storage key
// (the bare name for a temporary one) and whether it is temporary. Its
// errors carry no position (PostgreSQL's CREATE TABLE adds one).
func (b *binder) createTarget(rv *pg_query.RangeVar) (key string, temp bool, err error) {
	if err := b.checkCatalogName(rv); err != nil {
		return "", false, err
	}
	if rv.Relpersistence == "t" || rv.Schemaname == "pg_temp" {
		return rv.Relname, true, nil
	}
	var ns pgcatalog.Namespace
	if rv.Schemaname == "" {
		p := b.snapshot().SearchPath()
		if !p.CreateOK {
			return "", false, pgerr.New("3F000", "no schema has been selected to create in")
		}
		if p.CreateTemp {
			return rv.Relname, true, nil
		}
		ns = p.Create
	} else {
		var ok bool
		if ns, ok = b.snapshot().NamespaceByName(rv.Schemaname); !ok {
			return "", false, pgerr.New("3F000", "schema \"%s\" does not exist", rv.Schemaname)
		}
	}
	switch ns.Kind {
	case pgcatalog.NsTemp:
		return rv.Relname, true, nil
	case pgcatalog.NsUser:
		return ns.Key(rv.Relname), false, nil
	case pgcatalog.NsCatalog:
		return "", false, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create \"pg_catalog.%s\"", rv.Relname).
			WithDetail("System catalog modifications are currently disallowed.")
	}
	return "", false, pgerr.New(pgerr.FeatureNotSupported, "creating relations in schema \"%s\" is not supported", ns.Name)
}

// qualifyStored makes a name CREATE VIEW stores independent of the search
// path: a relation outside public and pg_catalog keeps its schema in the
// view's text (expansion looks unqualified names up in those two only).
func (b *binder) qualifyStored(rv *pg_query.RangeVar, r resolvedRel) {
	if b.viewDeps == nil || len(b.expanding) > 0 || rv.Schemaname != "" {
		return
	}
	if r.ns.Kind == pgcatalog.NsUser && r.ns.ID != storage.PublicSchemaID || r.ns.Kind == pgcatalog.NsInfo {
		rv.Schemaname = r.ns.Name
		return
	}
	// A public relation a pg_catalog one of its name would hide there.
	if r.ns.Kind == pgcatalog.NsUser {
		if _, hidden := pgcatalog.Lookup(b.snapshot(), "pg_catalog", rv.Relname); hidden {
			rv.Schemaname = r.ns.Name
		}
	}
}

// RelName is how PostgreSQL's messages name a stored relation: its bare
// name when the search path finds it, else qualified by its schema
// (getRelationDescription).
type RelName func(key string) string

// String keeps bound statements printable (the binder's golden files).
func (RelName) String() string { return "RelName" }

// relNamer names relations for the messages of a command (DROP's
// dependency lists) under the statement's search path.
func (b *binder) relNamer() RelName {
	snap := b.snapshot()
	return func(key string) string {
		id, name := storage.SplitKey(key)
		for _, ns := range snap.SearchPath().Schemas {
			if ns.Kind == pgcatalog.NsUser && ns.ID == id {
				return name
			}
			if r, ok := b.findIn(ns, name); ok && r.key != key {
				break // hidden by an earlier one
			}
		}
		ns, _ := snap.NamespaceOfKey(key)
		return pgcatalog.QuoteIdentifier(ns.Name) + "." + pgcatalog.QuoteIdentifier(name)
	}
}

// qualifiedText is a table's schema-qualified name as SQL text, which
// finds exactly that table whatever the search path.
func (b *binder) qualifiedText(t storage.Table) string {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	if tc, ok := b.cat.(TempCatalog); ok && tc.IsTemp(t) {
		return "pg_temp." + q(t.Name())
	}
	ns, name := b.snapshot().NamespaceOfKey(t.Name())
	return q(ns.Name) + "." + q(name)
}

// routinelessSchema reports whether schema exists and is not pg_catalog:
// joind's functions, operators and types are all pg_catalog's.
func (b *binder) routinelessSchema(schema string) bool {
	ns, ok := b.snapshot().NamespaceByName(schema)
	return ok && ns.Kind != pgcatalog.NsCatalog
}

// createNamed is where CREATE puts a non-relation object named by a
// possibly qualified name (a type, a function): its schema id and bare
// name; what names the kind for the 0A000 of a pg_temp target.
func (b *binder) createNamed(names []string, what string) (uint64, string, error) {
	rv := &pg_query.RangeVar{Relname: names[len(names)-1], Location: -1}
	if len(names) > 1 {
		rv.Schemaname = names[len(names)-2]
	}
	key, temp, err := b.createTarget(rv)
	if err != nil {
		return 0, "", err
	}
	if temp {
		return 0, "", pgerr.New(pgerr.FeatureNotSupported, "%s in schema pg_temp are not supported", what)
	}
	schema, name := storage.SplitKey(key)
	return schema, name, nil
}
