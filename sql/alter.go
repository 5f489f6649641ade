package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// ALTER TABLE. The statement keeps its subcommands unbound: commands runs
// them in order, binding each (Step) against the catalog as the earlier
// ones left it — `ADD COLUMN c int, ALTER c SET NOT NULL` sees c — the
// way PostgreSQL's ALTER TABLE passes see the work of the earlier ones.
// The whole statement is one step of its transaction, so it applies
// atomically.

// AlterTable is ALTER TABLE [IF EXISTS] [ONLY] name subcommand [, ...].
type AlterTable struct {
	Name     string
	Schema   string // as written ("", "public", "pg_temp")
	Key      string // the relation's storage key as resolved (a temporary table's bare name)
	Temp     bool
	IfExists bool
	// Missing: IF EXISTS and there is no such table (a NOTICE, nothing done).
	Missing bool
	Cmds    []*pg_query.AlterTableCmd
	Tag     string // "ALTER TABLE" or "ALTER VIEW"
	query   string
	opts    *BindOptions
}

func (*AlterTable) statement() {}

// AlterStep is one bound subcommand of ALTER TABLE.
type AlterStep interface{ alterStep() }

// AddColumn is ADD [COLUMN] [IF NOT EXISTS] column.
type AddColumn struct {
	Column      storage.ColumnDef
	IfNotExists bool
	// Exists: IF NOT EXISTS and the column exists (a NOTICE, nothing done).
	Exists bool
	// Value is a one-row query giving the value the stored rows take (the
	// DEFAULT computed once, PostgreSQL's attmissingval); nil: NULL.
	Value *Query
	// Rows, for a volatile DEFAULT, gives every stored row with the new
	// column computed per row: the table is rewritten.
	Rows *Query
}

// DropColumn is DROP [COLUMN] [IF EXISTS] column [CASCADE | RESTRICT].
type DropColumn struct {
	Column  string
	Missing bool // IF EXISTS and no such column
	Cascade bool
}

// AlterColumnType is ALTER [COLUMN] column [SET DATA] TYPE type [USING e]:
// Rows gives every row in the new layout (the table is rewritten).
type AlterColumnType struct {
	Column string
	Type   types.Type
	Rows   *Query
}

// SetDefault is ALTER [COLUMN] column SET DEFAULT e / DROP DEFAULT ("").
type SetDefault struct {
	Column  string
	Default string
}

// SetNotNull is ALTER [COLUMN] column SET / DROP NOT NULL.
type SetNotNull struct {
	Column  string
	NotNull bool
}

// KeepOwner is OWNER TO role (commands/roles.go changes the owner).
type KeepOwner struct{ Role string }

func (*AddColumn) alterStep()       {}
func (*DropColumn) alterStep()      {}
func (*AlterColumnType) alterStep() {}
func (*SetDefault) alterStep()      {}
func (*SetNotNull) alterStep()      {}
func (*KeepOwner) alterStep()       {}

func (b *binder) bindAlterTable(as *pg_query.AlterTableStmt) (Statement, error) {
	switch as.Objtype {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_FOREIGN_TABLE:
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER %s is not supported", objectTypeName(as.Objtype))
	}
	rv := as.Relation
	if _, err := b.tableName(rv); err != nil {
		return nil, err
	}
	at := &AlterTable{Name: rv.Relname, Schema: rv.Schemaname, IfExists: as.MissingOk, Tag: "ALTER TABLE", query: b.query, opts: b.opts}
	at.Key, at.Temp = b.relationKey(rv)
	if as.Objtype == pg_query.ObjectType_OBJECT_VIEW {
		at.Tag = "ALTER VIEW"
	}
	if as.Objtype == pg_query.ObjectType_OBJECT_FOREIGN_TABLE {
		at.Tag = "ALTER FOREIGN TABLE" // foreign.go
	}
	for _, n := range as.Cmds {
		at.Cmds = append(at.Cmds, n.GetAlterTableCmd())
	}
	if tbl, ok := b.lookupStored(rv.Schemaname, rv.Relname); ok {
		// PostgreSQL prepares every ALTER TYPE against the table as the
		// statement found it, before any subcommand runs: its USING sees
		// no column the statement adds.
		retyped := map[string]bool{}
		for _, c := range at.Cmds {
			if c.Subtype != pg_query.AlterTableType_AT_AlterColumnType {
				continue
			}
			if retyped[c.Name] {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of column \"%s\" twice", c.Name)
			}
			retyped[c.Name] = true
			orv := &pg_query.RangeVar{Relname: rv.Relname, Schemaname: rv.Schemaname, Inh: true, Relpersistence: "p", Location: -1}
			var err error
			if _, ok := columnIndex(tbl, c.Name); ok {
				_, err = b.alterColumnType(orv, tbl, c)
			} else if using := c.Def.GetColumnDef().RawDefault; using != nil {
				// (a column the statement adds: only its USING is checked now)
				_, err = b.tableRows(orv, using, func(cols []plan.Column, exprs []plan.Expr) ([]plan.Expr, []plan.Column, error) {
					return exprs, cols, nil
				})
			}
			if err != nil {
				return nil, err
			}
		}
		return at, nil
	}
	if at.Key != "" && !at.Temp {
		if _, ok := b.cat.LookupView(at.Key); ok {
			for _, c := range at.Cmds {
				if c.Subtype == pg_query.AlterTableType_AT_ColumnDefault {
					// PostgreSQL keeps defaults on views (for INSERT through them).
					return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER VIEW ... ALTER COLUMN ... SET DEFAULT is not supported")
				}
				if c.Subtype != pg_query.AlterTableType_AT_ChangeOwner {
					return nil, pgerr.New(pgerr.WrongObjectType, "ALTER action %s cannot be performed on relation \"%s\"", alterActionName(c), rv.Relname).
						WithDetail("This operation is not supported for views.")
				}
			}
			at.Cmds = nil // OWNER TO only: nothing to do
			return at, nil
		}
	}
	err := b.errNotAlterable(rv)
	if as.MissingOk && pgerr.Code(err) != pgerr.InsufficientPrivilege {
		at.Missing = true
		return at, nil
	}
	return nil, err
}

// errNotAlterable is the error of an ALTER naming no relation it can
// change: the lookup's (42P01), or PostgreSQL's refusal of a system
// catalog (the lookup finds those).
func (b *binder) errNotAlterable(rv *pg_query.RangeVar) error {
	if _, err := b.lookupTable(rv); err != nil {
		return withoutPosition(err)
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied: \"%s\" is a system catalog", rv.Relname)
}

// alterActionName names a subcommand as PostgreSQL's alter_table_type_to_string.
func alterActionName(c *pg_query.AlterTableCmd) string {
	switch c.Subtype {
	case pg_query.AlterTableType_AT_AddColumn:
		return "ADD COLUMN"
	case pg_query.AlterTableType_AT_ColumnDefault:
		return "ALTER COLUMN ... SET DEFAULT"
	case pg_query.AlterTableType_AT_DropNotNull:
		return "ALTER COLUMN ... DROP NOT NULL"
	case pg_query.AlterTableType_AT_SetNotNull:
		return "ALTER COLUMN ... SET NOT NULL"
	case pg_query.AlterTableType_AT_DropColumn:
		return "DROP COLUMN"
	case pg_query.AlterTableType_AT_AlterColumnType:
		return "ALTER COLUMN ... SET DATA TYPE"
	case pg_query.AlterTableType_AT_AddConstraint:
		return "ADD CONSTRAINT"
	case pg_query.AlterTableType_AT_DropConstraint:
		return "DROP CONSTRAINT"
	}
	return strings.ReplaceAll(strings.TrimPrefix(c.Subtype.String(), "AT_"), "_", " ")
}

func objectTypeName(t pg_query.ObjectType) string {
	return strings.ReplaceAll(strings.TrimPrefix(t.String(), "OBJECT_"), "_", " ")
}

// Step binds subcommand i against cat, the catalog as the earlier
// subcommands left it.
func (a *AlterTable) Step(cat storage.Catalog, i int) (AlterStep, error) {
	b := newBinder(a.query, cat, a.opts)
	rv := &pg_query.RangeVar{Relname: a.Name, Schemaname: a.Schema, Inh: true, Relpersistence: "p", Location: -1}
	tbl, ok := b.lookupStored(a.Schema, a.Name)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", a.Name)
	}
	c := a.Cmds[i]
	switch c.Subtype {
	case pg_query.AlterTableType_AT_AddColumn:
		return b.alterAddColumn(rv, tbl, c)
	case pg_query.AlterTableType_AT_DropColumn:
		if _, ok := columnIndex(tbl, c.Name); !ok {
			if c.MissingOk {
				return &DropColumn{Column: c.Name, Missing: true}, nil
			}
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, a.Name)
		}
		return &DropColumn{Column: c.Name, Cascade: c.Behavior == pg_query.DropBehavior_DROP_CASCADE}, nil
	case pg_query.AlterTableType_AT_AlterColumnType:
		return b.alterColumnType(rv, tbl, c)
	case pg_query.AlterTableType_AT_ColumnDefault:
		ord, ok := columnIndex(tbl, c.Name)
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, a.Name)
		}
		if c.Def == nil {
			return &SetDefault{Column: c.Name}, nil
		}
		text, err := b.checkDefault(c.Def, tbl.Columns()[ord])
		if err != nil {
			return nil, withoutPosition(err) // PostgreSQL's has none here
		}
		return &SetDefault{Column: c.Name, Default: text}, nil
	case pg_query.AlterTableType_AT_SetNotNull, pg_query.AlterTableType_AT_DropNotNull:
		if _, ok := columnIndex(tbl, c.Name); !ok {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, a.Name)
		}
		return &SetNotNull{Column: c.Name, NotNull: c.Subtype == pg_query.AlterTableType_AT_SetNotNull}, nil
	case pg_query.AlterTableType_AT_ChangeOwner:
		return b.alterOwner(c.Newowner)
	case pg_query.AlterTableType_AT_AddConstraint, pg_query.AlterTableType_AT_DropConstraint:
		return b.alterConstraint(tbl, c)
	case pg_query.AlterTableType_AT_GenericOptions, pg_query.AlterTableType_AT_AlterColumnGenericOptions:
		return b.alterForeignOptions(tbl, c) // foreign.go
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE ... %s is not supported", alterActionName(c))
}

// alterConstraint binds ADD / DROP CONSTRAINT (sql/constraint.go).
func (b *binder) alterConstraint(tbl storageTable, c *pg_query.AlterTableCmd) (AlterStep, error) {
	return b.alterTableConstraint(tbl, c)
}

// alterOwner binds OWNER TO an existing role.
func (b *binder) alterOwner(rs *pg_query.RoleSpec) (AlterStep, error) {
	name, err := b.roleName(rs)
	if err != nil {
		return nil, err
	}
	return &KeepOwner{Role: name}, nil
}

func columnIndex(tbl storageTable, name string) (int, bool) {
	for i, c := range tbl.Columns() {
		if c.Name == name {
			return i, true
		}
	}
	return 0, false
}

func (b *binder) alterAddColumn(rv *pg_query.RangeVar, tbl storageTable, c *pg_query.AlterTableCmd) (AlterStep, error) {
	cd := c.Def.GetColumnDef()
	if _, ok := columnIndex(tbl, cd.Colname); ok {
		if c.MissingOk {
			return &AddColumn{Exists: true, Column: storage.ColumnDef{Name: cd.Colname}}, nil
		}
		return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", cd.Colname, storage.BareName(tbl.Name()))
	}
	if len(tbl.Columns()) >= maxTableColumns {
		return nil, errTooManyTableColumns()
	}
	// Only the column itself is taken from CREATE TABLE's binding below:
	// a constraint must be refused here, or added where ADD CONSTRAINT is
	// (alterConstraint), never dropped silently.
	for _, cn := range cd.Constraints {
		switch k := cn.GetConstraint().Contype; k {
		case pg_query.ConstrType_CONSTR_NOTNULL, pg_query.ConstrType_CONSTR_NULL, pg_query.ConstrType_CONSTR_DEFAULT:
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN with a %s constraint is not supported", constraintName(k))
		}
	}
	// One column definition binds as CREATE TABLE binds its columns.
	st, err := b.bindCreateTable(&pg_query.CreateStmt{Relation: rv, TableElts: []*pg_query.Node{c.Def}})
	if err != nil {
		return nil, err
	}
	ct := st.(*CreateTable)
	if len(ct.Columns) != 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN with constraints is not supported")
	}
	add := &AddColumn{Column: ct.Columns[0], IfNotExists: c.MissingOk}
	if add.Column.Default == "" && add.Column.Type.Domain == 0 {
		return add, nil
	}
	e, err := b.bindDefault(add.Column) // a domain column: the domain's default, checked
	if err != nil {
		return nil, err
	}
	if !exprHasVolatile(e) && !b.domainConstrained(add.Column.Type) { // domain_alter.go
		col := plan.Column{ID: b.ids.Next(), Name: add.Column.Name, Type: add.Column.Type}
		add.Value = &Query{Plan: &plan.Values{Rows: [][]plan.Expr{{e}}, Cols: []plan.Column{col}}, IDs: b.ids, Names: []string{col.Name}}
		return add, nil
	}
	q, err := b.tableRows(rv, nil, func(cols []plan.Column, exprs []plan.Expr) ([]plan.Expr, []plan.Column, error) {
		return append(exprs, e), append(cols, plan.Column{ID: b.ids.Next(), Name: add.Column.Name, Type: add.Column.Type}), nil
	})
	if err != nil {
		return nil, err
	}
	add.Rows = q
	return add, nil
}

// tableRows binds SELECT *[, extra] FROM rv and lets edit replace the
// output expressions (over the star's columns, then extra's) before they
// become the query's.
func (b *binder) tableRows(rv *pg_query.RangeVar, extra *pg_query.Node,
	edit func(cols []plan.Column, exprs []plan.Expr) ([]plan.Expr, []plan.Column, error)) (*Query, error) {
	targets := []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
		Val: &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{{Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}, Location: -1}}}, Location: -1}}}}
	if extra != nil {
		targets = append(targets, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: extra, Location: -1}}})
	}
	sel := &pg_query.SelectStmt{TargetList: targets, FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: rv}}},
		LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT, Op: pg_query.SetOperation_SETOP_NONE}
	q, _, err := b.bindSelect(sel, nil, nil, true)
	if err != nil {
		return nil, err
	}
	in := q.node.Columns()
	exprs := make([]plan.Expr, len(in))
	cols := make([]plan.Column, len(in))
	for i, c := range in {
		exprs[i] = &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
		cols[i] = plan.Column{ID: b.ids.Next(), Name: c.Name, Type: c.Type}
	}
	exprs, cols, err = edit(cols, exprs)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return &Query{Plan: &plan.Project{Input: q.node, Exprs: exprs, Cols: cols}, IDs: b.ids, Names: names}, nil
}

func (b *binder) alterColumnType(rv *pg_query.RangeVar, tbl storageTable, c *pg_query.AlterTableCmd) (AlterStep, error) {
	ord, ok := columnIndex(tbl, c.Name)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, storage.BareName(tbl.Name()))
	}
	cd := c.Def.GetColumnDef()
	t, err := b.typeFromName(cd.TypeName)
	if err == nil {
		if e := checkColumnType(cd.Colname, t); e != nil { // rowtype.go
			err = e
		}
	}
	if err != nil {
		return nil, withoutPosition(err)
	}
	if cc := cd.CollClause; cc != nil {
		if err := b.checkCollation(cc.Collname, cc.Location); err != nil {
			return nil, err
		}
		b.collation = ""
	}
	old := tbl.Columns()[ord]
	using := cd.RawDefault
	n := len(tbl.Columns())
	q, err := b.tableRows(rv, using, func(cols []plan.Column, exprs []plan.Expr) ([]plan.Expr, []plan.Column, error) {
		src := exprs[ord]
		if using != nil {
			src = exprs[n]
			exprs, cols = exprs[:n], cols[:n]
		}
		e, err := b.coerce(src, t, coerceAssignment, -1)
		if err == errCannotCoerce {
			if using != nil {
				return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "result of USING clause for column \"%s\" cannot be cast automatically to type %s", c.Name, typeName(t)).
					WithHint("You might need to add an explicit cast.")
			}
			return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" cannot be cast automatically to type %s", c.Name, typeName(t)).
				WithHint("You might need to specify \"USING %s::%s\".", quoteIdentIfNeeded(c.Name), formatTypeName(t))
		}
		if err != nil {
			return nil, nil, err
		}
		exprs[ord] = e
		cols[ord].Type = t
		return exprs, cols, nil
	})
	if err != nil {
		return nil, err
	}
	if old.Default != "" {
		// The default (of the old type) must be assignable to the new one.
		e, err := b.bindDefault(old)
		if err != nil {
			return nil, err
		}
		if _, err := b.coerce(e, t, coerceAssignment, -1); err == errCannotCoerce {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "default for column \"%s\" cannot be cast automatically to type %s", c.Name, typeName(t))
		}
	}
	return &AlterColumnType{Column: c.Name, Type: t, Rows: q}, nil
}

// formatTypeName is a type as format_type prints it (the HINT's cast).
func formatTypeName(t types.Type) string { return typeName(t) }

// quoteIdentIfNeeded quotes an identifier as quote_ident would.
func quoteIdentIfNeeded(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Rename is ALTER TABLE / VIEW name RENAME TO new, ALTER TABLE name
// RENAME [COLUMN] a TO b.
type Rename struct {
	Name     string
	Schema   string
	Key      string // the relation's storage key as resolved (a temporary table's bare name)
	Temp     bool
	View     bool   // the relation is a view
	Column   string // "" renames the relation
	NewName  string
	IfExists bool
	Missing  bool   // IF EXISTS and no such relation
	Tag      string // "ALTER TABLE" or "ALTER VIEW"
	opts     *BindOptions
}

func (*Rename) statement() {}

func (b *binder) bindRename(rs *pg_query.RenameStmt) (Statement, error) {
	switch rs.RenameType {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_COLUMN:
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER %s ... RENAME is not supported", objectTypeName(rs.RenameType))
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_COLUMN && rs.RelationType != pg_query.ObjectType_OBJECT_TABLE && rs.RelationType != pg_query.ObjectType_OBJECT_VIEW {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER %s ... RENAME COLUMN is not supported", objectTypeName(rs.RelationType))
	}
	rv := rs.Relation
	if _, err := b.tableName(rv); err != nil {
		return nil, err
	}
	r := &Rename{Name: rv.Relname, Schema: rv.Schemaname, Column: rs.Subname, NewName: rs.Newname, IfExists: rs.MissingOk, Tag: "ALTER TABLE", opts: b.opts}
	r.Key, r.Temp = b.relationKey(rv)
	if rs.RenameType == pg_query.ObjectType_OBJECT_VIEW || rs.RelationType == pg_query.ObjectType_OBJECT_VIEW {
		r.Tag = "ALTER VIEW"
	}
	if rs.RenameType != pg_query.ObjectType_OBJECT_COLUMN {
		r.Column = ""
	}
	if tbl, ok := b.lookupStored(rv.Schemaname, rv.Relname); ok {
		if r.Column != "" {
			if _, ok := columnIndex(tbl, r.Column); !ok {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", r.Column)
			}
			if _, ok := columnIndex(tbl, r.NewName); ok {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", r.NewName, rv.Relname)
			}
		}
		return r, nil
	}
	if r.Key != "" && !r.Temp {
		if v, ok := b.cat.LookupView(r.Key); ok {
			if r.Column != "" {
				has := map[string]bool{}
				for _, c := range v.Columns {
					has[c] = true
				}
				if !has[r.Column] {
					return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", r.Column)
				}
				if has[r.NewName] {
					return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", r.NewName, rv.Relname)
				}
			}
			r.View = true
			return r, nil
		}
	}
	err := b.errNotAlterable(rv)
	if rs.MissingOk && pgerr.Code(err) != pgerr.InsufficientPrivilege {
		r.Missing = true
		return r, nil
	}
	return nil, err
}

// attnumOf is a stored column's attnum (its position from 1 in a catalog
// that does not number columns).
func attnumOf(d storage.ColumnDef, i int) int16 {
	if d.Attnum != 0 {
		return d.Attnum
	}
	return int16(i + 1)
}

// PostgreSQL's CREATE_TABLE_LIKE_* option bits.
const (
	likeComments    = 1 << 0
	likeConstraints = 1 << 2
	likeDefaults    = 1 << 3
	likeGenerated   = 1 << 4
	likeIdentity    = 1 << 5
	likeIndexes     = 1 << 6
	likeStatistics  = 1 << 7
	likeStorage     = 1 << 8
)

// likeColumns binds CREATE TABLE's LIKE source [INCLUDING ...]: the
// source's columns with their types and NOT NULL, plus their defaults
// (INCLUDING DEFAULTS) and comments (INCLUDING COMMENTS). joind keeps no
// constraints, indexes, identity, generated columns, statistics objects
// or storage settings, so those options have nothing to copy.
func (b *binder) likeColumns(lc *pg_query.TableLikeClause) ([]storage.ColumnDef, error) {
	rv := lc.Relation
	tbl, ok := b.lookupStored(rv.Schemaname, rv.Relname)
	if !ok {
		if rv.Schemaname == "" || rv.Schemaname == "public" {
			if _, isView := b.cat.LookupView(rv.Relname); isView {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "LIKE of a view is not supported"), rv.Location)
			}
		}
		_, err := b.lookupTable(rv)
		return nil, err
	}
	var out []storage.ColumnDef
	for _, c := range tbl.Columns() {
		def := storage.ColumnDef{Name: c.Name, Type: c.Type, NotNull: c.NotNull}
		if lc.Options&likeDefaults != 0 {
			def.Default = c.Default
		}
		if lc.Options&likeComments != 0 {
			def.Comment = c.Comment
		}
		out = append(out, def)
	}
	return out, nil
}
