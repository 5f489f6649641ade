package pgcatalog

import (
	"sort"
	"strings"
	"sync"

	"github.com/joind/joind/types"
)

// pg_proc, pg_aggregate and pg_operator list joind's own registry (types'
// functions, aggregates and operators, and this package's catalog
// functions), each entry as the pg_proc / pg_operator row PostgreSQL 15
// has for it (pgdata/*.tsv): a built-in joind has is listed with
// PostgreSQL's OID and attributes, one it lacks is not. A joind overload
// PostgreSQL does not have under that signature (PostgreSQL reaches it
// through an implicit cast) has no row to list.

// pg_proc.tsv's columns (generate.sh's SELECT list).
const (
	ppOID = iota
	ppName
	ppLang
	ppCost
	ppRows
	ppVariadic
	ppSupport
	ppKind
	ppSecdef
	ppLeakproof
	ppStrict
	ppRetset
	ppVolatile
	ppParallel
	ppNargs
	ppNargdefaults
	ppRettype
	ppArgtypes
	ppAllargtypes
	ppArgmodes
	ppArgnames
	ppSrc
	ppArguments         // pg_get_function_arguments
	ppIdentityArguments // pg_get_function_identity_arguments
	ppResult            // pg_get_function_result
	ppDescription       // obj_description(oid, 'pg_proc')
)

// pg_operator.tsv's columns.
const (
	poOID = iota
	poName
	poKind
	poCanmerge
	poCanhash
	poLeft
	poRight
	poResult
	poCom
	poNegate
	poCode
	poRest
	poJoin
)

// polymorphicMatch holds, for each of joind's polymorphic slots, the
// PostgreSQL pseudo-types a built-in may declare there (joind unifies
// anyelement's slots as anycompatible does).
var polymorphicMatch = map[uint32][]uint32{
	2283: {2283, 5077, 2776, 5079}, // anyelement: anycompatible, anynonarray, anycompatiblenonarray
	2776: {2776, 5079, 2283, 5077},
	2277: {2277, 5078}, // anyarray: anycompatiblearray
	// "any": joind's slot for a value of any type, PostgreSQL's
	// anyelement or record where the function is polymorphic.
	2276: {2276, 2283, 5077, 2249},
	// joind has no regclass type: a sequence function's argument is the
	// relation's OID (int8) or name (text).
	20: {20, 2205},
	25: {25, 2205},
}

func argMatches(joind, pg uint32) bool {
	if joind == pg {
		return true
	}
	for _, o := range polymorphicMatch[joind] {
		if o == pg {
			return true
		}
	}
	return false
}

// builtinCatalog is what pg_proc, pg_aggregate and pg_operator list,
// computed once: the registry does not change while joind runs.
type builtinCatalog struct {
	procs     []pgdataRow // pg_proc rows, by OID
	aggs      []pgdataRow // pg_aggregate rows of the listed aggregates
	operators []pgdataRow // pg_operator rows
	// unmatched are registry entries PostgreSQL has no row for
	// ("name(argoids)"), for the generator's test.
	unmatched []string
	procText  map[uint32]pgdataRow // the listed pg_proc rows by OID
}

// procColumn is pg_proc.tsv column col of listed built-in oid
// (pg_get_function_arguments and the like), NULL for any other OID.
func procColumn(oid int64, col int) types.Value {
	if r, ok := builtinRoutines().procText[uint32(oid)]; ok && r[col] != `\N` {
		return types.TextValue(r[col])
	}
	return types.NullValue
}

// builtinRoutines is the catalog of built-ins, computed on first use.
func builtinRoutines() *builtinCatalog {
	builtinsOnce.Do(func() { builtinsCatalog = buildBuiltins(catalogFuncs) })
	return builtinsCatalog
}

var (
	builtinsOnce    sync.Once
	builtinsCatalog *builtinCatalog
	// catalogFuncs is funcs, set by init: funcs' own functions read the
	// built-in catalog, so its initializer cannot name funcs.
	catalogFuncs []*Func
)

func init() { catalogFuncs = funcs }

func buildBuiltins(catalogFuncs []*Func) *builtinCatalog {
	c := &builtinCatalog{procText: map[uint32]pgdataRow{}}
	procsByName := map[string][]pgdataRow{}
	for _, r := range pgdata("pg_proc") {
		procsByName[r[ppName]] = append(procsByName[r[ppName]], r)
	}
	listed := map[string]bool{} // by OID
	list := func(r pgdataRow) {
		if !listed[r[ppOID]] {
			listed[r[ppOID]] = true
			c.procs = append(c.procs, r)
		}
	}
	match := func(sig types.Signature, kind string) {
		args := make([]uint32, len(sig.Args))
		for i, a := range sig.Args {
			if args[i] = types.SignatureTypeOID(a); args[i] == 0 {
				return // over joind's internal SEARCH/CYCLE values: not PostgreSQL's
			}
		}
		if reservedWord[sig.Name] {
			return // current_date and the like: syntax in PostgreSQL, not functions
		}
		if strings.HasPrefix(sig.Name, "information_schema.") {
			// _pg_expandarray: pgdata holds pg_catalog's functions only,
			// so pg_proc does not list information_schema's yet.
			return
		}
		for _, r := range procsByName[sig.Name] {
			if r[ppKind] == kind && procArgsMatch(r, args, sig.Variadic) {
				list(r)
				return
			}
		}
		c.unmatched = append(c.unmatched, sigText(sig.Name, args))
	}
	for _, sig := range types.CatalogFunctions() {
		match(sig, "f")
	}
	aggOIDs := map[string]bool{}
	for _, sig := range types.Aggregates() {
		n := len(c.procs)
		match(sig, "a")
		if len(c.procs) > n {
			aggOIDs[c.procs[n][ppOID]] = true
		}
	}
	// count(*) is count() with no argument (Aggregates leaves it out).
	for _, r := range procsByName["count"] {
		if r[ppNargs] == "0" {
			list(r)
			aggOIDs[r[ppOID]] = true
		}
	}
	// The catalog functions take a range of argument counts, their
	// arguments coerced: every PostgreSQL overload in that range.
	for _, f := range catalogFuncs {
		for _, name := range f.Names {
			for _, r := range procsByName[name] {
				n := int(parseInt(r[ppNargs]))
				if r[ppKind] == "f" && n >= f.MinArgs && (f.MaxArgs < 0 || n <= f.MaxArgs) {
					list(r)
				}
			}
		}
	}
	// The receive functions of the types pg_type lists, which its
	// typreceive names: Npgsql tells an array type by a typreceive whose
	// pg_proc row is array_recv. They take an internal argument, so SQL
	// cannot call them (in PostgreSQL either).
	for _, r := range pgdata("pg_proc") {
		if isReceiveFunction(r[ppName]) {
			list(r)
		}
	}
	// plpgsql's handler, inline and validator functions: the members of
	// the extension pg_extension lists (describe.go).
	for _, m := range plpgsqlMembers {
		if m[0] == OIDPgProc {
			for _, r := range pgdata("pg_proc") {
				if parseOID(r[ppOID]) == m[1] {
					list(r)
				}
			}
		}
	}
	for _, r := range pgdata("pg_aggregate") {
		if aggOIDs[r[0]] {
			c.aggs = append(c.aggs, r)
		}
	}
	// An operator is listed when joind has it and its function is listed.
	opsByName := map[string][]pgdataRow{}
	for _, r := range pgdata("pg_operator") {
		opsByName[r[poName]] = append(opsByName[r[poName]], r)
	}
	for _, sig := range types.CatalogOperators() {
		var left, right uint32
		if len(sig.Args) == 1 || (len(sig.Args) == 2 && sig.Args[0] == types.NoArg) {
			right = types.SignatureTypeOID(sig.Args[len(sig.Args)-1])
		} else if len(sig.Args) == 2 {
			left, right = types.SignatureTypeOID(sig.Args[0]), types.SignatureTypeOID(sig.Args[1])
		}
		if (left == 0 && len(sig.Args) == 2 && sig.Args[0] != types.NoArg) || right == 0 {
			continue // over joind's internal SEARCH/CYCLE values
		}
		found := false
		for _, r := range opsByName[sig.Name] {
			if argMatches(left, parseOID(r[poLeft])) && argMatches(right, parseOID(r[poRight])) {
				c.operators = append(c.operators, r)
				found = true
				break
			}
		}
		if !found {
			c.unmatched = append(c.unmatched, "operator "+sigText(sig.Name, []uint32{left, right}))
		}
	}
	sort.Slice(c.procs, func(i, j int) bool { return parseOID(c.procs[i][ppOID]) < parseOID(c.procs[j][ppOID]) })
	sort.Slice(c.operators, func(i, j int) bool {
		return parseOID(c.operators[i][poOID]) < parseOID(c.operators[j][poOID])
	})
	c.operators = dedupRows(c.operators)
	for _, r := range c.procs {
		c.procText[parseOID(r[ppOID])] = r
	}
	return c
}

// reservedWord holds the key words PostgreSQL's grammar does not take as
// a function name (catcode R).
var reservedWord = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range pgdata("pg_keywords") {
		if k[1] == "R" {
			m[k[0]] = true
		}
	}
	return m
}()

func dedupRows(rows []pgdataRow) []pgdataRow {
	var out []pgdataRow
	for i, r := range rows {
		if i == 0 || r[0] != rows[i-1][0] {
			out = append(out, r)
		}
	}
	return out
}

// procArgsMatch reports whether pg_proc row r takes args: the same count
// and types, a polymorphic slot matching PostgreSQL's pseudo-types; a
// variadic one matching VARIADIC "any" or an array of its last type.
func procArgsMatch(r pgdataRow, args []uint32, variadic bool) bool {
	var pg []uint32
	for _, f := range strings.Fields(r[ppArgtypes]) {
		pg = append(pg, parseOID(f))
	}
	pgVariadic := parseOID(r[ppVariadic])
	if pgVariadic != 0 && len(args) > len(pg) || pgVariadic != 0 && !variadic && len(args) == len(pg) {
		// A fixed-arity joind overload of a VARIADIC function
		// (jsonb_delete(jsonb, text, text)): its trailing arguments are
		// the variadic array's elements.
		for _, a := range args[len(pg)-1:] {
			if !argMatches(a, pgVariadic) {
				return false
			}
		}
		args, variadic = args[:len(pg)], true
	}
	// Trailing parameters with defaults may be left out.
	if len(pg) < len(args) || len(args) < len(pg)-int(parseInt(r[ppNargdefaults])) || (pgVariadic != 0) != variadic {
		return false
	}
	for i := range args {
		if argMatches(args[i], pg[i]) {
			continue
		}
		if variadic && i == len(args)-1 && parseOID(r[ppVariadic]) != 0 && argMatches(args[i], parseOID(r[ppVariadic])) {
			continue
		}
		return false
	}
	return true
}

func sigText(name string, args []uint32) string {
	var b strings.Builder
	b.WriteString(name + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(typeNameOrOID(a))
	}
	return b.String() + ")"
}

func typeNameOrOID(oid uint32) string {
	for _, r := range pgdata("pg_type") {
		if parseOID(r[ptOID]) == oid {
			return r[ptName]
		}
	}
	return "-"
}

// isReceiveFunction reports whether name is the typreceive of a type
// pg_type lists: a built-in's, or the user types' (array_recv for their
// arrays, enum_recv, record_recv, domain_recv).
func isReceiveFunction(name string) bool {
	switch name {
	case "array_recv", "enum_recv", "record_recv", "domain_recv":
		return true
	}
	for _, t := range SystemTypes {
		if t.row[ptReceive] == name {
			return true
		}
	}
	return false
}
