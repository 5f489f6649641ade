package types

import "sync"

// Named composite types (CREATE TYPE name AS (...)). A value is a record
// (composite.go) whose Type carries the composite's pg_type OID in
// UserOID and typmod -1: its fields are the registered description's, read
// through the OID each time, so ALTER TYPE ... ATTRIBUTE reaches every
// column and expression of the type without rewriting their Types. The
// catalog (storage) registers each composite type here, as it does enums.

// CompositeDesc is a composite type's catalog description.
type CompositeDesc struct {
	OID      uint32
	ArrayOID uint32 // its array type's pg_type OID
	RelOID   uint32 // pg_type.typrelid: its pg_class row (relkind 'c')
	Record   RecordDesc
}

var compositeRegistry struct {
	sync.RWMutex
	byOID   map[uint32]*CompositeDesc
	byArray map[uint32]uint32
}

// RegisterComposite makes d the description of composite type d.OID
// (replacing an earlier one). d is not modified after.
func RegisterComposite(d *CompositeDesc) {
	r := &compositeRegistry
	r.Lock()
	defer r.Unlock()
	if r.byOID == nil {
		r.byOID, r.byArray = map[uint32]*CompositeDesc{}, map[uint32]uint32{}
	}
	r.byOID[d.OID] = d
	r.byArray[d.ArrayOID] = d.OID
}

// LookupComposite is the registered description of composite type oid.
func LookupComposite(oid uint32) (*CompositeDesc, bool) {
	r := &compositeRegistry
	r.RLock()
	defer r.RUnlock()
	d, ok := r.byOID[oid]
	return d, ok
}

// CompositeType is the composite type whose pg_type OID is oid.
func CompositeType(oid uint32) Type { return Type{ID: Record, Typmod: -1, UserOID: oid} }

// IsComposite reports whether t is a named composite type (not a table's
// row type nor an anonymous record).
func (t Type) IsComposite() bool { return t.ID == Record && t.UserOID != 0 }

// compositeTypeByOID is the composite type, or array of one, of pg_type
// OID oid.
func compositeTypeByOID(oid uint32) (Type, bool) {
	r := &compositeRegistry
	r.RLock()
	defer r.RUnlock()
	if _, ok := r.byOID[oid]; ok {
		return CompositeType(oid), true
	}
	if c, ok := r.byArray[oid]; ok {
		return ArrayOf(CompositeType(c)), true
	}
	return Type{}, false
}

// compositeRecordDesc is the field description of composite type oid.
func compositeRecordDesc(oid uint32) *RecordDesc {
	if d, ok := LookupComposite(oid); ok {
		return &d.Record
	}
	return nil
}

// compositeArrayOID is the OID of the array type over composite type t.
func compositeArrayOID(t Type) uint32 {
	if d, ok := LookupComposite(t.UserOID); ok {
		return d.ArrayOID
	}
	return OIDRecordArray
}
