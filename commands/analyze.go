package commands

import (
	"context"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// analyze runs ANALYZE / VACUUM: joind's statistics are always current, so
// ANALYZE only does what PostgreSQL's would report: each relation in turn,
// a view skipped with a WARNING, a column list checked against the table.
// VACUUM [FULL] then compacts the tables now (storage.DB.Vacuum: deleted
// rows folded away, small segments merged; FULL merges everything).
func analyze(ctx context.Context, s Session, a *sql.Analyze) (string, error) {
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
	if a.Vacuum {
		if err := vacuum(ctx, s.Catalog(), a); err != nil {
			return "", err
		}
	}
	return tag, nil
}

// vacuum compacts the tables of a (all, temporary ones included, when it
// names none) in the catalog that holds each.
func vacuum(ctx context.Context, c *Catalog, a *sql.Analyze) error {
	var temp, perm []storage.Table
	for _, r := range a.Rels {
		if r.Table == nil {
			continue
		}
		if c.IsTemp(r.Table) {
			temp = append(temp, r.Table)
		} else {
			perm = append(perm, r.Table)
		}
	}
	all := len(a.Rels) == 0
	if all || len(perm) > 0 {
		if err := c.Txn.Vacuum(ctx, perm, a.Full); err != nil {
			return err
		}
	}
	if tt := c.temp(); tt != nil && (all || len(temp) > 0) {
		return tt.Vacuum(ctx, temp, a.Full)
	}
	return nil
}
