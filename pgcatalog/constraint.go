package pgcatalog

import (
	"fmt"
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// pg_constraint and pg_get_constraintdef over the tables' constraints
// (storage/constraint.go), and the information_schema views built on them.

// ConstraintOID is a constraint's OID: its storage id moved past every
// table, view and index OID (those are FirstUserOID + 2*id, + 1 for views).
func ConstraintOID(c storage.Constraint) uint32 { return 3_000_000_000 + uint32(c.ID) }

// tableConstraint is one constraint with its table.
type tableConstraint struct {
	rel   Relation
	table storage.Table
	con   storage.Constraint
}

// constraints lists the constraints of the temporary and user tables, in
// OID order.
func (s *Snapshot) constraints() []tableConstraint {
	var tables []storage.Table
	temps, _ := s.TempTables()
	tables = append(tables, temps...)
	tables = append(tables, s.cat.Tables()...)
	var out []tableConstraint
	for _, t := range tables {
		cons := storage.ConstraintsOf(t)
		if len(cons) == 0 {
			continue
		}
		rel, ok := s.RelationByOID(RelationOID(t))
		if !ok {
			continue
		}
		for _, c := range cons {
			out = append(out, tableConstraint{rel, t, c})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].con.ID < out[j].con.ID })
	return out
}

// attnums is an int2[] of the columns' numbers in cols.
// attnums is an int2[] of the columns' attribute numbers (conkey).
func attnums(cols []storage.ColumnDef, names []string) *[]int16 {
	parts := []int16{}
	for _, n := range names {
		for i, c := range cols {
			if c.Name == n {
				parts = append(parts, int16(i+1))
			}
		}
	}
	return &parts
}

func pgConstraintRows(s *Snapshot) []pgConstraintRow {
	var out []pgConstraintRow
	for _, tc := range s.constraints() {
		c := tc.con
		r := pgConstraintRow{Oid: OID(ConstraintOID(c)), Conname: Name(c.Name), Connamespace: OID(tc.rel.Namespace),
			Contype: Char(c.Kind), Condeferrable: c.Deferrable, Condeferred: c.Deferred, Convalidated: true,
			Conrelid: OID(tc.rel.OID), Conislocal: true, Connoinherit: c.NoInherit,
			Conkey: attnums(tc.rel.Columns, c.Cols), Confupdtype: ' ', Confdeltype: ' ', Confmatchtype: ' '}
		switch c.Kind {
		case storage.ConPrimary, storage.ConUnique:
			r.Conindid = OID(storage.IndexDef{ID: c.ID}.ObjectID())
		case storage.ConCheck:
			r.Conbin = c.Check
		case storage.ConForeign:
			if p, ok := s.referenced(tc); ok {
				r.Confrelid = OID(p.OID)
				r.Confkey = attnums(p.Columns, c.RefCols)
				if len(c.DeleteSetCols) > 0 {
					r.Confdelsetcols = attnums(tc.rel.Columns, c.DeleteSetCols)
				}
				if idx, ok := s.referencedIndex(tc); ok {
					r.Conindid = OID(idx.ObjectID())
				}
			}
			r.Confupdtype, r.Confdeltype, r.Confmatchtype = Char(c.OnUpdate), Char(c.OnDelete), Char(c.Match)
			eq := make([]OID, len(c.Cols))
			for i := range eq {
				eq[i] = 96 // int4eq: joind keeps no operator OIDs
			}
			r.Conpfeqop, r.Conppeqop, r.Conffeqop = &eq, &eq, &eq
		}
		if c.Kind == storage.ConCheck {
			r.Conkey = attnums(tc.rel.Columns, c.Cols)
		}
		out = append(out, r)
	}
	return append(out, domainConstraintRows(s)...) // usertypes.go
}

// referenced is the relation a foreign key references (in its table's schema).
func (s *Snapshot) referenced(tc tableConstraint) (Relation, bool) {
	return s.RelationByName(tc.rel.Schema, tc.con.RefTable)
}

// referencedIndex is the unique index on the referenced columns.
func (s *Snapshot) referencedIndex(tc tableConstraint) (storage.IndexDef, bool) {
	for _, x := range s.constraints() {
		if x.rel.Schema != tc.rel.Schema || x.rel.Name != tc.con.RefTable {
			continue
		}
		for _, d := range storage.IndexesOf(x.table) {
			if d.Unique && sameNameSet(d.Cols, tc.con.RefCols) {
				return d, true
			}
		}
		break
	}
	return storage.IndexDef{}, false
}

// sameNameSet: a foreign key's columns match a key in any order.
func sameNameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
}

// ConstraintDef is pg_get_constraintdef's text for the constraint of that
// OID ("" if there is none); pretty drops the outermost parentheses of a
// CHECK expression as PostgreSQL's pretty mode does.
func (s *Snapshot) ConstraintDef(oid uint32, pretty bool) (string, bool) {
	for _, tc := range s.constraints() {
		if ConstraintOID(tc.con) == oid {
			return constraintDef(tc.con, pretty, tc.rel.Columns), true
		}
	}
	return s.domainConstraintDef(oid, pretty) // usertypes.go
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdentifier(n)
	}
	return strings.Join(q, ", ")
}

func constraintDef(c storage.Constraint, pretty bool, cols []storage.ColumnDef) string {
	var b strings.Builder
	switch c.Kind {
	case storage.ConPrimary:
		fmt.Fprintf(&b, "PRIMARY KEY (%s)", identList(c.Cols))
	case storage.ConUnique:
		fmt.Fprintf(&b, "UNIQUE (%s)", identList(c.Cols))
	case storage.ConCheck:
		fmt.Fprintf(&b, "CHECK (%s)", checkExprText(c.Check, pretty, cols))
		if c.NoInherit {
			b.WriteString(" NO INHERIT")
		}
	case storage.ConForeign:
		fmt.Fprintf(&b, "FOREIGN KEY (%s) REFERENCES %s(%s)", identList(c.Cols), QuoteIdentifier(c.RefTable), identList(c.RefCols))
		if c.Match == 'f' {
			b.WriteString(" MATCH FULL")
		}
		action := map[byte]string{storage.FKRestrict: "RESTRICT", storage.FKCascade: "CASCADE", storage.FKSetNull: "SET NULL", storage.FKSetDefault: "SET DEFAULT"}
		if a, ok := action[c.OnUpdate]; ok {
			b.WriteString(" ON UPDATE " + a)
		}
		if a, ok := action[c.OnDelete]; ok {
			b.WriteString(" ON DELETE " + a)
			if len(c.DeleteSetCols) > 0 {
				fmt.Fprintf(&b, " (%s)", identList(c.DeleteSetCols))
			}
		}
		if c.Deferrable {
			b.WriteString(" DEFERRABLE")
		}
		if c.Deferred {
			b.WriteString(" INITIALLY DEFERRED")
		}
	}
	return b.String()
}

// CheckExprText renders a stored CHECK expression as PostgreSQL's
// ruleutils does, with the one expression deparser of pg_get_viewdef
// (ruleutils_query.go): in its non-pretty mode each operator, boolean and
// NULL test parenthesized, in pretty mode (pg_get_constraintdef(oid, true),
// psql's \d) only where isSimpleNode says so; columns as written, string
// constants with their type. Expressions it has no rule for keep their
// stored text.
func CheckExprText(text string, pretty bool) string { return checkExprText(text, pretty, nil) }

// checkExprText is CheckExprText over a table's columns (nil: unknown),
// whose types type the constants and casts.
func checkExprText(text string, pretty bool, cols []storage.ColumnDef) (out string) {
	tree, err := pg_query.Parse("SELECT " + text)
	if err != nil || len(tree.Stmts) != 1 {
		return "(" + text + ")"
	}
	n := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().GetVal()
	defer func() {
		if r := recover(); r != nil { // as deparseView
			out = "(" + text + ")"
		}
	}()
	d := &deparser{pretty: pretty}
	if cols != nil {
		d.scopes = []*dscope{{items: []*fromItem{{cols: cols}}, merged: map[string]dexpr{}}}
	}
	e := d.expr(n)
	if e.lit != nil {
		e = d.coerced(e, types.TextType)
	}
	if !pretty && e.kind == dSimple {
		return "(" + e.s + ")"
	}
	return e.s
}

func init() {
	f := &Func{Names: []string{"pg_get_constraintdef"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{oid, boolT}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			pretty := len(v) > 1 && v[1].I != 0
			if d, ok := s.ConstraintDef(uint32(v[0].I), pretty); ok {
				return types.TextValue(d)
			}
			return types.NullValue
		}}
	// Before the NULL-answering placeholder of funcs.go.
	funcByName["pg_get_constraintdef"] = append([]*Func{f}, funcByName["pg_get_constraintdef"]...)
	// psql's \d "Referenced by:" query reads
	// `confrelid IN (SELECT pg_partition_ancestors(oid) UNION ALL ...)`.
	// joind has no partitioned tables, so a relation's only ancestor is
	// itself: the one row this scalar gives in a select list.
	a := &Func{Names: []string{"pg_partition_ancestors"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: types.RegClassType,
		Eval: func(_ *Snapshot, v []types.Value) types.Value { return v[0] }}
	funcByName["pg_partition_ancestors"] = append(funcByName["pg_partition_ancestors"], a)
}

// constraintFlags are pg_class.relchecks (the table's CHECK constraints)
// and relhastriggers (PostgreSQL's foreign keys are triggers on the
// referencing and the referenced table).
func (s *Snapshot) constraintFlags(r Relation) (checks int16, triggers bool) {
	if r.Kind != 'r' || r.OID < FirstUserOID {
		return 0, false
	}
	for _, tc := range s.constraints() {
		switch {
		case tc.rel.OID == r.OID && tc.con.Kind == storage.ConCheck:
			checks++
		case tc.con.Kind == storage.ConForeign && (tc.rel.OID == r.OID || tc.con.RefTable == r.Name && tc.rel.Schema == r.Schema):
			triggers = true
		}
	}
	return checks, triggers
}

// isCheckConstraintsRow is a row of information_schema.check_constraints.
type isCheckConstraintsRow struct {
	ConstraintCatalog string `pg:"constraint_catalog"`
	ConstraintSchema  string `pg:"constraint_schema"`
	ConstraintName    string `pg:"constraint_name"`
	CheckClause       string `pg:"check_clause"`
}

// isConstraintColumnUsageRow is a row of information_schema.constraint_column_usage.
type isConstraintColumnUsageRow struct {
	TableCatalog      string `pg:"table_catalog"`
	TableSchema       string `pg:"table_schema"`
	TableName         string `pg:"table_name"`
	ColumnName        string `pg:"column_name"`
	ConstraintCatalog string `pg:"constraint_catalog"`
	ConstraintSchema  string `pg:"constraint_schema"`
	ConstraintName    string `pg:"constraint_name"`
}

// notNullName is the name information_schema gives a NOT NULL column's
// implicit CHECK: namespace OID, table OID, attnum.
func notNullName(r Relation, attnum int) string {
	return fmt.Sprintf("%d_%d_%d_not_null", r.Namespace, r.OID, attnum)
}

// userTables are the relations of the temporary and user tables.
func (s *Snapshot) userTables() []Relation {
	var out []Relation
	for _, r := range s.Relations() {
		if r.Kind == 'r' && r.OID >= FirstUserOID && r.View == nil {
			out = append(out, r)
		}
	}
	return out
}

var conTypeName = map[byte]string{storage.ConPrimary: "PRIMARY KEY", storage.ConUnique: "UNIQUE", storage.ConCheck: "CHECK", storage.ConForeign: "FOREIGN KEY"}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

func isTableConstraints(s *Snapshot) []isTableConstraintsRow {
	db := s.database()
	var out []isTableConstraintsRow
	for _, tc := range s.constraints() {
		c := tc.con
		row := isTableConstraintsRow{ConstraintCatalog: db, ConstraintSchema: tc.rel.Schema, ConstraintName: c.Name,
			TableCatalog: db, TableSchema: tc.rel.Schema, TableName: tc.rel.Name, ConstraintType: conTypeName[c.Kind],
			IsDeferrable: yesNo(c.Deferrable), InitiallyDeferred: yesNo(c.Deferred), Enforced: "YES"}
		if c.Kind == storage.ConUnique || c.Kind == storage.ConPrimary {
			yes := "YES"
			if c.Kind == storage.ConUnique {
				row.NullsDistinct = &yes
			}
		}
		out = append(out, row)
	}
	for _, r := range s.userTables() {
		for i, col := range r.Columns {
			if col.NotNull {
				out = append(out, isTableConstraintsRow{ConstraintCatalog: db, ConstraintSchema: r.Schema, ConstraintName: notNullName(r, i+1),
					TableCatalog: db, TableSchema: r.Schema, TableName: r.Name, ConstraintType: "CHECK", IsDeferrable: "NO",
					InitiallyDeferred: "NO", Enforced: "YES"})
			}
		}
	}
	return out
}

func isKeyColumnUsage(s *Snapshot) []isKeyColumnUsageRow {
	db := s.database()
	var out []isKeyColumnUsageRow
	for _, tc := range s.constraints() {
		c := tc.con
		if c.Kind == storage.ConCheck {
			continue
		}
		// A foreign key's position of each column in the referenced key.
		var refKey []string
		if c.Kind == storage.ConForeign {
			if idx, ok := s.referencedIndex(tc); ok {
				refKey = idx.Cols
			}
		}
		for i, col := range c.Cols {
			row := isKeyColumnUsageRow{ConstraintCatalog: db, ConstraintSchema: tc.rel.Schema, ConstraintName: c.Name,
				TableCatalog: db, TableSchema: tc.rel.Schema, TableName: tc.rel.Name, ColumnName: col, OrdinalPosition: int32(i + 1)}
			if c.Kind == storage.ConForeign && i < len(c.RefCols) {
				for j, k := range refKey {
					if k == c.RefCols[i] {
						p := int32(j + 1)
						row.PositionInUniqueConstraint = &p
					}
				}
			}
			out = append(out, row)
		}
	}
	return out
}

var fkRuleName = map[byte]string{storage.FKNoAction: "NO ACTION", storage.FKRestrict: "RESTRICT", storage.FKCascade: "CASCADE",
	storage.FKSetNull: "SET NULL", storage.FKSetDefault: "SET DEFAULT"}

func isReferentialConstraints(s *Snapshot) []isReferentialConstraintsRow {
	db := s.database()
	var out []isReferentialConstraintsRow
	for _, tc := range s.constraints() {
		c := tc.con
		if c.Kind != storage.ConForeign {
			continue
		}
		row := isReferentialConstraintsRow{ConstraintCatalog: db, ConstraintSchema: tc.rel.Schema, ConstraintName: c.Name,
			UniqueConstraintCatalog: db, UniqueConstraintSchema: tc.rel.Schema, MatchOption: "NONE",
			UpdateRule: fkRuleName[c.OnUpdate], DeleteRule: fkRuleName[c.OnDelete]}
		if c.Match == 'f' {
			row.MatchOption = "FULL"
		}
		if idx, ok := s.referencedIndex(tc); ok {
			row.UniqueConstraintName = idx.Name
		}
		out = append(out, row)
	}
	return out
}

func isCheckConstraints(s *Snapshot) []isCheckConstraintsRow {
	db := s.database()
	var out []isCheckConstraintsRow
	for _, tc := range s.constraints() {
		if tc.con.Kind == storage.ConCheck {
			out = append(out, isCheckConstraintsRow{ConstraintCatalog: db, ConstraintSchema: tc.rel.Schema, ConstraintName: tc.con.Name,
				CheckClause: "(" + checkExprText(tc.con.Check, false, tc.rel.Columns) + ")"})
		}
	}
	for _, r := range s.userTables() {
		for i, col := range r.Columns {
			if col.NotNull {
				out = append(out, isCheckConstraintsRow{ConstraintCatalog: db, ConstraintSchema: r.Schema, ConstraintName: notNullName(r, i+1),
					CheckClause: col.Name + " IS NOT NULL"})
			}
		}
	}
	return out
}

// isConstraintColumnUsage: the columns each constraint uses — a foreign
// key's are the referenced table's.
func isConstraintColumnUsage(s *Snapshot) []isConstraintColumnUsageRow {
	db := s.database()
	var out []isConstraintColumnUsageRow
	for _, tc := range s.constraints() {
		c := tc.con
		table, cols := tc.rel.Name, c.Cols
		if c.Kind == storage.ConForeign {
			table, cols = c.RefTable, c.RefCols
		}
		for _, col := range cols {
			out = append(out, isConstraintColumnUsageRow{TableCatalog: db, TableSchema: tc.rel.Schema, TableName: table, ColumnName: col,
				ConstraintCatalog: db, ConstraintSchema: tc.rel.Schema, ConstraintName: c.Name})
		}
	}
	return out
}
