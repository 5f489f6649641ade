package sqlfuzz

import (
	"github.com/joind/joind/types"
)

// catalog is what the generator may call, taken from joind's own registry
// (types.Operators, types.Functions, types.Aggregates, types.CanCast): a
// function added to types/ is generated without touching this package.
type catalog struct {
	ops   map[types.ID][]types.Signature // by result type; Args as registered
	funcs map[types.ID][]types.Signature
	aggs  map[types.ID][]types.Signature // result AnyNonArray resolved per argument
	casts map[types.ID][]types.ID        // to -> from types with an explicit (or better) cast
}

// nondeterministic names the built-ins whose value depends on the clock or
// a random source: the two servers cannot agree on them.
var nondeterministic = map[string]bool{
	"now": true, "current_timestamp": true, "transaction_timestamp": true,
	"statement_timestamp": true, "clock_timestamp": true, "localtimestamp": true,
	"current_date": true, "random": true, "timeofday": true, "gen_random_uuid": true,
	"localtime": true, "current_time": true,
}

func newCatalog(k *Knobs) *catalog {
	c := &catalog{
		ops:   map[types.ID][]types.Signature{},
		funcs: map[types.ID][]types.Signature{},
		aggs:  map[types.ID][]types.Signature{},
		casts: map[types.ID][]types.ID{},
	}
	for _, s := range types.Operators() {
		if k.excludedOp(s) {
			continue
		}
		c.ops[s.Result] = append(c.ops[s.Result], s)
	}
	for _, s := range types.Functions() {
		// Set-returning functions change the row count, so the generator never
		// uses them as scalar expressions.
		if s.Volatile || s.SetReturning || nondeterministic[s.Name] || k.excludedFunc(s) {
			continue
		}
		if types.IsJSONPopulate(s.Name) {
			// Its first argument must be a row, which the generator has no
			// way to write; any other type fails with 42804 only when a row
			// reaches the call, so both servers' answers hang on which
			// join side runs first.
			continue
		}
		c.funcs[s.Result] = append(c.funcs[s.Result], s)
	}
	for _, s := range types.Aggregates() {
		if k.excludedAgg(s) {
			continue
		}
		if types.IsOrderedSetAggregate(s.Name) || types.IsHypotheticalAggregate(s.Name) {
			// Called only WITHIN GROUP, which the generator does not write.
			continue
		}
		if s.Result == types.AnyNonArray {
			// min/max: the result is the argument's type
			for _, id := range fuzzIDs() {
				c.aggs[id] = append(c.aggs[id], types.Signature{Name: s.Name, Args: []types.ID{id}, Result: id})
			}
			continue
		}
		if orderSensitive[s.Name] {
			// generated as length(agg(...)): see aggCall
			c.aggs[types.Int4] = append(c.aggs[types.Int4], s)
			continue
		}
		c.aggs[s.Result] = append(c.aggs[s.Result], s)
	}
	for _, to := range fuzzIDs() {
		for _, from := range fuzzIDs() {
			if from == to {
				continue
			}
			if _, _, explicit := types.CanCast(types.Type{ID: from, Typmod: -1}, types.Type{ID: to, Typmod: -1}); explicit {
				c.casts[to] = append(c.casts[to], from)
			}
		}
	}
	return c
}
