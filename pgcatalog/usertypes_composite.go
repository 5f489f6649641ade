package pgcatalog

import (
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Composite types in the catalogs, as PostgreSQL's DefineCompositeType
// makes them: a pg_type row (typtype 'c', typrelid its relation) and its
// array type's, and a pg_class row of relkind 'c' whose pg_attribute rows
// are the attributes, so psql's \dT and \d describe it.

// compositeSystemType is the pg_type description of composite type elem,
// or of t, the array over it.
func compositeSystemType(t, elem types.Type) SystemType {
	st := SystemType{OID: elem.OID(), Name: elem.PgTypeName(), T: elem, Len: -1, Category: 'C', Align: 'd',
		In: "record_in", Out: "record_out", Array: types.ArrayOf(elem).OID()}
	if t.ID == types.Array {
		a := arraySystemType(st)
		a.Align = 'd'
		return a
	}
	return st
}

// compositeTypeRows are a composite type's pg_type row and its array
// type's.
func compositeTypeRows(u storage.UserType, ns, owner OID) []pgTypeRow {
	row := pgTypeRow{Oid: OID(u.OID()), Typname: Name(u.Name), Typnamespace: ns, Typowner: owner,
		Typlen: -1, Typtype: 'c', Typcategory: 'C', Typisdefined: true, Typdelim: ',', Typrelid: OID(u.RelOID()),
		Typsubscript: "-", Typarray: OID(u.ArrayOID()), Typinput: "record_in", Typoutput: "record_out",
		Typreceive: "record_recv", Typsend: "record_send", Typmodin: "-", Typmodout: "-", Typanalyze: "-",
		Typalign: 'd', Typstorage: 'x', Typtypmod: -1}
	arr := row
	arr.Oid, arr.Typname, arr.Typtype, arr.Typcategory, arr.Typrelid = OID(u.ArrayOID()), Name("_"+u.Name), 'b', 'A', 0
	arr.Typsubscript, arr.Typelem, arr.Typarray = "array_subscript_handler", OID(u.OID()), 0
	arr.Typinput, arr.Typoutput, arr.Typreceive, arr.Typsend = "array_in", "array_out", "array_recv", "array_send"
	arr.Typanalyze = "array_typanalyze"
	return []pgTypeRow{row, arr}
}

// compositeRelations are the relkind 'c' relations of the composite types.
func (s *Snapshot) compositeRelations() []Relation {
	var out []Relation
	for _, u := range s.userTypes() {
		if u.Kind != 'c' {
			continue
		}
		ns, _ := s.namespaceOfKey(storage.TableKey(u.Schema, ""))
		cols := make([]storage.ColumnDef, len(u.Attrs))
		for i, a := range u.Attrs {
			cols[i] = storage.ColumnDef{Name: a.Name, Type: a.Type}
		}
		out = append(out, Relation{OID: u.RelOID(), Name: u.Name, Namespace: ns.OID, Schema: ns.Name, Kind: 'c',
			Columns: cols, Rows: -1, Type: u.OID()})
	}
	return out
}

// Relations' row types. As PostgreSQL's heap_create_with_catalog, every
// relation but an index and a sequence has a composite type of its own
// (pg_class.reltype, typrelid the relation) and its array type: a user
// table's is storage.RowTypeOID, a view's ViewRowTypeOID, a system
// catalog's or system view's PostgreSQL's own OID (pgdata/pg_rowtype.tsv).
// The views' and system relations' are registered with package types when
// listed, so format_type and ::regtype name them.

// relRowType is relation r's row type: its OID and name, its array type's
// OID and name; ok is false when r has none.
type relRowType struct {
	oid, array      uint32
	name, arrayName string
	ok              bool
}

// systemRowTypes are pgdata/pg_rowtype.tsv by "schema.relname".
var systemRowTypes = func() map[string]relRowType {
	m := map[string]relRowType{}
	for _, r := range pgdata("pg_rowtype") {
		m[r[0]+"."+r[1]] = relRowType{oid: parseOID(r[2]), name: r[3], array: parseOID(r[4]), arrayName: r[5], ok: true}
	}
	return m
}()

func rowTypeOf(r Relation) relRowType {
	switch {
	case r.Index != nil || r.Kind == 'S' || r.Kind == 'c':
		return relRowType{} // a composite type's relation is its type's (userTypeRows)
	case r.OID < FirstUserOID:
		return systemRowTypes[r.Schema+"."+r.Name]
	case r.Kind == 'v':
		oid := ViewRowTypeOID(r.OID)
		return relRowType{oid: oid, array: oid + 1, name: r.Name, arrayName: "_" + r.Name, ok: true}
	}
	oid := storage.RowTypeOID(r.OID)
	return relRowType{oid: oid, array: oid + 1, name: r.Name, arrayName: "_" + r.Name, ok: true}
}

// registerRowType tells package types the fields of relation r's row type
// (a user table's registers as storage publishes it).
func registerRowType(r Relation, rt relRowType) {
	d := &types.CompositeDesc{OID: rt.oid, ArrayOID: rt.array, RelOID: r.OID,
		Record: types.RecordDesc{Name: rt.name, Fields: make([]string, len(r.Columns)), Types: make([]types.Type, len(r.Columns))}}
	for i, c := range r.Columns {
		d.Record.Fields[i], d.Record.Types[i] = c.Name, c.Type
	}
	types.RegisterComposite(d)
}

// relationRowTypeRows are the pg_type rows of the relations' row types
// and their array types.
func relationRowTypeRows(s *Snapshot) []pgTypeRow {
	var out []pgTypeRow
	for _, r := range s.Relations() {
		rt := rowTypeOf(r)
		if !rt.ok {
			continue
		}
		owner := uint32(OIDBootstrapUser)
		if r.OID >= FirstUserOID {
			owner = s.ownerOf(r.OID)
		}
		rows := compositeTypeRows(storage.UserType{Name: rt.name}, OID(r.Namespace), OID(owner))
		rows[0].Oid, rows[0].Typrelid, rows[0].Typarray = OID(rt.oid), OID(r.OID), OID(rt.array)
		rows[1].Oid, rows[1].Typname, rows[1].Typelem = OID(rt.array), Name(rt.arrayName), OID(rt.oid)
		out = append(out, rows...)
	}
	return out
}
