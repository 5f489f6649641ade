package storage

import (
	"strconv"

	"github.com/joind/joind/types"
)

// The system relations: their columns (the ones clients read, in
// PostgreSQL 15's order) and how their rows derive from the catalog.

func init() {
	const pc = "pg_catalog"
	defSystem(pc, "pg_namespace", 2615, 'r', "oid:o nspname:n nspowner:o nspacl:t", func(c *sysCtx) [][]any {
		out := [][]any{
			{OIDNamespacePgToast, "pg_toast", OIDBootstrapUser, nil},
			{OIDNamespacePgCatalog, "pg_catalog", OIDBootstrapUser, nil},
			{OIDNamespacePublic, "public", OIDDatabaseOwnerRole, nil},
			{OIDNamespaceInfoSchema, "information_schema", OIDBootstrapUser, nil},
		}
		if _, has := TempTablesOf(c.cat); has {
			out = append(out, []any{OIDNamespaceTemp, TempSchema, OIDBootstrapUser, nil},
				[]any{OIDNamespaceToastTemp, TempToastSchema, OIDBootstrapUser, nil})
		}
		return out
	})
	defSystem(pc, "pg_class", 1259, 'r', "oid:o relname:n relnamespace:o reltype:o reloftype:o relowner:o relam:o "+
		"relfilenode:o reltablespace:o relpages:i reltuples:f relallvisible:i reltoastrelid:o relhasindex:b "+
		"relisshared:b relpersistence:c relkind:c relnatts:h relchecks:h relhasrules:b relhastriggers:b "+
		"relhassubclass:b relrowsecurity:b relforcerowsecurity:b relispopulated:b relreplident:c "+
		"relispartition:b relrewrite:o relfrozenxid:l relminmxid:l relacl:t reloptions:t relpartbound:t",
		func(c *sysCtx) [][]any {
			var out [][]any
			for _, r := range Relations(c.cat, c.env) {
				am := any(OIDAmHeap)
				if r.Kind == 'v' {
					am = 0
				}
				persistence := "p"
				if r.Temp {
					persistence = "t"
				}
				out = append(out, []any{r.OID, r.Name, r.Namespace, 0, 0, OIDBootstrapUser, am,
					r.OID, 0, 0, float64(r.Rows), 0, 0, false,
					false, persistence, string(r.Kind), len(r.Columns), 0, r.Kind == 'v', false,
					false, false, false, true, "d",
					false, 0, 0, 0, nil, nil, nil})
			}
			return out
		})
	defSystem(pc, "pg_attribute", 1249, 'r', "attrelid:o attname:n atttypid:o attstattarget:i attlen:h attnum:h "+
		"attndims:i attcacheoff:i atttypmod:i attbyval:b attalign:c attstorage:c attcompression:c attnotnull:b "+
		"atthasdef:b atthasmissing:b attidentity:c attgenerated:c attisdropped:b attislocal:b attinhcount:i "+
		"attcollation:o attacl:t attoptions:t attfdwoptions:t attmissingval:t",
		func(c *sysCtx) [][]any {
			var out [][]any
			for _, r := range Relations(c.cat, c.env) {
				for i, col := range r.Columns {
					st, _ := TypeByOID(col.Type.OID())
					coll := 0
					if st.Collate {
						coll = OIDCollationDefault
					}
					storage := "p"
					if st.Len < 0 {
						storage = "x"
					}
					out = append(out, []any{r.OID, col.Name, col.Type.OID(), -1, int(st.Len), i + 1,
						0, -1, int(col.Type.Typmod), st.Len > 0 && st.Len <= 8, string(st.Align), storage, "", col.NotNull,
						col.Default != "", false, "", "", false, true, 0,
						coll, nil, nil, nil, nil})
				}
			}
			return out
		})
	defSystem(pc, "pg_type", 1247, 'r', "oid:o typname:n typnamespace:o typowner:o typlen:h typbyval:b typtype:c "+
		"typcategory:c typispreferred:b typisdefined:b typdelim:c typrelid:o typsubscript:t typelem:o typarray:o "+
		"typinput:t typoutput:t typreceive:t typsend:t typmodin:t typmodout:t typanalyze:t typalign:c typstorage:c "+
		"typnotnull:b typbasetype:o typtypmod:i typndims:i typcollation:o typdefaultbin:t typdefault:t typacl:t",
		func(c *sysCtx) [][]any {
			var out [][]any
			for _, t := range SystemTypes {
				coll, storage := 0, "p"
				if t.Collate {
					coll = OIDCollationDefault
				}
				if t.Len < 0 {
					storage = "x"
				}
				out = append(out, []any{t.OID, t.Name, OIDNamespacePgCatalog, OIDBootstrapUser, int(t.Len), t.Len > 0 && t.Len <= 8, "b",
					string(t.Category), t.Preferd, true, ",", 0, "-", 0, 0,
					t.In, t.Out, t.Name + "recv", t.Name + "send", "-", "-", "-", string(t.Align), storage,
					false, 0, -1, 0, coll, nil, nil, nil})
			}
			return out
		})
	defSystem(pc, "pg_attrdef", 2604, 'r', "oid:o adrelid:o adnum:h adbin:t", func(c *sysCtx) [][]any {
		var out [][]any
		for _, r := range Relations(c.cat, c.env) {
			for i, col := range r.Columns {
				if col.Default == "" {
					continue
				}
				def := col.Default
				if c.env != nil && c.env.FormatDefault != nil {
					def = c.env.FormatDefault(def, col.Type)
				}
				// The default's own OID: beside its table's, never a relation's.
				out = append(out, []any{int64(r.OID)<<16 | int64(i+1), r.OID, i + 1, def})
			}
		}
		return out
	})
	defSystem(pc, "pg_constraint", 2606, 'r', "oid:o conname:n connamespace:o contype:c condeferrable:b condeferred:b "+
		"convalidated:b conrelid:o contypid:o conindid:o conparentid:o confrelid:o confupdtype:c confdeltype:c "+
		"confmatchtype:c conislocal:b coninhcount:i connoinherit:b conkey:t confkey:t conpfeqop:t conppeqop:t "+
		"conffeqop:t confdelsetcols:t conexclop:t conbin:t", nil)
	defSystem(pc, "pg_index", 2610, 'r', "indexrelid:o indrelid:o indnatts:h indnkeyatts:h indisunique:b "+
		"indnullsnotdistinct:b indisprimary:b indisexclusion:b indimmediate:b indisclustered:b indisvalid:b "+
		"indcheckxmin:b indisready:b indislive:b indisreplident:b indkey:t indcollation:t indclass:t indoption:t "+
		"indexprs:t indpred:t", nil)
	defSystem(pc, "pg_inherits", 2611, 'r', "inhrelid:o inhparent:o inhseqno:i inhdetachpending:b", nil)
	defSystem(pc, "pg_description", 2609, 'r', "objoid:o classoid:o objsubid:i description:t", nil)
	defSystem(pc, "pg_shdescription", 2396, 'r', "objoid:o classoid:o description:t", nil)
	defSystem(pc, "pg_depend", 2608, 'r', "classid:o objid:o objsubid:i refclassid:o refobjid:o refobjsubid:i deptype:c", nil)
	defSystem(pc, "pg_rewrite", 2618, 'r', "oid:o rulename:n ev_class:o ev_type:c ev_enabled:c is_instead:b ev_qual:t ev_action:t", nil)
	defSystem(pc, "pg_trigger", 2620, 'r', "oid:o tgrelid:o tgparentid:o tgname:n tgfoid:o tgtype:h tgenabled:c "+
		"tgisinternal:b tgconstrrelid:o tgconstrindid:o tgconstraint:o tgdeferrable:b tginitdeferred:b tgnargs:h "+
		"tgattr:t tgargs:t tgqual:t tgoldtable:n tgnewtable:n", nil)
	defSystem(pc, "pg_policy", 3256, 'r', "oid:o polname:n polrelid:o polcmd:c polpermissive:b polroles:t polqual:t polwithcheck:t", nil)
	defSystem(pc, "pg_statistic_ext", 3381, 'r', "oid:o stxrelid:o stxname:n stxnamespace:o stxowner:o "+
		"stxstattarget:i stxkeys:t stxkind:t stxexprs:t", nil)
	defSystem(pc, "pg_publication", 6104, 'r', "oid:o pubname:n pubowner:o puballtables:b pubinsert:b pubupdate:b "+
		"pubdelete:b pubtruncate:b pubviaroot:b", nil)
	defSystem(pc, "pg_publication_rel", 6106, 'r', "oid:o prpubid:o prrelid:o prqual:t prattrs:t", nil)
	defSystem(pc, "pg_publication_namespace", 6237, 'r', "oid:o pnpubid:o pnnspid:o", nil)
	defSystem(pc, "pg_range", 3541, 'r', "rngtypid:o rngsubtype:o rngmultitypid:o rngcollation:o rngsubopc:o "+
		"rngcanonical:t rngsubdiff:t", nil)
	defSystem(pc, "pg_enum", 3501, 'r', "oid:o enumtypid:o enumsortorder:f enumlabel:n", nil)
	defSystem(pc, "pg_extension", 3079, 'r', "oid:o extname:n extowner:o extnamespace:o extrelocatable:b "+
		"extversion:t extconfig:t extcondition:t", nil)
	defSystem(pc, "pg_sequence", 2224, 'r', "seqrelid:o seqtypid:o seqstart:l seqincrement:l seqmax:l seqmin:l "+
		"seqcache:l seqcycle:b", nil)
	defSystem(pc, "pg_foreign_table", 3118, 'r', "ftrelid:o ftserver:o ftoptions:t", nil)
	defSystem(pc, "pg_auth_members", 1261, 'r', "roleid:o member:o grantor:o admin_option:b", nil)
	defSystem(pc, "pg_proc", 1255, 'r', "oid:o proname:n pronamespace:o proowner:o prolang:o procost:f prorows:f "+
		"provariadic:o prosupport:t prokind:c prosecdef:b proleakproof:b proisstrict:b proretset:b provolatile:c "+
		"proparallel:c pronargs:h pronargdefaults:h prorettype:o proargtypes:t proallargtypes:t proargmodes:t "+
		"proargnames:t proargdefaults:t protrftypes:t prosrc:t probin:t prosqlbody:t proconfig:t proacl:t", nil)
	defSystem(pc, "pg_am", 2601, 'r', "oid:o amname:n amhandler:t amtype:c", func(*sysCtx) [][]any {
		return [][]any{
			{OIDAmHeap, "heap", "heap_tableam_handler", "t"},
			{OIDAmBtree, "btree", "bthandler", "i"},
			{OIDAmHash, "hash", "hashhandler", "i"},
		}
	})
	defSystem(pc, "pg_collation", 3456, 'r', "oid:o collname:n collnamespace:o collowner:o collprovider:c "+
		"collisdeterministic:b collencoding:i collcollate:t collctype:t colliculocale:t collversion:t",
		func(*sysCtx) [][]any {
			return [][]any{
				{OIDCollationDefault, "default", OIDNamespacePgCatalog, OIDBootstrapUser, "d", true, -1, nil, nil, nil, nil},
				{OIDCollationC, "C", OIDNamespacePgCatalog, OIDBootstrapUser, "c", true, -1, "C", "C", nil, nil},
				{OIDCollationPOSIX, "POSIX", OIDNamespacePgCatalog, OIDBootstrapUser, "c", true, -1, "POSIX", "POSIX", nil, nil},
			}
		})
	defSystem(pc, "pg_tablespace", 1213, 'r', "oid:o spcname:n spcowner:o spcacl:t spcoptions:t", func(*sysCtx) [][]any {
		return [][]any{
			{OIDTablespaceDefault, "pg_default", OIDBootstrapUser, nil, nil},
			{OIDTablespaceGlobal, "pg_global", OIDBootstrapUser, nil, nil},
		}
	})
	defSystem(pc, "pg_database", 1262, 'r', "oid:o datname:n datdba:o encoding:i datlocprovider:c datistemplate:b "+
		"datallowconn:b datconnlimit:i datfrozenxid:l datminmxid:l dattablespace:o datcollate:t datctype:t "+
		"daticulocale:t datcollversion:t datacl:t", func(c *sysCtx) [][]any {
		// joind answers to any database name: the current one is the only one.
		return [][]any{{OIDDatabase, c.env.database(), OIDBootstrapUser, 6, "c", false,
			true, -1, 0, 1, OIDTablespaceDefault, "C.UTF-8", "C.UTF-8", nil, nil, nil}}
	})
	roleCols := "rolname:n rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b rolcanlogin:b rolreplication:b " +
		"rolconnlimit:i rolpassword:t rolvaliduntil:z rolbypassrls:b rolconfig:t oid:o"
	roleRows := func(c *sysCtx) [][]any {
		return [][]any{{c.env.user(), true, true, true, true, true, true, -1, "********", nil, true, nil, OIDBootstrapUser}}
	}
	defSystem(pc, "pg_roles", 12000, 'v', roleCols, roleRows)
	defSystem(pc, "pg_authid", 1260, 'r', roleCols, roleRows)
	defSystem(pc, "pg_user", 12014, 'v', "usename:n usesysid:o usecreatedb:b usesuper:b userepl:b usebypassrls:b "+
		"passwd:t valuntil:z useconfig:t", func(c *sysCtx) [][]any {
		return [][]any{{c.env.user(), OIDBootstrapUser, true, true, true, true, "********", nil, nil}}
	})
	defSystem(pc, "pg_views", 12028, 'v', "schemaname:n viewname:n viewowner:n definition:t", func(c *sysCtx) [][]any {
		var out [][]any
		for _, v := range c.cat.Views() {
			out = append(out, []any{"public", v.Name, c.env.user(), " " + v.SQL + ";"})
		}
		return out
	})
	defSystem(pc, "pg_tables", 12033, 'v', "schemaname:n tablename:n tableowner:n tablespace:n hasindexes:b "+
		"hasrules:b hastriggers:b rowsecurity:b", func(c *sysCtx) [][]any {
		var out [][]any
		for _, r := range Relations(c.cat, c.env) {
			if r.Kind == 'r' {
				out = append(out, []any{r.Schema, r.Name, c.env.user(), nil, false, false, false, false})
			}
		}
		return out
	})
	defSystem(pc, "pg_matviews", 12043, 'v', "schemaname:n matviewname:n matviewowner:n tablespace:n hasindexes:b "+
		"ispopulated:b definition:t", nil)
	defSystem(pc, "pg_indexes", 12048, 'v', "schemaname:n tablename:n indexname:n tablespace:n indexdef:t", nil)
	defSystem(pc, "pg_settings", 12104, 'v', "name:t setting:t unit:t category:t short_desc:t extra_desc:t context:t "+
		"vartype:t source:t min_val:t max_val:t enumvals:t boot_val:t reset_val:t sourcefile:t sourceline:i "+
		"pending_restart:b", func(c *sysCtx) [][]any {
		if c.env == nil || c.env.Settings == nil {
			return nil
		}
		var out [][]any
		null := func(s string) any {
			if s == "" {
				return nil
			}
			return s
		}
		for _, s := range c.env.Settings() {
			out = append(out, []any{s.Name, s.Setting, null(s.Unit), s.Category, s.ShortDesc, nil, s.Context, s.Vartype,
				s.Source, null(s.MinVal), null(s.MaxVal), null(s.EnumVals), s.BootVal, s.ResetVal, nil, nil, false})
		}
		return out
	})

	const is = "information_schema"
	defSystem(is, "schemata", 13382, 'v', "catalog_name:t schema_name:t schema_owner:t default_character_set_catalog:t "+
		"default_character_set_schema:t default_character_set_name:t sql_path:t", func(c *sysCtx) [][]any {
		db, u := c.env.database(), c.env.user()
		return [][]any{
			{db, "information_schema", u, nil, nil, nil, nil},
			{db, "pg_catalog", u, nil, nil, nil, nil},
			{db, "pg_toast", u, nil, nil, nil, nil},
			{db, "public", "pg_database_owner", nil, nil, nil, nil},
		}
	})
	defSystem(is, "tables", 13425, 'v', "table_catalog:t table_schema:t table_name:t table_type:t "+
		"self_referencing_column_name:t reference_generation:t user_defined_type_catalog:t "+
		"user_defined_type_schema:t user_defined_type_name:t is_insertable_into:t is_typed:t commit_action:t",
		func(c *sysCtx) [][]any {
			var out [][]any
			for _, r := range Relations(c.cat, c.env) {
				typ, ins := "BASE TABLE", "YES"
				if r.Kind == 'v' {
					typ, ins = "VIEW", "NO"
				}
				if r.Temp {
					typ = "LOCAL TEMPORARY"
				} else if r.Schema != "public" && r.Kind == 'r' {
					ins = "NO"
				}
				out = append(out, []any{c.env.database(), r.Schema, r.Name, typ, nil, nil, nil, nil, nil, ins, "NO", nil})
			}
			return out
		})
	defSystem(is, "views", 13483, 'v', "table_catalog:t table_schema:t table_name:t view_definition:t check_option:t "+
		"is_updatable:t is_insertable_into:t is_trigger_updatable:t is_trigger_deletable:t "+
		"is_trigger_insertable_into:t", func(c *sysCtx) [][]any {
		var out [][]any
		for _, v := range c.cat.Views() {
			out = append(out, []any{c.env.database(), "public", v.Name, " " + v.SQL + ";", "NONE", "NO", "NO", "NO", "NO", "NO"})
		}
		return out
	})
	defSystem(is, "columns", 13295, 'v', "table_catalog:t table_schema:t table_name:t column_name:t "+
		"ordinal_position:i column_default:t is_nullable:t data_type:t character_maximum_length:i "+
		"character_octet_length:i numeric_precision:i numeric_precision_radix:i numeric_scale:i "+
		"datetime_precision:i interval_type:t interval_precision:i character_set_catalog:t "+
		"character_set_schema:t character_set_name:t collation_catalog:t collation_schema:t collation_name:t "+
		"domain_catalog:t domain_schema:t domain_name:t udt_catalog:t udt_schema:t udt_name:t scope_catalog:t "+
		"scope_schema:t scope_name:t maximum_cardinality:i dtd_identifier:t is_self_referencing:t is_identity:t "+
		"identity_generation:t identity_start:t identity_increment:t identity_maximum:t identity_minimum:t "+
		"identity_cycle:t is_generated:t generation_expression:t is_updatable:t",
		func(c *sysCtx) [][]any {
			var out [][]any
			for _, r := range Relations(c.cat, c.env) {
				for i, col := range r.Columns {
					out = append(out, infoColumn(c, r, i, col))
				}
			}
			return out
		})
	defSystem(is, "table_constraints", 13411, 'v', "constraint_catalog:t constraint_schema:t constraint_name:t "+
		"table_catalog:t table_schema:t table_name:t constraint_type:t is_deferrable:t initially_deferred:t "+
		"enforced:t nulls_distinct:t", nil)
	defSystem(is, "key_column_usage", 13360, 'v', "constraint_catalog:t constraint_schema:t constraint_name:t "+
		"table_catalog:t table_schema:t table_name:t column_name:t ordinal_position:i "+
		"position_in_unique_constraint:i", nil)
	defSystem(is, "referential_constraints", 13390, 'v', "constraint_catalog:t constraint_schema:t constraint_name:t "+
		"unique_constraint_catalog:t unique_constraint_schema:t unique_constraint_name:t match_option:t "+
		"update_rule:t delete_rule:t", nil)
	defSystem(is, "routines", 13400, 'v', "specific_catalog:t specific_schema:t specific_name:t routine_catalog:t "+
		"routine_schema:t routine_name:t routine_type:t data_type:t", nil)
}

// infoColumn is one row of information_schema.columns.
func infoColumn(c *sysCtx, r Relation, i int, col ColumnDef) []any {
	t := col.Type
	nullable := "YES"
	if col.NotNull {
		nullable = "NO"
	}
	var def any
	if col.Default != "" {
		s := col.Default
		if c.env != nil && c.env.FormatDefault != nil {
			s = c.env.FormatDefault(s, t)
		}
		def = s
	}
	var charMax, octet, prec, radix, scale, dtPrec any
	switch t.ID {
	case types.Varchar, types.Char, types.Text:
		if n := t.CharLen(); n >= 0 {
			charMax, octet = n, n*4
		} else if t.ID == types.Char {
			charMax, octet = 1, 4
		} else {
			octet = 1073741824
		}
	case types.Int2:
		prec, radix, scale = 16, 2, 0
	case types.Int4:
		prec, radix, scale = 32, 2, 0
	case types.Int8:
		prec, radix, scale = 64, 2, 0
	case types.Float4:
		prec, radix = 24, 2
	case types.Float8:
		prec, radix = 53, 2
	case types.Numeric:
		radix = 10
		if p, s, ok := types.NumericPrecScale(t.Typmod); ok {
			prec, scale = p, s
		}
	case types.Date:
		dtPrec = 0
	case types.Timestamp, types.TimestampTZ, types.Interval:
		dtPrec = 6
		if t.ID != types.Interval && t.Typmod >= 0 {
			dtPrec = int(t.Typmod)
		}
	}
	db := c.env.database()
	return []any{db, r.Schema, r.Name, col.Name,
		i + 1, def, nullable, t.BaseSQLName(), charMax,
		octet, prec, radix, scale,
		dtPrec, nil, nil, nil,
		nil, nil, nil, nil, nil,
		nil, nil, nil, db, "pg_catalog", t.PgTypeName(), nil,
		nil, nil, nil, strconv.Itoa(i + 1), "NO", "NO",
		nil, nil, nil, nil, nil,
		"NO", "NEVER", nil, map[bool]string{true: "YES", false: "NO"}[r.Kind == 'r' && (r.Schema == "public" || r.Temp)]}
}
