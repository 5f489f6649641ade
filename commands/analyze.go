package commands

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// analyze runs ANALYZE / VACUUM: joind's statistics are always current, so
// it only does what PostgreSQL's would report: each relation in turn, a
// view skipped with a WARNING, a column list checked against the table.
func analyze(s Session, a *sql.Analyze) (string, error) {
	tag, verb := "ANALYZE", "analyze"
	if a.Vacuum {
		tag, verb = "VACUUM", "vacuum"
	}
	for _, r := range a.Rels {
		if r.Table == nil {
			if err := s.Notice(&pgerr.Error{Severity: "WARNING", Code: "01000",
				Message: "skipping \"" + r.Name + "\" --- cannot " + verb + " non-tables or special system tables"}); err != nil {
				return "", err
			}
			continue
		}
		seen := map[string]bool{}
		for _, c := range r.Cols {
			found := false
			for _, d := range r.Table.Columns() {
				found = found || d.Name == c
			}
			if !found {
				return "", pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c, storage.BareName(r.Table.Name()))
			}
			if seen[c] {
				return "", pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" appears more than once", c, storage.BareName(r.Table.Name()))
			}
			seen[c] = true
		}
	}
	return tag, nil
}
