package pgcatalog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/joind/joind/types"
)

// SystemType is one row of pg_type: a type joind has, with PostgreSQL's
// attributes (pgdata/pg_type.tsv).
type SystemType struct {
	OID       uint32
	Name      string // typname
	T         types.Type
	Len       int16
	Category  byte
	Align     byte
	In, Out   string // typinput / typoutput procedure names
	Preferd   bool
	Collation uint32 // typcollation: default for the collatable types, C for name, 0 for the rest
	// Elem is an array type's element type (typelem), Array a base type's
	// array type (typarray); 0 when none, or when joind lacks the array type.
	Elem, Array uint32
	row         pgdataRow // its pgdata/pg_type.tsv row
}

// pg_type.tsv's columns (generate.sh's SELECT list).
const (
	ptOID = iota
	ptName
	ptLen
	ptByval
	ptType
	ptCategory
	ptPreferred
	ptDelim
	ptSubscript
	ptElem
	ptArray
	ptInput
	ptOutput
	ptReceive
	ptSend
	ptModin
	ptModout
	ptAnalyze
	ptAlign
	ptStorage
	ptCollation
	ptDescription // obj_description(oid, 'pg_type')
)

// SystemTypes lists the types joind has (types.ConcreteIDs and the array
// types over them joind has), each as PostgreSQL's pg_type lists it.
var SystemTypes = func() []SystemType {
	byOID := map[uint32]pgdataRow{}
	for _, r := range pgdata("pg_type") {
		byOID[parseOID(r[ptOID])] = r
	}
	var ts []types.Type
	for _, id := range types.ConcreteIDs() {
		t := types.Type{ID: id, Typmod: -1}
		ts = append(ts, t)
		if types.ArrayOID(id) != 0 {
			ts = append(ts, types.ArrayOf(t))
		}
	}
	// Value types a column can have that ConcreteIDs leaves out.
	jsonpath := types.Type{ID: types.JSONPath, Typmod: -1}
	ts = append(ts, types.Int2VectorType, types.OidVectorType, jsonpath, types.ArrayOf(jsonpath),
		types.ArrayOf(types.Int2VectorType), types.ArrayOf(types.OidVectorType))
	has := map[uint32]bool{}
	for _, t := range ts {
		has[t.OID()] = true
	}
	var out []SystemType
	for _, t := range ts {
		r, ok := byOID[t.OID()]
		if !ok {
			panic(fmt.Sprintf("pgcatalog: type %s (OID %d) is not in pgdata/pg_type.tsv", t.PgTypeName(), t.OID()))
		}
		st := SystemType{OID: t.OID(), Name: r[ptName], T: t, Len: int16(parseInt(r[ptLen])), Category: r[ptCategory][0],
			Align: r[ptAlign][0], In: r[ptInput], Out: r[ptOutput], Preferd: r[ptPreferred] == "t",
			Collation: parseOID(r[ptCollation]), Elem: parseOID(r[ptElem]), row: r}
		if a := parseOID(r[ptArray]); has[a] {
			st.Array = a
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}()

// pseudoTypes are PostgreSQL's pseudo-types (typtype 'p': "any",
// anyelement, record, void, trigger, internal, cstring, ...) and cstring's
// array type, as pgdata/pg_type.tsv holds them. No column has one, but
// pg_proc's signatures name them (count("any"), array_length(anyarray,
// integer)), so pg_type lists them as PostgreSQL does.
var pseudoTypes = func() []pgdataRow {
	pseudo := map[string]bool{}
	for _, r := range pgdata("pg_type") {
		if r[ptType] == "p" {
			pseudo[r[ptOID]] = true
		}
	}
	var out []pgdataRow
	for _, r := range pgdata("pg_type") {
		if pseudo[r[ptOID]] || pseudo[r[ptElem]] {
			out = append(out, r)
		}
	}
	return out
}()

// pseudoType finds a pseudo-type (or _cstring) by OID.
func pseudoType(oid uint32) (pgdataRow, bool) {
	for _, r := range pseudoTypes {
		if parseOID(r[ptOID]) == oid {
			return r, true
		}
	}
	return nil, false
}

// builtinTypeRow is PostgreSQL's pg_type row of built-in type oid.
func builtinTypeRow(oid uint32) (pgdataRow, bool) {
	for _, r := range pgdata("pg_type") {
		if parseOID(r[ptOID]) == oid {
			return r, true
		}
	}
	return nil, false
}

// pseudoTypeByName finds a pseudo-type by its name as a type name reads
// ("record[]" is _record).
func pseudoTypeByName(name string) (uint32, bool) {
	array := strings.HasSuffix(name, "[]")
	name = strings.TrimSuffix(name, "[]")
	for _, r := range pseudoTypes {
		if r[ptName] != name {
			continue
		}
		if !array {
			return parseOID(r[ptOID]), true
		}
		if a := parseOID(r[ptArray]); a != 0 {
			return a, true
		}
	}
	return 0, false
}

// pgTypeRowOf is the pg_type row of a built-in type's pgdata row.
func pgTypeRowOf(r pgdataRow) pgTypeRow {
	return pgTypeRow{Oid: parseOID(r[ptOID]), Typname: r[ptName], Typnamespace: OIDNamespacePgCatalog, Typowner: OIDBootstrapUser,
		Typlen: int16(parseInt(r[ptLen])), Typbyval: r[ptByval] == "t", Typtype: r[ptType][0], Typcategory: r[ptCategory][0],
		Typispreferred: r[ptPreferred] == "t", Typisdefined: true, Typdelim: r[ptDelim][0], Typsubscript: r[ptSubscript],
		Typelem: parseOID(r[ptElem]), Typarray: parseOID(r[ptArray]), Typinput: RegProcName(r[ptInput]), Typoutput: RegProcName(r[ptOutput]),
		Typreceive: RegProcName(r[ptReceive]), Typsend: RegProcName(r[ptSend]), Typmodin: r[ptModin], Typmodout: r[ptModout],
		Typanalyze: r[ptAnalyze], Typalign: r[ptAlign][0], Typstorage: r[ptStorage][0], Typtypmod: -1,
		Typcollation: parseOID(r[ptCollation])}
}

// typeDescription is obj_description(oid, 'pg_type') of a type joind has.
func typeDescription(oid int64) types.Value {
	if st, ok := TypeByOID(uint32(oid)); ok && len(st.row) > ptDescription && st.row[ptDescription] != `\N` {
		return types.TextValue(st.row[ptDescription])
	}
	if r, ok := pseudoType(uint32(oid)); ok && r[ptDescription] != `\N` {
		return types.TextValue(r[ptDescription])
	}
	return types.NullValue
}

func parseOID(s string) uint32 {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		panic("pgcatalog: bad OID " + s)
	}
	return uint32(n)
}

func parseInt(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic("pgcatalog: bad integer " + s)
	}
	return n
}

// TypeByOID finds a supported type by OID.
func TypeByOID(oid uint32) (SystemType, bool) {
	for _, t := range SystemTypes {
		if t.OID == oid {
			return t, true
		}
	}
	return userSystemType(oid) // usertypes.go
}

// FormatType is format_type(oid, typmod); base (typmod NULL) omits the
// modifiers and, like PostgreSQL, names bpchar "character" only with one.
func FormatType(oid uint32, typmod int32, base bool) string {
	st, ok := TypeByOID(oid)
	if !ok {
		if r, ok := builtinTypeRow(oid); ok {
			// A pseudo-type, or a built-in joind lacks (tid, which
			// pg_attribute's ctid names), as format_type_extended names
			// it: quoted, an array as its element's with [], a typmod as
			// given.
			name := QuoteIdentifier(r[ptName])
			if elem := parseOID(r[ptElem]); elem != 0 {
				name = FormatType(elem, -1, true) + "[]"
			}
			if !base && typmod >= 0 {
				name += fmt.Sprintf("(%d)", typmod)
			}
			return name
		}
		return "???"
	}
	t := st.T
	if base {
		if t.ID == types.Char {
			return "bpchar"
		}
		return t.BaseSQLName()
	}
	t.Typmod = typmod
	if t.ID == types.Char && typmod < 0 {
		return "bpchar"
	}
	return t.SQLName()
}
