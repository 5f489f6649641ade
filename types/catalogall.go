package types

// The whole registry for pg_catalog (pg_proc, pg_operator, pg_aggregate):
// unlike Functions and Operators, which leave out what the fuzzer cannot
// generate, these list every built-in.

// CatalogFunctions lists every built-in scalar and set-returning function.
func CatalogFunctions() []Signature { return allSigs(functionTable) }

// CatalogOperators lists every built-in operator (prefix operators have
// one arg).
func CatalogOperators() []Signature { return allSigs(operatorTable) }

func allSigs(table map[string][]*builtin) []Signature {
	var out []Signature
	for _, k := range sortedKeys(table) {
		for _, b := range table[k] {
			out = append(out, sigOf(b))
		}
	}
	return sortSigs(out)
}

// SignatureTypeOID is the pg_type OID of a Signature's argument or result
// type: PostgreSQL's pseudo-type for a polymorphic slot; 0 for joind's
// internal ones (SEARCH/CYCLE's seq values), which pg_proc cannot name.
func SignatureTypeOID(id ID) uint32 {
	switch id {
	case idAny:
		return 2276
	case idAnyNonArray:
		return 2776
	case idAnyArray:
		return 2277
	case idAnyElement:
		return 2283
	case intArrayID:
		return ArrayOID(Int4)
	case textArrayID:
		return ArrayOID(Text)
	case Record:
		return 2249
	case Void:
		return 2278
	case Unknown:
		return 705
	case NoArg:
		return 0
	}
	return Type{ID: id, Typmod: -1}.OID()
}
