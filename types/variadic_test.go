package types

import (
	"testing"

	"github.com/joind/joind/pgerr"
)

func TestResolveVariadicCall(t *testing.T) {
	intArr := ArrayOf(Int4Type)
	ov, err := ResolveVariadicCall("concat_ws", []Type{UnknownType, intArr})
	if err != nil || ov.Args[0].ID != Text || ov.Args[1].ID != Array || ov.Args[1].ElemType().ID != Int4 {
		t.Fatalf("concat_ws(unknown, VARIADIC int4[]): %+v %v", ov, err)
	}
	arr := Value{Arr: &ArrayValue{Dims: []int32{2, 2}, Lbound: []int32{1, 1}, Elems: []Value{{I: 1}, NullValue, {I: 3}, {I: 4}}}}
	got, err := ov.Eval(nil, []Value{{S: "-"}, arr})
	if err != nil || got.S != "1-3-4" {
		t.Fatalf("concat_ws('-', VARIADIC '{{1,NULL},{3,4}}'): %+v %v", got, err)
	}
	if got, err := ov.Eval(nil, []Value{{S: "-"}, NullValue}); err != nil || !got.Null {
		t.Fatalf("concat_ws('-', VARIADIC NULL::int[]) = %+v %v, want NULL", got, err)
	}
	f, err := ResolveVariadicCall("format", []Type{TextType, intArr})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.Eval(nil, []Value{{S: "x"}, NullValue}); err != nil || got.S != "x" {
		t.Fatalf("format('x', VARIADIC NULL::int[]) = %+v %v, want x", got, err)
	}
	if _, err := ResolveVariadicCall("concat", []Type{Int4Type}); pgerr.Code(err) != pgerr.DatatypeMismatch {
		t.Fatalf("concat(VARIADIC 10): %v, want 42804", err)
	}
	if _, err := ResolveVariadicCall("concat", []Type{TextType, intArr}); pgerr.Code(err) != pgerr.UndefinedFunction {
		t.Fatalf("concat(text, VARIADIC int4[]): %v, want 42883", err)
	}
}
