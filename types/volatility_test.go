package types

import (
	"slices"
	"sort"
	"testing"
)

// TestVolatilityAsPgProc holds the registry to PostgreSQL 15's pg_proc:
// exactly the signatures PostgreSQL marks stable are Stable, and exactly
// the volatile ones (plus current_setting, see stableSignatures) are
// Volatile.
func TestVolatilityAsPgProc(t *testing.T) {
	var stable, volatile []string
	for _, tab := range []map[string][]*builtin{functionTable, operatorTable} {
		for _, bs := range tab {
			for _, b := range bs {
				names := make([]string, len(b.args))
				for i, a := range b.args {
					names[i] = idSigName(a)
				}
				if b.stable {
					stable = append(stable, sigKey(b.name, names))
				}
				if b.volatile {
					volatile = append(volatile, b.name)
				}
			}
		}
	}
	sort.Strings(stable)
	sort.Strings(volatile)
	var want []string
	for k := range stableSignatures {
		want = append(want, k)
	}
	sort.Strings(want)
	if !slices.Equal(stable, want) {
		t.Errorf("stable built-ins:\n got %v\nwant %v", stable, want)
	}
	// pg_proc: provolatile 'v' for random, gen_random_uuid, clock_timestamp, set_config and
	// the sequence functions.
	// The sequence functions' regclass argument is an OID (int8) or a
	// name (text) in joind: two overloads each.
	wantVol := []string{"clock_timestamp", "current_setting", "current_setting", "currval", "currval", "gen_random_uuid", "lastval",
		"nextval", "nextval", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "random", "set_config", "setval", "setval", "setval", "setval"}
	if !slices.Equal(volatile, wantVol) {
		t.Errorf("volatile built-ins: got %v, want %v", volatile, wantVol)
	}
	// A stable overload resolves to a Stable Overload.
	o, err := ResolveOperator("+", TimestampTZType, IntervalType)
	if err != nil || !o.Stable {
		t.Errorf("timestamptz + interval: %v %v, want a stable overload", o, err)
	}
}
