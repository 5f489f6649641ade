package psqlmeta

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// clientQuery is one catalog query a client sends, as it sends it.
type clientQuery struct {
	Client string // the client and the call that sends the query
	// Setup creates the objects the query reads (run first on both servers).
	Setup []string
	// Query is the client's query as it sends it, except that "{oid}"
	// stands for the OID of relation OIDOf, which the client looked up
	// before (psql's \d sends the number).
	Query string
	OIDOf string
	// Unordered compares the rows as a set: the query has no ORDER BY,
	// so PostgreSQL promises no order.
	Unordered bool
	// UserOIDCols are columns holding OIDs of user objects, which differ
	// between the servers: a value from FirstNormalObjectId (16384) up
	// compares as "user oid".
	UserOIDCols []string
	// Subset requires every row joind answers to be one of PostgreSQL's
	// (same columns), where PostgreSQL's answer lists objects joind does
	// not have (the built-in types it lacks); Missing is how many rows
	// joind lacks, so the test notices when the gap changes.
	Subset  bool
	Missing int
}

// checkSubset is the Subset comparison of replay answers got and want.
func checkSubset(t *testing.T, sh clientQuery, got, want string) {
	t.Helper()
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if gl[0] != wl[0] {
		t.Fatalf("columns: joind %q, PostgreSQL %q", gl[0], wl[0])
	}
	in := map[string]int{}
	for _, l := range wl[1 : len(wl)-2] { // header, rows, "(n rows)", ""
		in[l]++
	}
	for _, l := range gl[1 : len(gl)-2] {
		if in[l] == 0 {
			t.Errorf("joind answers a row PostgreSQL does not: %s", l)
			continue
		}
		in[l]--
	}
	missing := 0
	for _, n := range in {
		missing += n
	}
	if missing != sh.Missing {
		t.Errorf("joind lacks %d of PostgreSQL's rows, the test expects %d (update Missing and the docs)", missing, sh.Missing)
	}
	t.Logf("%s: %d of PostgreSQL's %d rows, %d missing", sh.Client, len(gl)-3, len(wl)-3, missing)
}

// biSetup is the schema the BI tools' sync queries read: a table with a
// primary key, an enum column, a free-standing composite type and a view.
var biSetup = []string{
	"DROP VIEW IF EXISTS bi_v", "DROP TABLE IF EXISTS bi_lines", "DROP TABLE IF EXISTS bi_orders",
	"DROP TYPE IF EXISTS bi_mood", "DROP TYPE IF EXISTS bi_pair",
	"CREATE TYPE bi_mood AS ENUM ('sad', 'ok', 'happy')",
	"CREATE TYPE bi_pair AS (a int, b text)",
	"CREATE TABLE bi_orders (id int PRIMARY KEY, placed timestamp, total numeric(10,2), note varchar(40), m bi_mood, p bi_pair, tags text[])",
	"CREATE VIEW bi_v AS SELECT id, total FROM bi_orders",
}

// dbeaverSetup adds what DBeaver's navigator reads: keys, a CHECK, a
// foreign key, an index and comments.
var dbeaverSetup = []string{
	"DROP VIEW IF EXISTS bi_v", "DROP TABLE IF EXISTS bi_lines", "DROP TABLE IF EXISTS bi_orders",
	"DROP TYPE IF EXISTS bi_mood", "DROP TYPE IF EXISTS bi_pair",
	"CREATE TYPE bi_mood AS ENUM ('sad', 'ok', 'happy')",
	"CREATE TYPE bi_pair AS (a int, b text)",
	"CREATE TABLE bi_orders (id int PRIMARY KEY, placed timestamp DEFAULT now(), total numeric(10,2) CHECK (total >= 0), " +
		"note varchar(40) UNIQUE, m bi_mood, p bi_pair, tags text[])",
	"CREATE TABLE bi_lines (order_id int REFERENCES bi_orders (id), n int NOT NULL, PRIMARY KEY (order_id, n))",
	"CREATE INDEX bi_orders_placed ON bi_orders (placed)",
	"COMMENT ON TABLE bi_orders IS 'orders'",
	"COMMENT ON COLUMN bi_orders.total IS 'order total'",
	"CREATE VIEW bi_v AS SELECT id, total FROM bi_orders",
}

// grafanaSearchPath is Grafana's buildSchemaConstraint(): the tables of
// the schemas on the search path.
const grafanaSearchPath = `
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )`

// clientQueries are client catalog queries that once needed special rules
// in joind (arrays over empty catalogs, a window function over
// pg_attribute); they now run through the general SQL path and stay here
// so that they keep giving PostgreSQL's answer.
var clientQueries = []clientQuery{
	{Client: "psql 15 \\d pc_t (row-level security policies)",
		Setup: []string{"DROP TABLE IF EXISTS pc_t", "CREATE TABLE pc_t (a int, b text)"},
		OIDOf: "pc_t",
		Query: `SELECT pol.polname, pol.polpermissive,
  CASE WHEN pol.polroles = '{0}' THEN NULL ELSE pg_catalog.array_to_string(array(select rolname from pg_catalog.pg_roles where oid = any (pol.polroles) order by 1),',') END,
  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),
  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid),
  CASE pol.polcmd
    WHEN 'r' THEN 'SELECT'
    WHEN 'a' THEN 'INSERT'
    WHEN 'w' THEN 'UPDATE'
    WHEN 'd' THEN 'DELETE'
    END AS cmd
FROM pg_catalog.pg_policy pol
WHERE pol.polrelid = '{oid}' ORDER BY 1;`,
	},
	{Client: "psql 15 \\d pc_t (publications)",
		Setup: []string{"DROP TABLE IF EXISTS pc_t", "CREATE TABLE pc_t (a int, b text)"},
		OIDOf: "pc_t",
		Query: `SELECT pubname
     , NULL
     , NULL
FROM pg_catalog.pg_publication p
     JOIN pg_catalog.pg_publication_namespace pn ON p.oid = pn.pnpubid
     JOIN pg_catalog.pg_class pc ON pc.relnamespace = pn.pnnspid
WHERE pc.oid ='{oid}' and pg_catalog.pg_relation_is_publishable('{oid}')
UNION
SELECT pubname
     , pg_get_expr(pr.prqual, c.oid)
     , (CASE WHEN pr.prattrs IS NOT NULL THEN
         (SELECT string_agg(attname, ', ')
           FROM pg_catalog.generate_series(0, pg_catalog.array_upper(pr.prattrs::pg_catalog.int2[], 1)) s,
                pg_catalog.pg_attribute
          WHERE attrelid = pr.prrelid AND attnum = prattrs[s])
        ELSE NULL END) FROM pg_catalog.pg_publication p
     JOIN pg_catalog.pg_publication_rel pr ON p.oid = pr.prpubid
     JOIN pg_catalog.pg_class c ON c.oid = pr.prrelid
WHERE pr.prrelid = '{oid}'
UNION
SELECT pubname
     , NULL
     , NULL
FROM pg_catalog.pg_publication p
WHERE p.puballtables AND pg_catalog.pg_relation_is_publishable('{oid}')
ORDER BY 1;`,
	},
	{Client: "pgjdbc 42.5 DatabaseMetaData.getColumns(catalog, \"public\", \"pc_jt\", \"%\")",
		Setup: []string{"DROP TABLE IF EXISTS pc_jt", "CREATE TABLE pc_jt (i2 smallint NOT NULL, v varchar(20) DEFAULT 'x', n numeric(10,3), " +
			"ts timestamp, iv interval)"},
		Query: `SELECT * FROM (SELECT n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'pc_jt') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum `,
	},
}

// biQueries are the connect and metadata queries of BI tools and drivers,
// as their public source sends them (the file is named in Client);
// TestClientQueryReplay replays them with the others. Superset reflects
// through SQLAlchemy's Inspector and DBeaver (beside its own queries),
// Metabase and Tableau's JDBC path through pgjdbc's DatabaseMetaData:
// regress/drivers replays those (TestSQLAlchemyInspector,
// TestPgJDBCMetaData).
var biQueries = []clientQuery{
	{Client: "Grafana postgres datasource getVersion (postgresMetaQuery.ts)",
		Query: `SELECT current_setting('server_version_num')::int/100 as version`},
	{Client: "Grafana postgres datasource getTimescaleDBVersion (postgresMetaQuery.ts)",
		Query: `SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'`},
	{Client: "Grafana postgres datasource showSchemas (postgresMetaQuery.ts)", Setup: biSetup,
		Query: `SELECT schema_name AS "name"
    FROM information_schema.schemata
    WHERE schema_name NOT IN ('information_schema',
                              'pg_catalog',
                              'pg_toast',
                              '_timescaledb_cache',
                              '_timescaledb_catalog',
                              '_timescaledb_internal',
                              '_timescaledb_config',
                              'timescaledb_information',
                              'timescaledb_experimental')
    ORDER BY schema_name`},
	{Client: "Grafana postgres datasource showTables(public) (postgresMetaQuery.ts)", Setup: biSetup,
		Query: `SELECT quote_ident(table_name) AS "table"
      FROM information_schema.tables
      WHERE quote_ident(table_schema) = 'public'
      ORDER BY 1`},
	{Client: "Grafana postgres datasource showTables() (postgresMetaQuery.ts)", Setup: biSetup,
		Query: `SELECT
    CASE WHEN ` + grafanaSearchPath + `
      THEN quote_ident(table_name)
      ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)
    END AS "table"
    FROM information_schema.tables
    WHERE quote_ident(table_schema) NOT IN ('information_schema',
                             'pg_catalog',
                             '_timescaledb_cache',
                             '_timescaledb_catalog',
                             '_timescaledb_internal',
                             '_timescaledb_config',
                             'timescaledb_information',
                             'timescaledb_experimental')
    ORDER BY CASE WHEN ` + grafanaSearchPath + ` THEN 0 ELSE 1 END, 1`},
	{Client: "Grafana postgres datasource getSchema(bi_orders) (postgresMetaQuery.ts)", Setup: biSetup, Unordered: true,
		Query: `SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('bi_orders'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('bi_orders'))[1]
          AND quote_ident(table_name) = (parse_ident('bi_orders'))[2]
        ELSE quote_ident(table_name) = 'bi_orders'
          AND ` + grafanaSearchPath + `
      END`},
	{Client: "Grafana postgres datasource getSchema(public.bi_orders) (postgresMetaQuery.ts)", Setup: biSetup, Unordered: true,
		Query: `SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('public.bi_orders'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('public.bi_orders'))[1]
          AND quote_ident(table_name) = (parse_ident('public.bi_orders'))[2]
        ELSE quote_ident(table_name) = 'public.bi_orders'
          AND ` + grafanaSearchPath + `
      END`},
	{Client: "Metabase postgres driver enum-types (src/metabase/driver/postgres.clj)", Setup: biSetup, Unordered: true,
		Query: "SELECT nspname, typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace " +
			"WHERE t.oid IN (SELECT DISTINCT enumtypid FROM pg_enum e)"},
	{Client: "Metabase postgres driver current-user-table-privileges (src/metabase/driver/postgres.clj)", Setup: biSetup, Unordered: true,
		Query: strings.Join([]string{"with table_privileges as (",
			" select",
			"   NULL as role,",
			"   t.schemaname as schema,",
			"   t.objectname as table,",
			`   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'update') as update,`,
			`   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'select') as select,`,
			`   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'insert') as insert,`,
			`   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'delete') as delete`,
			" from (",
			"   select schemaname, tablename as objectname from pg_catalog.pg_tables",
			"   union",
			"   select schemaname, viewname as objectname from pg_catalog.pg_views",
			"   union",
			"   select schemaname, matviewname as objectname from pg_catalog.pg_matviews",
			" ) t",
			" where t.schemaname !~ '^pg_'",
			"   and t.schemaname <> 'information_schema'",
			"   and pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage')",
			")",
			"select t.*",
			"from table_privileges t"}, "\n")},
	{Client: "Metabase postgres driver db-default-timezone (src/metabase/driver/postgres.clj)",
		Query: "show timezone;"},
	// DBeaver's PostgreSQL plugin (PostgreSchema.java) reads whole catalog
	// rows (c.*, a.*, i.*): each query runs as DBeaver sends it, with the
	// schema's OID (public: 2200) for its parameter, and the fields DBeaver
	// reads from the rows are compared (OIDs and storage fields differ).
	{Client: "DBeaver PostgreSchema.TableCache (tables of a schema)", Setup: dbeaverSetup,
		Query: `SELECT relname, relkind, description, parents IS NULL AS no_parents FROM (` +
			`SELECT c.oid,c.*,d.description,(select array_agg(i.inhparent) from pg_catalog.pg_inherits i where i.inhrelid = c.oid) parents
FROM pg_catalog.pg_class c
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0
WHERE c.relnamespace=2200 AND c.relkind not in ('i','c')) q WHERE relname LIKE 'bi%' ORDER BY relname`},
	{Client: "DBeaver PostgreSchema.TableCache children (columns of a schema's tables)", Setup: dbeaverSetup,
		// With the system columns (ctid ... tableoid, attnum < 0).
		Query: `SELECT relname, attname, attnum, attnotnull, def_value, description FROM (` +
			`SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
WHERE NOT a.attisdropped AND c.relnamespace=2200 AND c.relkind not in ('i','c')  ORDER BY a.attnum) q WHERE relname LIKE 'bi%' ORDER BY relname, attnum`},
	{Client: "DBeaver PostgreSchema.ConstraintCache (constraints of a schema)", Setup: dbeaverSetup,
		Query: `SELECT conname, contype, tabrelname, conkey, confkey, refnamespace FROM (` +
			`SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace
FROM pg_catalog.pg_constraint c
INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
WHERE t.relnamespace=2200
ORDER BY c.oid) q WHERE tabrelname LIKE 'bi%' ORDER BY conname`},
	{Client: "DBeaver PostgreSchema.IndexCache (indexes of a schema)", Setup: dbeaverSetup,
		Query: `SELECT relname, tabrelname, keys, indisunique, indisprimary, expr, description FROM (` +
			`SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  c.relnamespace=2200 ORDER BY c.relname) q WHERE tabrelname LIKE 'bi%'`},
	{Client: "DBeaver PostgreSchema.ProceduresCache (functions of a schema)", Setup: dbeaverSetup,
		Query: `SELECT proname FROM (SELECT p.oid,p.*,d.description
FROM pg_catalog.pg_proc p
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=p.oid
WHERE p.pronamespace=2200
ORDER BY p.proname) q`},
	{Client: "Npgsql 8 type loading: version (src/Npgsql/PostgresDatabaseInfo.cs)",
		Query: "SELECT version() ~ '^PostgreSQL 15\\.'"},
	{Client: "Npgsql 8 type loading: composite type fields (src/Npgsql/PostgresDatabaseInfo.cs)", Setup: biSetup,
		UserOIDCols: []string{"oid"},
		Query: `
-- Load field definitions for (free-standing) composite types
SELECT typ.oid, att.attname, att.atttypid
FROM pg_type AS typ
JOIN pg_namespace AS ns ON (ns.oid = typ.typnamespace)
JOIN pg_class AS cls ON (cls.oid = typ.typrelid)
JOIN pg_attribute AS att ON (att.attrelid = typ.typrelid)
WHERE
  (typ.typtype = 'c' AND cls.relkind='c') AND
  attnum > 0 AND     -- Don't load system attributes
  NOT attisdropped
ORDER BY typ.oid, att.attnum;`},
	{Client: "Npgsql 8 type loading: enum labels (src/Npgsql/PostgresDatabaseInfo.cs)", Setup: biSetup,
		UserOIDCols: []string{"oid"},
		Query: `
-- Load enum fields
SELECT pg_type.oid, enumlabel
FROM pg_enum
JOIN pg_type ON pg_type.oid=enumtypid
ORDER BY oid, enumsortorder;`},
	{Client: "Npgsql 8 type loading: types (src/Npgsql/PostgresDatabaseInfo.cs, GenerateLoadTypesQuery(withRange, withMultirange, loadTableComposites: false))",
		Setup:       append(append([]string{}, biSetup...), "DROP DOMAIN IF EXISTS bi_posint", "CREATE DOMAIN bi_posint AS int CHECK (VALUE > 0)"),
		UserOIDCols: []string{"oid", "elemtypoid"}, Subset: true,
		// The types joind lacks (geometric, range and multirange,
		// text search, xml, tid/cid, money, refcursor, information_schema's
		// domains) and their arrays.
		Missing: 80,
		Query: `
SELECT ns.nspname, t.oid, t.typname, t.typtype, t.typnotnull, t.elemtypoid
FROM (
    -- Arrays have typtype=b - this subquery identifies them by their typreceive and converts their typtype to a
    -- We first do this for the type (innerest-most subquery), and then for its element type
    -- This also returns the array element, range subtype and domain base type as elemtypoid
    SELECT
        typ.oid, typ.typnamespace, typ.typname, typ.typtype, typ.typrelid, typ.typnotnull, typ.relkind,
        elemtyp.oid AS elemtypoid, elemtyp.typname AS elemtypname, elemcls.relkind AS elemrelkind,
        CASE WHEN elemproc.proname='array_recv' THEN 'a' ELSE elemtyp.typtype END AS elemtyptype
    FROM (
        SELECT typ.oid, typnamespace, typname, typrelid, typnotnull, relkind, typelem AS elemoid,
            CASE WHEN proc.proname='array_recv' THEN 'a' ELSE typ.typtype END AS typtype,
            CASE
                WHEN proc.proname='array_recv' THEN typ.typelem
                WHEN typ.typtype='r' THEN rngsubtype
                WHEN typ.typtype='m' THEN (SELECT rngtypid FROM pg_range WHERE rngmultitypid = typ.oid)
                WHEN typ.typtype='d' THEN typ.typbasetype
            END AS elemtypoid
        FROM pg_type AS typ
        LEFT JOIN pg_class AS cls ON (cls.oid = typ.typrelid)
        LEFT JOIN pg_proc AS proc ON proc.oid = typ.typreceive
        LEFT JOIN pg_range ON (pg_range.rngtypid = typ.oid)
    ) AS typ
    LEFT JOIN pg_type AS elemtyp ON elemtyp.oid = elemtypoid
    LEFT JOIN pg_class AS elemcls ON (elemcls.oid = elemtyp.typrelid)
    LEFT JOIN pg_proc AS elemproc ON elemproc.oid = elemtyp.typreceive
) AS t
JOIN pg_namespace AS ns ON (ns.oid = typnamespace)
WHERE
    typtype IN ('b', 'r', 'm', 'e', 'd') OR -- Base, range, multirange, enum, domain
    (typtype = 'c' AND relkind='c') OR -- User-defined free-standing composites (not table composites) by default
    (typtype = 'p' AND typname IN ('record', 'void')) OR -- Some special supported pseudo-types
    (typtype = 'a' AND (  -- Array of...
        elemtyptype IN ('b', 'r', 'm', 'e', 'd') OR -- Array of base, range, multirange, enum, domain
        (elemtyptype = 'p' AND elemtypname IN ('record', 'void')) OR -- Arrays of special supported pseudo-types
        (elemtyptype = 'c' AND elemrelkind='c') -- Array of user-defined free-standing composites (not table composites) by default
    ))
ORDER BY CASE
       WHEN typtype IN ('b', 'e', 'p') THEN 0           -- First base types, enums, pseudo-types
       WHEN typtype = 'r' THEN 1                        -- Ranges after
       WHEN typtype = 'm' THEN 2                        -- Multiranges after
       WHEN typtype = 'c' THEN 3                        -- Composites after
       WHEN typtype = 'd' AND elemtyptype <> 'a' THEN 4 -- Domains over non-arrays after
       WHEN typtype = 'a' THEN 5                        -- Arrays after
       WHEN typtype = 'd' AND elemtyptype = 'a' THEN 6  -- Domains over arrays last
END;`},
}

// TestClientQueryReplay sends every clientQueries entry to joind and to
// PostgreSQL 15, after the same setup, and requires the same answer:
// column names, row count and every value's text (NULL apart).
func TestClientQueryReplay(t *testing.T) {
	pg := oracle.Start(t)
	const db = "psqlmeta_replay"
	pg.CreateDatabase(t, db)
	j := joindtest.StartJoind(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open := func(dsn string) *pgx.Conn {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			t.Fatal(err)
		}
		// The text protocol: the answers compare as PostgreSQL prints them
		// (joind's OIDs are int8, PostgreSQL's oid).
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	pc, jc := open(pg.DSNFor(db)), open(j.DSNFor(db))
	for _, sh := range append(append([]clientQuery{}, clientQueries...), biQueries...) {
		t.Run(sh.Client, func(t *testing.T) {
			want, err := replay(ctx, pc, sh)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			got, err := replay(ctx, jc, sh)
			if err != nil {
				t.Fatalf("joind: %v", err)
			}
			if sh.Subset {
				checkSubset(t, sh, got, want)
			} else if got != want {
				t.Errorf("joind answers %s's query differently:\n%s", sh.Client, diff(want, got))
			}
		})
	}
}

// replay runs sh's setup and query on c and prints the answer.
func replay(ctx context.Context, c *pgx.Conn, sh clientQuery) (string, error) {
	for _, s := range sh.Setup {
		if _, err := c.Exec(ctx, s); err != nil {
			return "", fmt.Errorf("%s: %w", s, err)
		}
	}
	q := sh.Query
	if sh.OIDOf != "" {
		var oid string
		if err := c.QueryRow(ctx, "SELECT $1::regclass::oid::text", sh.OIDOf).Scan(&oid); err != nil {
			return "", fmt.Errorf("OID of %s: %w", sh.OIDOf, err)
		}
		q = strings.ReplaceAll(q, "{oid}", oid)
	}
	rows, err := c.Query(ctx, q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	userOID := map[int]bool{}
	for i, f := range rows.FieldDescriptions() {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(f.Name)
		for _, c := range sh.UserOIDCols {
			userOID[i] = userOID[i] || c == f.Name
		}
	}
	b.WriteString("\n")
	var lines []string
	for rows.Next() {
		var l strings.Builder
		for i, v := range rows.RawValues() {
			if i > 0 {
				l.WriteString(" | ")
			}
			var oid uint64
			switch _, err := fmt.Sscan(string(v), &oid); {
			case v == nil:
				l.WriteString("NULL")
			case userOID[i] && err == nil && oid >= 16384:
				l.WriteString("user oid")
			default:
				l.Write(v)
			}
		}
		lines = append(lines, l.String())
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if sh.Unordered {
		sort.Strings(lines)
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "(%d rows)\n", len(lines))
	return b.String(), nil
}
