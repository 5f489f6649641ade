package types

import "slices"

// SelectCandidate is PostgreSQL's func_match_argtypes +
// func_select_candidate over candidate signatures that are not built-ins
// (the input types of user-defined functions of one name, already cut to
// the call's arity): the index of the chosen one, or -1, with ambiguous
// set when several remain. Types are compared by kind, as for built-ins.
func SelectCandidate(cands [][]Type, args []Type) (best int, ambiguous bool) {
	bs := make([]*builtin, len(cands))
	for i, c := range cands {
		bs[i] = &builtin{args: ids(c), strict: true}
	}
	// A candidate naming the arguments' own types (a composite or enum
	// type by OID, not only by kind) wins outright.
	for i, c := range cands {
		if slices.Equal(c, args) {
			return i, false
		}
	}
	b, amb := selectBest(bs, ids(args))
	for i := range bs {
		if bs[i] == b {
			return i, false
		}
	}
	return -1, amb
}
