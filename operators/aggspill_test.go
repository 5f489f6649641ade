package operators

import (
	"context"
	"strings"
	"testing"

	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// spillAgg is a grouped aggregation over spillRows' (k, s, id) by the
// columns keys: count(*), sum/min/max/avg(id), count(DISTINCT s).
func spillAgg(t *testing.T, in Operator, cs []plan.Column, keys []int, env *Env) Operator {
	t.Helper()
	var groupBy []plan.Expr
	var out []types.Type
	for _, k := range keys {
		groupBy = append(groupBy, col(k+1, cs[k].Type))
		out = append(out, cs[k].Type)
	}
	star, _ := types.ResolveAggregate("count", nil, true)
	calls := []plan.AggCall{{Func: star}}
	out = append(out, star.Result)
	id := col(3, cs[2].Type)
	for _, name := range []string{"sum", "min", "max", "avg"} {
		fn, err := types.ResolveAggregate(name, []types.Type{cs[2].Type}, false)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, plan.AggCall{Func: fn, Args: []plan.Expr{id}})
		out = append(out, fn.Result)
	}
	cnt, _ := types.ResolveAggregate("count", []types.Type{cs[1].Type}, false)
	calls = append(calls, plan.AggCall{Func: cnt, Args: []plan.Expr{col(2, cs[1].Type)}, Distinct: true})
	out = append(out, cnt.Result)
	a, err := NewHashAggregate(in, groupBy, calls, cols(out...), env)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAggregateSpillsAndMatchesInMemory(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, spillRows(4000, 5), 6)
	for _, keys := range [][]int{{0}, {1}, {0, 1}} {
		want := strings.Join(sorted(collectRows(t, spillAgg(t, scanOf(tab, cs, 1), cs, keys, &Env{BatchSize: 7}))), "\n")
		for _, limit := range []int64{1, 16 << 10} {
			for _, parts := range []int{1, 4} {
				dir := t.TempDir()
				sp := spill.NewSpace(dir, limit)
				got := strings.Join(sorted(collectRows(t, spillAgg(t, scanOf(tab, cs, parts), cs, keys, &Env{BatchSize: 7, Spill: sp}))), "\n")
				if got != want {
					t.Fatalf("keys %v, limit %d, %d partitions: groups differ\ngot:\n%.2000s\nwant:\n%.2000s", keys, limit, parts, got, want)
				}
				if sp.Created() == 0 {
					t.Fatalf("keys %v, limit %d: nothing spilled", keys, limit)
				}
				checkNoFiles(t, sp, dir)
			}
		}
	}
}

func TestAggregateCancelMidSpillRemovesFiles(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, spillRows(4000, 7), 8)
	dir := t.TempDir()
	sp := spill.NewSpace(dir, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &cancelAfter{Operator: scanOf(tab, cs, 4), n: 300, cancel: cancel}
	st, err := spillAgg(t, in, cs, []int{0, 1}, &Env{BatchSize: 7, Spill: sp}).Open(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = drain(st)
	wantCode(t, err, pgerr.QueryCanceled)
	if sp.Created() == 0 {
		t.Fatal("nothing spilled before the cancel")
	}
	st.Close()
	checkNoFiles(t, sp, dir)
}
