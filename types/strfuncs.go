package types

import (
	"github.com/joind/joind/pgerr"
)

// registerMoreStringFuncs registers the string functions beyond
// registerStringFuncs' core set: overlay(text ...).
func registerMoreStringFuncs() {
	overlay := func(_ *EvalContext, a []Value) (Value, error) {
		r := []rune(a[0].S)
		n := int64(runeLen(a[1].S))
		if len(a) > 3 {
			n = a[3].I
		}
		from := a[2].I
		if from < 1 || n < 0 {
			// text_overlay's substring of the head or tail refuses it
			return Value{}, pgerr.New("22011", "negative substring length not allowed")
		}
		head := string(r[:min(from-1, int64(len(r)))])
		tail := ""
		if from+n-1 < int64(len(r)) {
			tail = string(r[from+n-1:])
		}
		return Value{S: head + a[1].S + tail}, nil
	}
	regFn("overlay", []ID{Text, Text, Int4}, Text, overlay)
	regFn("overlay", []ID{Text, Text, Int4, Int4}, Text, overlay)
}
