package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

type fixture struct{ ids plan.IDAllocator }

func (f *fixture) col(name string) plan.Column {
	return plan.Column{ID: f.ids.Next(), Name: name, Type: types.Int8Type}
}

func ref(c plan.Column) *plan.ColRef { return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name} }

// values is a VALUES list of (key, tag) rows; key < 0 is NULL.
func (f *fixture) values(keys ...int64) *plan.Values {
	v := &plan.Values{Cols: []plan.Column{f.col("k"), f.col("tag")}}
	for i, k := range keys {
		kv := plan.Expr(&plan.Const{Val: types.IntValue(k), T: types.Int8Type})
		if k < 0 {
			kv = &plan.Const{Val: types.NullValue, T: types.Int8Type}
		}
		v.Rows = append(v.Rows, []plan.Expr{kv, &plan.Const{Val: types.IntValue(int64(i)), T: types.Int8Type}})
	}
	return v
}

func (f *fixture) unionAll(a, b *plan.Values) *plan.SetOp {
	return &plan.SetOp{Op: plan.Union, All: true, Left: a, Right: b, Cols: []plan.Column{f.col("k"), f.col("tag")}}
}

func run(t *testing.T, n plan.Node, f *fixture, opts optimizer.Options) (*Query, []string) {
	t.Helper()
	env := &operators.Env{Eval: &types.EvalContext{}, BatchSize: 2}
	opts.Eval = env.Eval
	q, err := Prepare(n, &f.ids, env, Config{PlanOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	cols := n.Columns()
	var rows []string
	err = q.Run(context.Background(), func(rec arrow.Record) error {
		for i := 0; i < int(rec.NumRows()); i++ {
			var vals []string
			for c, col := range cols {
				v := types.GetValue(rec.Column(c), col.Type, i)
				if v.Null {
					vals = append(vals, "NULL")
				} else {
					vals = append(vals, fmt.Sprint(v.I))
				}
			}
			rows = append(rows, strings.Join(vals, ","))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(rows)
	return q, rows
}

func findJoin(p *optimizer.Physical) *optimizer.Physical {
	if p.Join != nil {
		return p
	}
	for _, in := range p.Inputs {
		if j := findJoin(in); j != nil {
			return j
		}
	}
	return nil
}

func hasOp(p *optimizer.Physical, op optimizer.Op) int {
	n := 0
	if p.Op == op {
		n++
	}
	for _, in := range p.Inputs {
		n += hasOp(in, op)
	}
	return n
}

// TestPartitionedJoinMatchesCollectLeft: a Partitioned join reads its inputs
// through the plan's Repartition exchanges (2 → 3 and 1 → 3 partitions) and
// answers exactly as CollectLeft, NULL keys and IS NOT DISTINCT FROM
// included, for every outer join type and either build side.
func TestPartitionedJoinMatchesCollectLeft(t *testing.T) {
	for _, typ := range []plan.JoinType{plan.InnerJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin, plan.SemiJoin, plan.AntiJoin} {
		for _, c := range []struct{ nullsEq, bigRight bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			nullsEq := c.nullsEq
			var want []string
			for _, mode := range []string{"collect_left", "partitioned"} {
				f := &fixture{}
				left := f.unionAll(f.values(1, 2, 2, -1, 5, 7, 9), f.values(3, -1, 4, 8, 8))
				right := f.values(2, 3, -1, 8, 10, 2)
				if c.bigRight { // build the left side instead
					right = f.values(2, 3, -1, 8, 10, 2, 2, 3, -1, 4, 4, 4, 4, 4, 11)
				}
				lk, rk := ref(left.Cols[0]), ref(right.Cols[0])
				on := plan.Expr(&plan.IsDistinct{Left: lk, Right: rk, Negate: true})
				if !nullsEq {
					eq, err := types.ResolveOperator("=", types.Int8Type, types.Int8Type)
					if err != nil {
						t.Fatal(err)
					}
					on = &plan.Call{Func: eq, Args: []plan.Expr{lk, rk}}
				}
				j := &plan.Join{Type: typ, Left: left, Right: right, On: on}
				q, got := run(t, j, f, optimizer.Options{Partitions: 3, JoinMode: mode, CollectLeftMaxRows: 1e9})
				if hj := findJoin(q.Phys); (hj.Join.Build == optimizer.LeftSide) != c.bigRight {
					t.Fatalf("type %d: built the %s side", typ, hj.Join.Build)
				}
				if n := hasOp(q.Phys, optimizer.OpRepartition); mode == "partitioned" && n != 2 {
					t.Fatalf("type %d: a partitioned join needs a repartition below each input:\n%s", typ, strings.Join(q.Explain(), "\n"))
				}
				if want == nil {
					want = got
					if len(want) == 0 {
						t.Fatalf("type %d nullsEq=%v: no rows", typ, nullsEq)
					}
					continue
				}
				if !slices.Equal(got, want) {
					t.Fatalf("type %d nullsEq=%v: partitioned %v, collect_left %v\n%s", typ, nullsEq, got, want, strings.Join(q.Explain(), "\n"))
				}
			}
		}
	}
}

// TestBuildRefusesARootOfSeveralPartitions: the optimizer gathers the root;
// a plan without that Gather is a bug, not something to patch up here.
func TestBuildRefusesARootOfSeveralPartitions(t *testing.T) {
	f := &fixture{}
	v := f.unionAll(f.values(1), f.values(2))
	phys := &optimizer.Physical{Op: optimizer.OpAppend, Logical: v, Partitions: 2, Inputs: []*optimizer.Physical{
		{Op: optimizer.OpValues, Logical: v.Left, Partitions: 1}, {Op: optimizer.OpValues, Logical: v.Right, Partitions: 1}}}
	if _, err := Build(phys, &f.ids, &operators.Env{Eval: &types.EvalContext{}}, Config{}); err == nil {
		t.Fatal("a root of 2 partitions was built")
	}
	// A node whose operator's partitioning differs from the plan's is refused.
	phys.Partitions = 1
	root := &optimizer.Physical{Op: optimizer.OpGather, Partitions: 1, Inputs: []*optimizer.Physical{phys}}
	if _, err := Build(root, &f.ids, &operators.Env{Eval: &types.EvalContext{}}, Config{}); err == nil {
		t.Fatal("a Union All planned as 1 partition but built as 2 was accepted")
	}
}
