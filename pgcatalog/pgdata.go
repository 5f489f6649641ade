package pgcatalog

import (
	"embed"
	"strings"
)

// PostgreSQL 15's built-in catalog rows (pg_type, pg_proc, pg_operator,
// pg_aggregate, pg_cast, pg_get_keywords), copied from a stock cluster by
// pgdata/generate.sh. joind lists the rows of what it has — the types of
// SystemTypes, the functions and operators of types' registry — with
// PostgreSQL's OIDs and attributes read from here, never restated.

//go:embed pgdata/*.tsv
var pgdataFiles embed.FS

// pgdataRow is one row of a pgdata file: its fields in the file's column
// order (generate.sh's SELECT list), a NULL as "\N".
type pgdataRow []string

// pgdata reads pgdata/<name>.tsv (COPY's text format; the built-in rows
// hold no escapes beyond \N).
func pgdata(name string) []pgdataRow {
	b, err := pgdataFiles.ReadFile("pgdata/" + name + ".tsv")
	if err != nil {
		panic("pgcatalog: " + err.Error())
	}
	var out []pgdataRow
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		out = append(out, strings.Split(line, "\t"))
	}
	return out
}

// nullable is a pgdata field as a nullable column value.
func nullable(s string) *string {
	if s == `\N` {
		return nil
	}
	return &s
}
