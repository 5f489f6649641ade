package types

import (
	"math"
	"math/rand"
	"testing"
)

// recordCmp is record_cmp over (int8, text, float8) fields, NULL last.
func recordCmp(a, b []Value, ts []Type) int {
	for i := range a {
		switch {
		case a[i].Null && b[i].Null:
			continue
		case a[i].Null:
			return 1
		case b[i].Null:
			return -1
		}
		if c := Compare(a[i], b[i], ts[i]); c != 0 {
			return c
		}
	}
	return 0
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestSeqEncodingOrder checks the encoding orders records as record_cmp
// and arrays as array_cmp (element-wise, then the shorter first), and that
// it decodes to record_out/array_out text.
func TestSeqEncodingOrder(t *testing.T) {
	ts := []Type{Int8Type, TextType, Float8Type}
	r := rand.New(rand.NewSource(1))
	texts := []string{"", "a", "a\x00", "a\x00b", "ab", "b", "a b", `q"\`}
	floats := []float64{math.Inf(-1), -2.5, 0, 1.5, math.Inf(1), math.NaN()}
	rec := func() []Value {
		v := []Value{IntValue(r.Int63n(5) - 2), TextValue(texts[r.Intn(len(texts))]), FloatValue(floats[r.Intn(len(floats))])}
		for i := range v {
			if r.Intn(5) == 0 {
				v[i] = NullValue
			}
		}
		return v
	}
	arr := func() ([][]Value, string) {
		var out [][]Value
		enc := ""
		for n := r.Intn(4); n > 0; n-- {
			v := rec()
			out = append(out, v)
			enc = SeqArrayAppend(enc, AppendSeqRecord(nil, v, ts))
		}
		if enc == "" {
			enc = "\x00"
		}
		return out, enc
	}
	for i := 0; i < 5000; i++ {
		a, b := rec(), rec()
		ea, eb := string(AppendSeqRecord(nil, a, ts)), string(AppendSeqRecord(nil, b, ts))
		if got, want := sign(Compare(Value{S: ea}, Value{S: eb}, SeqRecordType)), sign(recordCmp(a, b, ts)); got != want {
			t.Fatalf("records %v vs %v: encoding orders %d, record_cmp %d", a, b, got, want)
		}
		x, ex := arr()
		y, ey := arr()
		want := 0
		for k := 0; k < len(x) && k < len(y) && want == 0; k++ {
			want = sign(recordCmp(x[k], y[k], ts))
		}
		if want == 0 {
			want = sign(len(x) - len(y))
		}
		if got := sign(Compare(Value{S: ex}, Value{S: ey}, SeqArrayType)); got != want {
			t.Fatalf("arrays %v vs %v: encoding orders %d, array_cmp %d", x, y, got, want)
		}
	}
	v := []Value{IntValue(-3), TextValue(`q"u\o`), NullValue}
	enc := SeqArrayAppend(SeqArrayAppend("", AppendSeqRecord(nil, v, ts)), AppendSeqRecord(nil, []Value{IntValue(1), TextValue(""), FloatValue(1e100)}, ts))
	if got, want := TextOf(Value{S: enc}, SeqArrayType), `{"(-3,\"q\"\"u\\\\o\",)","(1,\"\",1e+100)"}`; got != want {
		t.Errorf("array text %s, want %s", got, want)
	}
	if got, want := TextOf(Value{S: string(AppendSeqRecord(nil, v, ts))}, SeqRecordType), `(-3,"q""u\\o",)`; got != want {
		t.Errorf("record text %s, want %s", got, want)
	}
	if !SeqArrayContains(enc, AppendSeqRecord(nil, v, ts)) || SeqArrayContains(enc, AppendSeqRecord(nil, []Value{IntValue(1), TextValue(""), NullValue}, ts)) {
		t.Error("SeqArrayContains")
	}
}
