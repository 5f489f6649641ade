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

// tableRowTypeRows are the pg_type rows of the user tables' row types
// (storage.RowTypeOID) and their array types.
func tableRowTypeRows(s *Snapshot) []pgTypeRow {
	var out []pgTypeRow
	for _, r := range s.Relations() {
		if r.Kind != 'r' || r.OID < FirstUserOID || r.Index != nil {
			continue
		}
		oid := storage.RowTypeOID(r.OID)
		rows := compositeTypeRows(storage.UserType{Name: r.Name}, OID(r.Namespace), OIDBootstrapUser)
		rows[0].Oid, rows[0].Typrelid, rows[0].Typarray = OID(oid), OID(r.OID), OID(oid+1)
		rows[1].Oid, rows[1].Typelem = OID(oid+1), OID(oid)
		out = append(out, rows...)
	}
	return out
}

// tableRowTypeOID is pg_class.reltype of the user table of OID oid.
func tableRowTypeOID(oid uint32) uint32 { return storage.RowTypeOID(oid) }
