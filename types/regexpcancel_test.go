package types

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// TestRegexpCancels: the regexp functions stop stepping through a
// 100k-character string's matches once the statement is cancelled.
func TestRegexpCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ec := &EvalContext{Ctx: ctx}
	s := Value{S: strings.Repeat("ab", 50000)}
	for _, c := range []struct {
		fn   string
		args []Value
	}{
		{"regexp_count", []Value{s, {S: "b"}}},
		{"regexp_replace", []Value{s, {S: "b"}, {S: "c"}, {S: "g"}}},
		{"regexp_split_to_array", []Value{s, {S: "a"}}},
		{"regexp_instr", []Value{s, {S: "b"}, {I: 1}, {I: 40000}}},
	} {
		start := time.Now()
		_, err := callBuiltinForTest(t, ec, c.fn, c.args)
		if pgerr.Code(err) != pgerr.QueryCanceled {
			t.Errorf("%s under a cancelled context: %v, want 57014", c.fn, err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%s took %v to notice the cancel", c.fn, d)
		}
	}
	if _, err := regexpMatchArrays(ctx, "regexp_matches", []Value{s, {S: "a"}, {S: "g"}}); pgerr.Code(err) != pgerr.QueryCanceled {
		t.Errorf("regexp_matches under a cancelled context: %v, want 57014", err)
	}
	// Uncancelled, the same search finds every match.
	n, err := callBuiltinForTest(t, &EvalContext{Ctx: context.Background()}, "regexp_count", []Value{s, {S: "b"}})
	if err != nil || n.I != 50000 {
		t.Errorf("regexp_count = %v, %v; want 50000", n.I, err)
	}
}

// callBuiltinForTest resolves fn over its arguments' types (text or int4)
// and evaluates it.
func callBuiltinForTest(t *testing.T, ec *EvalContext, fn string, args []Value) (Value, error) {
	t.Helper()
	types := make([]Type, len(args))
	for i, a := range args {
		types[i] = TextType
		if a.S == "" {
			types[i] = Int4Type
		}
	}
	ov, err := ResolveFunction(fn, types)
	if err != nil {
		t.Fatalf("%s: %v", fn, err)
	}
	return ov.Eval(ec, args)
}
