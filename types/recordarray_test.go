package types

import (
	"bytes"
	"testing"
)

// TestRecordArrayType holds the record array's type: OID 2287, the
// element's field description kept through DropTypmod, typmod -1 on the
// wire, and the name of a table row type's array.
func TestRecordArrayType(t *testing.T) {
	rec := RecordOf(RecordDesc{Name: "ra_pair", Fields: []string{"a", "b"}, Types: []Type{Int4Type, NumericType}})
	at := ArrayOf(rec)
	if !at.Valid() || at.OID() != OIDRecordArray || ArrayOf(Type{ID: Bytea, Typmod: -1}).OID() != 1001 {
		t.Fatalf("OIDs: record[] %d, bytea[] %d", at.OID(), ArrayOf(Type{ID: Bytea, Typmod: -1}).OID())
	}
	if got := DropTypmod(at); got != at || got.ElemType().Desc() == nil {
		t.Fatalf("DropTypmod(%v) = %v lost the fields", at, got)
	}
	if got := DropTypmod(Type{ID: Numeric, Typmod: 5}); got.Typmod != -1 {
		t.Fatalf("DropTypmod(numeric(…)) = %v", got)
	}
	if at.WireTypmod() != -1 || rec.WireTypmod() != -1 {
		t.Fatalf("wire typmods %d, %d", at.WireTypmod(), rec.WireTypmod())
	}
	if got := at.SQLName(); got != "ra_pair[]" {
		t.Fatalf("SQLName = %q", got)
	}
}

// TestRecordArrayKey holds that arrays of records equal under record_eq
// (numeric 1.5 = 1.50) share their grouping key, and unequal ones do not.
func TestRecordArrayKey(t *testing.T) {
	rec := AnonymousRecord([]Type{Int4Type, NumericType})
	at := ArrayOf(rec)
	arr := func(recs ...string) Value {
		var elems []Value
		for _, r := range recs {
			elems = append(elems, Value{S: r})
		}
		return Value{Arr: NewArray(elems)}
	}
	a := AppendArrayKey(nil, arr("(1,1.5)", "(2,)"), at)
	b := AppendArrayKey(nil, arr("(1,1.50)", "(2,)"), at)
	c := AppendArrayKey(nil, arr("(1,1.51)", "(2,)"), at)
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatalf("keys: %q %q %q", a, b, c)
	}
	if Compare(arr("(1,1.5)"), arr("(1,1.50)"), at) != 0 || Compare(arr("(1,1.5)"), arr("(1,)"), at) >= 0 {
		t.Fatal("record[] comparison is not record_cmp's")
	}
}

// TestFieldWithoutEquality finds a json field in a record, a nested
// record and an array of records.
func TestFieldWithoutEquality(t *testing.T) {
	js := Type{ID: JSON, Typmod: -1}
	inner := AnonymousRecord([]Type{Int4Type, js})
	for _, tt := range []Type{inner, ArrayOf(inner), AnonymousRecord([]Type{TextType, inner})} {
		if ft, ok := FieldWithoutEquality(tt); !ok || ft.ID != JSON {
			t.Errorf("FieldWithoutEquality(%s) = %v, %v", tt.SQLName(), ft, ok)
		}
	}
	if _, ok := FieldWithoutEquality(AnonymousRecord([]Type{Int4Type, TextType})); ok {
		t.Error("a record of int4 and text has equality")
	}
}
