package types

import "testing"

func TestCompositeTypeReadsThroughItsOID(t *testing.T) {
	const oid, arr = 990001, 990002
	RegisterComposite(&CompositeDesc{OID: oid, ArrayOID: arr, RelOID: 990003,
		Record: RecordDesc{Name: "ct_unit", Fields: []string{"a", "b"}, Types: []Type{Int4Type, TextType}}})
	ct := CompositeType(oid)
	if ct.OID() != oid || ArrayOf(ct).OID() != arr || ct.SQLName() != "ct_unit" || ArrayOf(ct).SQLName() != "ct_unit[]" {
		t.Fatalf("OIDs %d %d names %q %q", ct.OID(), ArrayOf(ct).OID(), ct.SQLName(), ArrayOf(ct).SQLName())
	}
	if got, ok := TypeByUserOID(arr); !ok || got != ArrayOf(ct) {
		t.Fatalf("TypeByUserOID(array) = %v, %v", got, ok)
	}
	v, err := ParseText(`(1,"x y")`, ct)
	if err != nil || v.S != `(1,"x y")` {
		t.Fatalf("record_in: %q, %v", v.S, err)
	}
	// ALTER TYPE ... ADD ATTRIBUTE: a stored value keeps its text, reads
	// and prints the new field NULL, and record_in wants it.
	RegisterComposite(&CompositeDesc{OID: oid, ArrayOID: arr, RelOID: 990003,
		Record: RecordDesc{Name: "ct_unit", Fields: []string{"a", "b", "c"}, Types: []Type{Int4Type, TextType, Int8Type}}})
	if out := string(FormatText(nil, v, ct, nil)); out != `(1,"x y",)` {
		t.Fatalf("record_out of a short stored value: %q", out)
	}
	vals, err := ParseRecordFields(v.S, ct, nil)
	if err != nil || len(vals) != 3 || !vals[2].Null || vals[0].I != 1 {
		t.Fatalf("fields of a short stored value: %v, %v", vals, err)
	}
	if _, err := ParseText(`(1,x)`, ct); err == nil {
		t.Fatal("record_in accepted too few columns")
	}
}

func TestRecordImageCompare(t *testing.T) {
	ii := AnonymousRecord([]Type{Int4Type, Int4Type})
	it := AnonymousRecord([]Type{Int4Type, TextType})
	cases := []struct {
		op   string
		a, b string
		t    Type
		want bool
	}{
		{"*<", "(1,2)", "(1,3)", ii, true},
		{"*<", "(1,-2)", "(1,3)", ii, false}, // -2 sign-extends above 3
		{"*=", "(1,2)", "(1,2)", ii, true},
		{"*>=", "(1,)", "(1,2)", ii, true}, // NULL last
		{"*<", "(1,abc)", "(1,abcd)", it, true},
		{"*>", "(1,abd)", "(1,abcd)", it, true},
		{"*<>", "(1,x)", "(1,x)", it, false},
	}
	for _, c := range cases {
		ov, err := RecordImageCompare(c.op, c.t, c.t)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ov.Eval(nil, []Value{{S: c.a}, {S: c.b}})
		if err != nil || (got.I == 1) != c.want {
			t.Errorf("%s %s %s = %v, %v; want %v", c.a, c.op, c.b, got.I == 1, err, c.want)
		}
	}
	ov, _ := RecordImageCompare("*<", ii, it)
	if _, err := ov.Eval(nil, []Value{{S: "(1,2)"}, {S: "(1,abc)"}}); err == nil {
		t.Error("dissimilar column types compared")
	}
}
