package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// Views. CREATE VIEW binds its query once to check it and to learn its
// column names and the relations it reads, then stores the query as SQL
// text (PostgreSQL's parser deparsed, so it reparses exactly). A reference
// to a view binds that text afresh, like a WITH query: every reference gets
// its own ColumnIDs and the optimizer sees through it.

func (b *binder) bindCreateView(vs *pg_query.ViewStmt) (Statement, error) {
	name, err := b.tableName(vs.View)
	if err != nil {
		return nil, err
	}
	if vs.WithCheckOption == pg_query.ViewCheckOption_LOCAL_CHECK_OPTION || vs.WithCheckOption == pg_query.ViewCheckOption_CASCADED_CHECK_OPTION {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WITH CHECK OPTION is not supported")
	}
	if len(vs.Options) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "view options are not supported")
	}
	sel := vs.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "unsupported view query")
	}
	if vs.View.Relpersistence == "t" || vs.View.Schemaname == "pg_temp" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "temporary views are not supported")
	}
	b.viewDeps = []string{}
	b.storedLits = map[int32]string{}
	q, _, err := b.bindSelect(sel, nil, nil, true)
	deps, lits := b.viewDeps, b.storedLits
	b.viewDeps, b.storedLits = nil, nil
	if err != nil {
		return nil, err
	}
	if b.usedTemp {
		// PostgreSQL would make it a temporary view.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "views over temporary tables are not supported")
	}
	rewriteStoredLiterals(vs.Query.ProtoReflect(), lits)
	names := append([]string(nil), q.names...)
	if len(vs.Aliases) > len(names) {
		return nil, pgerr.New(pgerr.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	for i, a := range vs.Aliases {
		names[i] = a.GetString_().GetSval()
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", n)
		}
		seen[n] = true
	}
	for i, c := range q.node.Columns() {
		if err := checkColumnType(names[i], c.Type); err != nil {
			return nil, err
		}
	}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: vs.Query}}})
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "cannot store the view's query: %v", err)
	}
	return &CreateView{Replace: vs.Replace, View: storage.View{Name: name, SQL: text, Columns: names, Deps: deps}}, nil
}

// noteDep records that the CREATE VIEW being bound reads relation name
// directly (not through a view it reads).
func (b *binder) noteDep(name string) {
	if b.viewDeps == nil || len(b.expanding) > 0 {
		return
	}
	for _, d := range b.viewDeps {
		if d == name {
			return
		}
	}
	b.viewDeps = append(b.viewDeps, name)
}

// bindViewRef expands a view referenced in FROM. The body sees no outer
// query level and no WITH query of the referencing statement.
func (b *binder) bindViewRef(v storage.View, alias string, rv *pg_query.RangeVar) (plan.Node, []*nsItem, error) {
	for _, e := range b.expanding {
		if e == v.Name {
			return nil, nil, b.errAt(pgerr.New("42P17", "infinite recursion detected in rules for relation \"%s\"", v.Name), rv.Location)
		}
	}
	raws, err := Parse(v.SQL)
	if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
		return nil, nil, pgerr.New(pgerr.InternalError, "view \"%s\" has an unreadable definition", v.Name)
	}
	saved := b.query
	b.query = v.SQL
	b.expanding = append(b.expanding, v.Name)
	b.expandingOIDs = append(b.expandingOIDs, pgcatalog.ViewOID(v))
	q, _, err := b.bindSelect(raws[0].stmt.GetSelectStmt(), nil, nil, true)
	b.expanding = b.expanding[:len(b.expanding)-1]
	b.expandingOIDs = b.expandingOIDs[:len(b.expandingOIDs)-1]
	b.query = saved
	if err != nil {
		// Positions inside the view's text mean nothing to the client.
		return nil, nil, withoutPosition(err)
	}
	if len(q.names) != len(v.Columns) {
		return nil, nil, pgerr.New(pgerr.InternalError, "view \"%s\" yields %d columns, its definition %d", v.Name, len(q.names), len(v.Columns))
	}
	copy(q.names, v.Columns)
	q.node = b.finalQuery(q).Plan
	// A view's columns originate in the view, as PostgreSQL marks a target
	// list before rewriting (markTargetListOrigin): RowDescription names
	// the view's OID and attribute numbers, not its base tables'.
	for i, c := range q.node.Columns() {
		b.colOrigin[c.ID] = plan.Column{TableOID: pgcatalog.ViewOID(v), AttNum: int16(i + 1)}
	}
	it, err := b.itemFromQuery(q, alias, rv.Alias)
	if err != nil {
		return nil, nil, err
	}
	return q.node, []*nsItem{it}, nil
}
