package pgcatalog

import (
	"strconv"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// information_schema's views, as PostgreSQL 15 defines them over its
// catalogs; found only qualified (information_schema is not on the
// search path).

const is = "information_schema"

func declareInformationSchema() {
	declare(is, "schemata", 13382, 'v', func(s *Snapshot) []isSchemataRow {
		db, u := s.database(), s.user()
		out := []isSchemataRow{
			{CatalogName: db, SchemaName: "information_schema", SchemaOwner: u},
			{CatalogName: db, SchemaName: "pg_catalog", SchemaOwner: u},
			{CatalogName: db, SchemaName: "pg_toast", SchemaOwner: u},
			{CatalogName: db, SchemaName: "public", SchemaOwner: "pg_database_owner"},
		}
		for _, n := range s.Namespaces() {
			if n.Kind == NsUser && n.OID != OIDNamespacePublic {
				out = append(out, isSchemataRow{CatalogName: db, SchemaName: n.Name, SchemaOwner: s.RoleName(n.Owner)})
			}
		}
		return out
	})
	declare(is, "tables", 13425, 'v', func(s *Snapshot) []isTablesRow {
		var out []isTablesRow
		for _, r := range s.Relations() {
			if r.Kind == 'i' || r.Kind == 'S' || r.Kind == 'c' {
				continue // indexes, sequences and composite types are no tables
			}
			typ, ins := "BASE TABLE", "YES"
			if r.Kind == 'v' {
				typ, ins = "VIEW", "NO"
			}
			if r.Temp {
				typ = "LOCAL TEMPORARY"
			} else if r.Kind == 'r' && (r.Namespace == OIDNamespacePgCatalog || r.Namespace == OIDNamespaceInfoSchema) {
				ins = "NO"
			}
			out = append(out, isTablesRow{TableCatalog: s.database(), TableSchema: r.Schema, TableName: r.Name,
				TableType: typ, IsInsertableInto: ins, IsTyped: "NO"})
		}
		return out
	})
	declare(is, "views", 13483, 'v', func(s *Snapshot) []isViewsRow {
		var out []isViewsRow
		for _, v := range s.cat.Views() {
			ns, name := s.namespaceOfKey(v.Name)
			out = append(out, isViewsRow{TableCatalog: s.database(), TableSchema: ns.Name, TableName: name,
				ViewDefinition: s.ViewDef(v, false), CheckOption: "NONE", IsUpdatable: "NO", IsInsertableInto: "NO",
				IsTriggerUpdatable: "NO", IsTriggerDeletable: "NO", IsTriggerInsertableInto: "NO"})
		}
		return out
	})
	declare(is, "columns", 13295, 'v', func(s *Snapshot) []isColumnsRow {
		var out []isColumnsRow
		for _, r := range s.Relations() {
			if r.Kind == 'i' || r.Kind == 'S' || r.Kind == 'c' {
				continue
			}
			for i, col := range r.Columns {
				out = append(out, infoColumn(s, r, i, col))
			}
		}
		return out
	})
	// The constraint views: constraint.go.
	declare(is, "table_constraints", 13411, 'v', isTableConstraints)
	declare(is, "key_column_usage", 13329, 'v', isKeyColumnUsage)
	declare(is, "referential_constraints", 13339, 'v', isReferentialConstraints)
	declare(is, "check_constraints", 13260, 'v', isCheckConstraints)
	declare(is, "constraint_column_usage", 13300, 'v', isConstraintColumnUsage)
	declare(is, "column_privileges", 13285, 'v', func(s *Snapshot) []isColumnPrivilegesRow { return s.columnPrivilegeRows() }) // roles.go
	declare[isRoutinesRow](is, "routines", 13377, 'v', nil)
}

// infoColumn is one row of information_schema.columns.
func infoColumn(s *Snapshot, r Relation, i int, col storage.ColumnDef) isColumnsRow {
	t := col.Type
	n := func(v int32) *int32 { return &v }
	db := s.database()
	row := isColumnsRow{TableCatalog: db, TableSchema: r.Schema, TableName: r.Name, ColumnName: col.Name,
		OrdinalPosition: int32(r.Attnum(i)), IsNullable: "YES", DataType: t.BaseSQLName(),
		UdtCatalog: db, UdtSchema: "pg_catalog", UdtName: t.PgTypeName(), DtdIdentifier: strconv.Itoa(int(r.Attnum(i))),
		IsSelfReferencing: "NO", IsIdentity: "NO", IdentityCycle: "NO", IsGenerated: "NEVER", IsUpdatable: "NO"}
	if col.NotNull {
		row.IsNullable = "NO"
	}
	// As PostgreSQL's view: a domain column shows its base type's
	// data_type and udt_* and names the domain in domain_*; an array is
	// ARRAY, an enum or composite type USER-DEFINED, with udt_* naming it.
	if t.Domain != 0 {
		if d, ok := types.LookupDomain(t.Domain); ok {
			schema, name := s.userTypeSchema(t.Domain), t.PgTypeName()
			row.DomainCatalog, row.DomainSchema, row.DomainName = &db, &schema, &name
			t = d.Base
			row.DataType, row.UdtName = t.BaseSQLName(), t.PgTypeName()
		}
	}
	elem := t
	if t.ID == types.Array {
		row.DataType, elem = "ARRAY", t.ElemType()
	}
	if elem.ID == types.Enum || elem.IsComposite() {
		if t.ID != types.Array {
			row.DataType = "USER-DEFINED"
		}
		row.UdtSchema = s.userTypeSchema(elem.OID())
	}
	if col.Default != "" && col.Identity == 0 {
		def := s.regclassNames(FormatDefault(col.Default, t))
		row.ColumnDefault = &def
	}
	identityColumn(s, r, col, &row)
	if r.Kind == 'r' && r.Namespace != OIDNamespacePgCatalog && r.Namespace != OIDNamespaceInfoSchema {
		row.IsUpdatable = "YES"
	}
	switch t.ID {
	case types.Varchar, types.Char, types.Text:
		if l := t.CharLen(); l >= 0 {
			row.CharacterMaximumLength, row.CharacterOctetLength = n(int32(l)), n(int32(l*4))
		} else if t.ID == types.Char {
			row.CharacterMaximumLength, row.CharacterOctetLength = n(1), n(4)
		} else {
			row.CharacterOctetLength = n(1073741824)
		}
	case types.Bit, types.VarBit:
		// _pg_char_max_length: a bit string's length is its typmod.
		if t.Typmod >= 0 {
			row.CharacterMaximumLength = n(t.Typmod)
		}
	case types.Int2:
		row.NumericPrecision, row.NumericPrecisionRadix, row.NumericScale = n(16), n(2), n(0)
	case types.Int4:
		row.NumericPrecision, row.NumericPrecisionRadix, row.NumericScale = n(32), n(2), n(0)
	case types.Int8:
		row.NumericPrecision, row.NumericPrecisionRadix, row.NumericScale = n(64), n(2), n(0)
	case types.Float4:
		row.NumericPrecision, row.NumericPrecisionRadix = n(24), n(2)
	case types.Float8:
		row.NumericPrecision, row.NumericPrecisionRadix = n(53), n(2)
	case types.Numeric:
		row.NumericPrecisionRadix = n(10)
		if p, sc, ok := types.NumericPrecScale(t.Typmod); ok {
			row.NumericPrecision, row.NumericScale = n(int32(p)), n(int32(sc))
		}
	case types.Date:
		row.DatetimePrecision = n(0)
	case types.Timestamp, types.TimestampTZ, types.Interval, types.Time, types.TimeTZ:
		row.DatetimePrecision = n(6)
		if t.ID != types.Interval && t.Typmod >= 0 {
			row.DatetimePrecision = n(t.Typmod)
		}
	}
	return row
}

// isSchemataRow is a row of information_schema.schemata.
type isSchemataRow struct {
	CatalogName                string  `pg:"catalog_name"`
	SchemaName                 string  `pg:"schema_name"`
	SchemaOwner                string  `pg:"schema_owner"`
	DefaultCharacterSetCatalog *string `pg:"default_character_set_catalog"`
	DefaultCharacterSetSchema  *string `pg:"default_character_set_schema"`
	DefaultCharacterSetName    *string `pg:"default_character_set_name"`
	SqlPath                    *string `pg:"sql_path"`
}

// isTablesRow is a row of information_schema.tables.
type isTablesRow struct {
	TableCatalog              string  `pg:"table_catalog"`
	TableSchema               string  `pg:"table_schema"`
	TableName                 string  `pg:"table_name"`
	TableType                 string  `pg:"table_type"`
	SelfReferencingColumnName *string `pg:"self_referencing_column_name"`
	ReferenceGeneration       *string `pg:"reference_generation"`
	UserDefinedTypeCatalog    *string `pg:"user_defined_type_catalog"`
	UserDefinedTypeSchema     *string `pg:"user_defined_type_schema"`
	UserDefinedTypeName       *string `pg:"user_defined_type_name"`
	IsInsertableInto          string  `pg:"is_insertable_into"`
	IsTyped                   string  `pg:"is_typed"`
	CommitAction              *string `pg:"commit_action"`
}

// isViewsRow is a row of information_schema.views.
type isViewsRow struct {
	TableCatalog            string `pg:"table_catalog"`
	TableSchema             string `pg:"table_schema"`
	TableName               string `pg:"table_name"`
	ViewDefinition          string `pg:"view_definition"`
	CheckOption             string `pg:"check_option"`
	IsUpdatable             string `pg:"is_updatable"`
	IsInsertableInto        string `pg:"is_insertable_into"`
	IsTriggerUpdatable      string `pg:"is_trigger_updatable"`
	IsTriggerDeletable      string `pg:"is_trigger_deletable"`
	IsTriggerInsertableInto string `pg:"is_trigger_insertable_into"`
}

// isColumnsRow is a row of information_schema.columns.
type isColumnsRow struct {
	TableCatalog           string  `pg:"table_catalog"`
	TableSchema            string  `pg:"table_schema"`
	TableName              string  `pg:"table_name"`
	ColumnName             string  `pg:"column_name"`
	OrdinalPosition        int32   `pg:"ordinal_position"`
	ColumnDefault          *string `pg:"column_default"`
	IsNullable             string  `pg:"is_nullable"`
	DataType               string  `pg:"data_type"`
	CharacterMaximumLength *int32  `pg:"character_maximum_length"`
	CharacterOctetLength   *int32  `pg:"character_octet_length"`
	NumericPrecision       *int32  `pg:"numeric_precision"`
	NumericPrecisionRadix  *int32  `pg:"numeric_precision_radix"`
	NumericScale           *int32  `pg:"numeric_scale"`
	DatetimePrecision      *int32  `pg:"datetime_precision"`
	IntervalType           *string `pg:"interval_type"`
	IntervalPrecision      *int32  `pg:"interval_precision"`
	CharacterSetCatalog    *string `pg:"character_set_catalog"`
	CharacterSetSchema     *string `pg:"character_set_schema"`
	CharacterSetName       *string `pg:"character_set_name"`
	CollationCatalog       *string `pg:"collation_catalog"`
	CollationSchema        *string `pg:"collation_schema"`
	CollationName          *string `pg:"collation_name"`
	DomainCatalog          *string `pg:"domain_catalog"`
	DomainSchema           *string `pg:"domain_schema"`
	DomainName             *string `pg:"domain_name"`
	UdtCatalog             string  `pg:"udt_catalog"`
	UdtSchema              string  `pg:"udt_schema"`
	UdtName                string  `pg:"udt_name"`
	ScopeCatalog           *string `pg:"scope_catalog"`
	ScopeSchema            *string `pg:"scope_schema"`
	ScopeName              *string `pg:"scope_name"`
	MaximumCardinality     *int32  `pg:"maximum_cardinality"`
	DtdIdentifier          string  `pg:"dtd_identifier"`
	IsSelfReferencing      string  `pg:"is_self_referencing"`
	IsIdentity             string  `pg:"is_identity"`
	IdentityGeneration     *string `pg:"identity_generation"`
	IdentityStart          *string `pg:"identity_start"`
	IdentityIncrement      *string `pg:"identity_increment"`
	IdentityMaximum        *string `pg:"identity_maximum"`
	IdentityMinimum        *string `pg:"identity_minimum"`
	IdentityCycle          string  `pg:"identity_cycle"`
	IsGenerated            string  `pg:"is_generated"`
	GenerationExpression   *string `pg:"generation_expression"`
	IsUpdatable            string  `pg:"is_updatable"`
}

// isTableConstraintsRow is a row of information_schema.table_constraints.
type isTableConstraintsRow struct {
	ConstraintCatalog string  `pg:"constraint_catalog"`
	ConstraintSchema  string  `pg:"constraint_schema"`
	ConstraintName    string  `pg:"constraint_name"`
	TableCatalog      string  `pg:"table_catalog"`
	TableSchema       string  `pg:"table_schema"`
	TableName         string  `pg:"table_name"`
	ConstraintType    string  `pg:"constraint_type"`
	IsDeferrable      string  `pg:"is_deferrable"`
	InitiallyDeferred string  `pg:"initially_deferred"`
	Enforced          string  `pg:"enforced"`
	NullsDistinct     *string `pg:"nulls_distinct"`
}

// isKeyColumnUsageRow is a row of information_schema.key_column_usage.
type isKeyColumnUsageRow struct {
	ConstraintCatalog          string `pg:"constraint_catalog"`
	ConstraintSchema           string `pg:"constraint_schema"`
	ConstraintName             string `pg:"constraint_name"`
	TableCatalog               string `pg:"table_catalog"`
	TableSchema                string `pg:"table_schema"`
	TableName                  string `pg:"table_name"`
	ColumnName                 string `pg:"column_name"`
	OrdinalPosition            int32  `pg:"ordinal_position"`
	PositionInUniqueConstraint *int32 `pg:"position_in_unique_constraint"`
}

// isReferentialConstraintsRow is a row of information_schema.referential_constraints.
type isReferentialConstraintsRow struct {
	ConstraintCatalog       string `pg:"constraint_catalog"`
	ConstraintSchema        string `pg:"constraint_schema"`
	ConstraintName          string `pg:"constraint_name"`
	UniqueConstraintCatalog string `pg:"unique_constraint_catalog"`
	UniqueConstraintSchema  string `pg:"unique_constraint_schema"`
	UniqueConstraintName    string `pg:"unique_constraint_name"`
	MatchOption             string `pg:"match_option"`
	UpdateRule              string `pg:"update_rule"`
	DeleteRule              string `pg:"delete_rule"`
}

// isRoutinesRow is a row of information_schema.routines.
type isRoutinesRow struct {
	SpecificCatalog string `pg:"specific_catalog"`
	SpecificSchema  string `pg:"specific_schema"`
	SpecificName    string `pg:"specific_name"`
	RoutineCatalog  string `pg:"routine_catalog"`
	RoutineSchema   string `pg:"routine_schema"`
	RoutineName     string `pg:"routine_name"`
	RoutineType     string `pg:"routine_type"`
	DataType        string `pg:"data_type"`
}

// userTypeSchema is the schema of the user type (or table row type) of
// OID oid, for information_schema's udt_schema and domain_schema.
func (s *Snapshot) userTypeSchema(oid uint32) string {
	for _, u := range s.userTypes() {
		if u.OID() == oid {
			ns, _ := s.namespaceOfKey(storage.TableKey(u.Schema, ""))
			return ns.Name
		}
	}
	for _, r := range s.Relations() {
		if rt := rowTypeOf(r); rt.ok && rt.oid == oid {
			return r.Schema
		}
	}
	return "public"
}
