package storage

import "github.com/joind/joind/types"

// storedType is the column type the manifest records as a pg_type OID and
// typmod: a base type, or an array type (whose typmod is its element's).
func storedType(oid uint32, typmod int32) (types.Type, bool) {
	if id, ok := typeByOID[oid]; ok {
		return types.Type{ID: id, Typmod: typmod}, true
	}
	if t, ok := types.TypeByUserOID(oid); ok {
		if !t.TypmodIsFields() {
			t.Typmod = typmod
		}
		return t, true
	}
	if t, ok := rowTypeByOID(oid); ok { // rowtype.go
		return t, true
	}
	if t, ok := types.ArrayTypeByOID(oid); ok {
		if !t.TypmodIsFields() {
			t.Typmod = typmod
		}
		return t, true
	}
	return types.Type{}, false
}
