package sql

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Table constraints of CREATE TABLE (and ALTER TABLE ADD CONSTRAINT):
// PRIMARY KEY, UNIQUE, CHECK and FOREIGN KEY, bound to storage.Constraint
// with PostgreSQL's generated names. Enforcement is commands'.

const (
	codeInvalidTableDefinition = "42P16"
	codeInvalidForeignKey      = "42830"
	codeDuplicateObject        = "42710"
)

// conSpec is one constraint as written, before names are chosen.
type conSpec struct {
	c    *pg_query.Constraint
	col  string // the column of a column constraint ("" for a table constraint)
	kind byte
	cols []string
	// misplaced names a DEFERRABLE-like clause with no constraint to
	// apply to (an error when the constraints are bound).
	misplaced string
}

// collectConstraint records a column or table constraint of CREATE TABLE;
// false if it is not one this file binds.
func collectConstraint(specs []conSpec, c *pg_query.Constraint, col string) ([]conSpec, bool) {
	var kind byte
	switch c.Contype {
	case pg_query.ConstrType_CONSTR_PRIMARY:
		kind = storage.ConPrimary
	case pg_query.ConstrType_CONSTR_UNIQUE:
		kind = storage.ConUnique
	case pg_query.ConstrType_CONSTR_CHECK:
		kind = storage.ConCheck
	case pg_query.ConstrType_CONSTR_FOREIGN:
		kind = storage.ConForeign
	case pg_query.ConstrType_CONSTR_ATTR_DEFERRABLE, pg_query.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE,
		pg_query.ConstrType_CONSTR_ATTR_DEFERRED, pg_query.ConstrType_CONSTR_ATTR_IMMEDIATE:
		// A column constraint's [NOT] DEFERRABLE / INITIALLY ... belongs
		// to the constraint before it (PostgreSQL's transformConstraintAttrs).
		if n := len(specs); n > 0 && specs[n-1].kind != storage.ConCheck && specs[n-1].misplaced == "" {
			last := proto.Clone(specs[n-1].c).(*pg_query.Constraint)
			switch c.Contype {
			case pg_query.ConstrType_CONSTR_ATTR_DEFERRABLE:
				last.Deferrable = true
			case pg_query.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE:
				last.Deferrable = false
			case pg_query.ConstrType_CONSTR_ATTR_DEFERRED:
				last.Initdeferred, last.Deferrable = true, true
			case pg_query.ConstrType_CONSTR_ATTR_IMMEDIATE:
				last.Initdeferred = false
			}
			specs[n-1].c = last
			return specs, true
		}
		what := map[pg_query.ConstrType]string{pg_query.ConstrType_CONSTR_ATTR_DEFERRABLE: "DEFERRABLE",
			pg_query.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE: "NOT DEFERRABLE", pg_query.ConstrType_CONSTR_ATTR_DEFERRED: "INITIALLY DEFERRED",
			pg_query.ConstrType_CONSTR_ATTR_IMMEDIATE: "INITIALLY IMMEDIATE"}[c.Contype]
		return append(specs, conSpec{c: c, col: col, misplaced: what}), true
	default:
		return specs, false
	}
	return append(specs, conSpec{c: c, col: col, kind: kind}), true
}

func nodeStrings(ns []*pg_query.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.GetString_().GetSval()
	}
	return out
}

// bindConstraints binds the constraints of a new (or altered) table named
// name with columns cols; existing are the table's constraints already
// there (ALTER TABLE). It sets NOT NULL on primary-key columns.
func (b *binder) bindConstraints(name string, cols []storage.ColumnDef, specs []conSpec, existing []storage.Constraint) ([]storage.Constraint, error) {
	colIdx := func(n string) int {
		for i, c := range cols {
			if c.Name == n {
				return i
			}
		}
		return -1
	}
	type keyed struct {
		storage.Constraint
		spec *conSpec
	}
	var keys []keyed // PRIMARY KEY first, then UNIQUE, as PostgreSQL orders its indexes
	var others []keyed
	hasPK := false
	for _, c := range existing {
		if c.Kind == storage.ConPrimary {
			hasPK = true
		}
	}
	for i := range specs {
		if m := specs[i].misplaced; m != "" {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "misplaced %s clause", m), specs[i].c.Location)
		}
	}
	for i := range specs {
		sp := &specs[i]
		c := sp.c
		if c.NullsNotDistinct {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "UNIQUE NULLS NOT DISTINCT is not supported"), c.Location)
		}
		if len(c.Including) > 0 || len(c.Options) > 0 || c.Indexspace != "" || c.Indexname != "" {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "index options of a constraint are not supported"), c.Location)
		}
		if c.Deferrable && sp.kind != storage.ConForeign {
			if sp.kind == storage.ConCheck {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "CHECK constraints cannot be marked DEFERRABLE"), c.Location)
			}
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "DEFERRABLE unique constraints are not supported"), c.Location)
		}
		con := storage.Constraint{Name: c.Conname, Kind: sp.kind, Deferrable: c.Deferrable, Deferred: c.Initdeferred, NoInherit: c.IsNoInherit}
		switch sp.kind {
		case storage.ConPrimary, storage.ConUnique:
			ks := nodeStrings(c.Keys)
			if sp.col != "" {
				ks = []string{sp.col}
			}
			seen := map[string]bool{}
			for _, k := range ks {
				if colIdx(k) < 0 {
					return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" named in key does not exist", k), c.Location)
				}
				if seen[k] {
					return nil, b.errAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" appears twice in primary key constraint", k), c.Location)
				}
				seen[k] = true
			}
			for _, k := range ks {
				if err := checkOpclass(cols[colIdx(k)].Type, storage.MethodBtree); err != nil {
					return nil, err // index.go; PostgreSQL's index build raises it, with no position
				}
			}
			con.Cols = ks
			if sp.kind == storage.ConPrimary {
				if hasPK {
					return nil, b.errAt(pgerr.New(codeInvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", storage.BareName(name)), c.Location)
				}
				hasPK = true
				for _, k := range ks {
					cols[colIdx(k)].NotNull = true
				}
			}
			// A key on the same columns as an earlier one is the same
			// index (PostgreSQL's transformIndexConstraints).
			merged := false
			for j := range keys {
				if equalStrings(keys[j].Cols, con.Cols) {
					if keys[j].Name == "" {
						keys[j].Name = con.Name
					}
					if con.Kind == storage.ConPrimary {
						keys[j].Kind = storage.ConPrimary
					}
					merged = true
				}
			}
			if merged {
				continue
			}
			if con.Kind == storage.ConPrimary {
				keys = append([]keyed{{con, sp}}, keys...)
			} else {
				keys = append(keys, keyed{con, sp})
			}
		case storage.ConCheck:
			text, used, err := b.checkConstraintExpr(name, cols, c.RawExpr)
			if err != nil {
				return nil, err
			}
			con.Check, con.Cols = text, used
			others = append(others, keyed{con, sp})
		case storage.ConForeign:
			if err := b.bindForeignKey(name, cols, sp, &con, func() []storage.Constraint {
				var out []storage.Constraint
				for _, k := range keys {
					out = append(out, k.Constraint)
				}
				return append(out, existing...)
			}); err != nil {
				return nil, err
			}
			others = append(others, keyed{con, sp})
		}
	}
	// Names: the explicit ones first are taken, then generated ones avoid
	// every name in use (PostgreSQL's ChooseConstraintName and, for the
	// indexes of keys, ChooseRelationName).
	sid, bare := storage.SplitKey(name)
	used := b.usedConstraintNames(sid)
	for _, c := range existing {
		used[c.Name] = true
	}
	all := append(keys, others...)
	for _, k := range all {
		if k.Name == "" {
			continue
		}
		if used[k.Name] {
			if k.Kind == storage.ConPrimary || k.Kind == storage.ConUnique {
				return nil, pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", k.Name)
			}
			if k.Kind == storage.ConCheck {
				return nil, pgerr.New(codeDuplicateObject, "check constraint \"%s\" already exists", k.Name)
			}
			return nil, pgerr.New(codeDuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", k.Name, storage.BareName(name))
		}
		used[k.Name] = true
	}
	out := make([]storage.Constraint, 0, len(all))
	for _, k := range all {
		if k.Name == "" {
			var label, name2 string
			switch k.Kind {
			case storage.ConPrimary:
				label = "pkey"
			case storage.ConUnique:
				label, name2 = "key", NameAddition(k.Cols)
			case storage.ConCheck:
				label = "check"
				if len(k.Cols) == 1 {
					name2 = k.Cols[0]
				}
			case storage.ConForeign:
				label, name2 = "fkey", NameAddition(k.Cols)
			}
			k.Name = chooseName(bare, name2, label, used)
			used[k.Name] = true
		}
		out = append(out, k.Constraint)
	}
	return out, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func chooseName(name1, name2, label string, used map[string]bool) string {
	n := MakeObjectName(name1, name2, label)
	for pass := 1; used[n]; pass++ {
		n = MakeObjectName(name1, name2, fmt.Sprintf("%s%d", label, pass))
	}
	return n
}

// usedConstraintNames are the names a generated constraint name must
// avoid: every relation (index, sequence) and every constraint of the
// schema with id sid, by bare name.
func (b *binder) usedConstraintNames(sid uint64) map[string]bool {
	used := map[string]bool{}
	note := func(key string) {
		if id, n := storage.SplitKey(key); id == sid {
			used[n] = true
		}
	}
	for _, t := range b.cat.Tables() {
		note(t.Name())
		if id, _ := storage.SplitKey(t.Name()); id == sid {
			for _, c := range storage.ConstraintsOf(t) {
				used[c.Name] = true
			}
		}
		for _, d := range storage.IndexesOf(t) {
			note(storage.IndexKey(t.Name(), d))
		}
	}
	for _, v := range b.cat.Views() {
		note(v.Name)
	}
	if sc, ok := b.cat.(storage.SequenceCatalog); ok {
		for _, d := range sc.Sequences() {
			note(d.Name)
		}
	}
	return used
}

// tableScope is a scope over a table's columns (one new row of it), for
// CHECK expressions; scan reads the rows.
func (b *binder) tableScope(name string, cols []storage.ColumnDef, t storage.Table, kind string) (*scope, *plan.Scan) {
	scan := &plan.Scan{Table: t, Alias: name}
	it := &nsItem{name: name, relVisible: true, colsVisible: true, stored: true}
	for i, d := range cols {
		c := plan.Column{ID: b.ids.Next(), Name: d.Name, Table: name, Type: d.Type, NotNull: d.NotNull, AttNum: int16(i + 1)}
		b.colOrigin[c.ID] = c
		scan.Cols = append(scan.Cols, c)
		scan.Ordinals = append(scan.Ordinals, i)
		it.cols = append(it.cols, nsColumn{name: d.Name, table: name, notNull: d.NotNull, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: d.Name}})
		b.colTable[c.ID], b.colName[c.ID] = name, d.Name
	}
	return &scope{items: []*nsItem{it}, exprKind: kind}, scan
}

// checkConstraintExpr validates a CHECK expression over the table's columns
// and returns its stored text and the columns it reads.
func (b *binder) checkConstraintExpr(name string, cols []storage.ColumnDef, n *pg_query.Node) (string, []string, error) {
	s, scan := b.tableScope(name, cols, nil, "check constraints")
	b.storedLits, b.lazyCasts = map[int32]string{}, true
	defer func() { b.storedLits, b.lazyCasts = nil, false }()
	e, err := b.bindExpr(s, n)
	if err != nil {
		return "", nil, err
	}
	if e.Type().ID == types.Unknown {
		if e, err = b.coerceAssign(e, types.BoolType, "", nodeLocation(n)); err != nil {
			return "", nil, err
		}
	}
	if e.Type().ID != types.Bool {
		return "", nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "argument of CHECK must be type boolean, not type %s", typeName(e.Type())), nodeLocation(n))
	}
	// The columns in the order the expression reads them (conkey).
	names := map[plan.ColumnID]string{}
	for _, c := range scan.Cols {
		names[c.ID] = c.Name
	}
	var used []string
	seen := map[plan.ColumnID]bool{}
	plan.Walk(e, func(x plan.Expr) bool {
		if cr, ok := x.(*plan.ColRef); ok && !seen[cr.ID] && names[cr.ID] != "" {
			seen[cr.ID] = true
			used = append(used, names[cr.ID])
		}
		return true
	})
	rewriteStoredLiterals(n.ProtoReflect(), b.storedLits)
	text, err := deparseExpr(n)
	return text, used, err
}

// bindForeignKey resolves a FOREIGN KEY's referenced table and columns.
// keys lists the new table's key constraints (a self-reference may use them).
func (b *binder) bindForeignKey(name string, cols []storage.ColumnDef, sp *conSpec, con *storage.Constraint, keys func() []storage.Constraint) error {
	c := sp.c
	fk := nodeStrings(c.FkAttrs)
	if sp.col != "" {
		fk = []string{sp.col}
	}
	ref := c.Pktable.Relname
	var refCols []storage.ColumnDef
	var refCons []storage.Constraint
	if ref == name && (c.Pktable.Schemaname == "" || c.Pktable.Schemaname == "public") {
		refCols, refCons = cols, keys()
	} else {
		t, err := b.lookupTable(c.Pktable)
		if err != nil {
			return withoutPosition(err) // PostgreSQL's has none
		}
		tc, _ := b.cat.(TempCatalog)
		switch refTemp := tc != nil && tc.IsTemp(t); {
		case b.fkFromTemp && !refTemp:
			return pgerr.New("42P16", "constraints on temporary tables may reference only temporary tables")
		case !b.fkFromTemp && refTemp:
			return pgerr.New("42P16", "constraints on permanent tables may reference only permanent tables")
		}
		ref, refCols, refCons = t.Name(), t.Columns(), storage.ConstraintsOf(t)
	}
	pk := nodeStrings(c.PkAttrs)
	if len(pk) == 0 {
		for _, k := range refCons {
			if k.Kind == storage.ConPrimary {
				pk = k.Cols
			}
		}
		if len(pk) == 0 {
			return pgerr.New(codeInvalidForeignKey, "there is no primary key for referenced table \"%s\"", ref)
		}
	}
	for _, f := range fk {
		found := false
		for _, d := range cols {
			found = found || d.Name == f
		}
		if !found {
			return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", f)
		}
	}
	for _, p := range pk {
		found := false
		for _, d := range refCols {
			found = found || d.Name == p
		}
		if !found {
			return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", p)
		}
	}
	if len(fk) != len(pk) {
		return pgerr.New(codeInvalidForeignKey, "number of referencing and referenced columns for foreign key disagree")
	}
	matched := false
	for _, k := range refCons {
		if (k.Kind == storage.ConPrimary || k.Kind == storage.ConUnique) && sameSet(k.Cols, pk) {
			matched = true
		}
	}
	if !matched {
		return pgerr.New(codeInvalidForeignKey, "there is no unique constraint matching given keys for referenced table \"%s\"", ref)
	}
	for i := range fk {
		ft, pt := colType(cols, fk[i]), colType(refCols, pk[i])
		if ft.ID == types.Enum && pt.ID == types.Enum && ft.UserOID != pt.UserOID {
			// Two enum types have no equality operator in common.
			conName := con.Name
			if conName == "" {
				sid, bare := storage.SplitKey(name)
				conName = chooseName(bare, NameAddition(fk), "fkey", b.usedConstraintNames(sid))
			}
			return pgerr.New(pgerr.DatatypeMismatch, "foreign key constraint \"%s\" cannot be implemented", conName).
				WithDetail("Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.", fk[i], pk[i], typeName(ft), typeName(pt))
		}
		if !fkComparable(ft, pt) {
			return pgerr.New(pgerr.FeatureNotSupported, "foreign key columns \"%s\" and \"%s\" of types %s and %s are not supported", fk[i], pk[i], typeName(ft), typeName(pt))
		}
	}
	con.Cols, con.RefTable, con.RefCols = fk, ref, pk
	con.Match = 's'
	switch c.FkMatchtype {
	case "f":
		con.Match = 'f'
	case "p":
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "MATCH PARTIAL not yet implemented"), c.Location)
	}
	action := func(s string) byte {
		if s == "" {
			return storage.FKNoAction
		}
		return s[0]
	}
	con.OnDelete, con.OnUpdate = action(c.FkDelAction), action(c.FkUpdAction)
	for _, sc := range nodeStrings(c.FkDelSetCols) {
		if !slices.Contains(con.Cols, sc) {
			return pgerr.New(pgerr.InvalidColumnReference, "column \"%s\" referenced in ON DELETE SET action must be part of foreign key", sc)
		}
		con.DeleteSetCols = append(con.DeleteSetCols, sc)
	}
	return nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			return false
		}
	}
	return true
}

func colType(cols []storage.ColumnDef, name string) types.Type {
	for _, c := range cols {
		if c.Name == name {
			return c.Type
		}
	}
	return types.Type{}
}

// fkComparable: the key types whose values storage.KeySet compares across
// the two tables (the same type, or two integer types).
func fkComparable(a, b types.Type) bool {
	isInt := func(t types.Type) bool { return t.ID == types.Int2 || t.ID == types.Int4 || t.ID == types.Int8 }
	isText := func(t types.Type) bool { return t.ID == types.Text || t.ID == types.Varchar }
	return a.ID == b.ID || (isInt(a) && isInt(b)) || (isText(a) && isText(b))
}

// rowsTable is a table's new rows as a table of their own, which a CHECK
// query scans.
type rowsTable struct {
	storage.Table
	recs []arrow.Record
}

func (r rowsTable) Snapshot() []arrow.Record { return r.recs }
func (r rowsTable) Stats() storage.Stats {
	var n int64
	for _, x := range r.recs {
		n += x.NumRows()
	}
	return storage.Stats{Rows: n}
}

// CheckQuery is the query that evaluates t's CHECK constraints checks over
// recs (rows of t): one boolean column per constraint, false where a row
// violates it (NULL passes, as in PostgreSQL).
func CheckQuery(t storage.Table, checks []storage.Constraint, recs []arrow.Record, cat storage.Catalog, opts *BindOptions) (*Query, error) {
	if opts == nil {
		opts = &BindOptions{}
	}
	b := newBinder("", cat, opts)
	s, scan := b.tableScope(t.Name(), t.Columns(), rowsTable{t, recs}, "check constraints")
	p := &plan.Project{Input: scan}
	var names []string
	for _, c := range checks {
		text := "(" + c.Check + ") IS NOT FALSE"
		tree, err := pg_query.Parse("SELECT " + text)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.InternalError, "invalid stored check constraint \"%s\": %v", c.Name, err)
		}
		b.query = "SELECT " + text
		e, err := b.bindExpr(s, tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)
		if err != nil {
			return nil, withoutPosition(err)
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, plan.Column{ID: b.ids.Next(), Name: c.Name, Type: types.BoolType})
		names = append(names, c.Name)
	}
	return &Query{Plan: p, IDs: b.ids, Names: names}, nil
}

// DefaultQuery yields, per row of recs (rows of t), the DEFAULT of each
// column ords of t (NULL without one), evaluated per row: a FOREIGN KEY's
// ON DELETE / ON UPDATE SET DEFAULT.
func DefaultQuery(t storage.Table, ords []int, recs []arrow.Record, cat storage.Catalog, opts *BindOptions) (*Query, error) {
	if opts == nil {
		opts = &BindOptions{}
	}
	b := newBinder("", cat, opts)
	_, scan := b.tableScope(t.Name(), t.Columns(), rowsTable{t, recs}, "defaults")
	p := &plan.Project{Input: scan}
	var names []string
	for _, o := range ords {
		d := t.Columns()[o]
		e, err := b.bindDefault(d)
		if err != nil {
			return nil, err
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, plan.Column{ID: b.ids.Next(), Name: d.Name, Type: d.Type})
		names = append(names, d.Name)
	}
	return &Query{Plan: p, IDs: b.ids, Names: names}, nil
}

// AddConstraint is ALTER TABLE ... ADD [CONSTRAINT name] constraint:
// Constraint is bound and named; NotNull lists the columns a PRIMARY KEY
// makes NOT NULL.
type AddConstraint struct {
	Constraint storage.Constraint
	NotNull    []string
}

// DropConstraint is ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name
// [CASCADE | RESTRICT].
type DropConstraint struct {
	Name    string
	Missing bool // IF EXISTS and there is none (a NOTICE)
	Cascade bool
}

func (*AddConstraint) alterStep()  {}
func (*DropConstraint) alterStep() {}

// alterTableConstraint binds ADD / DROP CONSTRAINT against tbl.
func (b *binder) alterTableConstraint(tbl storage.Table, c *pg_query.AlterTableCmd) (AlterStep, error) {
	existing := storage.ConstraintsOf(tbl)
	if c.Subtype == pg_query.AlterTableType_AT_DropConstraint {
		for _, x := range existing {
			if x.Name == c.Name {
				return &DropConstraint{Name: c.Name, Cascade: c.Behavior == pg_query.DropBehavior_DROP_CASCADE}, nil
			}
		}
		if c.MissingOk {
			return &DropConstraint{Name: c.Name, Missing: true}, nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", c.Name, storage.BareName(tbl.Name()))
	}
	con := c.Def.GetConstraint()
	if con == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE ... ADD CONSTRAINT of this kind is not supported")
	}
	if con.SkipValidation {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "NOT VALID constraints are not supported"), con.Location)
	}
	if con.Indexname != "" {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "constraints USING INDEX are not supported"), con.Location)
	}
	specs, ok := collectConstraint(nil, con, "")
	if !ok {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "constraint %s is not supported", constraintName(con.Contype)), con.Location)
	}
	cols := append([]storage.ColumnDef(nil), tbl.Columns()...)
	tc, _ := b.cat.(TempCatalog)
	b.fkFromTemp = tc != nil && tc.IsTemp(tbl)
	bound, err := b.bindConstraints(tbl.Name(), cols, specs, existing)
	if err != nil {
		return nil, err
	}
	out := &AddConstraint{Constraint: bound[0]}
	for i, d := range cols {
		if d.NotNull && !tbl.Columns()[i].NotNull {
			out.NotNull = append(out.NotNull, d.Name)
		}
	}
	return out, nil
}

// RenameInCheck renames the columns a stored CHECK expression reads
// (ALTER TABLE ... RENAME COLUMN).
func RenameInCheck(text string, ren map[string]string) (string, error) {
	tree, err := pg_query.Parse("SELECT " + text)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "invalid stored check constraint: %v", err)
	}
	n := tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
	renameColumnRefs(n.ProtoReflect(), ren)
	return deparseExpr(n)
}

// renameColumnRefs renames the (unqualified or last) field of every
// ColumnRef under m.
func renameColumnRefs(m protoreflect.Message, ren map[string]string) {
	if cr, ok := m.Interface().(*pg_query.ColumnRef); ok {
		if k := len(cr.Fields); k > 0 {
			if s := cr.Fields[k-1].GetString_(); s != nil {
				if n, ok := ren[s.Sval]; ok {
					s.Sval = n
				}
			}
		}
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				renameColumnRefs(l.Get(i).Message(), ren)
			}
		case fd.Message() != nil && !fd.IsMap():
			renameColumnRefs(v.Message(), ren)
		}
		return true
	})
}

// SetConstraints is SET CONSTRAINTS {ALL | name [, ...]} {DEFERRED |
// IMMEDIATE}.
type SetConstraints struct {
	Names    []string // nil: ALL
	Deferred bool
}

func (*SetConstraints) statement() {}

func (b *binder) bindSetConstraints(x *pg_query.ConstraintsSetStmt) (Statement, error) {
	st := &SetConstraints{Deferred: x.Deferred}
	for _, n := range x.Constraints {
		rv := n.GetRangeVar()
		if rv == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SET CONSTRAINTS of this form is not supported")
		}
		found, deferrable := false, false
		for _, t := range b.cat.Tables() {
			for _, c := range storage.ConstraintsOf(t) {
				if c.Name == rv.Relname {
					found = true
					deferrable = deferrable || c.Deferrable
				}
			}
		}
		if tc, ok := b.cat.(TempCatalog); ok {
			if temps, ok := tc.(interface {
				TempTables() ([]storage.Table, bool)
			}); ok {
				ts, _ := temps.TempTables()
				for _, t := range ts {
					for _, c := range storage.ConstraintsOf(t) {
						if c.Name == rv.Relname {
							found = true
							deferrable = deferrable || c.Deferrable
						}
					}
				}
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" does not exist", rv.Relname)
		}
		if !deferrable {
			return nil, pgerr.New(codeObjectNotInPrerequisiteState, "constraint \"%s\" is not deferrable", rv.Relname)
		}
		st.Names = append(st.Names, rv.Relname)
	}
	return st, nil
}

const codeObjectNotInPrerequisiteState = "55000"
