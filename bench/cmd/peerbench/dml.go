package main

import (
	"context"
	"fmt"
)

// The bulk-write workloads (group "dml", issue 13): a table of sz.Load rows
// dt(id bigint = 0..N-1, n int = id % 1000, s text = 'row-' || id), made
// afresh (untimed) before every run, then one UPDATE or DELETE touching a
// tenth of it, timed. The answer is count(*), sum(n) afterwards.

const dmlTable = "dt"

var dmlWorkloads = []workload{
	{
		Name:     "dml_update_10pct",
		SQL:      "UPDATE dt SET n = n + 1 WHERE id % 10 = 0",
		Group:    "dml",
		NoWarmup: true,
		Run:      runDML("UPDATE dt SET n = n + 1 WHERE id % 10 = 0"),
		Expected: func(sz sizes) []string {
			tenth := (sz.Load + 9) / 10 // ids 0, 10, 20, ...
			return loadAnswer(sz.Load, loadSumN(sz.Load)+tenth)
		},
	},
	{
		Name:     "dml_delete_10pct",
		SQL:      "DELETE FROM dt WHERE id % 10 = 3",
		Group:    "dml",
		NoWarmup: true,
		Run:      runDML("DELETE FROM dt WHERE id % 10 = 3"),
		Expected: func(sz sizes) []string {
			var gone, goneSum int64
			for id := int64(3); id < sz.Load; id += 10 {
				gone++
				goneSum += id % 1000
			}
			return loadAnswer(sz.Load-gone, loadSumN(sz.Load)-goneSum)
		},
	},
}

func init() { workloads = append(workloads, dmlWorkloads...) }

// runDML builds dt on p (untimed; PostgreSQL then vacuums it, so its hint
// bits and visibility map are set as in a table that has been read), times
// stmt and returns the table's count and sum.
func runDML(stmt string) func(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error) {
	return func(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error) {
		for _, s := range []string{
			"DROP TABLE IF EXISTS " + dmlTable,
			"CREATE TABLE " + dmlTable + " (id bigint, n int, s text)",
			fmt.Sprintf("INSERT INTO %s SELECT g, CAST(g %% 1000 AS int), 'row-' || CAST(g AS text) FROM generate_series(0, %d) AS t(g)", dmlTable, b.sz.Load-1),
		} {
			if err := p.Exec(ctx, s); err != nil {
				return nil, err
			}
		}
		if p.Name() == "postgres" {
			if err := p.Exec(ctx, "VACUUM ANALYZE "+dmlTable); err != nil {
				return nil, err
			}
		}
		if err := timed(func() error { return p.Exec(ctx, stmt) }); err != nil {
			return nil, err
		}
		return p.Query(ctx, "SELECT count(*), sum(n) FROM "+dmlTable)
	}
}
