package hashtable

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var mem = memory.DefaultAllocator

func i32s(v []int32, valid []bool) arrow.Array {
	b := array.NewInt32Builder(mem)
	b.AppendValues(v, valid)
	return b.NewArray()
}

func strs(v []string, valid []bool) arrow.Array {
	b := array.NewStringBuilder(mem)
	b.AppendValues(v, valid)
	return b.NewArray()
}

func genericPairs(t *testing.T, tab *GenericTable, cols []arrow.Array, sel []int32, capacity int) []string {
	p := tab.NewProber(capacity)
	var got []string
	for {
		done, err := p.Probe(cols, sel)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.ProbeRows {
			got = append(got, fmt.Sprintf("%d:%d", p.ProbeRows[i], p.BuildRows[i]))
		}
		if done {
			break
		}
	}
	slices.Sort(got)
	return got
}

// TestGenericMultiColumnAgainstModel: (int32, string) keys with NULLs and
// duplicates, built in two appends, probed with a selection and a small
// output capacity, against a nested-loop model.
func TestGenericMultiColumnAgainstModel(t *testing.T) {
	for _, kc := range kernels() {
		t.Run(kc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, 9))
			gen := func(n int) ([]int32, []string, []bool) {
				a := make([]int32, n)
				s := make([]string, n)
				v := make([]bool, n)
				for i := range a {
					a[i] = int32(r.IntN(20))
					s[i] = fmt.Sprintf("k%d", r.IntN(5))
					v[i] = r.IntN(9) != 0
				}
				return a, s, v
			}
			tab := NewGeneric(10)
			tab.hashes.find, tab.hashes.kernel = kc.find, kc.name
			var ba []int32
			var bs []string
			var bv []bool
			for range 2 {
				a, s, v := gen(300)
				sv := slices.Clone(v)
				for i := range sv {
					sv[i] = true
				}
				if err := tab.Append([]arrow.Array{i32s(a, v), strs(s, sv)}); err != nil {
					t.Fatal(err)
				}
				ba, bs, bv = append(ba, a...), append(bs, s...), append(bv, v...)
			}
			if err := tab.Finish(); err != nil {
				t.Fatal(err)
			}
			pa, ps, pv := gen(500)
			probe := []arrow.Array{i32s(pa, nil), strs(ps, pv)}
			var sel []int32
			for i := range pa {
				if i%4 != 1 {
					sel = append(sel, int32(i))
				}
			}
			var want []string
			nulls := 0
			for _, v := range bv {
				if !v {
					nulls++
				}
			}
			for _, i := range sel {
				if !pv[i] {
					continue
				}
				for j := range ba {
					if bv[j] && ba[j] == pa[i] && bs[j] == ps[i] {
						want = append(want, fmt.Sprintf("%d:%d", i, j))
					}
				}
			}
			slices.Sort(want)
			got := genericPairs(t, tab, probe, sel, 37)
			if !slices.Equal(got, want) {
				t.Fatalf("got %d pairs, want %d", len(got), len(want))
			}
			if tab.NullCount() != int64(nulls) || !tab.SawNull() || tab.Rows() != 600 {
				t.Fatalf("nulls %d want %d, rows %d", tab.NullCount(), nulls, tab.Rows())
			}
		})
	}
}

// TestGenericSQLEquality: the hash and KeysEqual follow SQL equality for
// floats and intervals, for every supported type.
func TestGenericSQLEquality(t *testing.T) {
	f64 := array.NewFloat64Builder(mem)
	f64.AppendValues([]float64{0, math.NaN(), 1.5}, nil)
	f64b := f64.NewArray()
	f64.AppendValues([]float64{math.Copysign(0, -1), math.Float64frombits(0x7FF8000000000abc), 2.5}, nil)
	f64p := f64.NewArray()

	iv := array.NewMonthDayNanoIntervalBuilder(mem)
	iv.AppendValues([]arrow.MonthDayNanoInterval{{Months: 1}, {Days: 1}, {Days: 1, Nanoseconds: 1}}, nil)
	ivb := iv.NewArray()
	iv.AppendValues([]arrow.MonthDayNanoInterval{{Days: 30}, {Nanoseconds: nanosPerDay}, {Days: 2, Nanoseconds: 1 - nanosPerDay}}, nil)
	ivp := iv.NewArray()

	for _, c := range []struct {
		name         string
		build, probe arrow.Array
		want         []string
	}{
		{"float64 -0 and NaN", f64b, f64p, []string{"0:0", "1:1"}},
		{"interval spans", ivb, ivp, []string{"0:0", "1:1", "2:2"}},
	} {
		tab := NewGeneric(4)
		if err := tab.Append([]arrow.Array{c.build}); err != nil {
			t.Fatal(err)
		}
		_ = tab.Finish()
		if got := genericPairs(t, tab, []arrow.Array{c.probe}, nil, 8); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v want %v", c.name, got, c.want)
		}
	}
}

// TestHashColumnsAllTypes: every listed type hashes and compares equal to
// itself and unequal to a different value.
func TestHashColumnsAllTypes(t *testing.T) {
	cols := map[string][2]arrow.Array{}
	add := func(name string, bld array.Builder, app func(i int)) {
		for i := range 2 {
			app(i)
		}
		a := bld.NewArray()
		for i := range 2 {
			app(i)
		}
		cols[name] = [2]arrow.Array{a, bld.NewArray()}
	}
	i16 := array.NewInt16Builder(mem)
	add("int16", i16, func(i int) { i16.Append(int16(i)) })
	i32 := array.NewInt32Builder(mem)
	add("int32", i32, func(i int) { i32.Append(int32(i)) })
	i64 := array.NewInt64Builder(mem)
	add("int64", i64, func(i int) { i64.Append(int64(i)) })
	f32 := array.NewFloat32Builder(mem)
	add("float32", f32, func(i int) { f32.Append(float32(i) + .5) })
	f64 := array.NewFloat64Builder(mem)
	add("float64", f64, func(i int) { f64.Append(float64(i) + .5) })
	bo := array.NewBooleanBuilder(mem)
	add("bool", bo, func(i int) { bo.Append(i == 1) })
	st := array.NewStringBuilder(mem)
	add("string", st, func(i int) { st.Append(fmt.Sprint("s", i)) })
	ls := array.NewLargeStringBuilder(mem)
	add("large_string", ls, func(i int) { ls.Append(fmt.Sprint("s", i)) })
	bi := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	add("binary", bi, func(i int) { bi.Append([]byte{byte(i), 0}) })
	d32 := array.NewDate32Builder(mem)
	add("date32", d32, func(i int) { d32.Append(arrow.Date32(i)) })
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
	add("timestamp", ts, func(i int) { ts.Append(arrow.Timestamp(i)) })
	mdn := array.NewMonthDayNanoIntervalBuilder(mem)
	add("interval", mdn, func(i int) { mdn.Append(arrow.MonthDayNanoInterval{Months: int32(i)}) })

	for name, c := range cols {
		h0, err := HashColumns([]arrow.Array{c[0]}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h1, _ := HashColumns([]arrow.Array{c[1]}, []int32{1, 0}, nil)
		if h0[0] != h1[1] || h0[1] != h1[0] || h0[0] == h0[1] {
			t.Errorf("%s: hashes %x %x", name, h0, h1)
		}
		eq := []bool{true, true}
		if err := KeysEqual([]arrow.Array{c[0]}, []int32{0, 0}, []arrow.Array{c[1]}, []uint32{0, 1}, eq); err != nil {
			t.Fatal(err)
		}
		if !eq[0] || eq[1] {
			t.Errorf("%s: equality %v", name, eq)
		}
	}
	if _, err := HashColumns([]arrow.Array{array.NewNull(1)}, nil, nil); err == nil {
		t.Error("unsupported type accepted")
	}
}
