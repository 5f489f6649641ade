package types

import (
	"context"

	"github.com/joind/joind/pgerr"
)

// Set-returning functions whose rows are computed at once from their
// arguments, other than the json ones: RowSet computes them all
// (operators' FunctionScan and ProjectSet iterate the rows).
var rowsFunctions = map[string]func(vals []Value, ctx *EvalContext) ([]Value, error){
	"regexp_split_to_table": regexpSplitRows,
}

// IsRowsFunction reports whether name is one of rowsFunctions.
func IsRowsFunction(name string) bool { _, ok := rowsFunctions[name]; return ok }

// regexpSplitRows is regexp_split_to_table(string, pattern [, flags]).
func regexpSplitRows(vals []Value, ec *EvalContext) ([]Value, error) {
	var flags string
	if len(vals) > 2 {
		flags = vals[2].S
	}
	parts, err := regexpSplit(ec.context(), vals[0].S, vals[1].S, flags, "regexp_split_to_table")
	if err != nil {
		return nil, err
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = Value{S: p}
	}
	return out, nil
}

// regexpSplit splits s at the matches of pattern, ignoring degenerate
// ones as PostgreSQL does: empty matches at the start or end of s or
// right after the previous match.
func regexpSplit(ctx context.Context, s, pattern, flags, fn string) ([]string, error) {
	f, err := parseREFlags(flags)
	if err != nil {
		return nil, err
	}
	if f.global {
		return nil, errNoGlobal(fn)
	}
	c, err := compileARE(pattern, f)
	if err != nil {
		return nil, err
	}
	locs, err := c.matches(ctx, s, 0, -1)
	if err != nil {
		return nil, err
	}
	var parts []string
	prevEnd, pieceStart := 0, 0
	for _, l := range locs {
		if l[0] < len(s) && l[1] > prevEnd {
			parts = append(parts, s[pieceStart:l[0]])
			pieceStart = l[1]
		}
		prevEnd = l[1]
	}
	return append(parts, s[pieceStart:]), nil
}

func registerRegexpSetReturning() {
	notScalar := func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
	}
	regFn("regexp_split_to_table", []ID{Text, Text}, Text, notScalar).setReturning = true
	regFn("regexp_split_to_table", []ID{Text, Text, Text}, Text, notScalar).setReturning = true
}
