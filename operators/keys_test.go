package operators

import (
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/types"
)

// keyArr builds a column of type t from text values ("NULL" is NULL).
// Values go through ParseText (an unconstrained numeric keeps its scale).
func keyArr(t *testing.T, typ types.Type, vals ...string) arrow.Array {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, typ.ArrowType())
	for _, s := range vals {
		switch {
		case s == "NULL":
			b.AppendNull()
		default:
			v, err := types.ParseText(s, typ)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			types.AppendValue(b, typ, v)
		}
	}
	return b.NewArray()
}

// rowKey is row i's encoding and hash over the given columns.
func rowKey(t *testing.T, arrs []arrow.Array, ts []types.Type, i int) (string, uint64) {
	t.Helper()
	var ks []KeyCol
	for c, a := range arrs {
		k, err := EncodeKeys(a, ts[c])
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
	}
	return string(AppendKeyRow(nil, ks, nil, i)), HashKeys(ks, nil, arrs[0].Len(), nil)[i]
}

// TestKeyEncodingEquality: values equal under PostgreSQL's equality (and
// NULL with NULL) encode and hash equal; the values of each group differ
// from every other group's.
func TestKeyEncodingEquality(t *testing.T) {
	cases := []struct {
		typ    types.Type
		groups [][]string
	}{
		{types.NumericType, [][]string{{"1", "1.0", "1.00", "1.000000000000000000000000000000"}, {"0", "0.00", "-0.0", "-0"},
			{"-1.5", "-1.50"}, {"1500", "1500.000"}, {"0.0015", "0.00150"}, {"NaN"}, {"Infinity"}, {"-Infinity"},
			{"10"}, {"0.1"}, {"NULL", "NULL"}}},
		{types.Float8Type, [][]string{{"0", "-0"}, {"NaN", "NaN"}, {"1.5"}, {"-1.5"}, {"Infinity"}, {"-Infinity"}, {"NULL", "NULL"}}},
		{types.Float4Type, [][]string{{"0", "-0"}, {"NaN"}, {"1.5"}, {"NULL"}}},
		{types.CharType, [][]string{{"a", "a ", "a   "}, {" a"}, {""}, {"NULL", "NULL"}}},
		{types.TextType, [][]string{{"a"}, {"a "}, {"A"}, {""}, {"NULL", "NULL"}}},
		{types.IntervalType, [][]string{{"1 mon", "30 days", "720 hours", "43200 minutes"}, {"1 day", "24 hours"},
			{"-1 day", "-24 hours", "-1 mon 29 days"}, {"1 day 1 second"}, {"00:00:00"}, {"NULL"}}},
		{types.Int8Type, [][]string{{"1"}, {"-1"}, {"0"}, {"NULL", "NULL"}}},
		{types.BoolType, [][]string{{"true"}, {"false"}, {"NULL", "NULL"}}},
		{types.DateType, [][]string{{"2024-02-29"}, {"2024-03-01"}, {"NULL"}}},
	}
	for _, c := range cases {
		var vals []string
		var group []int
		for g, vs := range c.groups {
			for _, v := range vs {
				vals = append(vals, v)
				group = append(group, g)
			}
		}
		arr := keyArr(t, c.typ, vals...)
		for i := range vals {
			ki, hi := rowKey(t, []arrow.Array{arr}, []types.Type{c.typ}, i)
			for j := range vals {
				kj, hj := rowKey(t, []arrow.Array{arr}, []types.Type{c.typ}, j)
				if same := group[i] == group[j]; (ki == kj) != same || same && hi != hj {
					t.Errorf("type %d: %q vs %q: equal keys %v, equal hashes %v, want equal %v", c.typ.ID, vals[i], vals[j], ki == kj, hi == hj, same)
				}
			}
		}
	}
}

// Integers of every width, and float4 against float8, encode alike: join
// keys of different widths compare.
func TestKeyEncodingAcrossWidths(t *testing.T) {
	vals := []string{"-32768", "-1", "0", "7", "32767", "NULL"}
	var want []string
	for i, typ := range []types.Type{types.Int2Type, types.Int4Type, types.Int8Type} {
		arr := keyArr(t, typ, vals...)
		for r := range vals {
			k, _ := rowKey(t, []arrow.Array{arr}, []types.Type{typ}, r)
			if i == 0 {
				want = append(want, k)
			} else if k != want[r] {
				t.Errorf("type %d, %s: key differs from int2's", typ.ID, vals[r])
			}
		}
	}
	f4, _ := rowKey(t, []arrow.Array{keyArr(t, types.Float4Type, "1.5")}, []types.Type{types.Float4Type}, 0)
	f8, _ := rowKey(t, []arrow.Array{keyArr(t, types.Float8Type, "1.5")}, []types.Type{types.Float8Type}, 0)
	if f4 != f8 {
		t.Error("float4 1.5 and float8 1.5 encode differently")
	}
}

// Rows of several columns: the column boundaries are part of the key, and
// NULL is distinct from every value, the empty string included.
func TestKeyEncodingRows(t *testing.T) {
	ts := []types.Type{types.TextType, types.TextType}
	a := keyArr(t, types.TextType, "ab", "a", "", "NULL", "NULL", "x")
	b := keyArr(t, types.TextType, "c", "bc", "NULL", "", "NULL", "NULL")
	seen := map[string]int{}
	for i := 0; i < 6; i++ {
		k, _ := rowKey(t, []arrow.Array{a, b}, ts, i)
		if j, dup := seen[k]; dup {
			t.Errorf("rows %d and %d encode alike", j, i)
		}
		seen[k] = i
	}
	// NULL, NULL twice: equal.
	c := keyArr(t, types.Int4Type, "NULL", "NULL")
	d := keyArr(t, types.NumericType, "NULL", "NULL")
	k0, h0 := rowKey(t, []arrow.Array{c, d}, []types.Type{types.Int4Type, types.NumericType}, 0)
	k1, h1 := rowKey(t, []arrow.Array{c, d}, []types.Type{types.Int4Type, types.NumericType}, 1)
	if k0 != k1 || h0 != h1 {
		t.Error("(NULL, NULL) rows differ")
	}
}

// reducePlain (the fast path) agrees with apd's reduction on every value in
// PostgreSQL's output form, and refuses the other forms.
func TestNumericKeyFastPath(t *testing.T) {
	viaApd := func(s string) string {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		if d.IsZero() {
			return "0"
		}
		var r apd.Decimal
		r.Reduce(d)
		return r.Text('f')
	}
	rng := rand.New(rand.NewSource(1))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "0000123456789"[rng.Intn(13)]
		}
		return string(b)
	}
	for i := 0; i < 20000; i++ {
		s := digits(1 + rng.Intn(6))
		for len(s) > 1 && s[0] == '0' {
			s = s[1:]
		}
		if rng.Intn(2) == 0 {
			s += "." + digits(1+rng.Intn(6))
		}
		if rng.Intn(3) == 0 {
			s = "-" + s
		}
		got, ok := reducePlain(s)
		if !ok {
			t.Fatalf("%q: fast path refused", s)
		}
		if want := viaApd(s); got != want {
			t.Fatalf("%q: fast path %q, apd %q", s, got, want)
		}
	}
	for _, s := range []string{"", "-", ".5", "5.", "007", "1e5", "1.2.3", "+1", "NaN", "--1"} {
		if _, ok := reducePlain(s); ok {
			t.Errorf("%q: fast path accepted", s)
		}
	}
	for s, want := range map[string]string{"1e5": "100000", "1.50E+1": "15", "-0E-3": "0", "NaN": "NaN", "-Infinity": "-Infinity"} {
		if got, err := numericKey(s); err != nil || got != want {
			t.Errorf("numericKey(%q) = %q, %v; want %q", s, got, err, want)
		}
	}
	if floatKey(math.Copysign(0, -1)) != floatKey(0) || floatKey(math.NaN()) != floatKey(-math.NaN()) {
		t.Error("floatKey does not fold -0 and NaN")
	}
}

// KeyPacker: equal rows pack equal, different rows differently, rows
// outside the build's ranges to -1, NULL rows are flagged; spans whose
// product passes 2^62 (or a column that is not fixed-width) do not pack.
func TestKeyPacker(t *testing.T) {
	enc := func(typ types.Type, vals ...string) KeyCol {
		k, err := EncodeKeys(keyArr(t, typ, vals...), typ)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	build := []KeyCol{
		enc(types.Int4Type, "1", "2", "-3", "NULL", "2", "7"),
		enc(types.Int8Type, "10", "10", "11", "99999999999", "12", "10"),
	}
	p, ok := NewKeyPacker(build, []int{0, 1}, 6)
	if !ok {
		t.Fatal("small spans did not pack")
	}
	var out KeyCol
	p.Pack(build, []int{0, 1}, 6, &out)
	if out.Nulls == nil || !out.Nulls[3] || out.Nulls[0] {
		t.Fatalf("NULL flags %v", out.Nulls)
	}
	packed := append([]int64(nil), out.Ints...)
	seen := map[int64]int{}
	for r, v := range packed {
		if r == 3 {
			continue
		}
		if v < 0 {
			t.Fatalf("build row %d packed to %d", r, v)
		}
		if o, dup := seen[v]; dup {
			t.Fatalf("rows %d and %d pack equal", o, r)
		}
		seen[v] = r
	}
	probe := []KeyCol{
		enc(types.Int8Type, "2", "8", "-4", "1", "7", "-3"),
		enc(types.Int2Type, "10", "10", "10", "9", "10", "11"),
	}
	p.Pack(probe, []int{0, 1}, 6, &out)
	// probe row -> the build row of the same pair, or -1: out of range
	want := []int{1, -1, -1, -1, 5, 2}
	for r, v := range out.Ints {
		switch {
		case want[r] < 0 && v != -1:
			t.Fatalf("probe row %d out of range packed to %d, want -1", r, v)
		case want[r] >= 0 && v != packed[want[r]]:
			t.Fatalf("probe row %d packed to %d, not build row %d's %d", r, v, want[r], packed[want[r]])
		}
	}
	wide := []KeyCol{enc(types.Int8Type, "0", "9223372036854775807"), enc(types.Int8Type, "0", "1")}
	if _, ok := NewKeyPacker(wide, []int{0, 1}, 2); ok {
		t.Fatal("a span past 2^62 packed")
	}
	mid := []KeyCol{enc(types.Int8Type, "0", "4294967295"), enc(types.Int8Type, "0", "2147483647")}
	if _, ok := NewKeyPacker(mid, []int{0, 1}, 2); ok {
		t.Fatal("spans whose product passes 2^62 packed")
	}
	if _, ok := NewKeyPacker([]KeyCol{enc(types.TextType, "a")}, []int{0}, 1); ok {
		t.Fatal("a text column packed")
	}
}
