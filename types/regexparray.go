package types

import (
	"context"

	"github.com/joind/joind/pgerr"
)

// The text[]-returning regular expression functions: regexp_match,
// regexp_matches (a set of text[], every match with flag g) and
// regexp_split_to_array, as PostgreSQL 15's regexp.c builds them.

// matchArray is one match's text[]: its parenthesized subexpressions, a
// NULL for each that took no part in the match, or the whole match when
// the pattern has none.
func matchArray(s string, c *compiledRE, loc []int) Value {
	n := c.re.NumSubexp()
	if n == 0 {
		return arrayValue(NewArray([]Value{{S: s[loc[0]:loc[1]]}}))
	}
	elems := make([]Value, n)
	for i := 1; i <= n; i++ {
		if loc[2*i] < 0 {
			elems[i-1] = NullValue
		} else {
			elems[i-1] = Value{S: s[loc[2*i]:loc[2*i+1]]}
		}
	}
	return arrayValue(NewArray(elems))
}

// regexpMatchArrays is the text[] of each match of regexp_matches(s,
// pattern [, flags]) (of regexp_match when fn says so: the first match,
// no g flag).
func regexpMatchArrays(ctx context.Context, fn string, vals []Value) ([]Value, error) {
	var flags string
	if len(vals) > 2 {
		flags = vals[2].S
	}
	f, err := parseREFlags(flags)
	if err != nil {
		return nil, err
	}
	limit := 1
	if f.global {
		if fn == "regexp_match" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn).
				WithHint("Use the regexp_matches function instead.")
		}
		limit = -1
	}
	c, err := compileARE(vals[1].S, f)
	if err != nil {
		return nil, err
	}
	locs, err := c.matches(ctx, vals[0].S, 0, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Value, len(locs))
	for i, l := range locs {
		out[i] = matchArray(vals[0].S, c, l)
	}
	return out, nil
}

func init() {
	rowsFunctions["regexp_matches"] = func(vals []Value, ec *EvalContext) ([]Value, error) {
		return regexpMatchArrays(ec.context(), "regexp_matches", vals)
	}
	notScalar := func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
	}
	match := func(ec *EvalContext, a []Value) (Value, error) {
		rows, err := regexpMatchArrays(ec.context(), "regexp_match", a)
		if err != nil || len(rows) == 0 {
			return NullValue, err
		}
		return rows[0], nil
	}
	split := func(ec *EvalContext, a []Value) (Value, error) {
		var flags string
		if len(a) > 2 {
			flags = a[2].S
		}
		parts, err := regexpSplit(ec.context(), a[0].S, a[1].S, flags, "regexp_split_to_array")
		if err != nil {
			return Value{}, err
		}
		elems := make([]Value, len(parts))
		for i, p := range parts {
			elems[i] = Value{S: p}
		}
		return arrayValue(NewArray(elems)), nil
	}
	for _, args := range [][]ID{{Text, Text}, {Text, Text, Text}} {
		regFn("regexp_match", args, textArrayID, match)
		regFn("regexp_matches", args, textArrayID, notScalar).setReturning = true
		regFn("regexp_split_to_array", args, textArrayID, split)
	}
}
