package drivers

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestTableauODBC replays what Tableau's PostgreSQL connector does
// through psqlODBC, on PostgreSQL 15 and on joind in the same run, and
// requires the same transcript from both. The connection string is the
// one the connector's connectionBuilder.js builds (UseDeclareFetch=1, so
// every query runs through DECLARE … CURSOR and FETCH 2048). The calls
// are the ones its manifest leaves on (SQLGetInfo, SQLGetTypeInfo,
// SQLTables, SQLColumns, SQLPrimaryKeys, SQLForeignKeys; SQLStatistics
// is suppressed) and the WHERE FALSE metadata query. The SQL is
// generated from Tableau's published dialect (testdata/tableau_dialect.tdd):
// every function and date function formula, with its arguments replaced
// by columns of the matching type of a Calcs-like table, in the query
// shape Tableau's calculation tests send.
func TestTableauODBC(t *testing.T) {
	driver := need(t, "psqlODBC (odbc-postgresql)", "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so")
	cc := need(t, "a C compiler", "cc", "gcc")
	need(t, "ODBC headers (unixodbc-dev)", "/usr/include/sql.h")
	bin := filepath.Join(t.TempDir(), "odbc_replay")
	run(t, nil, "", cc, "-o", bin, filepath.Join("testdata", "odbc_replay.c"), "-lodbc")

	queries := tableauQueries(t)
	script := tableauMetadataScript + strings.Join(queries, "")

	pg := oracle.Start(t)
	pg.CreateDatabase(t, "tableau")
	j := joindtest.StartJoind(t)
	replay := func(port int) map[string]string {
		env := odbcEnv(t, driver, port)
		conn := "DRIVER={PostgreSQL Unicode};SERVER=127.0.0.1;PORT=" + itoa(port) +
			";DATABASE=tableau;UID=postgres;PWD=;BOOLSASCHAR=0;LFCONVERSION=0;UseDeclareFetch=1;Fetch=2048"
		out := run(t, env, tableauSetupScript+script, bin, conn)
		if !strings.HasSuffix(out, "done\n") {
			t.Fatalf("the replay did not finish:\n%s", out)
		}
		return splitTranscript(out)
	}
	want := replay(pg.Port())
	got := replay(j.Port())
	for _, m := range []map[string]string{want, got} {
		for k, v := range m {
			if strings.Contains(k, " COLUMNS ") {
				m[k] = maskField(v, 22)
			}
		}
	}
	var bad, errs int
	for _, k := range transcriptKeys(tableauSetupScript + script) {
		if strings.Contains(want[k], "  error ") {
			errs++
		}
		if got[k] != want[k] {
			bad++
			if bad <= 25 {
				t.Errorf("%s\n joind:\n%s PostgreSQL:\n%s", k, got[k], want[k])
			}
		}
	}
	n := len(transcriptKeys(tableauSetupScript + script))
	t.Logf("%d calls (%d generated queries, %d of them errors on PostgreSQL too), %d differ", n, len(queries), errs, bad)
	if len(queries) < 250 {
		t.Fatalf("only %d queries were generated from the dialect", len(queries))
	}
}

// maskField replaces field i (0-based, |-separated) of each result line:
// psqlODBC's SQLColumns ends with the table's OID, which differs between
// servers as any OID does.
func maskField(out string, i int) string {
	lines := strings.Split(out, "\n")
	for n, l := range lines {
		f := strings.Split(l, "|")
		if len(f) > i {
			f[i] = "<oid>"
			lines[n] = strings.Join(f, "|")
		}
	}
	return strings.Join(lines, "\n")
}

// tableauSetupScript makes the Calcs-like tables the replay reads.
const tableauSetupScript = `QUERY	DROP TABLE IF EXISTS orders
QUERY	DROP TABLE IF EXISTS calcs
QUERY	CREATE TABLE calcs (key text PRIMARY KEY, num0 double precision, num1 double precision, int0 integer, int1 integer, str0 text, str1 text, strnum text, strdate text, bool0 boolean, bool1 boolean, date0 date, date1 date, datetime0 timestamp, datetime1 timestamp)
QUERY	INSERT INTO calcs VALUES ('key00', 12.3, -8.5, 1, 4, 'FURNITURE', 'CLAMP ON LAMPS', '1.5', '2004-04-15', true, false, '2004-04-15', '1972-07-04', '2004-07-09 10:17:35', '1899-12-30 12:00:00'), ('key01', -12.3, 6.75, -3, 0, 'office supplies', 'binder clips', '-3', '1999-12-31 23:59:59', false, true, '1975-11-12', '2004-04-01', '1900-01-01 00:00:00', '2001-02-03 04:05:06.789'), ('key02', 15.7, NULL, 0, -2, 'TECHNOLOGY', 'ANSWERING MACHINES', '42', '2018-02-28', NULL, NULL, NULL, '2024-02-29', '2024-02-29 23:59:59.5', NULL), ('key03', 0, 0, NULL, 7, NULL, 'a.c', NULL, NULL, true, true, '2000-01-01', NULL, NULL, '1969-12-31 23:00:00'), ('key04', -3.5, 10, 8, NULL, 'Stuff  ', '  padded  ', '0.0', '2010-10-10 10:10:10', false, NULL, '1995-06-18', '1995-06-18', '1972-07-04 01:02:03', '1995-06-18 00:00:00'), ('key05', NULL, 1.5, 2, 2, 'ñandú Straße', 'X', '1e3', '1970-01-01', NULL, false, '2023-12-31', '2024-01-01', '2023-12-31 18:30:00', '2024-01-01 00:00:00')
QUERY	CREATE TABLE orders (id integer PRIMARY KEY, calc_key text REFERENCES calcs (key), amount numeric(10,2), placed date)
QUERY	INSERT INTO orders VALUES (1, 'key00', 19.99, '2004-04-15'), (2, 'key01', 5.00, '2004-04-16'), (3, NULL, 100.10, NULL)
`

// tableauMetadataScript is the connect-time and data-source calls.
const tableauMetadataScript = `INFO	17s,18s,6s,7s,10s,16s,29s,30h,31h,32h,34h,35h,41s,39s,40s,42s,45s,46h,47s,72i,81i,86i,87s,88h,89s,90s,91i,94s,115i,130h,147i,148s,149i,150i,151i,152i,153i,154i,155i,161i,166i,167i,170i
TYPES
TABLES	%	%	TABLE,VIEW
TABLES	public	%	TABLE,VIEW
COLUMNS	public	calcs
COLUMNS	public	orders
PKEYS	public	calcs
PKEYS	public	orders
FKEYS	public	orders
DESCRIBE	SELECT * FROM "public"."calcs" "calcs" WHERE FALSE
DESCRIBE	SELECT * FROM "public"."orders" "orders" WHERE FALSE
QUERY	SELECT "calcs"."key" AS "key", "calcs"."num0" AS "num0" FROM "public"."calcs" "calcs" ORDER BY 1 NULLS FIRST LIMIT 1000
QUERY	SELECT "orders"."calc_key" AS "calc_key", SUM("orders"."amount") AS "sum:amount:ok" FROM "public"."orders" "orders" LEFT JOIN "public"."calcs" "calcs" ON ("orders"."calc_key" = "calcs"."key") GROUP BY 1 ORDER BY 1 NULLS FIRST
`

// tableauDialect is the part of a Tableau dialect file the replay reads.
type tableauDialect struct {
	Functions     []tableauFunction `xml:"function-map>function"`
	DateFunctions []tableauFunction `xml:"function-map>date-function"`
	PartGroups    []struct {
		Functions []struct {
			Name string `xml:"name,attr"`
		} `xml:"date-function"`
		Parts []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"part"`
	} `xml:"sql-format>date-parts>date-part-group"`
}

type tableauFunction struct {
	Group    string `xml:"group,attr"`
	Name     string `xml:"name,attr"`
	Formulas []struct {
		Part string `xml:"part,attr"`
		Text string `xml:",chardata"`
	} `xml:"formula"`
	Args []struct {
		Type string `xml:"type,attr"`
	} `xml:"argument"`
}

// tableauColumns are the Calcs columns that stand for an argument of each
// Tableau type (first argument, second, third, fourth).
var tableauColumns = map[string][]string{
	"real":     {`"calcs"."num0"`, `"calcs"."num1"`, `"calcs"."int1"`, `"calcs"."num1"`},
	"int":      {`"calcs"."int0"`, `"calcs"."int1"`, `"calcs"."int0"`, `"calcs"."int1"`},
	"str":      {`"calcs"."str0"`, `"calcs"."str1"`, `"calcs"."strnum"`, `"calcs"."str1"`},
	"bool":     {`"calcs"."bool0"`, `"calcs"."bool1"`, `"calcs"."bool0"`, `"calcs"."bool1"`},
	"date":     {`"calcs"."date0"`, `"calcs"."date1"`, `"calcs"."date0"`, `"calcs"."date1"`},
	"datetime": {`"calcs"."datetime0"`, `"calcs"."datetime1"`, `"calcs"."date1"`, `"calcs"."datetime1"`},
	"localint": {"1", "2", "3", "4"},
}

var tableauArg = regexp.MustCompile(`%[0-9]`)

// tableauQueries is one QUERY line per formula of the dialect (per date
// part for a date function's generic formula), skipping only what cannot
// be compared: the clock (CURRENT_TIMESTAMP, CURRENT_DATE) and PostGIS.
func tableauQueries(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join("testdata", "tableau_dialect.tdd"))
	if err != nil {
		t.Fatal(err)
	}
	var d tableauDialect
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	parts := map[string][][2]string{} // date function ("" = default) → (part, value)
	for _, g := range d.PartGroups {
		names := []string{""}
		if len(g.Functions) > 0 {
			names = nil
			for _, f := range g.Functions {
				names = append(names, f.Name)
			}
		}
		for _, n := range names {
			for _, p := range g.Parts {
				parts[n] = append(parts[n], [2]string{p.Name, p.Value})
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(group, formula string) {
		formula = strings.Join(strings.Fields(formula), " ")
		if seen[formula] {
			return
		}
		seen[formula] = true
		var q string
		if group == "aggregate" {
			q = `SELECT "calcs"."bool0" AS "bool0", ` + formula + ` AS "TEMP(Test)(0)" FROM "public"."calcs" "calcs" GROUP BY 1 ORDER BY 1 NULLS FIRST`
		} else {
			q = `SELECT "calcs"."key" AS "key", ` + formula + ` AS "TEMP(Test)(0)" FROM "public"."calcs" "calcs" ORDER BY 1 NULLS FIRST`
		}
		out = append(out, "QUERY\t"+q+"\n")
	}
	// subst replaces %n by the n-th argument: a column of its type, a date
	// part for a date function's first localstr, 1 (Sunday) for a week start.
	subst := func(f tableauFunction, formula, part string, strCol string) (string, bool) {
		ok := true
		s := tableauArg.ReplaceAllStringFunc(formula, func(m string) string {
			k := int(m[1] - '1')
			if k < 0 || k >= len(f.Args) {
				ok = false
				return m
			}
			typ := f.Args[k].Type
			switch {
			case typ == "localstr" && k == 0 && f.Name == "DATEPARSE":
				return "'YYYY-MM-DD HH24:MI:SS'"
			case typ == "localstr" && k == 0:
				return part
			case typ == "localstr":
				return "1"
			case typ == "str" && strCol != "":
				return strCol
			}
			cols, known := tableauColumns[typ]
			if !known || k >= len(cols) {
				ok = false
				return m
			}
			return cols[k]
		})
		return s, ok
	}
	for _, f := range d.Functions {
		if len(f.Formulas) == 0 {
			continue
		}
		formula := f.Formulas[0].Text
		if strings.Contains(formula, "CURRENT_") {
			continue
		}
		strCols := []string{""}
		if f.Group == "cast" {
			// A cast from a string reads strings of the target's shape too.
			strCols = []string{"", `"calcs"."strnum"`, `"calcs"."strdate"`}
		}
		for _, c := range strCols {
			if q, ok := subst(f, formula, "", c); ok {
				add(f.Group, q)
			}
		}
	}
	for _, f := range d.DateFunctions {
		group := parts[f.Name]
		if group == nil {
			group = parts[""]
		}
		for _, fm := range f.Formulas {
			if fm.Part != "" {
				if q, ok := subst(f, fm.Text, "", ""); ok {
					add("date", q)
				}
				continue
			}
			if f.Name == "DATEPARSE" {
				if q, ok := subst(f, fm.Text, "", `"calcs"."strdate"`); ok {
					add("date", q)
				}
				continue
			}
			for _, p := range group {
				if p[1] == "---" {
					continue // Tableau uses the part's own formula
				}
				if q, ok := subst(f, fm.Text, p[1], ""); ok {
					add("date", q)
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no queries from the dialect")
	}
	return out
}

// transcriptKeys are the script's calls in order, each as the replay
// program echoes it (numbered, so a repeated call stays distinct).
func transcriptKeys(script string) []string {
	var keys []string
	for _, l := range strings.Split(script, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		keys = append(keys, fmt.Sprintf("%d %s", len(keys)+1, strings.ReplaceAll(l, "\t", " ")))
	}
	return keys
}

// splitTranscript maps each call (as transcriptKeys names it) to the
// lines the replay program printed for it.
func splitTranscript(out string) map[string]string {
	m := map[string]string{}
	var key string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == "connected" || l == "done" || l == "":
		case strings.HasPrefix(l, "  "):
			m[key] += l + "\n"
		default:
			key = fmt.Sprintf("%d %s", len(m)+1, l)
			m[key] = ""
		}
	}
	return m
}
