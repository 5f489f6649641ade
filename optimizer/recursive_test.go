package optimizer

import (
	"testing"

	"github.com/joind/joind/sql/plan"
)

// recursiveUnion is WITH RECURSIVE r(x) AS (SELECT x FROM a UNION ALL
// SELECT x FROM r [JOIN b ON r.x = b.x]): the recursive term reads the
// working table alone, or joins it with a scan of b.
func recursiveUnion(t *testing.T, f *fixture, joined bool) *plan.RecursiveUnion {
	a := f.scan("a", 1000, false, "x")
	wt := &plan.WorkTable{Name: "r"}
	ws := &plan.WorkTableScan{WorkTable: wt, Cols: []plan.Column{{ID: f.ids.Next(), Name: "x", Type: a.Cols[0].Type}}}
	var term plan.Node = ws
	if joined {
		b := f.scan("b", 1000, false, "x")
		term = &plan.Join{Type: plan.InnerJoin, Left: ws, Right: b, On: op(t, "=", ref(ws.Cols[0]), ref(b.Cols[0]))}
	}
	return &plan.RecursiveUnion{Name: "r", All: true, NonRecursive: a, Recursive: project(term, ws.Cols[0]),
		WorkTable: wt, Cols: []plan.Column{{ID: f.ids.Next(), Name: "x", Type: a.Cols[0].Type}}}
}

// The recursive union is one partition over both terms gathered; a term of
// streaming operators is reopenable (built once), one with a join is not.
func TestRecursiveUnionPlanning(t *testing.T) {
	for _, joined := range []bool{false, true} {
		f := &fixture{}
		p := planOf(t, f, recursiveUnion(t, f, joined))
		ru := findOp(p, OpRecursiveUnion)
		if ru == nil {
			t.Fatalf("joined=%v: no Recursive Union in\n%s", joined, explainText(p))
		}
		if ru.Partitions != 1 || ru.Inputs[0].Partitions != 1 || ru.Inputs[1].Partitions != 1 {
			t.Fatalf("joined=%v: partitions %d over %d, %d; want 1 over 1, 1\n%s", joined,
				ru.Partitions, ru.Inputs[0].Partitions, ru.Inputs[1].Partitions, explainText(p))
		}
		if ru.Inputs[0].Op != OpGather {
			t.Errorf("joined=%v: the non-recursive scan of 2 partitions is not gathered:\n%s", joined, explainText(p))
		}
		if findOp(ru.Inputs[1], OpWorkTableScan) == nil {
			t.Errorf("joined=%v: no WorkTable Scan in the recursive term", joined)
		}
		if got := Reopenable(ru.Inputs[1]); got == joined {
			t.Errorf("joined=%v: Reopenable = %v\n%s", joined, got, explainText(p))
		}
	}
}
