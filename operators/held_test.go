package operators

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// heldCase is an operator that holds rows with no spill path, built over
// the table heldRows makes.
type heldCase struct {
	name    string
	ordered bool // its rows come in a defined order
	build   func(t *testing.T, env *Env) Operator
}

// heldRows are (k int8, s text, id int8): 4000 rows, 500 keys, 300
// strings, duplicates of (k, s) and a few NULL keys.
func heldRows() ([]plan.Column, *memTable) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	rows := make([][]types.Value, 4000)
	for i := range rows {
		k := I(int64(i % 500))
		if i%97 == 0 {
			k = N
		}
		rows[i] = []types.Value{k, S(fmt.Sprintf("s%03d", (i*7)%300)), I(int64(i))}
	}
	return cs, newMemTable(cs, rows, 3)
}

func heldCases() []heldCase {
	cs, tab := heldRows()
	ks := cs[:2] // (k, s): duplicates
	keysOnly := func(t *testing.T, env *Env, parts int) Operator {
		p, err := NewProject(scanOf(tab, cs, parts), []plan.Expr{col(1, cs[0].Type), col(2, cs[1].Type)}, ks, env)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	setOp := func(kind plan.SetOpKind, all bool) func(t *testing.T, env *Env) Operator {
		return func(t *testing.T, env *Env) Operator {
			odd, err := NewFilter(keysOnly(t, env, 2), &plan.Call{Func: mustOp(t, "<", types.Int8Type, types.Int8Type),
				Args: []plan.Expr{col(1, cs[0].Type), &plan.Const{Val: I(300), T: types.Int8Type}}}, env)
			if err != nil {
				t.Fatal(err)
			}
			op, err := NewSetOp(kind, all, keysOnly(t, env, 2), odd, ks, env)
			if err != nil {
				t.Fatal(err)
			}
			return op
		}
	}
	return []heldCase{
		{"distinct", false, func(t *testing.T, env *Env) Operator {
			op, err := NewDistinct(keysOnly(t, env, 1), env)
			if err != nil {
				t.Fatal(err)
			}
			return op
		}},
		{"intersect", false, setOp(plan.Intersect, false)},
		{"except all", false, setOp(plan.Except, true)},
		{"window", true, func(t *testing.T, env *Env) Operator {
			sum, err := types.ResolveAggregate("sum", []types.Type{types.Int8Type}, false)
			if err != nil {
				t.Fatal(err)
			}
			fr := plan.Frame{Mode: plan.FrameRows, Start: plan.FrameBound{Kind: plan.UnboundedPreceding}, End: plan.FrameBound{Kind: plan.CurrentRow}}
			w := &plan.Window{PartitionBy: []plan.Expr{col(1, cs[0].Type)}, OrderBy: []plan.SortKey{{Expr: col(3, cs[2].Type)}},
				Funcs: []plan.WindowFunc{{Agg: sum, Args: []plan.Expr{col(3, cs[2].Type)}, Frame: fr}}}
			w.Cols = append(append([]plan.Column(nil), cs...), plan.Column{ID: 10, Name: "sum", Type: sum.Result})
			op, err := NewWindow(scanOf(tab, cs, 2), w, 1, false, env)
			if err != nil {
				t.Fatal(err)
			}
			return op
		}},
		{"top-N", true, func(t *testing.T, env *Env) Operator {
			op, err := NewTopN(scanOf(tab, cs, 2), []plan.SortKey{{Expr: col(2, cs[1].Type), Desc: true}, {Expr: col(3, cs[2].Type)}}, 3000, 10, env)
			if err != nil {
				t.Fatal(err)
			}
			return op
		}},
		{"array_agg without GROUP BY", true, func(t *testing.T, env *Env) Operator {
			agg, err := types.ResolveAggregate("array_agg", []types.Type{types.TextType}, false)
			if err != nil {
				t.Fatal(err)
			}
			op, err := NewHashAggregate(scanOf(tab, cs, 1), nil, []plan.AggCall{{Func: agg, Args: []plan.Expr{col(2, cs[1].Type)}}},
				cols(agg.Result), env)
			if err != nil {
				t.Fatal(err)
			}
			return op
		}},
	}
}

func mustOp(t *testing.T, name string, l, r types.Type) *types.Overload {
	t.Helper()
	op, err := types.ResolveOperator(name, l, r)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// TestHeldMemoryIsAccounted: every operator that holds rows without a
// spill path counts them in the query's Space: under a limit they fit in
// it gives the unlimited answer and reports its peak; under a small one it
// fails with PostgreSQL's 53200 wording, and under a small server-wide
// limit too; each time every byte is returned once its stream closes.
func TestHeldMemoryIsAccounted(t *testing.T) {
	for _, c := range heldCases() {
		t.Run(c.name, func(t *testing.T) {
			want := collectRows(t, c.build(t, &Env{BatchSize: 7}))
			if !c.ordered {
				want = sorted(want)
			}
			sp := spill.NewSpace("", 1<<30)
			op := c.build(t, &Env{BatchSize: 7, Spill: sp})
			got := collectRows(t, op)
			if !c.ordered {
				got = sorted(got)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("under a large limit the rows differ from the unlimited run")
			}
			if n, ok := op.(interface{ ExplainNote() string }); !ok || !strings.Contains(n.ExplainNote(), "(memory: peak ") {
				t.Errorf("no peak memory in its EXPLAIN ANALYZE note")
			}
			if u := sp.Used(); u != 0 {
				t.Fatalf("%d bytes still counted after the stream closed", u)
			}

			sp = spill.NewSpace("", 4<<10)
			_, err := Collect(context.Background(), c.build(t, &Env{BatchSize: 7, Spill: sp}))
			checkOutOfMemory(t, err, "the memory limit of 4096 bytes")
			if u := sp.Used(); u != 0 {
				t.Fatalf("%d bytes still counted after the failed stream closed", u)
			}

			spill.SetServerLimit(4 << 10)
			defer spill.SetServerLimit(0)
			sp = spill.NewSpace("", 0)
			_, err = Collect(context.Background(), c.build(t, &Env{BatchSize: 7, Spill: sp}))
			checkOutOfMemory(t, err, "the server's memory limit of 4096 bytes")
			sp.Close()
			if u := spill.ServerUsed(); u != 0 {
				t.Fatalf("%d bytes still counted server-wide", u)
			}
		})
	}
}

// checkOutOfMemory holds err to PostgreSQL's failed allocation: 53200,
// "out of memory", DETAIL naming the request; the HINT names the limit.
func checkOutOfMemory(t *testing.T, err error, limit string) {
	t.Helper()
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.OutOfMemory || pe.Message != "out of memory" ||
		!strings.HasPrefix(pe.Detail, "Failed on request of size ") || !strings.Contains(pe.Detail, " in memory context \"") {
		t.Fatalf("got %v (%+v), want 53200 out of memory", err, pe)
	}
	if !strings.Contains(pe.Hint, limit) {
		t.Fatalf("hint %q does not name %s", pe.Hint, limit)
	}
}

// TestMaterializedRowsHeldUntilTheQueryEnds: a materialized WITH query's
// rows count until the query's Space closes, against the server-wide limit
// too, and past the limit the materialization fails with 53200.
func TestMaterializedRowsHeldUntilTheQueryEnds(t *testing.T) {
	cs, tab := heldRows()
	sp := spill.NewSpace("", 1<<30)
	recs, err := CollectWithin(context.Background(), scanOf(tab, cs, 2), sp, `WITH query "w"`)
	if err != nil || len(recs) == 0 {
		t.Fatalf("%d batches, %v", len(recs), err)
	}
	if sp.Used() == 0 || spill.ServerUsed() != sp.Used() {
		t.Fatalf("held %d bytes, server-wide %d", sp.Used(), spill.ServerUsed())
	}
	root := ReleaseSpace(NewValues(nil, nil, nil), sp)
	st, err := root.Open(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if sp.Used() != 0 || spill.ServerUsed() != 0 {
		t.Fatalf("after the root closed: %d bytes held, %d server-wide", sp.Used(), spill.ServerUsed())
	}
	sp = spill.NewSpace("", 4<<10)
	_, err = CollectWithin(context.Background(), scanOf(tab, cs, 2), sp, `WITH query "w"`)
	checkOutOfMemory(t, err, "the memory limit of 4096 bytes")
	sp.Close()
	if spill.ServerUsed() != 0 {
		t.Fatalf("%d bytes server-wide after the query closed", spill.ServerUsed())
	}
}
