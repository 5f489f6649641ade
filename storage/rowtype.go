package storage

import "github.com/joind/joind/types"

// Table row types. Every table has a composite type of its own, as in
// PostgreSQL (pg_class.reltype): its OID is derived from the table's OID
// (RowTypeOID), its array type's is the next one, and package types learns
// the row type's fields whenever a version publishes the table
// (registerRowType), so a column of the row type (`fn fullname`) reads
// through the table's current columns: a value stored before ALTER TABLE
// ADD COLUMN shows the new field NULL, as PostgreSQL's does.

// rowTypeOIDBase offsets a table's OID (below 2^31) to its row type's.
const rowTypeOIDBase = 1 << 31

// RowTypeOID is the pg_type OID of the row type of the table of OID
// tableOID; RowTypeOID+1 is its array type's.
func RowTypeOID(tableOID uint32) uint32 { return rowTypeOIDBase + tableOID }

// rowTypeByOID is the row type (or array of row type) a stored column of
// type OID oid has: known by its OID before its table is read.
func rowTypeByOID(oid uint32) (types.Type, bool) {
	if oid < rowTypeOIDBase+FirstUserOID {
		return types.Type{}, false
	}
	if oid%2 == 1 {
		return types.ArrayOf(types.CompositeType(oid - 1)), true
	}
	return types.CompositeType(oid), true
}

// RegisterRowType tells package types the fields of the row type of the
// table of OID tableOID, name and columns cols.
func RegisterRowType(tableOID uint32, name string, cols []ColumnDef) {
	oid := RowTypeOID(tableOID)
	d := &types.CompositeDesc{OID: oid, ArrayOID: oid + 1, RelOID: tableOID,
		Record: types.RecordDesc{Name: name, Fields: make([]string, len(cols)), Types: make([]types.Type, len(cols))}}
	for i, c := range cols {
		d.Record.Fields[i], d.Record.Types[i] = c.Name, c.Type
	}
	types.RegisterComposite(d)
}

func registerRowType(t *tableState) {
	RegisterRowType(FirstUserOID+2*uint32(t.id), BareName(t.name), t.cols)
}
