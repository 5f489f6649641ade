package pgcatalog

// pg_catalog's relations: the columns clients read, in PostgreSQL 15's
// order, and how their rows derive from the catalog. A relation declared
// without rows is one joind keeps empty (no constraints, indexes,
// triggers, rules, comments, policies, publications, ...).

import "github.com/joind/joind/types"

const pc = "pg_catalog"

func declarePgCatalog() {
	declare(pc, "pg_namespace", 2615, 'r', func(s *Snapshot) []pgNamespaceRow {
		var out []pgNamespaceRow
		for _, n := range s.Namespaces() {
			row := pgNamespaceRow{Oid: OID(n.OID), Nspname: Name(n.Name), Nspowner: OID(n.Owner)}
			// The built-in schemas' privileges as initdb grants them
			// (a created schema has the default: NULL).
			switch {
			case n.OID == OIDNamespacePublic && s.ACLText(n.OID, allSchemaPrivs, 0) != nil:
				row.Nspacl = s.ACLText(n.OID, allSchemaPrivs, 0) // roles.go
			case n.OID == OIDNamespacePgCatalog, n.OID == OIDNamespaceInfoSchema, n.OID == OIDNamespacePublic:
				owner := QuoteIdentifier(s.RoleName(n.Owner))
				acl := "{" + owner + "=UC/" + owner + ",=U/" + owner + "}"
				row.Nspacl = &acl
			case n.Kind == NsUser:
				row.Nspacl = s.ACLText(n.OID, allSchemaPrivs, 0)
			}
			out = append(out, row)
		}
		return out
	})
	declare(pc, "pg_class", 1259, 'r', func(s *Snapshot) []pgClassRow {
		var out []pgClassRow
		for _, r := range s.Relations() {
			row := pgClassRow{Oid: r.OID, Relname: r.Name, Relnamespace: r.Namespace, Relowner: OID(s.ownerOf(r.OID)),
				Relam: OIDAmHeap, Relfilenode: r.OID, Reltuples: float32(r.Rows), Relpersistence: 'p', Relkind: r.Kind,
				Relnatts: int16(len(r.Columns) + len(r.Dropped)), Relhasrules: r.Kind == 'v', Relispopulated: true, Relreplident: 'd'}
			switch {
			case r.Kind == 'v' || r.Kind == 'S':
				row.Relam = 0
			case r.Kind == 'c':
				row.Relam, row.Relfilenode, row.Reltype = 0, 0, OID(r.Type)
			case r.Index != nil:
				row.Relam = amOID(r.Index.Def.Method)
				if row.Relam == OIDAmBtree {
					// A btree has its metapage from the start: PostgreSQL's
					// relpages of one built on an empty table, until VACUUM
					// or ANALYZE counts again (joind counts no pages).
					row.Relpages = 1
				}
			}
			if rt := rowTypeOf(r); rt.ok {
				row.Reltype = OID(rt.oid) // usertypes_composite.go
			}
			row.Relhasindex = r.HasIndex
			if r.OID >= FirstUserOID && !r.Temp {
				row.Relacl = s.ACLText(r.OID, allTablePrivs, 0) // roles.go
			}
			if r.Temp {
				row.Relpersistence = 't'
			}
			row.Relchecks, row.Relhastriggers = s.constraintFlags(r) // constraint.go
			out = append(out, row)
		}
		return out
	})
	declare(pc, "pg_attribute", 1249, 'r', func(s *Snapshot) []pgAttributeRow {
		var out []pgAttributeRow
		for _, r := range s.Relations() {
			for i, col := range r.Columns {
				st, _ := TypeByOID(col.Type.OID())
				row := pgAttributeRow{Attrelid: r.OID, Attname: col.Name, Atttypid: col.Type.CatalogOID(), Attstattarget: -1,
					Attlen: st.Len, Attnum: r.Attnum(i), Attcacheoff: -1, Atttypmod: col.Type.Typmod,
					Attbyval: st.Len > 0 && st.Len <= 8, Attalign: st.Align, Attstorage: 'p', Attnotnull: col.NotNull,
					Atthasdef: col.Default != "" && col.Identity == 0, Attidentity: Char(col.Identity), Attislocal: true}
				row.Attcollation = st.Collation
				row.Attacl = s.columnACLText(r.OID, r.Attnum(i)) // roles.go
				if r.Foreign != nil {
					row.Attfdwoptions = optionArray(r.Foreign.ColumnOptions[col.Name]) // foreign.go
				}
				if len(st.row) > ptStorage && st.row[ptStorage] != "" {
					row.Attstorage = Char(st.row[ptStorage][0]) // typstorage: numeric's is main
				} else if st.Len < 0 {
					row.Attstorage = 'x'
				}
				out = append(out, row)
			}
			out = append(out, systemAttributes(r)...)
			for _, col := range r.Dropped {
				// As PostgreSQL's RemoveAttributeById leaves the row.
				st, _ := TypeByOID(col.Type.OID())
				out = append(out, pgAttributeRow{Attrelid: r.OID, Attname: col.Name, Attlen: st.Len, Attnum: col.Attnum,
					Attcacheoff: -1, Atttypmod: -1, Attbyval: st.Len > 0 && st.Len <= 8, Attalign: st.Align, Attstorage: 'p',
					Attisdropped: true, Attislocal: true})
			}
		}
		return out
	})
	declare(pc, "pg_type", 1247, 'r', func(s *Snapshot) []pgTypeRow {
		var out []pgTypeRow
		for _, t := range SystemTypes {
			row := pgTypeRowOf(t.row)
			row.Typarray = OID(t.Array) // 0 when joind lacks the array type
			out = append(out, row)
		}
		for _, r := range pseudoTypes {
			out = append(out, pgTypeRowOf(r))
		}
		return append(out, userTypeRows(s)...) // usertypes.go
	})
	declare(pc, "pg_attrdef", 2604, 'r', func(s *Snapshot) []pgAttrdefRow {
		var out []pgAttrdefRow
		for _, r := range s.Relations() {
			for i, col := range r.Columns {
				if col.Default == "" || col.Identity != 0 {
					continue
				}
				// The default's own OID: beside its table's, never a relation's.
				out = append(out, pgAttrdefRow{Oid: int64(r.OID)<<16 | int64(r.Attnum(i)), Adrelid: r.OID, Adnum: r.Attnum(i),
					Adbin: s.regclassNames(FormatDefault(col.Default, col.Type))})
			}
		}
		return out
	})
	declare(pc, "pg_constraint", 2606, 'r', pgConstraintRows) // constraint.go
	declare(pc, "pg_index", 2610, 'r', pgIndexRows)
	declare[pgInheritsRow](pc, "pg_inherits", 2611, 'r', nil)
	declare(pc, "pg_description", 2609, 'r', func(s *Snapshot) []pgDescriptionRow {
		var out []pgDescriptionRow
		for _, r := range s.Relations() {
			if r.Comment != "" {
				out = append(out, pgDescriptionRow{Objoid: r.OID, Classoid: OIDPgClass, Description: r.Comment})
			}
			for i, c := range r.Columns {
				if c.Comment != "" {
					out = append(out, pgDescriptionRow{Objoid: r.OID, Classoid: OIDPgClass, Objsubid: int32(r.Attnum(i)), Description: c.Comment})
				}
			}
		}
		out = append(out, userTypeDescriptions(s)...) // usertypes.go
		// The listed built-in functions' comments, as PostgreSQL's
		// (pgjdbc's getFunctions joins pg_description for REMARKS).
		for _, r := range builtinRoutines().procs {
			if d := r[ppDescription]; d != `\N` && d != "" {
				out = append(out, pgDescriptionRow{Objoid: parseOID(r[ppOID]), Classoid: OIDPgProc, Description: d})
			}
		}
		// The extensions' comments (their control files').
		out = append(out, pgDescriptionRow{Objoid: OIDExtPlpgsql, Classoid: OIDPgExtension, Description: "PL/pgSQL procedural language"},
			pgDescriptionRow{Objoid: OIDExtPgStatStatements, Classoid: OIDPgExtension,
				Description: "track planning and execution statistics of all SQL statements executed"})
		return out
	})
	declare[pgShdescriptionRow](pc, "pg_shdescription", 2396, 'r', nil)
	// No GRANT on a parameter: no rows (psql's \dconfig+ reads it).
	declare[pgParameterAclRow](pc, "pg_parameter_acl", 6243, 'r', nil)
	declare(pc, "pg_depend", 2608, 'r', dependRows)
	declare[pgRewriteRow](pc, "pg_rewrite", 2618, 'r', nil)
	declare[pgTriggerRow](pc, "pg_trigger", 2620, 'r', nil)
	declare[pgPolicyRow](pc, "pg_policy", 3256, 'r', nil)
	declare[pgStatisticExtRow](pc, "pg_statistic_ext", 3381, 'r', nil)
	declare[pgPublicationRow](pc, "pg_publication", 6104, 'r', nil)
	declare[pgPublicationRelRow](pc, "pg_publication_rel", 6106, 'r', nil)
	declare[pgPublicationNamespaceRow](pc, "pg_publication_namespace", 6237, 'r', nil)
	declare[pgRangeRow](pc, "pg_range", 3541, 'r', nil)
	declare(pc, "pg_enum", 3501, 'r', pgEnumRows) // usertypes.go
	// pg_stat_statements is always there (stats.go): tools look for it
	// here before they read its view.
	declare(pc, "pg_extension", 3079, 'r', pgExtensionRows)
	declareForeign() // foreign.go
	declare(pc, "pg_sequence", 2224, 'r', sequenceRows)
	declare(pc, "pg_auth_members", 1261, 'r', (*Snapshot).authMembersRows)
	declare(pc, "pg_am", 2601, 'r', func(*Snapshot) []pgAmRow {
		return []pgAmRow{
			{Oid: OIDAmHeap, Amname: "heap", Amhandler: "heap_tableam_handler", Amtype: 't'},
			{Oid: OIDAmBtree, Amname: "btree", Amhandler: "bthandler", Amtype: 'i'},
			{Oid: OIDAmHash, Amname: "hash", Amhandler: "hashhandler", Amtype: 'i'},
		}
	})
	declare(pc, "pg_collation", 3456, 'r', func(*Snapshot) []pgCollationRow {
		c, posix := "C", "POSIX"
		return []pgCollationRow{
			{Oid: OIDCollationDefault, Collname: "default", Collnamespace: OIDNamespacePgCatalog, Collowner: OIDBootstrapUser,
				Collprovider: 'd', Collisdeterministic: true, Collencoding: -1},
			{Oid: OIDCollationC, Collname: "C", Collnamespace: OIDNamespacePgCatalog, Collowner: OIDBootstrapUser,
				Collprovider: 'c', Collisdeterministic: true, Collencoding: -1, Collcollate: &c, Collctype: &c},
			{Oid: OIDCollationPOSIX, Collname: "POSIX", Collnamespace: OIDNamespacePgCatalog, Collowner: OIDBootstrapUser,
				Collprovider: 'c', Collisdeterministic: true, Collencoding: -1, Collcollate: &posix, Collctype: &posix},
		}
	})
	declare(pc, "pg_tablespace", 1213, 'r', func(*Snapshot) []pgTablespaceRow {
		return []pgTablespaceRow{
			{Oid: OIDTablespaceDefault, Spcname: "pg_default", Spcowner: OIDBootstrapUser},
			{Oid: OIDTablespaceGlobal, Spcname: "pg_global", Spcowner: OIDBootstrapUser},
		}
	})
	declare(pc, "pg_database", 1262, 'r', func(s *Snapshot) []pgDatabaseRow {
		// joind answers to any database name, all of them the one catalog:
		// it lists PostgreSQL's three databases of a fresh cluster and the
		// current one.
		var out []pgDatabaseRow
		for _, name := range databaseNames(s.database()) {
			row := pgDatabaseRow{Oid: DatabaseOID(name), Datname: name, Datdba: OIDBootstrapUser, Encoding: 6,
				Datlocprovider: 'c', Datallowconn: name != "template0", Datconnlimit: -1, Datminmxid: 1, Datfrozenxid: types.FirstNormalXid,
				Dattablespace: OIDTablespaceDefault, Datcollate: "C.UTF-8", Datctype: "C.UTF-8",
				Datistemplate: name == "template0" || name == "template1"}
			if row.Datistemplate {
				acl := "{=c/" + s.user() + "," + s.user() + "=CTc/" + s.user() + "}"
				row.Datacl = &acl
			}
			out = append(out, row)
		}
		return out
	})
	roles := (*Snapshot).roleRows // roles.go
	declare(pc, "pg_roles", 12000, 'v', roles)
	declare(pc, "pg_authid", 1260, 'r', roles)
	declare(pc, "pg_user", 12014, 'v', (*Snapshot).userRows)
	declare(pc, "pg_views", 12028, 'v', func(s *Snapshot) []pgViewsRow {
		var out []pgViewsRow
		for _, v := range s.cat.Views() {
			ns, name := s.namespaceOfKey(v.Name)
			out = append(out, pgViewsRow{Schemaname: Name(ns.Name), Viewname: Name(name), Viewowner: Name(s.RoleName(s.ownerOf(ViewOID(v)))), Definition: s.ViewDef(v, false)})
		}
		return out
	})
	declare(pc, "pg_tables", 12033, 'v', func(s *Snapshot) []pgTablesRow {
		var out []pgTablesRow
		for _, r := range s.Relations() {
			if r.Kind == 'r' {
				out = append(out, pgTablesRow{Schemaname: r.Schema, Tablename: r.Name, Tableowner: Name(s.RoleName(s.ownerOf(r.OID)))})
			}
		}
		return out
	})
	declare[pgMatviewsRow](pc, "pg_matviews", 12038, 'v', nil)
	declare(pc, "pg_indexes", 12043, 'v', pgIndexesRows)
}

// pgNamespaceRow is a row of pg_catalog.pg_namespace.
type pgNamespaceRow struct {
	Oid      OID     `pg:"oid"`
	Nspname  Name    `pg:"nspname" type:"name"`
	Nspowner OID     `pg:"nspowner"`
	Nspacl   *string `pg:"nspacl"`
}

// pgClassRow is a row of pg_catalog.pg_class.
type pgClassRow struct {
	Oid                 OID       `pg:"oid"`
	Relname             Name      `pg:"relname" type:"name"`
	Relnamespace        OID       `pg:"relnamespace"`
	Reltype             OID       `pg:"reltype"`
	Reloftype           OID       `pg:"reloftype"`
	Relowner            OID       `pg:"relowner"`
	Relam               OID       `pg:"relam"`
	Relfilenode         OID       `pg:"relfilenode"`
	Reltablespace       OID       `pg:"reltablespace"`
	Relpages            int32     `pg:"relpages"`
	Reltuples           float32   `pg:"reltuples"`
	Relallvisible       int32     `pg:"relallvisible"`
	Reltoastrelid       OID       `pg:"reltoastrelid"`
	Relhasindex         bool      `pg:"relhasindex"`
	Relisshared         bool      `pg:"relisshared"`
	Relpersistence      Char      `pg:"relpersistence"`
	Relkind             Char      `pg:"relkind"`
	Relnatts            int16     `pg:"relnatts"`
	Relchecks           int16     `pg:"relchecks"`
	Relhasrules         bool      `pg:"relhasrules"`
	Relhastriggers      bool      `pg:"relhastriggers"`
	Relhassubclass      bool      `pg:"relhassubclass"`
	Relrowsecurity      bool      `pg:"relrowsecurity"`
	Relforcerowsecurity bool      `pg:"relforcerowsecurity"`
	Relispopulated      bool      `pg:"relispopulated"`
	Relreplident        Char      `pg:"relreplident"`
	Relispartition      bool      `pg:"relispartition"`
	Relrewrite          OID       `pg:"relrewrite"`
	Relfrozenxid        int64     `pg:"relfrozenxid"`
	Relminmxid          int64     `pg:"relminmxid"`
	Relacl              *string   `pg:"relacl"`
	Reloptions          *[]string `pg:"reloptions"` // text[]: joind keeps no storage options (NULL)
	Relpartbound        *string   `pg:"relpartbound"`
}

// pgAttributeRow is a row of pg_catalog.pg_attribute.
type pgAttributeRow struct {
	Attrelid       OID       `pg:"attrelid"`
	Attname        Name      `pg:"attname" type:"name"`
	Atttypid       OID       `pg:"atttypid"`
	Attstattarget  int32     `pg:"attstattarget"`
	Attlen         int16     `pg:"attlen"`
	Attnum         int16     `pg:"attnum"`
	Attndims       int32     `pg:"attndims"`
	Attcacheoff    int32     `pg:"attcacheoff"`
	Atttypmod      int32     `pg:"atttypmod"`
	Attbyval       bool      `pg:"attbyval"`
	Attalign       Char      `pg:"attalign"`
	Attstorage     Char      `pg:"attstorage"`
	Attcompression Char      `pg:"attcompression"`
	Attnotnull     bool      `pg:"attnotnull"`
	Atthasdef      bool      `pg:"atthasdef"`
	Atthasmissing  bool      `pg:"atthasmissing"`
	Attidentity    Char      `pg:"attidentity"`
	Attgenerated   Char      `pg:"attgenerated"`
	Attisdropped   bool      `pg:"attisdropped"`
	Attislocal     bool      `pg:"attislocal"`
	Attinhcount    int32     `pg:"attinhcount"`
	Attcollation   OID       `pg:"attcollation"`
	Attacl         *string   `pg:"attacl"`
	Attoptions     *string   `pg:"attoptions"`
	Attfdwoptions  *[]string `pg:"attfdwoptions"`
	Attmissingval  *string   `pg:"attmissingval"`
}

// systemColumns are the system columns PostgreSQL's heap.c (SysAtt)
// gives every relation with storage, attnum -1 to -6: name, type OID,
// length, byval, align.
var systemColumns = []struct {
	name  string
	typ   OID
	len   int16
	byval bool
	align Char
}{
	{"ctid", 27, 6, false, 's'}, {"xmin", 28, 4, true, 'i'}, {"cmin", 29, 4, true, 'i'},
	{"xmax", 28, 4, true, 'i'}, {"cmax", 29, 4, true, 'i'}, {"tableoid", 26, 4, true, 'i'},
}

// systemAttributes are pg_attribute's rows of relation r's system
// columns: a table's, sequence's or foreign table's (a view, composite
// type or index has none), as PostgreSQL's AddNewAttributeTuples lists
// them.
func systemAttributes(r Relation) []pgAttributeRow {
	switch {
	case r.Index != nil:
		return nil
	case r.Kind != 'r' && r.Kind != 'S' && r.Kind != 'f' && r.Kind != 'm' && r.Kind != 'p':
		return nil
	}
	out := make([]pgAttributeRow, len(systemColumns))
	for i, c := range systemColumns {
		out[i] = pgAttributeRow{Attrelid: r.OID, Attname: c.name, Atttypid: c.typ, Attlen: c.len, Attnum: int16(-1 - i),
			Attcacheoff: -1, Atttypmod: -1, Attbyval: c.byval, Attalign: c.align, Attstorage: 'p', Attnotnull: true,
			Attislocal: true}
	}
	return out
}

// pgTypeRow is a row of pg_catalog.pg_type.
type pgTypeRow struct {
	Oid            OID         `pg:"oid"`
	Typname        Name        `pg:"typname" type:"name"`
	Typnamespace   OID         `pg:"typnamespace"`
	Typowner       OID         `pg:"typowner"`
	Typlen         int16       `pg:"typlen"`
	Typbyval       bool        `pg:"typbyval"`
	Typtype        Char        `pg:"typtype"`
	Typcategory    Char        `pg:"typcategory"`
	Typispreferred bool        `pg:"typispreferred"`
	Typisdefined   bool        `pg:"typisdefined"`
	Typdelim       Char        `pg:"typdelim"`
	Typrelid       OID         `pg:"typrelid"`
	Typsubscript   string      `pg:"typsubscript"`
	Typelem        OID         `pg:"typelem"`
	Typarray       OID         `pg:"typarray"`
	Typinput       RegProcName `pg:"typinput"`
	Typoutput      RegProcName `pg:"typoutput"`
	Typreceive     RegProcName `pg:"typreceive"`
	Typsend        RegProcName `pg:"typsend"`
	Typmodin       string      `pg:"typmodin"`
	Typmodout      string      `pg:"typmodout"`
	Typanalyze     string      `pg:"typanalyze"`
	Typalign       Char        `pg:"typalign"`
	Typstorage     Char        `pg:"typstorage"`
	Typnotnull     bool        `pg:"typnotnull"`
	Typbasetype    OID         `pg:"typbasetype"`
	Typtypmod      int32       `pg:"typtypmod"`
	Typndims       int32       `pg:"typndims"`
	Typcollation   OID         `pg:"typcollation"`
	Typdefaultbin  *string     `pg:"typdefaultbin"`
	Typdefault     *string     `pg:"typdefault"`
	Typacl         *string     `pg:"typacl"`
}

// pgAttrdefRow is a row of pg_catalog.pg_attrdef.
type pgAttrdefRow struct {
	Oid     int64  `pg:"oid"` // beside its table's OID, which it can exceed
	Adrelid OID    `pg:"adrelid"`
	Adnum   int16  `pg:"adnum"`
	Adbin   string `pg:"adbin"`
}

// pgConstraintRow is a row of pg_catalog.pg_constraint.
type pgConstraintRow struct {
	Oid            OID      `pg:"oid"`
	Conname        Name     `pg:"conname" type:"name"`
	Connamespace   OID      `pg:"connamespace"`
	Contype        Char     `pg:"contype"`
	Condeferrable  bool     `pg:"condeferrable"`
	Condeferred    bool     `pg:"condeferred"`
	Convalidated   bool     `pg:"convalidated"`
	Conrelid       OID      `pg:"conrelid"`
	Contypid       OID      `pg:"contypid"`
	Conindid       OID      `pg:"conindid"`
	Conparentid    OID      `pg:"conparentid"`
	Confrelid      OID      `pg:"confrelid"`
	Confupdtype    Char     `pg:"confupdtype"`
	Confdeltype    Char     `pg:"confdeltype"`
	Confmatchtype  Char     `pg:"confmatchtype"`
	Conislocal     bool     `pg:"conislocal"`
	Coninhcount    int32    `pg:"coninhcount"`
	Connoinherit   bool     `pg:"connoinherit"`
	Conkey         *[]int16 `pg:"conkey"`
	Confkey        *[]int16 `pg:"confkey"`
	Conpfeqop      *[]OID   `pg:"conpfeqop"`
	Conppeqop      *[]OID   `pg:"conppeqop"`
	Conffeqop      *[]OID   `pg:"conffeqop"`
	Confdelsetcols *[]int16 `pg:"confdelsetcols"`
	Conexclop      *[]OID   `pg:"conexclop"`
	Conbin         string   `pg:"conbin"`
}

// pgIndexRow is a row of pg_catalog.pg_index.
type pgIndexRow struct {
	Indexrelid          OID        `pg:"indexrelid"`
	Indrelid            OID        `pg:"indrelid"`
	Indnatts            int16      `pg:"indnatts"`
	Indnkeyatts         int16      `pg:"indnkeyatts"`
	Indisunique         bool       `pg:"indisunique"`
	Indnullsnotdistinct bool       `pg:"indnullsnotdistinct"`
	Indisprimary        bool       `pg:"indisprimary"`
	Indisexclusion      bool       `pg:"indisexclusion"`
	Indimmediate        bool       `pg:"indimmediate"`
	Indisclustered      bool       `pg:"indisclustered"`
	Indisvalid          bool       `pg:"indisvalid"`
	Indcheckxmin        bool       `pg:"indcheckxmin"`
	Indisready          bool       `pg:"indisready"`
	Indislive           bool       `pg:"indislive"`
	Indisreplident      bool       `pg:"indisreplident"`
	Indkey              Int2Vector `pg:"indkey"`
	Indcollation        OIDVector  `pg:"indcollation"`
	Indclass            OIDVector  `pg:"indclass"`
	Indoption           Int2Vector `pg:"indoption"`
	Indexprs            *string    `pg:"indexprs"`
	Indpred             *string    `pg:"indpred"`
}

// pgInheritsRow is a row of pg_catalog.pg_inherits.
type pgInheritsRow struct {
	Inhrelid         OID   `pg:"inhrelid"`
	Inhparent        OID   `pg:"inhparent"`
	Inhseqno         int32 `pg:"inhseqno"`
	Inhdetachpending bool  `pg:"inhdetachpending"`
}

// pgDescriptionRow is a row of pg_catalog.pg_description.
type pgDescriptionRow struct {
	Objoid      OID    `pg:"objoid"`
	Classoid    OID    `pg:"classoid"`
	Objsubid    int32  `pg:"objsubid"`
	Description string `pg:"description"`
}

// pgShdescriptionRow is a row of pg_catalog.pg_shdescription.
type pgShdescriptionRow struct {
	Objoid      OID    `pg:"objoid"`
	Classoid    OID    `pg:"classoid"`
	Description string `pg:"description"`
}

// pgParameterAclRow is a row of pg_catalog.pg_parameter_acl.
type pgParameterAclRow struct {
	Oid     OID     `pg:"oid"`
	Parname string  `pg:"parname"`
	Paracl  *string `pg:"paracl"`
}

// pgDependRow is a row of pg_catalog.pg_depend.
type pgDependRow struct {
	Classid     OID   `pg:"classid"`
	Objid       OID   `pg:"objid"`
	Objsubid    int32 `pg:"objsubid"`
	Refclassid  OID   `pg:"refclassid"`
	Refobjid    OID   `pg:"refobjid"`
	Refobjsubid int32 `pg:"refobjsubid"`
	Deptype     Char  `pg:"deptype"`
}

// pgRewriteRow is a row of pg_catalog.pg_rewrite.
type pgRewriteRow struct {
	Oid       OID    `pg:"oid"`
	Rulename  Name   `pg:"rulename" type:"name"`
	EvClass   OID    `pg:"ev_class"`
	EvType    Char   `pg:"ev_type"`
	EvEnabled Char   `pg:"ev_enabled"`
	IsInstead bool   `pg:"is_instead"`
	EvQual    string `pg:"ev_qual"`
	EvAction  string `pg:"ev_action"`
}

// pgTriggerRow is a row of pg_catalog.pg_trigger.
type pgTriggerRow struct {
	Oid            OID        `pg:"oid"`
	Tgrelid        OID        `pg:"tgrelid"`
	Tgparentid     OID        `pg:"tgparentid"`
	Tgname         Name       `pg:"tgname" type:"name"`
	Tgfoid         OID        `pg:"tgfoid"`
	Tgtype         int16      `pg:"tgtype"`
	Tgenabled      Char       `pg:"tgenabled"`
	Tgisinternal   bool       `pg:"tgisinternal"`
	Tgconstrrelid  OID        `pg:"tgconstrrelid"`
	Tgconstrindid  OID        `pg:"tgconstrindid"`
	Tgconstraint   OID        `pg:"tgconstraint"`
	Tgdeferrable   bool       `pg:"tgdeferrable"`
	Tginitdeferred bool       `pg:"tginitdeferred"`
	Tgnargs        int16      `pg:"tgnargs"`
	Tgattr         Int2Vector `pg:"tgattr"`
	Tgargs         string     `pg:"tgargs"`
	Tgqual         string     `pg:"tgqual"`
	Tgoldtable     Name       `pg:"tgoldtable" type:"name"`
	Tgnewtable     Name       `pg:"tgnewtable" type:"name"`
}

// pgPolicyRow is a row of pg_catalog.pg_policy.
type pgPolicyRow struct {
	Oid           OID    `pg:"oid"`
	Polname       Name   `pg:"polname" type:"name"`
	Polrelid      OID    `pg:"polrelid"`
	Polcmd        Char   `pg:"polcmd"`
	Polpermissive bool   `pg:"polpermissive"`
	Polroles      string `pg:"polroles"`
	Polqual       string `pg:"polqual"`
	Polwithcheck  string `pg:"polwithcheck"`
}

// pgStatisticExtRow is a row of pg_catalog.pg_statistic_ext.
type pgStatisticExtRow struct {
	Oid           OID        `pg:"oid"`
	Stxrelid      OID        `pg:"stxrelid"`
	Stxname       Name       `pg:"stxname" type:"name"`
	Stxnamespace  OID        `pg:"stxnamespace"`
	Stxowner      OID        `pg:"stxowner"`
	Stxstattarget int32      `pg:"stxstattarget"`
	Stxkeys       Int2Vector `pg:"stxkeys"`
	Stxkind       string     `pg:"stxkind"`
	Stxexprs      string     `pg:"stxexprs"`
}

// pgPublicationRow is a row of pg_catalog.pg_publication.
type pgPublicationRow struct {
	Oid          OID  `pg:"oid"`
	Pubname      Name `pg:"pubname" type:"name"`
	Pubowner     OID  `pg:"pubowner"`
	Puballtables bool `pg:"puballtables"`
	Pubinsert    bool `pg:"pubinsert"`
	Pubupdate    bool `pg:"pubupdate"`
	Pubdelete    bool `pg:"pubdelete"`
	Pubtruncate  bool `pg:"pubtruncate"`
	Pubviaroot   bool `pg:"pubviaroot"`
}

// pgPublicationRelRow is a row of pg_catalog.pg_publication_rel.
type pgPublicationRelRow struct {
	Oid     OID      `pg:"oid"`
	Prpubid OID      `pg:"prpubid"`
	Prrelid OID      `pg:"prrelid"`
	Prqual  string   `pg:"prqual"`
	Prattrs *[]int16 `pg:"prattrs"` // int2vector in PostgreSQL
}

// pgPublicationNamespaceRow is a row of pg_catalog.pg_publication_namespace.
type pgPublicationNamespaceRow struct {
	Oid     OID `pg:"oid"`
	Pnpubid OID `pg:"pnpubid"`
	Pnnspid OID `pg:"pnnspid"`
}

// pgRangeRow is a row of pg_catalog.pg_range.
type pgRangeRow struct {
	Rngtypid      OID    `pg:"rngtypid"`
	Rngsubtype    OID    `pg:"rngsubtype"`
	Rngmultitypid OID    `pg:"rngmultitypid"`
	Rngcollation  OID    `pg:"rngcollation"`
	Rngsubopc     OID    `pg:"rngsubopc"`
	Rngcanonical  string `pg:"rngcanonical"`
	Rngsubdiff    string `pg:"rngsubdiff"`
}

// pgEnumRow is a row of pg_catalog.pg_enum.
type pgEnumRow struct {
	Oid           OID     `pg:"oid"`
	Enumtypid     OID     `pg:"enumtypid"`
	Enumsortorder float32 `pg:"enumsortorder"`
	Enumlabel     Name    `pg:"enumlabel" type:"name"`
}

// pgExtensionRow is a row of pg_catalog.pg_extension.
type pgExtensionRow struct {
	Oid            OID     `pg:"oid"`
	Extname        Name    `pg:"extname" type:"name"`
	Extowner       OID     `pg:"extowner"`
	Extnamespace   OID     `pg:"extnamespace"`
	Extrelocatable bool    `pg:"extrelocatable"`
	Extversion     string  `pg:"extversion"`
	Extconfig      *string `pg:"extconfig"`
	Extcondition   *string `pg:"extcondition"`
}

// pgSequenceRow is a row of pg_catalog.pg_sequence.
type pgSequenceRow struct {
	Seqrelid     OID   `pg:"seqrelid"`
	Seqtypid     OID   `pg:"seqtypid"`
	Seqstart     int64 `pg:"seqstart"`
	Seqincrement int64 `pg:"seqincrement"`
	Seqmax       int64 `pg:"seqmax"`
	Seqmin       int64 `pg:"seqmin"`
	Seqcache     int64 `pg:"seqcache"`
	Seqcycle     bool  `pg:"seqcycle"`
}

// pgAuthMembersRow is a row of pg_catalog.pg_auth_members.
type pgAuthMembersRow struct {
	Roleid      OID  `pg:"roleid"`
	Member      OID  `pg:"member"`
	Grantor     OID  `pg:"grantor"`
	AdminOption bool `pg:"admin_option"`
}

// pgAmRow is a row of pg_catalog.pg_am.
type pgAmRow struct {
	Oid       OID    `pg:"oid"`
	Amname    Name   `pg:"amname" type:"name"`
	Amhandler string `pg:"amhandler"`
	Amtype    Char   `pg:"amtype"`
}

// pgCollationRow is a row of pg_catalog.pg_collation.
type pgCollationRow struct {
	Oid                 OID     `pg:"oid"`
	Collname            Name    `pg:"collname" type:"name"`
	Collnamespace       OID     `pg:"collnamespace"`
	Collowner           OID     `pg:"collowner"`
	Collprovider        Char    `pg:"collprovider"`
	Collisdeterministic bool    `pg:"collisdeterministic"`
	Collencoding        int32   `pg:"collencoding"`
	Collcollate         *string `pg:"collcollate"`
	Collctype           *string `pg:"collctype"`
	Colliculocale       *string `pg:"colliculocale"`
	Collversion         *string `pg:"collversion"`
}

// pgTablespaceRow is a row of pg_catalog.pg_tablespace.
type pgTablespaceRow struct {
	Oid        OID     `pg:"oid"`
	Spcname    Name    `pg:"spcname" type:"name"`
	Spcowner   OID     `pg:"spcowner"`
	Spcacl     *string `pg:"spcacl"`
	Spcoptions *string `pg:"spcoptions"`
}

// pgDatabaseRow is a row of pg_catalog.pg_database.
type pgDatabaseRow struct {
	Oid            OID     `pg:"oid"`
	Datname        Name    `pg:"datname" type:"name"`
	Datdba         OID     `pg:"datdba"`
	Encoding       int32   `pg:"encoding"`
	Datlocprovider Char    `pg:"datlocprovider"`
	Datistemplate  bool    `pg:"datistemplate"`
	Datallowconn   bool    `pg:"datallowconn"`
	Datconnlimit   int32   `pg:"datconnlimit"`
	Datfrozenxid   XID     `pg:"datfrozenxid"`
	Datminmxid     XID     `pg:"datminmxid"`
	Dattablespace  OID     `pg:"dattablespace"`
	Datcollate     string  `pg:"datcollate"`
	Datctype       string  `pg:"datctype"`
	Daticulocale   *string `pg:"daticulocale"`
	Datcollversion *string `pg:"datcollversion"`
	Datacl         *string `pg:"datacl"`
}

// pgRoleRow is a row of pg_catalog.pg_roles and of pg_catalog.pg_authid.
type pgRoleRow struct {
	Rolname        Name    `pg:"rolname" type:"name"`
	Rolsuper       bool    `pg:"rolsuper"`
	Rolinherit     bool    `pg:"rolinherit"`
	Rolcreaterole  bool    `pg:"rolcreaterole"`
	Rolcreatedb    bool    `pg:"rolcreatedb"`
	Rolcanlogin    bool    `pg:"rolcanlogin"`
	Rolreplication bool    `pg:"rolreplication"`
	Rolconnlimit   int32   `pg:"rolconnlimit"`
	Rolpassword    string  `pg:"rolpassword"`
	Rolvaliduntil  *int64  `pg:"rolvaliduntil" type:"timestamptz"`
	Rolbypassrls   bool    `pg:"rolbypassrls"`
	Rolconfig      *string `pg:"rolconfig"`
	Oid            OID     `pg:"oid"`
}

// pgUserRow is a row of pg_catalog.pg_user.
type pgUserRow struct {
	Usename      Name    `pg:"usename" type:"name"`
	Usesysid     OID     `pg:"usesysid"`
	Usecreatedb  bool    `pg:"usecreatedb"`
	Usesuper     bool    `pg:"usesuper"`
	Userepl      bool    `pg:"userepl"`
	Usebypassrls bool    `pg:"usebypassrls"`
	Passwd       string  `pg:"passwd"`
	Valuntil     *int64  `pg:"valuntil" type:"timestamptz"`
	Useconfig    *string `pg:"useconfig"`
}

// pgViewsRow is a row of pg_catalog.pg_views.
type pgViewsRow struct {
	Schemaname Name   `pg:"schemaname" type:"name"`
	Viewname   Name   `pg:"viewname" type:"name"`
	Viewowner  Name   `pg:"viewowner" type:"name"`
	Definition string `pg:"definition"`
}

// pgTablesRow is a row of pg_catalog.pg_tables.
type pgTablesRow struct {
	Schemaname  Name  `pg:"schemaname" type:"name"`
	Tablename   Name  `pg:"tablename" type:"name"`
	Tableowner  Name  `pg:"tableowner" type:"name"`
	Tablespace  *Name `pg:"tablespace" type:"name"`
	Hasindexes  bool  `pg:"hasindexes"`
	Hasrules    bool  `pg:"hasrules"`
	Hastriggers bool  `pg:"hastriggers"`
	Rowsecurity bool  `pg:"rowsecurity"`
}

// pgMatviewsRow is a row of pg_catalog.pg_matviews.
type pgMatviewsRow struct {
	Schemaname   Name   `pg:"schemaname" type:"name"`
	Matviewname  Name   `pg:"matviewname" type:"name"`
	Matviewowner Name   `pg:"matviewowner" type:"name"`
	Tablespace   Name   `pg:"tablespace" type:"name"`
	Hasindexes   bool   `pg:"hasindexes"`
	Ispopulated  bool   `pg:"ispopulated"`
	Definition   string `pg:"definition"`
}

// pgIndexesRow is a row of pg_catalog.pg_indexes.
type pgIndexesRow struct {
	Schemaname Name   `pg:"schemaname" type:"name"`
	Tablename  Name   `pg:"tablename" type:"name"`
	Indexname  Name   `pg:"indexname" type:"name"`
	Tablespace *Name  `pg:"tablespace" type:"name"`
	Indexdef   string `pg:"indexdef"`
}

// pgExtensionRows are pg_extension's rows.
func pgExtensionRows(s *Snapshot) []pgExtensionRow {
	// initdb's plpgsql, the pg_stat_statements joind provides, then file_fdw once created.
	return append([]pgExtensionRow{{Oid: OIDExtPlpgsql, Extname: "plpgsql", Extowner: OIDBootstrapUser,
		Extnamespace: OIDNamespacePgCatalog, Extversion: "1.0"},
		{Oid: OIDExtPgStatStatements, Extname: "pg_stat_statements", Extowner: OIDBootstrapUser,
			Extnamespace: OIDNamespacePgCatalog, Extrelocatable: true, Extversion: PgStatStatementsVersion}}, foreignExtensionRows(s)...) // foreign.go
}
