package types

import "testing"

// Partial string_agg states merge with the delimiter of the later side's
// first value between them (PostgreSQL's string_agg_combine): split
// anywhere, the result is the unsplit one.
func TestStringAggMergeKeepsDelimiters(t *testing.T) {
	rows := [][]Value{{TextValue("a"), TextValue(",")}, {NullValue, TextValue(";")}, {TextValue("b"), TextValue("-")},
		{TextValue("c"), NullValue}, {TextValue("d"), TextValue("+")}}
	feed := func(rs [][]Value) *stringAggAcc {
		a := &stringAggAcc{}
		for _, r := range rs {
			if err := a.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		return a
	}
	whole, _ := feed(rows).Result()
	if whole.S != "a-bc+d" {
		t.Fatalf("unsplit: %q", whole.S)
	}
	for i := 0; i <= len(rows); i++ {
		for k := i; k <= len(rows); k++ {
			a, b, c := feed(rows[:i]), feed(rows[i:k]), feed(rows[k:])
			if err := a.Merge(b); err != nil {
				t.Fatal(err)
			}
			if err := a.Merge(c); err != nil {
				t.Fatal(err)
			}
			if got, _ := a.Result(); got.S != whole.S {
				t.Fatalf("split at %d, %d: %q, want %q", i, k, got.S, whole.S)
			}
		}
	}
}
