package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joind/joind/types"
)

// testdata/interval-nanos is a data directory written by joind at commit
// d1e1b42, when interval columns held nanoseconds: interval-nanos.sql run
// against it, then SIGKILL, so it holds both a segment file (the 3000 rows,
// written by the CREATE TABLE's checkpoint) and a log record (the last
// three rows, at the old limit of ±2562047 hours). interval-nanos.expected
// is SELECT * FROM iv ORDER BY id as PostgreSQL 15 prints it after the
// same SQL (psql -At -P null=NULL). This joind must read both as
// PostgreSQL's values, and write and reread them, and values past the old
// limit, in its microsecond form.
func TestOpensIntervalNanosecondSegments(t *testing.T) {
	dir := copyTestdata(t, "interval-nanos")
	want, err := os.ReadFile(filepath.Join("testdata", "interval-nanos.expected"))
	if err != nil {
		t.Fatal(err)
	}
	wantText := strings.TrimSpace(string(want))
	db := open(t, dir)
	tb, ok := db.Lookup("iv")
	if !ok {
		t.Fatal("table iv missing")
	}
	cols := tb.Columns()
	if got := strings.Join(tableText(t, tb.Snapshot(), cols), "\n"); got != wantText {
		t.Fatalf("old segments read as\n%.1500s\nwant\n%.1500s", got, wantText)
	}
	ctx := context.Background()
	copyTb, err := db.Create(ctx, "iv2", cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tb.Snapshot() {
		if err := db.Append(ctx, copyTb, r); err != nil {
			t.Fatal(err)
		}
	}
	// PostgreSQL's extremes, beyond what nanoseconds could hold.
	big := []types.Value{types.IntValue(3004),
		{Iv: types.IntervalValue{Months: -2147483648, Days: -2147483648, Micros: -9223372036854775808}},
		{Iv: types.IntervalValue{Micros: 9223372036854775807}}}
	bigText := "3004|-178956970 years -8 mons -2147483648 days -2562047788:00:54.775808|2562047788:00:54.775807"
	if err := db.Append(ctx, copyTb, rowsBatch(cols, [][]types.Value{big})); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = open(t, dir)
	defer db.Close()
	for _, c := range []struct{ name, want string }{{"iv", wantText}, {"iv2", wantText + "\n" + bigText}} {
		tb, _ := db.Lookup(c.name)
		if got := strings.Join(tableText(t, tb.Snapshot(), cols), "\n"); got != c.want {
			t.Fatalf("%s after reopen:\n%.1500s\n...%s", c.name, got, got[max(0, len(got)-300):])
		}
	}
}
