package storage

import (
	"fmt"

	"github.com/joind/joind/types"
)

// Composite types (CREATE TYPE name AS (...)): a UserType of kind 'c'
// whose attributes the manifest keeps by type OID and typmod, as it keeps
// columns; package types learns each one (types.RegisterComposite) so a
// column or value of the type reads its fields through the type's OID.

// CompositeAttr is one attribute of a composite type (a pg_attribute row
// of its relkind 'c' relation).
type CompositeAttr struct {
	Name string
	Type types.Type
}

// RelOID is the OID of a composite type's pg_class row.
func (u UserType) RelOID() uint32 { return FirstUserOID + 2*uint32(u.RelID) }

func compositeDesc(u *UserType) *types.CompositeDesc {
	d := &types.CompositeDesc{OID: u.OID(), ArrayOID: u.ArrayOID(), RelOID: u.RelOID(),
		Record: types.RecordDesc{Name: u.Name, Fields: make([]string, len(u.Attrs)), Types: make([]types.Type, len(u.Attrs))}}
	for i, a := range u.Attrs {
		d.Record.Fields[i], d.Record.Types[i] = a.Name, a.Type
	}
	return d
}

type attrJSON struct {
	Name   string `json:"name"`
	OID    uint32 `json:"oid"`
	Typmod int32  `json:"typmod"`
}

func encodeAttrs(attrs []CompositeAttr) []attrJSON {
	var out []attrJSON
	for _, a := range attrs {
		tm := a.Type.Typmod
		if a.Type.TypmodIsFields() {
			tm = -1 // a record typmod is this process's registry index
		}
		out = append(out, attrJSON{Name: a.Name, OID: a.Type.CatalogOID(), Typmod: tm})
	}
	return out
}

// decodeAttrs reads a composite type's attributes; the types they name
// were registered before (the manifest lists types by id, creation order).
func decodeAttrs(typeName string, list []attrJSON) ([]CompositeAttr, error) {
	out := make([]CompositeAttr, len(list))
	for i, a := range list {
		t, ok := storedType(a.OID, a.Typmod)
		if !ok {
			return nil, fmt.Errorf("composite type %q has attribute %q of unknown type OID %d", typeName, a.Name, a.OID)
		}
		out[i] = CompositeAttr{Name: a.Name, Type: t}
	}
	return out, nil
}
