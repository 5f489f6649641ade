package operators

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// seriesCall is generate_series over args, resolved as the binder would.
func seriesCall(t *testing.T, args ...plan.Expr) plan.SetFunc {
	t.Helper()
	ts := make([]types.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	ov, err := types.ResolveFunction("generate_series", ts)
	if err != nil {
		t.Fatal(err)
	}
	return plan.SetFunc{Func: ov, Args: args}
}

// rowsText renders every row of op as "a,b" strings (NULL as "-").
func rowsText(t *testing.T, op Operator) []string {
	t.Helper()
	recs, err := Collect(context.Background(), op)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		for _, row := range recRows(r, op.Columns()) {
			parts := make([]string, len(row))
			for i, v := range row {
				parts[i] = "-"
				if !v.Null {
					parts[i] = fmt.Sprint(v.I)
				}
			}
			out = append(out, strings.Join(parts, ","))
		}
	}
	return out
}

// intInput is a one-partition scan of one int4 column n (ID 1) over rows.
func intInput(rows ...types.Value) Operator {
	cs := []plan.Column{{ID: 1, Name: "n", Type: i4}}
	recs := make([][]types.Value, len(rows))
	for i, v := range rows {
		recs[i] = []types.Value{v}
	}
	tbl := &memTable{name: "t", defs: []storage.ColumnDef{{Name: "n", Type: i4}}, recs: []arrow.Record{mkRecord(cs, recs)}}
	return scanOf(tbl, cs, 1)
}

// ROWS FROM pads the shorter function with NULLs; ordinality counts rows.
func TestFunctionScanRowsFromOrdinality(t *testing.T) {
	fs := []plan.SetFunc{
		seriesCall(t, cst(I(1), i4), cst(I(3), i4)),
		seriesCall(t, cst(I(10), i8), cst(I(11), i8)),
	}
	cols := []plan.Column{{ID: 1, Type: i4}, {ID: 2, Type: i8}, {ID: 3, Type: i8}}
	op, err := NewFunctionScan(fs, true, cols, &Env{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rowsText(t, op), " ")
	if want := "1,10,1 2,11,2 3,-,3"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// ProjectSet repeats each input row per lockstep row of its functions; a
// row whose functions all yield nothing (n = 0, n NULL) disappears, and
// output batches split at the batch size.
func TestProjectSetPerRow(t *testing.T) {
	in := intInput(I(2), I(0), N, I(3))
	n := &plan.ColRef{ID: 1, T: i4}
	fs := []plan.SetFunc{
		seriesCall(t, cst(I(1), i4), n),
		seriesCall(t, cst(I(1), i4), cst(I(2), i4)),
	}
	op, err := NewProjectSet(in, fs, []plan.Column{{ID: 2, Type: i4}, {ID: 3, Type: i4}}, nil, nil, &Env{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rowsText(t, op), " ")
	if want := "2,1,1 2,2,2 0,-,1 0,-,2 -,-,1 -,-,2 3,1,1 3,2,2 3,3,-"; got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// The expressions a ProjectSet evaluates run on each step of a row, the
// last too: 10 / n fails on n = 0 although generate_series(1, 0) yields no
// row, and otherwise appears on every emitted row.
func TestProjectSetExprsOnEveryStep(t *testing.T) {
	div, err := types.ResolveOperator("/", i4, i4)
	if err != nil {
		t.Fatal(err)
	}
	n := &plan.ColRef{ID: 1, T: i4}
	tenth := &plan.Call{Func: div, Args: []plan.Expr{cst(I(10), i4), n}}
	run := func(rows ...types.Value) (Operator, error) {
		return NewProjectSet(intInput(rows...), []plan.SetFunc{seriesCall(t, cst(I(1), i4), n)},
			[]plan.Column{{ID: 2, Type: i4}}, []plan.Expr{tenth}, []plan.Column{{ID: 3, Type: i4}}, &Env{BatchSize: 2})
	}
	op, err := run(I(2), I(5))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rowsText(t, op), " ")
	if want := "2,1,5 2,2,5 5,1,2 5,2,2 5,3,2 5,4,2 5,5,2"; got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	if op, err = run(I(2), I(0)); err != nil {
		t.Fatal(err)
	}
	_, err = Collect(context.Background(), op)
	wantCode(t, err, "22012")
}
