package operators

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

var partitionCounts = []int{1, 2, 8}

// Test accumulators, independent of package types' aggregate catalogue.
type countAcc struct{ n int64 }

func (a *countAcc) Add(args []types.Value) error {
	if len(args) == 0 || !args[0].Null {
		a.n++
	}
	return nil
}
func (a *countAcc) Merge(o types.Accumulator) error { a.n += o.(*countAcc).n; return nil }
func (a *countAcc) Result() (types.Value, error)    { return I(a.n), nil }

type sumAcc struct {
	s   int64
	any bool
}

func (a *sumAcc) Add(args []types.Value) error {
	if !args[0].Null {
		a.s += args[0].I
		a.any = true
	}
	return nil
}
func (a *sumAcc) Merge(o types.Accumulator) error {
	b := o.(*sumAcc)
	a.s += b.s
	a.any = a.any || b.any
	return nil
}
func (a *sumAcc) Result() (types.Value, error) {
	if !a.any {
		return N, nil
	}
	return I(a.s), nil
}

// firstAcc records the order values arrive in (to check DISTINCT sorting).
type listAcc struct{ s string }

func (a *listAcc) Add(args []types.Value) error {
	if !args[0].Null {
		a.s += fmt.Sprint(args[0].I) + ";"
	}
	return nil
}
func (a *listAcc) Merge(o types.Accumulator) error { a.s += o.(*listAcc).s; return nil }
func (a *listAcc) Result() (types.Value, error)    { return S(a.s), nil }

var (
	countStar = &types.AggOverload{Name: "count", Result: i8, New: func() types.Accumulator { return &countAcc{} }}
	count8    = &types.AggOverload{Name: "count", Args: []types.Type{i8}, Result: i8, New: func() types.Accumulator { return &countAcc{} }}
	sum8      = &types.AggOverload{Name: "sum", Args: []types.Type{i8}, Result: i8, New: func() types.Accumulator { return &sumAcc{} }}
	list8     = &types.AggOverload{Name: "list", Args: []types.Type{i8}, Result: types.TextType, New: func() types.Accumulator { return &listAcc{} }}
)

// table k,v: k in {1,2,3,NULL}, v = row number or NULL every 5th row.
func kvRows(n int) [][]types.Value {
	var rows [][]types.Value
	for i := 0; i < n; i++ {
		k := I(int64(i % 3))
		if i%4 == 3 {
			k = N
		}
		v := I(int64(i))
		if i%5 == 4 {
			v = N
		}
		rows = append(rows, []types.Value{k, v})
	}
	return rows
}

func expectRows(rows [][]types.Value, cs []plan.Column, keep func([]types.Value) bool) []string {
	var out []string
	for _, r := range rows {
		if keep == nil || keep(r) {
			out = append(out, fmtRow(r, cs))
		}
	}
	return out
}

func TestScanFilterProject(t *testing.T) {
	cs := cols(i8, i8)
	rows := kvRows(100)
	for _, parts := range partitionCounts {
		t.Run(fmt.Sprint(parts), func(t *testing.T) {
			tab := newMemTable(cs, rows, int64(parts))
			sc := NewScanBatch(tab, []int{0, 1}, cs, parts, 3)
			if got := collectRows(t, sc); len(got) != 100 {
				t.Fatalf("scan: %d rows", len(got))
			}
			sameMultiset(t, collectRows(t, sc), expectRows(rows, cs, nil))
			// WHERE v > 50
			f, err := NewFilter(sc, call(gt8, col(2, i8), cst(I(50), i8)), &Env{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Partitions() != parts {
				t.Fatalf("filter partitions %d", f.Partitions())
			}
			sameMultiset(t, collectRows(t, f), expectRows(rows, cs, func(r []types.Value) bool { return !r[1].Null && r[1].I > 50 }))
			// SELECT v, k IS NULL
			pc := []plan.Column{{ID: 10, Name: "v", Type: i8}, {ID: 11, Name: "isnull", Type: bl}}
			p, err := NewProject(f, []plan.Expr{col(2, i8), &plan.IsNull{Arg: col(1, i8)}}, pc, &Env{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range rows {
				if !r[1].Null && r[1].I > 50 {
					want = append(want, fmtRow([]types.Value{r[1], B(r[0].Null)}, pc))
				}
			}
			sameMultiset(t, collectRows(t, p), want)
			// Only column 1 of the table (ordinals).
			one := NewScan(tab, []int{1}, cs[1:], parts)
			if got := collectRows(t, one); len(got) != 100 {
				t.Fatalf("ordinal scan: %d rows", len(got))
			}
		})
	}
}

func TestValuesZeroColumns(t *testing.T) {
	v := NewValues([][]plan.Expr{{}}, nil, &Env{})
	recs, err := Collect(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].NumRows() != 1 || recs[0].NumCols() != 0 {
		t.Fatalf("zero-column values: %v", recs)
	}
	// SELECT 1 + 2 over it.
	pc := []plan.Column{{ID: 1, Name: "?column?", Type: i4}}
	p, err := NewProject(v, []plan.Expr{call(plus4, cst(I(1), i4), cst(I(2), i4))}, pc, &Env{})
	if err != nil {
		t.Fatal(err)
	}
	sameMultiset(t, collectRows(t, p), []string{"3"})
	cs := cols(i8, types.TextType)
	vals := NewValues([][]plan.Expr{{cst(I(1), i8), cst(S("a"), types.TextType)}, {cst(N, i8), cst(N, types.TextType)}}, cs, &Env{})
	sameMultiset(t, collectRows(t, vals), []string{"1|a", "NULL|NULL"})
}

func TestHashAggregate(t *testing.T) {
	cs := cols(i8, i8)
	rows := kvRows(200)
	// Expected per k (NULL is one group).
	type st struct {
		cnt, cntv, sum, filtered int64
		anyv                     bool
		distinct                 map[int64]bool
	}
	exp := map[string]*st{}
	var order []string
	for _, r := range rows {
		k := fmtVal(r[0], i8)
		e := exp[k]
		if e == nil {
			e = &st{distinct: map[int64]bool{}}
			exp[k] = e
			order = append(order, k)
		}
		e.cnt++
		if !r[1].Null {
			e.cntv++
			e.sum += r[1].I
			e.anyv = true
			e.distinct[r[1].I%7] = true
			if r[1].I%2 == 0 {
				e.filtered++
			}
		}
	}
	var want []string
	for _, k := range order {
		e := exp[k]
		want = append(want, fmt.Sprintf("%s|%d|%d|%d|%d|%d", k, e.cnt, e.cntv, e.sum, len(e.distinct), e.filtered))
	}
	mod7 := &types.Overload{Name: "%", Args: []types.Type{i8, i8}, Result: i8, Strict: true,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) { return I(a[0].I % a[1].I), nil }}
	isEven := call(eq8, call(mod7, col(2, i8), cst(I(2), i8)), cst(I(0), i8))
	aggs := []plan.AggCall{
		{Func: countStar},
		{Func: count8, Args: []plan.Expr{col(2, i8)}},
		{Func: sum8, Args: []plan.Expr{col(2, i8)}},
		{Func: count8, Args: []plan.Expr{call(mod7, col(2, i8), cst(I(7), i8))}, Distinct: true},
		{Func: countStar, Filter: isEven},
	}
	out := append(cols(i8), cols(i8, i8, i8, i8, i8)...)
	for _, parts := range partitionCounts {
		t.Run(fmt.Sprint(parts), func(t *testing.T) {
			sc := NewScanBatch(newMemTable(cs, rows, 7), []int{0, 1}, cs, parts, 5)
			a, err := NewHashAggregate(sc, []plan.Expr{col(1, i8)}, aggs, out, &Env{})
			if err != nil {
				t.Fatal(err)
			}
			sameMultiset(t, collectRows(t, a), want)

			// No GROUP BY over empty input: one row, count 0, sum NULL.
			// (A fresh scan: the aggregate above narrowed sc to its columns.)
			sc = NewScanBatch(newMemTable(cs, rows, 7), []int{0, 1}, cs, parts, 5)
			empty, _ := NewFilter(sc, cst(B(false), bl), &Env{})
			a2, err := NewHashAggregate(empty, nil, aggs[:3], cols(i8, i8, i8), &Env{})
			if err != nil {
				t.Fatal(err)
			}
			sameMultiset(t, collectRows(t, a2), []string{"0|0|NULL"})
			// GROUP BY over empty input: no rows.
			sc = NewScanBatch(newMemTable(cs, rows, 7), []int{0, 1}, cs, parts, 5)
			empty, _ = NewFilter(sc, cst(B(false), bl), &Env{})
			a3, _ := NewHashAggregate(empty, []plan.Expr{col(1, i8)}, aggs[:1], cols(i8, i8), &Env{})
			sameMultiset(t, collectRows(t, a3), nil)
		})
	}
}

func TestDistinctAggregateSortsInput(t *testing.T) {
	cs := cols(i8)
	var rows [][]types.Value
	for _, v := range []int64{5, 3, 5, 1, 3, 9, 1} {
		rows = append(rows, []types.Value{I(v)})
	}
	rows = append(rows, []types.Value{N})
	for _, parts := range partitionCounts {
		sc := NewScanBatch(newMemTable(cs, rows, int64(parts)), []int{0}, cs, parts, 1)
		a, err := NewHashAggregate(sc, nil, []plan.AggCall{{Func: list8, Args: []plan.Expr{col(1, i8)}, Distinct: true}}, cols(types.TextType), &Env{})
		if err != nil {
			t.Fatal(err)
		}
		sameMultiset(t, collectRows(t, a), []string{"1;3;5;9;"})
	}
}

func TestSortLimit(t *testing.T) {
	cs := cols(i8, i8)
	rows := kvRows(50)
	for _, parts := range partitionCounts {
		t.Run(fmt.Sprint(parts), func(t *testing.T) {
			sc := NewScanBatch(newMemTable(cs, rows, int64(parts)), []int{0, 1}, cs, parts, 4)
			// ORDER BY k DESC NULLS FIRST, v ASC NULLS LAST
			s, err := NewSort(sc, []plan.SortKey{{Expr: col(1, i8), Desc: true, NullsFirst: true}, {Expr: col(2, i8)}}, &Env{BatchSize: 7})
			if err != nil {
				t.Fatal(err)
			}
			got := collectRows(t, s)
			if len(got) != 50 {
				t.Fatalf("sort: %d rows", len(got))
			}
			var prev []types.Value
			recs, _ := Collect(context.Background(), s)
			for _, r := range recs {
				for _, row := range recRows(r, cs) {
					if prev != nil && !sortedPair(prev, row) {
						t.Fatalf("out of order: %s then %s", fmtRow(prev, cs), fmtRow(row, cs))
					}
					prev = row
				}
			}
			if got[0] != "NULL|3" || got[len(got)-1] != "0|NULL" {
				t.Fatalf("first %s last %s", got[0], got[len(got)-1])
			}
			l := NewLimit(s, 5, 3)
			if g := collectRows(t, l); fmt.Sprint(g) != fmt.Sprint(got[3:8]) {
				t.Fatalf("limit: %v want %v", g, got[3:8])
			}
			if g := collectRows(t, NewLimit(s, -1, 48)); fmt.Sprint(g) != fmt.Sprint(got[48:]) {
				t.Fatalf("offset only: %v", g)
			}
			// A count near MaxInt64 plus an offset must not overflow.
			if g := collectRows(t, NewLimit(s, math.MaxInt64, 45)); fmt.Sprint(g) != fmt.Sprint(got[45:]) {
				t.Fatalf("limit MaxInt64 offset 45: %v", g)
			}
			if g := collectRows(t, NewLimit(NewGather(sc), 0, 0)); len(g) != 0 {
				t.Fatalf("limit 0: %v", g)
			}
			if g := collectRows(t, NewLimit(NewGather(sc), 10, 0)); len(g) != 10 {
				t.Fatalf("limit over partitions: %d rows", len(g))
			}
		})
	}
}

// sortedPair checks k DESC NULLS FIRST, v ASC NULLS LAST.
func sortedPair(a, b []types.Value) bool {
	switch {
	case a[0].Null && !b[0].Null:
		return true
	case !a[0].Null && b[0].Null:
		return false
	case !a[0].Null && a[0].I != b[0].I:
		return a[0].I > b[0].I
	}
	switch {
	case b[1].Null:
		return true
	case a[1].Null:
		return false
	}
	return a[1].I <= b[1].I
}

func TestDistinctAndSetOps(t *testing.T) {
	cs := cols(i8)
	mk := func(vs ...any) [][]types.Value {
		var out [][]types.Value
		for _, v := range vs {
			if v == nil {
				out = append(out, []types.Value{N})
			} else {
				out = append(out, []types.Value{I(int64(v.(int)))})
			}
		}
		return out
	}
	left := mk(1, 1, 1, 2, 2, 3, nil, nil, 5)
	right := mk(1, 2, 2, 2, nil, 4)
	cases := []struct {
		name string
		op   plan.SetOpKind
		all  bool
		want []string
	}{
		{"union all", plan.Union, true, []string{"1", "1", "1", "2", "2", "3", "NULL", "NULL", "5", "1", "2", "2", "2", "NULL", "4"}},
		{"union", plan.Union, false, []string{"1", "2", "3", "NULL", "5", "4"}},
		{"intersect", plan.Intersect, false, []string{"1", "2", "NULL"}},
		{"intersect all", plan.Intersect, true, []string{"1", "2", "2", "NULL"}},
		{"except", plan.Except, false, []string{"3", "5"}},
		{"except all", plan.Except, true, []string{"1", "1", "3", "NULL", "5"}},
	}
	for _, parts := range partitionCounts {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%d", c.name, parts), func(t *testing.T) {
				l := NewScanBatch(newMemTable(cs, left, int64(parts)), []int{0}, cs, parts, 2)
				r := NewScanBatch(newMemTable(cs, right, int64(parts+1)), []int{0}, cs, parts, 1)
				out := []plan.Column{{ID: 50, Name: "x", Type: i8}}
				var op Operator
				var err error
				if c.op == plan.Union && !c.all {
					// UNION as the plan builds it: Distinct over a Gather of UNION ALL.
					if op, err = NewSetOp(c.op, true, l, r, out, &Env{}); err == nil {
						op, err = NewDistinct(NewGather(op), &Env{})
					}
				} else {
					op, err = NewSetOp(c.op, c.all, l, r, out, &Env{})
				}
				if err != nil {
					t.Fatal(err)
				}
				sameMultiset(t, collectRows(t, op), c.want)
			})
		}
		d, _ := NewDistinct(NewGather(NewScanBatch(newMemTable(cs, left, 3), []int{0}, cs, parts, 2)), &Env{})
		sameMultiset(t, collectRows(t, d), []string{"1", "2", "3", "NULL", "5"})
	}
}

func TestRepartition(t *testing.T) {
	cs := cols(i8, i8)
	rows := kvRows(300)
	for _, parts := range partitionCounts {
		sc := NewScanBatch(newMemTable(cs, rows, 11), []int{0, 1}, cs, parts, 8)
		rp, err := NewRepartition(sc, []plan.Expr{col(1, i8)}, 4, &Env{})
		if err != nil {
			t.Fatal(err)
		}
		recs := make([][]string, 4)
		for p := 0; p < 4; p++ {
			s, err := rp.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			for {
				r, err := s.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, row := range recRows(r, cs) {
					recs[p] = append(recs[p], fmtRow(row, cs))
					k := row[0]
					if k.Null && p != 0 {
						t.Fatalf("NULL key in partition %d", p)
					}
				}
			}
			s.Close()
			s.Close()
		}
		var all []string
		keyPart := map[string]int{}
		for p, rs := range recs {
			for _, r := range rs {
				k := r[:len(r)-len(r[indexByte(r):])]
				if q, ok := keyPart[k]; ok && q != p {
					t.Fatalf("key %s in partitions %d and %d", k, q, p)
				}
				keyPart[k] = p
			}
			all = append(all, rs...)
		}
		sameMultiset(t, all, expectRows(rows, cs, nil))
	}
}

func indexByte(s string) int {
	for i := range s {
		if s[i] == '|' {
			return i
		}
	}
	return len(s)
}

// blockingOp's partitions produce batches forever until cancelled.
type blockingOp struct{ parts int }

func (b *blockingOp) Columns() []plan.Column { return cols(i8) }
func (b *blockingOp) Partitions() int        { return b.parts }
func (b *blockingOp) Open(ctx context.Context, p int) (Stream, error) {
	return &blockingStream{ctx: ctx}, nil
}

type blockingStream struct{ ctx context.Context }

func (s *blockingStream) Next() (arrow.Record, error) {
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	return mkRecord(cols(i8), [][]types.Value{{I(1)}}), nil
}
func (s *blockingStream) Close() error { return nil }

func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutine leak: %d > %d\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestGatherNoLeaks(t *testing.T) {
	base := runtime.NumGoroutine()
	// Cancel while reading.
	ctx, cancel := context.WithCancel(context.Background())
	g := NewGather(&blockingOp{parts: 8})
	s, err := g.Open(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	var nerr error
	for nerr == nil {
		_, nerr = s.Next()
	}
	wantCode(t, nerr, pgerr.QueryCanceled)
	s.Close()
	s.Close()
	waitGoroutines(t, base)

	// Close early without cancelling.
	s, _ = NewGather(&blockingOp{parts: 4}).Open(context.Background(), 0)
	s.Next()
	s.Close()
	waitGoroutines(t, base)

	// Limit over a never-ending gather stops it.
	l := NewLimit(NewGather(&blockingOp{parts: 3}), 5, 0)
	if got := collectRows(t, l); len(got) != 5 {
		t.Fatalf("limit: %d", len(got))
	}
	waitGoroutines(t, base)

	// An error in one partition stops the others and surfaces.
	boom := pgerr.New(pgerr.DivisionByZero, "division by zero")
	_, err = Collect(context.Background(), NewGather(&failingOp{blockingOp{parts: 4}, boom}))
	if !errors.Is(err, boom) {
		t.Fatalf("want boom, got %v", err)
	}
	waitGoroutines(t, base)
}

type failingOp struct {
	blockingOp
	err error
}

func (f *failingOp) Open(ctx context.Context, p int) (Stream, error) {
	if p == 2 {
		return &errStream{f.err}, nil
	}
	return f.blockingOp.Open(ctx, p)
}

type errStream struct{ err error }

func (e *errStream) Next() (arrow.Record, error) { return nil, e.err }
func (e *errStream) Close() error                { return nil }

func TestGenerateSeries(t *testing.T) {
	ts := func(s string) types.Value {
		tm, _ := time.Parse("2006-01-02", s)
		return I(tm.UnixMicro())
	}
	cases := []struct {
		name string
		out  types.Type
		args []plan.Expr
		want int
		code string
	}{
		{"int4", i4, []plan.Expr{cst(I(1), i4), cst(I(10), i4)}, 10, ""},
		{"int8 step", i8, []plan.Expr{cst(I(10), i8), cst(I(1), i8), cst(I(-3), i8)}, 4, ""},
		{"empty", i4, []plan.Expr{cst(I(5), i4), cst(I(1), i4)}, 0, ""},
		{"null", i4, []plan.Expr{cst(N, i4), cst(I(1), i4)}, 0, ""},
		{"zero step", i4, []plan.Expr{cst(I(1), i4), cst(I(3), i4), cst(I(0), i4)}, 0, pgerr.InvalidParameterValue},
		{"no overflow", i4, []plan.Expr{cst(I(2147483646), i4), cst(I(2147483647), i4), cst(I(5), i4)}, 1, ""},
		{"months", types.TimestampType, []plan.Expr{cst(ts("2020-01-31"), types.TimestampType), cst(ts("2020-06-01"), types.TimestampType),
			cst(types.Value{Iv: types.IntervalValue{Months: 1}}, types.IntervalType)}, 5, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewFunctionScan([]plan.SetFunc{seriesCall(t, c.args...)}, false, []plan.Column{{ID: 1, Name: "generate_series", Type: c.out}}, &Env{BatchSize: 3})
			if err != nil {
				t.Fatal(err)
			}
			recs, err := Collect(context.Background(), op)
			if c.code != "" {
				wantCode(t, err, c.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range recs {
				n += int(r.NumRows())
			}
			if n != c.want {
				t.Fatalf("%d rows, want %d", n, c.want)
			}
			if c.name == "months" {
				v := types.GetValue(recs[0].Column(0), c.out, 1)
				if got := time.UnixMicro(v.I).UTC().Format("2006-01-02"); got != "2020-02-29" {
					t.Fatalf("second value %s", got)
				}
			}
		})
	}
}

func TestInstrumented(t *testing.T) {
	cs := cols(i8, i8)
	in := NewInstrumented(NewScanBatch(newMemTable(cs, kvRows(40), 1), []int{0, 1}, cs, 4, 3))
	if got := collectRows(t, in); len(got) != 40 || in.Rows() != 40 || in.Elapsed() <= 0 {
		t.Fatalf("rows %d counted %d elapsed %v", len(got), in.Rows(), in.Elapsed())
	}
}

// Single-column grouping by value (int4, text with ” and NULL distinct,
// char(n) through the encoded path) against a map reference.
func TestHashAggregateSingleKeyTypes(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, kt := range []types.Type{types.Int4Type, types.TextType, {ID: types.Char, Typmod: 3}} {
		cs := []plan.Column{{ID: 1, Name: "k", Type: kt}}
		var rows [][]types.Value
		want := map[string]int{}
		for i := 0; i < 300; i++ {
			var v types.Value
			switch r := rng.Intn(6); {
			case r == 0:
				v = types.NullValue
			case kt.ID == types.Int4:
				v = I(int64(r - 3))
			default:
				v = S([]string{"", "a", "b", "a ", "b"}[r-1])
			}
			rows = append(rows, []types.Value{v})
			k := fmtVal(v, kt)
			if kt.ID == types.Char && !v.Null {
				k = strings.TrimRight(k, " ")
			}
			want[k]++
		}
		var wantRows []string
		for k, n := range want {
			wantRows = append(wantRows, fmt.Sprintf("%s|%d", k, n))
		}
		for _, parts := range partitionCounts {
			sc := NewScanBatch(newMemTable(cs, rows, 7), []int{0}, cs, parts, 5)
			a, err := NewHashAggregate(sc, []plan.Expr{col(1, kt)}, []plan.AggCall{{Func: countStar}}, []plan.Column{{ID: 2, Name: "k", Type: kt}, {ID: 3, Name: "n", Type: i8}}, &Env{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range collectRows(t, a) {
				if kt.ID == types.Char {
					f := strings.SplitN(r, "|", 2)
					r = strings.TrimRight(f[0], " ") + "|" + f[1]
				}
				got = append(got, r)
			}
			sameMultiset(t, got, wantRows)
		}
	}
}
