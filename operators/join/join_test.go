package join

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// memOp serves fixed batches as partitions.
type memOp struct {
	cols  []plan.Column
	parts [][]arrow.Record
}

func (m *memOp) Columns() []plan.Column { return m.cols }
func (m *memOp) Partitions() int        { return len(m.parts) }
func (m *memOp) Open(ctx context.Context, p int) (operators.Stream, error) {
	return &memStream{recs: m.parts[p]}, nil
}

type memStream struct{ recs []arrow.Record }

func (s *memStream) Next() (arrow.Record, error) {
	if len(s.recs) == 0 {
		return nil, io.EOF
	}
	r := s.recs[0]
	s.recs = s.recs[1:]
	return r, nil
}
func (s *memStream) Close() error { return nil }

// newMem deals rows round-robin into batches of at most size rows over
// parts partitions.
func newMem(cols []plan.Column, rows [][]types.Value, parts, size int) *memOp {
	m := &memOp{cols: cols, parts: make([][]arrow.Record, parts)}
	for start, p := 0, 0; start < len(rows); start, p = start+size, (p+1)%parts {
		end := min(start+size, len(rows))
		m.parts[p] = append(m.parts[p], makeRecord(cols, rows[start:end]))
	}
	return m
}

func makeRecord(cols []plan.Column, rows [][]types.Value) arrow.Record {
	arrs := make([]arrow.Array, len(cols))
	for c, col := range cols {
		b := array.NewBuilder(memory.DefaultAllocator, col.Type.ArrowType())
		for _, r := range rows {
			types.AppendValue(b, col.Type, r[c])
		}
		arrs[c] = b.NewArray()
	}
	return array.NewRecordBatch(schemaOf(cols), arrs, int64(len(rows)))
}

// run executes op's partitions concurrently and formats every row.
func run(t testing.TB, op operators.Operator) ([]string, error) {
	recs, err := operators.Collect(context.Background(), op)
	if err != nil {
		return nil, err
	}
	var out []string
	cols := op.Columns()
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			var sb strings.Builder
			for c, col := range cols {
				if c > 0 {
					sb.WriteString(",")
				}
				sb.WriteString(fmtValue(types.GetValue(r.Column(c), col.Type, i), col.Type))
			}
			out = append(out, sb.String())
		}
	}
	slices.Sort(out)
	return out, nil
}

func fmtValue(v types.Value, t types.Type) string {
	if v.Null {
		return "N"
	}
	switch t.ID {
	case types.Bool:
		if v.I != 0 {
			return "t"
		}
		return "f"
	case types.Text:
		return v.S
	}
	return fmt.Sprint(v.I)
}

var (
	i8 = types.Int8Type
	lc = []plan.Column{{ID: 1, Name: "lk", Type: i8}, {ID: 2, Name: "lk2", Type: i8}, {ID: 3, Name: "lv", Type: i8}}
	rc = []plan.Column{{ID: 11, Name: "rk", Type: i8}, {ID: 12, Name: "rk2", Type: i8}, {ID: 13, Name: "rv", Type: i8}}
	mk = plan.Column{ID: 20, Name: "mark", Type: types.BoolType}

	ltOp = &types.Overload{Name: "<", Args: []types.Type{i8, i8}, Result: types.BoolType, Strict: true,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) {
			return types.BoolValue(a[0].I < a[1].I), nil
		}}
	ltResidual = &plan.Call{Func: ltOp, Args: []plan.Expr{colRef(lc[2]), colRef(rc[2])}}
)

func colRef(c plan.Column) *plan.ColRef { return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name} }

// tri is SQL's three-valued logic: 1 TRUE, 0 FALSE, -1 NULL.
type tri int8

func and3(a, b tri) tri {
	if a == 0 || b == 0 {
		return 0
	}
	if a < 0 || b < 0 {
		return -1
	}
	return 1
}

// jcase is one join configuration for the reference.
type jcase struct {
	typ       plan.JoinType
	emitProbe bool
	na        bool
	nkeys     int
	valueKeys int
	residual  bool
	nullsEq   []bool
	mode      Mode
}

func (c jcase) String() string {
	k, _, _ := classify(&Spec{Type: c.typ, EmitProbe: c.emitProbe, LeftKeys: []plan.Expr{colRef(lc[0])}, RightKeys: []plan.Expr{colRef(rc[0])}, Mark: &mk})
	return fmt.Sprintf("%s/na=%v/keys=%d/vk=%d/res=%v/nulleq=%v/%s", k, c.na, c.nkeys, c.valueKeys, c.residual, c.nullsEq, c.mode)
}

func (c jcase) keyEq(l, r []types.Value, i int) tri {
	a, b := l[i], r[i]
	if c.nullsEq != nil && c.nullsEq[i] {
		if a.Null || b.Null {
			return tri(map[bool]int8{true: 1, false: 0}[a.Null && b.Null])
		}
	} else if a.Null || b.Null {
		return -1
	}
	if a.I == b.I {
		return 1
	}
	return 0
}

func (c jcase) res(l, r []types.Value) tri {
	if !c.residual {
		return 1
	}
	if l[2].Null || r[2].Null {
		return -1
	}
	if l[2].I < r[2].I {
		return 1
	}
	return 0
}

func (c jcase) match(l, r []types.Value) bool {
	m := c.res(l, r)
	for i := 0; i < c.nkeys; i++ {
		m = and3(m, c.keyEq(l, r, i))
	}
	return m == 1
}

// in3 is `l's value IN (the value of every r in l's scope)`, exactly as
// PostgreSQL evaluates it: scope = correlation keys equal and residual TRUE.
func (c jcase) in3(l []types.Value, R [][]types.Value) tri {
	vk := max(c.valueKeys, 1)
	agg := tri(0)
	for _, r := range R {
		inScope := c.res(l, r) == 1
		for i := vk; i < c.nkeys; i++ {
			inScope = inScope && c.keyEq(l, r, i) == 1
		}
		if !inScope {
			continue
		}
		p := tri(1)
		for i := 0; i < vk; i++ {
			p = and3(p, c.keyEq(l, r, i))
		}
		if p == 1 {
			return 1
		}
		if p < 0 {
			agg = -1
		}
	}
	return agg
}

func rowStr(vals ...[]types.Value) string {
	var parts []string
	for _, vs := range vals {
		for _, v := range vs {
			parts = append(parts, fmtValue(v, i8))
		}
	}
	return strings.Join(parts, ",")
}

var nulls3 = []types.Value{types.NullValue, types.NullValue, types.NullValue}

// reference joins with nested loops over values.
func reference(c jcase, L, R [][]types.Value) []string {
	var out []string
	rMatched := make([]bool, len(R))
	for _, l := range L {
		matched := false
		for j, r := range R {
			if !c.match(l, r) {
				continue
			}
			matched = true
			rMatched[j] = true
			if c.typ <= plan.FullJoin {
				out = append(out, rowStr(l, r))
			}
		}
		switch c.typ {
		case plan.LeftJoin, plan.FullJoin:
			if !matched {
				out = append(out, rowStr(l, nulls3))
			}
		case plan.SemiJoin:
			if matched && !c.emitProbe {
				out = append(out, rowStr(l))
			}
		case plan.AntiJoin:
			if c.emitProbe {
				break
			}
			if c.na {
				if c.in3(l, R) == 0 {
					out = append(out, rowStr(l))
				}
			} else if !matched {
				out = append(out, rowStr(l))
			}
		case plan.MarkJoin:
			m := "f"
			if c.na {
				m = map[tri]string{1: "t", 0: "f", -1: "N"}[c.in3(l, R)]
			} else if matched {
				m = "t"
			}
			out = append(out, rowStr(l)+","+m)
		}
	}
	for j, r := range R {
		switch {
		case (c.typ == plan.RightJoin || c.typ == plan.FullJoin) && !rMatched[j]:
			out = append(out, rowStr(nulls3, r))
		case c.typ == plan.SemiJoin && c.emitProbe && rMatched[j]:
			out = append(out, rowStr(r))
		case c.typ == plan.AntiJoin && c.emitProbe:
			if c.na {
				// r NOT IN (every l value): single key, no residual.
				agg := tri(0)
				for _, l := range L {
					p := c.keyEq(l, r, 0)
					if p == 1 {
						agg = 1
						break
					}
					if p < 0 {
						agg = -1
					}
				}
				if agg == 0 {
					out = append(out, rowStr(r))
				}
			} else if !rMatched[j] {
				out = append(out, rowStr(r))
			}
		}
	}
	slices.Sort(out)
	return out
}

func (c jcase) spec() Spec {
	s := Spec{Type: c.typ, EmitProbe: c.emitProbe, NullAware: c.na, Mode: c.mode, ValueKeys: c.valueKeys, KeyNullsEqual: c.nullsEq}
	for i := 0; i < c.nkeys; i++ {
		s.LeftKeys = append(s.LeftKeys, colRef(lc[i]))
		s.RightKeys = append(s.RightKeys, colRef(rc[i]))
	}
	if c.residual {
		s.Residual = ltResidual
	}
	switch {
	case c.typ <= plan.FullJoin:
		s.Cols = append(slices.Clone(lc), rc...)
	case c.emitProbe:
		s.Cols = rc
	case c.typ == plan.MarkJoin:
		s.Cols = append(slices.Clone(lc), mk)
		s.Mark = &mk
	default:
		s.Cols = lc
	}
	return s
}

func genRows(rng *rand.Rand, n int) [][]types.Value {
	rows := make([][]types.Value, n)
	for i := range rows {
		row := make([]types.Value, 3)
		for c := range row {
			if rng.Intn(8) == 0 {
				row[c] = types.NullValue
			} else {
				row[c] = types.IntValue(int64(rng.Intn(4)))
			}
		}
		rows[i] = row
	}
	return rows
}

// allCases enumerates the legal configurations.
func allCases() []jcase {
	var cs []jcase
	types := []struct {
		t  plan.JoinType
		ep bool
	}{{plan.InnerJoin, false}, {plan.LeftJoin, false}, {plan.RightJoin, false}, {plan.FullJoin, false},
		{plan.SemiJoin, false}, {plan.AntiJoin, false}, {plan.MarkJoin, false}, {plan.SemiJoin, true}, {plan.AntiJoin, true}}
	for _, tp := range types {
		for _, mode := range []Mode{CollectLeft, Partitioned} {
			for _, nk := range []int{1, 2} {
				for _, res := range []bool{false, true} {
					for _, neq := range [][]bool{nil, {false, true}} {
						if neq != nil && nk != 2 {
							continue
						}
						cs = append(cs, jcase{typ: tp.t, emitProbe: tp.ep, nkeys: nk, residual: res, nullsEq: neq, mode: mode})
					}
				}
			}
			// Null-aware variants.
			switch {
			case tp.t == plan.AntiJoin && tp.ep:
				if mode == CollectLeft {
					cs = append(cs, jcase{typ: tp.t, emitProbe: true, na: true, nkeys: 1, mode: mode})
				}
			case tp.t == plan.AntiJoin || tp.t == plan.MarkJoin:
				if mode == CollectLeft || tp.t == plan.AntiJoin {
					cs = append(cs, jcase{typ: tp.t, na: true, nkeys: 1, mode: mode})
				}
				if mode == CollectLeft {
					cs = append(cs,
						jcase{typ: tp.t, na: true, nkeys: 2, valueKeys: 1, mode: mode},                   // value + scope
						jcase{typ: tp.t, na: true, nkeys: 2, valueKeys: 2, mode: mode},                   // row constructor
						jcase{typ: tp.t, na: true, nkeys: 1, residual: true, mode: mode},                 // residual only
						jcase{typ: tp.t, na: true, nkeys: 2, valueKeys: 1, residual: true, mode: mode},   // both
						jcase{typ: tp.t, na: true, nkeys: 2, valueKeys: 1, nullsEq: []bool{false, true}}, // IS NOT DISTINCT FROM scope
					)
				}
			}
		}
	}
	return cs
}

func TestJoinMatrixAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	type data struct {
		name string
		L, R [][]types.Value
	}
	var sets []data
	for i := 0; i < 6; i++ {
		sets = append(sets, data{fmt.Sprintf("random%d", i), genRows(rng, rng.Intn(14)+1), genRows(rng, rng.Intn(14)+1)})
	}
	sets = append(sets,
		data{"empty-left", nil, genRows(rng, 7)},
		data{"empty-right", genRows(rng, 7), nil},
		data{"both-empty", nil, nil},
		data{"null-only-right", genRows(rng, 6), [][]types.Value{nulls3, nulls3}},
		data{"dups", [][]types.Value{{types.IntValue(1), types.IntValue(1), types.IntValue(0)}, {types.IntValue(1), types.IntValue(1), types.IntValue(0)}},
			[][]types.Value{{types.IntValue(1), types.IntValue(1), types.IntValue(3)}, {types.IntValue(1), types.IntValue(1), types.IntValue(3)}, {types.IntValue(1), types.NullValue, types.IntValue(3)}}},
	)
	cases := allCases()
	n := 0
	defer func() { forceIndex = "" }()
	for _, force := range []string{"", "hashed"} {
		forceIndex = force
		for _, c := range cases {
			for _, d := range sets {
				want := reference(c, d.L, d.R)
				for _, parts := range matrixPartitions(1, 2, 8) {
					for _, size := range []int{2, 1024} {
						env := &operators.Env{BatchSize: size}
						op, err := newHashJoin(newMem(lc, d.L, parts, size), newMem(rc, d.R, parts, size), c.spec(), env)
						if err != nil {
							t.Fatalf("%v: %v", c, err)
						}
						got, err := run(t, op)
						if err != nil {
							t.Fatalf("%v %s parts=%d: %v", c, d.name, parts, err)
						}
						if !slices.Equal(got, want) {
							t.Fatalf("index %q, %v on %s, %d partitions, batch %d:\n got %v\nwant %v\nL=%v\nR=%v\n%s", force, c, d.name, parts, size, got, want, d.L, d.R, op.(*HashJoin).Explain())
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d configurations × data sets × partitionings checked", n)
}

func sqlstate(err error) string {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestIllegalNullAwareCombinationsArePlanErrors(t *testing.T) {
	cases := []struct {
		name string
		c    jcase
		want string
	}{
		{"right anti with two keys", jcase{typ: plan.AntiJoin, emitProbe: true, na: true, nkeys: 2}, "single join key"},
		{"right anti with residual", jcase{typ: plan.AntiJoin, emitProbe: true, na: true, nkeys: 1, residual: true}, "residual"},
		{"right anti partitioned", jcase{typ: plan.AntiJoin, emitProbe: true, na: true, nkeys: 1, mode: Partitioned}, "CollectLeft"},
		{"correlated anti partitioned", jcase{typ: plan.AntiJoin, na: true, nkeys: 2, mode: Partitioned}, "CollectLeft"},
		{"anti with residual partitioned", jcase{typ: plan.AntiJoin, na: true, nkeys: 1, residual: true, mode: Partitioned}, "CollectLeft"},
		{"mark partitioned", jcase{typ: plan.MarkJoin, na: true, nkeys: 1, mode: Partitioned}, "CollectLeft"},
		{"no equi-key", jcase{typ: plan.AntiJoin, na: true, nkeys: 0}, "at least one equi-join key"},
		{"nulls-equal value key", jcase{typ: plan.AntiJoin, na: true, nkeys: 1, nullsEq: []bool{true}}, "IS NOT DISTINCT FROM"},
	}
	for _, tc := range cases {
		_, err := newHashJoin(newMem(lc, nil, 1, 4), newMem(rc, nil, 1, 4), tc.c.spec(), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", tc.name, err, tc.want)
			continue
		}
		if code := sqlstate(err); code != pgerr.InternalError && code != pgerr.FeatureNotSupported {
			t.Errorf("%s: SQLSTATE %q", tc.name, code)
		}
	}
}

func TestBuildSideMemoryLimit(t *testing.T) {
	rows := genRows(rand.New(rand.NewSource(2)), 5000)
	s := jcase{typ: plan.InnerJoin, nkeys: 1}.spec()
	s.MemoryLimit = 10_000
	op, err := newHashJoin(newMem(lc, rows, 2, 256), newMem(rc, rows[:10], 2, 256), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, op)
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.OutOfMemory || pe.Message != "out of memory" || !strings.Contains(pe.Hint, "build side") {
		t.Fatalf("got %v (%+v)", err, pe)
	}
}

func TestExplain(t *testing.T) {
	c := jcase{typ: plan.AntiJoin, na: true, nkeys: 2, valueKeys: 1, residual: true}
	op, err := newHashJoin(newMem(lc, nil, 1, 4), newMem(rc, nil, 1, 4), c.spec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := op.(*HashJoin).Explain()
	for _, want := range []string{"type=LeftAnti", "mode=CollectLeft", "build=left", "lk = rk", "lk2 = rk2", "residual=(lv < rv)", "null-aware=per build row (correlated)", "value-keys=1 scope-keys=1", "kernel=swiss-hash/"} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain() = %q, missing %q", got, want)
		}
	}
	c = jcase{typ: plan.InnerJoin, nkeys: 1}
	op, _ = newHashJoin(newMem(lc, nil, 1, 4), newMem(rc, nil, 1, 4), c.spec(), nil)
	if got := op.(*HashJoin).Explain(); !strings.Contains(got, "kernel=swiss-int64/") {
		t.Errorf("Explain() = %q, want the Swiss table kernel", got)
	}
}

// newHashJoin is NewHashJoin as the executor builds it: the inputs of a
// Partitioned join each come through a hash repartition on their keys.
func newHashJoin(left, right operators.Operator, spec Spec, env *operators.Env) (operators.Operator, error) {
	if spec.Mode == Partitioned {
		if env == nil {
			env = &operators.Env{}
		}
		if spec.Partitions <= 0 {
			spec.Partitions = max(left.Partitions(), right.Partitions())
		}
		var err error
		if left, err = operators.NewRepartition(left, spec.LeftKeys, spec.Partitions, env); err != nil {
			return nil, err
		}
		if right, err = operators.NewRepartition(right, spec.RightKeys, spec.Partitions, env); err != nil {
			return nil, err
		}
	}
	return NewHashJoin(left, right, spec, env)
}

// matrixPartitions is the probe partitionings a matrix test runs. Under
// the race detector only the largest one runs: a single partition adds no
// goroutines for the detector to watch, and the smaller counts repeat the
// interleavings of the largest at several times the cost (the full set
// runs in the plain go test pass).
func matrixPartitions(all ...int) []int {
	if raceEnabled {
		return all[len(all)-1:]
	}
	return all
}
