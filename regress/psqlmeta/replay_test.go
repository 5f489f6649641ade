package psqlmeta

import (
	"context"
	"fmt"
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
}

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
	for _, sh := range clientQueries {
		t.Run(sh.Client, func(t *testing.T) {
			want, err := replay(ctx, pc, sh)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			got, err := replay(ctx, jc, sh)
			if err != nil {
				t.Fatalf("joind: %v", err)
			}
			if got != want {
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
	for i, f := range rows.FieldDescriptions() {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(f.Name)
	}
	b.WriteString("\n")
	n := 0
	for rows.Next() {
		n++
		for i, v := range rows.RawValues() {
			if i > 0 {
				b.WriteString(" | ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.Write(v)
			}
		}
		b.WriteString("\n")
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "(%d rows)\n", n)
	return b.String(), nil
}
