package drivers

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

// TestExplainFormats sends EXPLAIN with each option and format a plan
// viewer uses (pgAdmin, DBeaver) to PostgreSQL 15 and to joind and
// compares what a viewer reads: the QUERY PLAN column's type, the
// document's structure (a list of one query with "Plan", nodes with
// "Node Type" and "Plans"), which cost keys appear under COSTS ON/OFF,
// and that every option is accepted. The node types themselves are each
// server's own.
func TestExplainFormats(t *testing.T) {
	pg := oracle.Start(t)
	pg.CreateDatabase(t, "drv_explain")
	j := joindtest.StartJoind(t)
	setup := []string{"DROP TABLE IF EXISTS ex_a", "DROP TABLE IF EXISTS ex_b",
		"CREATE TABLE ex_a (id int, v text)", "CREATE TABLE ex_b (id int, a int)",
		"INSERT INTO ex_a VALUES (1, 'x'), (2, 'y')", "INSERT INTO ex_b VALUES (1, 1)"}
	queries := []string{
		"EXPLAIN (FORMAT JSON) SELECT * FROM ex_a a JOIN ex_b b ON a.id = b.a WHERE a.v <> 'z' ORDER BY 1",
		"EXPLAIN (FORMAT JSON, COSTS OFF) SELECT count(*) FROM ex_a",
		"EXPLAIN (ANALYZE, BUFFERS, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY, FORMAT JSON) SELECT v FROM ex_a",
		"EXPLAIN (FORMAT YAML) SELECT v FROM ex_a",
		"EXPLAIN (FORMAT XML, COSTS OFF) SELECT v FROM ex_a",
		"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT v FROM ex_a",
		"EXPLAIN (FORMAT TEXT, VERBOSE) SELECT 1",
	}
	ctx := context.Background()
	summary := func(dsn string) string {
		c := connect(t, dsn)
		execSQL(t, c, setup...)
		var b strings.Builder
		for _, q := range queries {
			rows, err := c.Query(ctx, q, pgx.QueryExecModeSimpleProtocol)
			if err != nil {
				b.WriteString(q + ": " + err.Error() + "\n")
				continue
			}
			fd := rows.FieldDescriptions()
			var doc strings.Builder
			n := 0
			for rows.Next() {
				n++
				doc.Write(rows.RawValues()[0])
			}
			if err := rows.Err(); err != nil {
				b.WriteString(q + ": " + err.Error() + "\n")
				continue
			}
			b.WriteString(q + "\n  column " + fd[0].Name)
			if !strings.Contains(q, "XML") {
				// FORMAT XML's column is xml in PostgreSQL, text in joind
				// (it has no xml type): docs/clients/plan-viewers.md.
				b.WriteString(" type " + itoa(int(fd[0].DataTypeOID)))
			}
			if strings.Contains(q, "JSON") {
				b.WriteString(" rows " + itoa(n) + " " + jsonShape(doc.String(), strings.Contains(q, "JOIN")))
			} else if strings.Contains(q, "YAML") {
				b.WriteString(" rows " + itoa(n) + " starts " + strings.SplitN(doc.String(), "\n", 2)[0])
			} else if strings.Contains(q, "XML") {
				b.WriteString(" rows " + itoa(n) + " root " + strings.SplitN(doc.String(), "\n", 2)[0])
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	want := summary(pg.DSNFor("drv_explain"))
	got := summary(j.DSN())
	sameLines(t, "EXPLAIN formats", got, want)
}

// jsonShape is what a plan viewer relies on in EXPLAIN's JSON: one query
// object holding "Plan", each node's "Node Type", whether any node has
// cost keys, and, for a join, whether the nesting goes through "Plans".
func jsonShape(s string, join bool) string {
	var doc []map[string]any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		return "invalid JSON: " + err.Error()
	}
	var keys []string
	for k := range doc[0] {
		if k == "Plan" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	plan, _ := doc[0]["Plan"].(map[string]any)
	costs, nested, typed := false, false, true
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		if _, ok := n["Node Type"].(string); !ok {
			typed = false
		}
		if _, ok := n["Plan Rows"]; ok {
			costs = true
		}
		if ps, ok := n["Plans"].([]any); ok {
			nested = true
			for _, p := range ps {
				if m, ok := p.(map[string]any); ok {
					walk(m)
				}
			}
		}
	}
	if plan != nil {
		walk(plan)
	}
	out := "queries " + itoa(len(doc)) + " keys " + strings.Join(keys, ",")
	if typed {
		out += " node types"
	}
	if costs {
		out += " costs"
	}
	if join && nested { // a join's inputs are "Plans" (a simpler query's plan shape is each server's own)
		out += " nested"
	}
	return out
}
