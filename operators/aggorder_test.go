package operators

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// orderedAgg groups spillRows' (k, s, id) by k and computes
// string_agg(s, ',' ORDER BY id DESC), percentile_disc(0.5) WITHIN GROUP
// (ORDER BY id) and string_agg(DISTINCT s, ',' ORDER BY s DESC).
func orderedAgg(t *testing.T, in Operator, cs []plan.Column, env *Env) Operator {
	t.Helper()
	sagg, err := types.ResolveAggregate("string_agg", []types.Type{types.TextType, types.TextType}, false)
	if err != nil {
		t.Fatal(err)
	}
	disc, err := types.ResolveAggregate("percentile_disc", []types.Type{types.Float8Type, types.Int8Type}, false)
	if err != nil {
		t.Fatal(err)
	}
	comma := cst(S(","), types.TextType)
	s, id := col(2, types.TextType), col(3, types.Int8Type)
	calls := []plan.AggCall{
		{Func: sagg, Args: []plan.Expr{s, comma, id}, Order: []plan.AggSortKey{{Arg: 2, Desc: true, NullsFirst: true}}},
		{Func: disc, Args: []plan.Expr{cst(types.Value{F: 0.5}, types.Float8Type), id}, WithinGroup: true, Direct: 1,
			Order: []plan.AggSortKey{{Arg: 1}}},
		{Func: sagg, Args: []plan.Expr{s, comma}, Distinct: true, Order: []plan.AggSortKey{{Arg: 0, Desc: true, NullsFirst: true}}},
	}
	a, err := NewHashAggregate(in, []plan.Expr{col(1, types.Int8Type)}, calls,
		cols(types.Int8Type, types.TextType, types.Int8Type, types.TextType), env)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// orderedAggWant computes orderedAgg's groups directly.
func orderedAggWant(rows [][]types.Value) []string {
	type group struct {
		ids  []int64
		byID map[int64]string
		set  map[string]bool
	}
	gs := map[string]*group{}
	for _, r := range rows {
		k := "NULL"
		if !r[0].Null {
			k = fmt.Sprint(r[0].I)
		}
		g := gs[k]
		if g == nil {
			g = &group{byID: map[int64]string{}, set: map[string]bool{}}
			gs[k] = g
		}
		g.ids = append(g.ids, r[2].I)
		g.byID[r[2].I] = r[1].S
		g.set[r[1].S] = true
	}
	var out []string
	for k, g := range gs {
		sort.Slice(g.ids, func(i, j int) bool { return g.ids[i] > g.ids[j] })
		var ss []string
		for _, id := range g.ids {
			ss = append(ss, g.byID[id])
		}
		median := g.ids[len(g.ids)-(len(g.ids)+1)/2] // ceil(0.5 n)-th smallest
		var set []string
		for v := range g.set {
			set = append(set, v)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(set)))
		out = append(out, fmt.Sprintf("%s|%s|%d|%s", k, strings.Join(ss, ","), median, strings.Join(set, ",")))
	}
	return out
}

func TestOrderedAggregateAcrossPartitionsAndSpill(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	rows := spillRows(3000, 11)
	tab := newMemTable(cs, rows, 12)
	want := strings.Join(sorted(orderedAggWant(rows)), "\n")
	for _, limit := range []int64{0, 1, 16 << 10} {
		for _, parts := range []int{1, 4} {
			env := &Env{BatchSize: 7}
			var sp *spill.Space
			dir := t.TempDir()
			if limit > 0 {
				sp = spill.NewSpace(dir, limit)
				env.Spill = sp
			}
			got := strings.Join(sorted(collectRows(t, orderedAgg(t, scanOf(tab, cs, parts), cs, env))), "\n")
			if got != want {
				t.Fatalf("limit %d, %d partitions: groups differ\ngot:\n%.1500s\nwant:\n%.1500s", limit, parts, got, want)
			}
			if sp != nil {
				if sp.Created() == 0 {
					t.Fatalf("limit %d: nothing spilled", limit)
				}
				checkNoFiles(t, sp, dir)
			}
		}
	}
}
