package operators

import (
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// applyFixture: left rows (c1, c2) over two partitions; the right side
// yields, for a left row with c1 = k, the rows k*10+j for j < k (none for
// k <= 0 or NULL), plus the enclosing query's outer value #99 when set.
func applyFixture(t *testing.T, typ plan.JoinType, on plan.Expr, outer map[plan.ColumnID]types.Value) ([]string, *fakeRunner) {
	t.Helper()
	left := cols(i8, i8)
	tbl := newMemTable(left, [][]types.Value{{I(0), I(5)}, {I(1), I(10)}, {I(2), I(15)}, {N, I(0)}, {I(3), N}}, 1)
	right := &plan.Values{Cols: []plan.Column{{ID: 10, Name: "r", Type: i8}, {ID: 11, Name: "o", Type: i8}}}
	r := &fakeRunner{fn: func(o map[plan.ColumnID]types.Value) [][]types.Value {
		k := o[1]
		var rows [][]types.Value
		for j := int64(0); !k.Null && j < k.I; j++ {
			ov := N
			if v, ok := o[99]; ok {
				ov = v
			}
			rows = append(rows, []types.Value{I(k.I*10 + j), ov})
		}
		return rows
	}}
	env := &Env{Subqueries: r, Outer: outer}
	op, err := NewApply(scanOf(tbl, left, 2), right, typ, on, []plan.ColumnID{1}, env)
	if err != nil {
		t.Fatal(err)
	}
	if op.Partitions() != 2 || len(op.Columns()) != 4 {
		t.Fatalf("partitions %d, columns %d", op.Partitions(), len(op.Columns()))
	}
	return collectRows(t, op), r
}

func TestApplyCross(t *testing.T) {
	got, r := applyFixture(t, plan.CrossJoin, nil, nil)
	sameMultiset(t, got, []string{"1|10|10|NULL", "2|15|20|NULL", "2|15|21|NULL", "3|NULL|30|NULL", "3|NULL|31|NULL", "3|NULL|32|NULL"})
	if r.calls.Load() != 5 {
		t.Fatalf("right side ran %d times, want once per left row (5)", r.calls.Load())
	}
}

func TestApplyLeftKeepsUnmatchedRows(t *testing.T) {
	got, _ := applyFixture(t, plan.LeftJoin, nil, nil)
	sameMultiset(t, got, []string{"0|5|NULL|NULL", "1|10|10|NULL", "2|15|20|NULL", "2|15|21|NULL",
		"NULL|0|NULL|NULL", "3|NULL|30|NULL", "3|NULL|31|NULL", "3|NULL|32|NULL"})
}

func TestApplyOnCondition(t *testing.T) {
	// ON r > c2: a left row whose right rows all fail is NULL-extended once
	// (LEFT) or dropped (INNER); a NULL condition is not a match.
	on := call(gt8, col(10, i8), col(2, i8))
	got, _ := applyFixture(t, plan.LeftJoin, on, nil)
	sameMultiset(t, got, []string{"0|5|NULL|NULL", "1|10|NULL|NULL", "2|15|20|NULL", "2|15|21|NULL",
		"NULL|0|NULL|NULL", "3|NULL|NULL|NULL"})
	got, _ = applyFixture(t, plan.InnerJoin, on, nil)
	sameMultiset(t, got, []string{"2|15|20|NULL", "2|15|21|NULL"})
}

func TestApplySeesEnclosingOuterValues(t *testing.T) {
	got, _ := applyFixture(t, plan.CrossJoin, nil, map[plan.ColumnID]types.Value{99: I(7)})
	sameMultiset(t, got, []string{"1|10|10|7", "2|15|20|7", "2|15|21|7", "3|NULL|30|7", "3|NULL|31|7", "3|NULL|32|7"})
}

func TestApplyRejectsBadPlans(t *testing.T) {
	left := cols(i8)
	tbl := newMemTable(left, [][]types.Value{{I(1)}}, 1)
	right := &plan.Values{Cols: []plan.Column{{ID: 10, Name: "r", Type: i8}}}
	env := &Env{Subqueries: &fakeRunner{}}
	if _, err := NewApply(scanOf(tbl, left, 1), right, plan.FullJoin, nil, nil, env); err == nil {
		t.Fatal("a FULL lateral join must be refused")
	}
	_, err := NewApply(scanOf(tbl, left, 1), right, plan.CrossJoin, nil, []plan.ColumnID{42}, env)
	wantCode(t, err, pgerr.InternalError)
	_, err = NewApply(scanOf(tbl, left, 1), right, plan.CrossJoin, nil, nil, &Env{})
	wantCode(t, err, pgerr.InternalError)
	// The runner returning rows of the wrong width is an internal error.
	bad := &fakeRunner{rows: [][]types.Value{{I(1), I(2)}}}
	op, err := NewApply(scanOf(tbl, left, 1), right, plan.CrossJoin, nil, nil, &Env{Subqueries: bad})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := op.Open(t.Context(), 0)
	_, err = drain(s)
	wantCode(t, err, pgerr.InternalError)
}
