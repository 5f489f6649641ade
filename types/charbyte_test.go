package types

import "testing"

func TestInternalCharIO(t *testing.T) {
	for in, want := range map[string]string{"a": "a", `\101`: "A", `\377`: `\377`, "": "", `\000`: "", "ab": "a", `\18`: `\`} {
		s := parseInternalChar(in)
		if got := string(appendInternalChar(nil, s)); got != want {
			t.Errorf("charout(charin(%q)) = %q, want %q", in, got, want)
		}
	}
	if v, _, _ := castInternalChar(Value{S: "\xff"}, InternalCharType, Int4Type); v.I != -1 {
		t.Errorf(`'\377'::"char"::int4 = %d, want -1 (a signed char)`, v.I)
	}
	if _, _, err := castInternalChar(Value{I: 128}, Int4Type, InternalCharType); err == nil {
		t.Error(`128::"char" succeeded; want "char" out of range`)
	}
}
