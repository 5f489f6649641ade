package operators

import (
	"strconv"
	"strings"
	"testing"

	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// gsAggregate is ROLLUP (k, s) over spillRows' (k, s, id), as the binder
// plans it: GroupingSets (keys k, s; raw values passed as #10, #11) under
// a hash aggregate grouped by the keys and the set number, computing
// count(*), sum(id) and count(DISTINCT s).
// With rollUp the aggregate groups by both keys once and rolls the sets up.
func gsAggregate(t *testing.T, in Operator, cs []plan.Column, rollUp bool, env *Env) Operator {
	t.Helper()
	x := &plan.GroupingSets{
		Keys:     []plan.Expr{col(1, cs[0].Type), col(2, cs[1].Type)},
		Sets:     [][]int{{}, {0}, {0, 1}},
		Pass:     []plan.Column{{ID: 10, Type: cs[0].Type}, {ID: 11, Type: cs[1].Type}, cs[2]},
		PassFrom: []plan.ColumnID{1, 2, 3},
		KeyCols:  []plan.Column{cs[0], cs[1]},
		SetCol:   plan.Column{ID: 12, Type: types.Int4Type},
	}
	gs, err := NewGroupingSets(in, x, rollUp, env)
	if err != nil {
		t.Fatal(err)
	}
	star, _ := types.ResolveAggregate("count", nil, true)
	sum, _ := types.ResolveAggregate("sum", []types.Type{cs[2].Type}, false)
	cnt, _ := types.ResolveAggregate("count", []types.Type{cs[1].Type}, false)
	calls := []plan.AggCall{{Func: star}, {Func: sum, Args: []plan.Expr{col(3, cs[2].Type)}},
		{Func: cnt, Args: []plan.Expr{col(11, cs[1].Type)}, Distinct: true}}
	groupBy := []plan.Expr{col(1, cs[0].Type), col(2, cs[1].Type), col(12, types.Int4Type)}
	out := append(append([]plan.Column(nil), x.KeyCols...), x.SetCol,
		plan.Column{ID: 13, Type: star.Result}, plan.Column{ID: 14, Type: sum.Result}, plan.Column{ID: 15, Type: cnt.Result})
	var sets [][]int
	if rollUp {
		sets = x.Sets
	}
	a, err := NewGroupingSetsAggregate(gs, groupBy, calls, out, []int32{0}, sets, env)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// rollupByHand is gsAggregate's answer from plain aggregations of each set.
func rollupByHand(t *testing.T, tab *memTable, cs []plan.Column) []string {
	var want []string
	for set, keys := range [][]int{{}, {0}, {0, 1}} {
		for _, row := range collectRows(t, spillAgg(t, scanOf(tab, cs, 1), cs, keys, &Env{})) {
			f := strings.Split(row, "|")
			keyVals := []string{"NULL", "NULL"}
			copy(keyVals, f[:len(keys)])
			aggs := f[len(keys):] // count(*), sum, min, max, avg, count(DISTINCT s)
			want = append(want, strings.Join(append(keyVals, strconv.Itoa(set), aggs[0], aggs[1], aggs[5]), "|"))
		}
	}
	return sorted(want)
}

// TestGroupingSetsMatchPlainAggregates: every set's groups are what a plain
// GROUP BY of its keys gives, the grouped-out key NULL (apart from a real
// NULL key by the set number), in memory, past the memory limit and over
// several partitions, fed once per set or rolled up.
func TestGroupingSetsMatchPlainAggregates(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, spillRows(3000, 9), 4)
	want := strings.Join(rollupByHand(t, tab, cs), "\n")
	for _, rollUp := range []bool{false, true} {
		for _, limit := range []int64{0, 1} {
			for _, parts := range []int{1, 3} {
				env := &Env{BatchSize: 7}
				var sp *spill.Space
				dir := t.TempDir()
				if limit > 0 {
					sp = spill.NewSpace(dir, limit)
					env.Spill = sp
				}
				got := strings.Join(sorted(collectRows(t, gsAggregate(t, scanOf(tab, cs, parts), cs, rollUp, env))), "\n")
				if got != want {
					t.Fatalf("roll-up %v, limit %d, %d partitions: groups differ\ngot:\n%.1500s\nwant:\n%.1500s", rollUp, limit, parts, got, want)
				}
				if sp != nil {
					if sp.Created() == 0 {
						t.Fatalf("%d partitions: nothing spilled", parts)
					}
					checkNoFiles(t, sp, dir)
				}
			}
		}
	}
}

// TestGroupingSetsEmptyInput: over no rows only the empty set's group
// exists (count 0, sum NULL), as GROUP BY () gives.
func TestGroupingSetsEmptyInput(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, nil, 1)
	for _, rollUp := range []bool{false, true} {
		got := collectRows(t, gsAggregate(t, scanOf(tab, cs, 2), cs, rollUp, &Env{}))
		if strings.Join(got, "\n") != "NULL|NULL|0|0|NULL|0" {
			t.Fatalf("roll-up %v: got %q", rollUp, got)
		}
	}
}
