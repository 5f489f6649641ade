package types

import (
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// Keys made between any two keys keep sorting between them, never end in
// a zero byte, and declaration keys sort in declaration order.
func TestEnumKeyBetween(t *testing.T) {
	for _, n := range []int{0, 1, 3, 254, 255, 256, 70000} {
		keys := EnumKeys(n)
		if !sort.StringsAreSorted(keys) {
			t.Fatalf("EnumKeys(%d) not sorted", n)
		}
		for i := 1; i < len(keys); i++ {
			if keys[i-1] == keys[i] {
				t.Fatalf("EnumKeys(%d): key %d repeated", n, i)
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	keys := []string{EnumKeyBetween("", "")}
	for step := 0; step < 3000; step++ {
		i := rng.Intn(len(keys) + 1)
		lo, hi := "", ""
		if i > 0 {
			lo = keys[i-1]
		}
		if i < len(keys) {
			hi = keys[i]
		}
		// Favour one gap so keys grow long there.
		if step%3 == 0 && len(keys) > 1 {
			lo, hi, i = keys[0], keys[1], 1
		}
		k := EnumKeyBetween(lo, hi)
		if k <= lo || (hi != "" && k >= hi) || k[len(k)-1] == 0 {
			t.Fatalf("EnumKeyBetween(%q, %q) = %q", lo, hi, k)
		}
		keys = append(keys[:i], append([]string{k}, keys[i:]...)...)
	}
}

// Enum values compare by declaration order, read and print their labels,
// and reject other labels with PostgreSQL's message.
func TestEnumValues(t *testing.T) {
	keys := EnumKeys(3)
	RegisterEnum(&EnumDesc{OID: 900001, ArrayOID: 900002, Name: "test_mood", Labels: []EnumLabel{
		{Label: "sad", Key: keys[0], SortOrder: 1}, {Label: "ok", Key: keys[1], SortOrder: 2},
		{Label: "happy", Key: keys[2], SortOrder: 3}, {Label: "new", Key: EnumKeyBetween(keys[2], ""), SortOrder: 4, Unsafe: true}}})
	mood := EnumType(900001)
	sad, err := ParseText("sad", mood)
	if err != nil {
		t.Fatal(err)
	}
	happy, _ := ParseText("happy", mood)
	if Compare(sad, happy, mood) >= 0 {
		t.Error("sad should sort before happy")
	}
	if got := TextOf(happy, mood); got != "happy" {
		t.Errorf("output %q", got)
	}
	if _, err := ParseText("angry", mood); err == nil || err.Error() != `invalid input value for enum test_mood: "angry"` {
		t.Errorf("bad label: %v", err)
	}
	if _, err := ParseText("new", mood); err == nil {
		t.Error("an uncommitted label should be unsafe")
	}
	if mood.OID() != 900001 || ArrayOf(mood).OID() != 900002 || mood.SQLName() != "test_mood" {
		t.Errorf("names: %d %d %s", mood.OID(), ArrayOf(mood).OID(), mood.SQLName())
	}
	if at, ok := TypeByUserOID(900002); !ok || at.ID != Array || at.ElemType() != mood {
		t.Errorf("array type by OID: %+v %v", at, ok)
	}
	if _, err := ResolveOperator("<", mood, UnknownType); err != nil {
		t.Error(err)
	}
	if _, asg, _ := CanCast(mood, TextType); !asg {
		t.Error("enum -> text is an assignment cast")
	}
	if imp, asg, exp := CanCast(TextType, mood); imp || asg || !exp {
		t.Error("text -> enum is explicit only")
	}
}

// pendingEnums is one transaction's own view of enum types.
type pendingEnums map[uint32]*EnumDesc

func (p pendingEnums) PendingEnum(oid uint32) (*EnumDesc, bool) { d, ok := p[oid]; return d, ok }

// A transaction's own view of an enum (Format.Enums) is read before the
// registry: its renamed label in and out, its added label unsafe (55P04);
// without the view the committed labels answer and the added one is
// invalid input (22P02).
func TestEnumTransactionView(t *testing.T) {
	const oid = 4_000_001
	keys := EnumKeys(2)
	RegisterEnum(&EnumDesc{OID: oid, ArrayOID: oid + 1, Name: "tv_mood",
		Labels: []EnumLabel{{Label: "sad", Key: keys[0]}, {Label: "ok", Key: keys[1]}}})
	mine := &EnumDesc{OID: oid, ArrayOID: oid + 1, Name: "tv_mood", Labels: []EnumLabel{
		{Label: "sad", Key: keys[0]}, {Label: "fine", Key: keys[1]},
		{Label: "new", Key: EnumKeyBetween(keys[1], ""), Unsafe: true}}}
	typ := EnumType(oid)
	in := &Format{Enums: pendingEnums{oid: mine}}
	v, err := ParseTextFormat("fine", typ, in, time.Time{})
	if err != nil || string(FormatText(nil, v, typ, in)) != "fine" || string(FormatText(nil, v, typ, nil)) != "ok" {
		t.Fatalf("renamed label: %v, %v", v, err)
	}
	if _, err := ParseTextFormat("new", typ, in, time.Time{}); pgerr.Code(err) != "55P04" {
		t.Fatalf("added label in its transaction: %v", err)
	}
	if _, err := ParseTextFormat("new", typ, nil, time.Time{}); pgerr.Code(err) != "22P02" {
		t.Fatalf("added label elsewhere: %v", err)
	}
	if _, err := ParseTextFormat("fine", typ, nil, time.Time{}); pgerr.Code(err) != "22P02" {
		t.Fatalf("renamed label elsewhere: %v", err)
	}
}
