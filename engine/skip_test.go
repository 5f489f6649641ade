package engine

import (
	"strings"
	"testing"
)

// EXPLAIN ANALYZE shows how many stored segments a filtered scan skipped
// by their statistics, and skipping leaves the answer unchanged.
func TestExplainAnalyzeShowsSkippedSegments(t *testing.T) {
	s := testSession(t, 2)
	// Three statements: three segments (compaction waits for four).
	run(t, s, `CREATE TABLE st (id bigint, s text);
		INSERT INTO st SELECT g, 'a' || g FROM generate_series(0, 99) g;
		INSERT INTO st SELECT g, NULL FROM generate_series(100, 199) g;
		INSERT INTO st SELECT g, 'c' || g FROM generate_series(200, 299) g`)
	for _, c := range []struct {
		where, note, count string
	}{
		{"id >= 200", "(segments skipped: 2 of 3)", "100"},
		{"id BETWEEN 150 AND 160", "(segments skipped: 2 of 3)", "11"},
		{"300 <= id", "(segments skipped: 3 of 3)", "0"},
		{"s IS NOT NULL AND id < 150", "(segments skipped: 2 of 3)", "100"},
		{"s IS NULL", "(segments skipped: 2 of 3)", "100"},
		{"s > 'b'", "(segments skipped: 2 of 3)", "100"},
		{"id % 2 = 0", "", "150"}, // not a skip shape: no note
	} {
		q := "SELECT count(*) FROM st WHERE " + c.where
		if got := run(t, s, q).rows[0][0]; got != c.count {
			t.Errorf("%s: count %s, want %s", q, got, c.count)
		}
		var scan string
		for _, r := range run(t, s, "EXPLAIN ANALYZE "+q).rows {
			if strings.Contains(r[0], "Scan on st") {
				scan = r[0]
			}
		}
		if c.note == "" {
			if strings.Contains(scan, "segments skipped") {
				t.Errorf("%s: unexpected note in %q", q, scan)
			}
		} else if !strings.HasSuffix(scan, c.note) {
			t.Errorf("%s: scan line %q, want it to end with %q", q, scan, c.note)
		}
	}
}
