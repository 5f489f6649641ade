package tpch

import (
	"strings"
	"testing"
)

func TestQueries(t *testing.T) {
	for n := 1; n <= NumQueries; n++ {
		q, err := Query(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		// qgen's template markers are all substituted.
		for _, marker := range []string{":x", ":o", ":n", ":s", ":1", "day (3)"} {
			if strings.Contains(q, marker) {
				t.Errorf("q%02d still has %q", n, marker)
			}
		}
		// Results are ordered, but for the single-row aggregates.
		if lower := strings.ToLower(q); !strings.Contains(lower, "order by") && strings.Contains(lower, "group by") {
			t.Errorf("q%02d groups but has no ORDER BY", n)
		}
	}
	if _, err := Query(0, 1); err == nil {
		t.Error("Query(0): no error")
	}
	if _, err := Query(23, 1); err == nil {
		t.Error("Query(23): no error")
	}
	q1, _ := Query(11, 1)
	q001, _ := Query(11, 0.01)
	if !strings.Contains(q1, "* 0.0001000000") || !strings.Contains(q001, "* 0.0100000000") {
		t.Errorf("Q11's FRACTION is not 0.0001/SF:\n%s\n%s", q1, q001)
	}
	if !strings.Contains(Schema(), "create table lineitem (") {
		t.Error("schema lacks lineitem")
	}
}
