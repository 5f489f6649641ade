package types

import "testing"

// The shape rule and the array-of-vector type, against PostgreSQL 15's
// answers (regress/sql/array_vectors.sql holds the psql-level cases).
func TestVectorArrays(t *testing.T) {
	// ARRAY[1,2]::oidvector prints "1 2"; ARRAY[]::oidvector and
	// ARRAY[1,NULL]::int2vector fail with 42804 "array is not a valid ...".
	if err := CheckVector(NewArray([]Value{IntValue(1), IntValue(2)}), OidVectorType); err != nil {
		t.Errorf("1-D vector refused: %v", err)
	}
	for _, c := range []struct {
		a    *ArrayValue
		t    Type
		want string
	}{
		{&ArrayValue{}, OidVectorType, "array is not a valid oidvector"},
		{NewArray([]Value{IntValue(1), NullValue}), Int2VectorType, "array is not a valid int2vector"},
	} {
		err := CheckVector(c.a, c.t)
		if err == nil || err.Error() != c.want {
			t.Errorf("CheckVector = %v, want %q", err, c.want)
		}
	}
	// int2vector[] is _int2vector (1006) of int2vector elements, printed
	// with each vector quoted: {"11 22 33",4}.
	at := ArrayOf(Int2VectorType)
	if !at.Valid() || at.OID() != 1006 || at.ElemType() != Int2VectorType || at.SQLName() != "int2vector[]" {
		t.Errorf("int2vector[]: valid %v OID %d elem %v name %s", at.Valid(), at.OID(), at.ElemType(), at.SQLName())
	}
	if ot := ArrayOf(OidVectorType); ot.OID() != 1013 || ot.PgTypeName() != "_oidvector" {
		t.Errorf("oidvector[]: OID %d name %s", ot.OID(), ot.PgTypeName())
	}
	if StacksArrays(Int2VectorType) || !StacksArrays(ArrayOf(Int4Type)) {
		t.Error("StacksArrays: vectors are scalar elements, other arrays stack")
	}
	if got, ok := ArrayTypeByOID(1013); !ok || got != ArrayOf(OidVectorType) {
		t.Errorf("ArrayTypeByOID(1013) = %v, %v", got, ok)
	}
	v1, _ := parseVector("11 22 33", Int2VectorType)
	v2, _ := parseVector("4", Int2VectorType)
	arr := Value{Arr: NewArray([]Value{v1, v2})}
	if got := TextOf(arr, at); got != `{"11 22 33",4}` {
		t.Errorf("int2vector[] text = %s", got)
	}
}
