package pgcatalog

import (
	"testing"

	"github.com/joind/joind/types"
)

// Every function, aggregate and operator of types' registry is listed in
// pg_proc / pg_operator under PostgreSQL's row for it.
func TestBuiltinsListEveryRegistryEntry(t *testing.T) {
	c := builtinRoutines()
	for _, u := range c.unmatched {
		t.Errorf("joind has %s, which PostgreSQL 15's pg_proc/pg_operator has no row for", u)
	}
	if len(c.procs) < 500 || len(c.operators) < 300 || len(c.aggs) < 100 {
		t.Errorf("listed %d functions, %d operators, %d aggregates: too few", len(c.procs), len(c.operators), len(c.aggs))
	}
}

// And nothing is listed that joind does not have: each pg_proc row names
// a function joind resolves with that many arguments.
func TestBuiltinsListOnlyWhatJoindHas(t *testing.T) {
	has := map[string]bool{}
	for _, s := range types.CatalogFunctions() {
		has[s.Name] = true
	}
	for _, s := range types.Aggregates() {
		has[s.Name] = true
	}
	has["count"] = true
	// plpgsql's handlers, the extension's members (\dx+ plpgsql lists
	// them): catalog entries of a language joind answers 0A000 for.
	for _, m := range plpgsqlMembers {
		if m[0] == OIDPgProc {
			has[procNameByOID(m[1])] = true
		}
	}
	for _, r := range builtinRoutines().procs {
		name, n := r[ppName], int(parseInt(r[ppNargs]))
		if _, ok := LookupFunc(name, n); !ok && !has[name] && !isReceiveFunction(name) {
			t.Errorf("pg_proc lists %s (OID %s), which joind does not have", name, r[ppOID])
		}
	}
	for _, r := range builtinRoutines().operators {
		found := false
		for _, s := range types.CatalogOperators() {
			found = found || s.Name == r[poName]
		}
		if !found {
			t.Errorf("pg_operator lists %s (OID %s), which joind does not have", r[poName], r[poOID])
		}
	}
	for _, r := range builtinCasts {
		if _, ok := TypeByOID(parseOID(r[1])); !ok {
			t.Errorf("pg_cast lists a cast from type %s, which joind does not have", r[1])
		}
	}
}

// pg_type lists every type joind has, with PostgreSQL's attributes, and a
// typarray only for an array type joind has (psycopg 3 reads it).
func TestSystemTypesFromPostgreSQL(t *testing.T) {
	for _, id := range types.ConcreteIDs() {
		ty := types.Type{ID: id, Typmod: -1}
		st, ok := TypeByOID(ty.OID())
		if !ok {
			t.Errorf("pg_type lacks %s", ty.PgTypeName())
			continue
		}
		if a := types.ArrayOID(id); a != st.Array {
			t.Errorf("%s: typarray %d, want %d", st.Name, st.Array, a)
		}
		if st.Array != 0 {
			if at, ok := TypeByOID(st.Array); !ok || at.Elem != st.OID {
				t.Errorf("%s's array type %d is not listed with typelem %d", st.Name, st.Array, st.OID)
			}
		}
	}
	if st, _ := TypeByOID(23); st.Len != 4 || st.Align != 'i' || st.In != "int4in" || st.Array != 1007 || st.row[ptReceive] != "int4recv" {
		t.Errorf("int4 is %+v", st)
	}
}

func TestKeywordsAreAllOfPostgreSQLs(t *testing.T) {
	if n := len(pgdata("pg_keywords")); n < 400 {
		t.Fatalf("pg_keywords.tsv has %d words", n)
	}
	for _, c := range []struct{ in, want string }{{"abort", "abort"}, {"between", `"between"`}, {"int", `"int"`}, {"a$b", `"a$b"`}} {
		if got := QuoteIdentifier(c.in); got != c.want {
			t.Errorf("QuoteIdentifier(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
