package storage

import (
	"context"
	"fmt"
	"sort"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// User-defined types (CREATE TYPE ... AS ENUM, CREATE DOMAIN). A type is
// catalog metadata like a schema (schema.go): committed types live in the
// version (a map replaced, never modified), a transaction's changes in its
// pending set, and the manifest lists them before the tables, whose
// columns name them by OID. Every type the catalog holds is registered
// with package types (types.RegisterEnum, RegisterDomain), which reads an
// enum's labels for input and output: at load, when a transaction creates
// one, and again from the committed state when the transaction ends. A
// transaction's change to a committed enum stays in its own view
// (PendingEnum, read through types.Format.Enums) until it commits, so
// other sessions keep the committed labels.

// UserType is a user-defined type.
type UserType struct {
	ID      uint64 // from the DB's id sequence: OID FirstUserOID + 2*ID
	ArrayID uint64 // its array type's id, the same way
	Schema  uint64 // the schema's id (PublicSchemaID: public)
	Name    string
	Owner   string // the owning role's name ("" = the bootstrap superuser)
	Kind    byte   // pg_type.typtype: 'e' (enum), 'd' (domain)
	// Labels are an enum's labels in sort order (Key order). A label's
	// OID 0 asks CreateType/AlterType to number it.
	Labels []types.EnumLabel
	// A domain's base type, NOT NULL, DEFAULT text and CHECK constraints.
	Base    types.Type
	NotNull bool
	Default string
	Checks  []types.DomainConstraint
	// A composite type's attributes (compositetype.go) and the id of its
	// pg_class row (relkind 'c').
	Attrs []CompositeAttr
	RelID uint64
	// Comment is COMMENT ON TYPE / DOMAIN's text.
	Comment string
}

// OID is the type's pg_type OID.
func (u UserType) OID() uint32 { return FirstUserOID + 2*uint32(u.ID) }

// ArrayOID is the pg_type OID of its array type.
func (u UserType) ArrayOID() uint32 { return FirstUserOID + 2*uint32(u.ArrayID) }

// Type is the SQL type of the user type.
func (u UserType) Type() types.Type {
	switch u.Kind {
	case 'd':
		return types.DomainType(u.DomainDesc())
	case 'c':
		return types.CompositeType(u.OID())
	}
	return types.EnumType(u.OID())
}

// DomainDesc is the types description of domain u.
func (u UserType) DomainDesc() *types.DomainDesc {
	return &types.DomainDesc{OID: u.OID(), ArrayOID: u.ArrayOID(), Name: u.Name, Base: u.Base, NotNull: u.NotNull, Default: u.Default,
		Checks: append([]types.DomainConstraint(nil), u.Checks...)}
}

// TypeCatalog is implemented by catalogs that keep user-defined types (a
// DB's transactions).
type TypeCatalog interface {
	// LookupType finds a type by schema id and name.
	LookupType(schema uint64, name string) (UserType, bool)
	// TypeByOID finds a type by its OID or its array type's.
	TypeByOID(oid uint32) (UserType, bool)
	// UserTypes lists the types, by OID.
	UserTypes() []UserType
	// CreateType adds u, numbering it and its labels; 42710 if the name
	// is taken in its schema.
	CreateType(ctx context.Context, u UserType) (UserType, error)
	// AlterType replaces the type of id u.ID by u, numbering new labels.
	AlterType(ctx context.Context, u UserType) (UserType, error)
	// DropType removes the type of that id.
	DropType(ctx context.Context, id uint64) error
}

var _ TypeCatalog = (*Txn)(nil)

// typeChange is a transaction's pending change to one type id.
type typeChange struct {
	def  *UserType // the new entry; nil = dropped
	base *UserType // the committed entry the transaction saw (nil = none)
	// created are the labels CREATE TYPE made: usable before the commit,
	// unlike those ALTER TYPE ... ADD VALUE adds (PostgreSQL's enum
	// blacklist, check_safe_enum_use).
	created map[uint32]bool
	// enum is the transaction's own view of an enum type that exists
	// committed (ch.base set): its labels, those ADD VALUE added marked
	// unsafe. Other sessions keep reading the committed type from the
	// types registry, so a label added here is not there for them (22P02),
	// as pg_enum's uncommitted rows are invisible to other snapshots.
	enum *types.EnumDesc
}

func errTypeExists(name string) error {
	return pgerr.New("42710", "type \"%s\" already exists", name)
}

// typeDefs is the set of types the transaction sees, by id: the latest
// catalog's, as for schemas.
func (t *Txn) typeDefs() map[uint64]*UserType {
	base := t.version().types
	if t.taken && t.iso >= RepeatableRead {
		base = t.db.cs.load().types
	}
	if len(t.p.types) == 0 {
		return base
	}
	out := make(map[uint64]*UserType, len(base)+len(t.p.types))
	for id, u := range base {
		out[id] = u
	}
	for id, ch := range t.p.types {
		if ch.def == nil {
			delete(out, id)
		} else {
			out[id] = ch.def
		}
	}
	return out
}

// LookupType implements TypeCatalog.
func (t *Txn) LookupType(schema uint64, name string) (UserType, bool) {
	for _, u := range t.typeDefs() {
		if u.Schema == schema && u.Name == name {
			return *u, true
		}
	}
	return UserType{}, false
}

// TypeByOID implements TypeCatalog.
func (t *Txn) TypeByOID(oid uint32) (UserType, bool) {
	for _, u := range t.typeDefs() {
		if u.OID() == oid || u.ArrayOID() == oid {
			return *u, true
		}
	}
	return UserType{}, false
}

// UserTypes implements TypeCatalog.
func (t *Txn) UserTypes() []UserType {
	var out []UserType
	for _, u := range t.typeDefs() {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// CreateType implements TypeCatalog.
func (t *Txn) CreateType(ctx context.Context, u UserType) (UserType, error) {
	if t.done {
		return UserType{}, errDone
	}
	if _, ok := t.LookupType(u.Schema, u.Name); ok {
		return UserType{}, errTypeExists(u.Name)
	}
	u.ID = t.db.nextID.Add(1) - 1
	u.ArrayID = t.db.nextID.Add(1) - 1
	if u.Kind == 'c' {
		u.RelID = t.db.nextID.Add(1) - 1
	}
	u.Labels = t.numberLabels(u.Labels)
	t.setType(u.ID, &u)
	ch := t.p.types[u.ID]
	ch.created = map[uint32]bool{}
	for _, l := range u.Labels {
		ch.created[l.OID] = true
	}
	t.p.types[u.ID] = ch
	t.registerPending(u.ID)
	return u, nil
}

// AlterType implements TypeCatalog.
func (t *Txn) AlterType(ctx context.Context, u UserType) (UserType, error) {
	if t.done {
		return UserType{}, errDone
	}
	if _, ok := t.typeDefs()[u.ID]; !ok {
		return UserType{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", u.Name)
	}
	if other, ok := t.LookupType(u.Schema, u.Name); ok && other.ID != u.ID {
		return UserType{}, errTypeExists(u.Name)
	}
	u.Labels = t.numberLabels(u.Labels)
	t.setType(u.ID, &u)
	return u, nil
}

// DropType implements TypeCatalog.
func (t *Txn) DropType(ctx context.Context, id uint64) error {
	if t.done {
		return errDone
	}
	t.setType(id, nil)
	return nil
}

// numberLabels gives labels without an OID one, returning a sorted copy.
func (t *Txn) numberLabels(ls []types.EnumLabel) []types.EnumLabel {
	out := append([]types.EnumLabel(nil), ls...)
	for i := range out {
		if out[i].OID == 0 {
			out[i].OID = FirstUserOID + 2*uint32(t.db.nextID.Add(1)-1)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

func (t *Txn) setType(id uint64, def *UserType) {
	if t.p.types == nil {
		t.p.types = map[uint64]typeChange{}
	}
	ch, ok := t.p.types[id]
	if !ok {
		ch.base = t.version().types[id]
	}
	ch.def = def
	if ch.def == nil && ch.base == nil {
		delete(t.p.types, id) // created and dropped by this transaction
		return
	}
	t.p.types[id] = ch
	if def != nil {
		t.registerPending(id)
	}
}

// PendingEnum is the transaction's own description of enum type oid when
// it has changed the committed type (types.EnumView).
func (t *Txn) PendingEnum(oid uint32) (*types.EnumDesc, bool) {
	if t == nil {
		return nil, false
	}
	for _, ch := range t.p.types {
		if ch.enum != nil && ch.enum.OID == oid {
			return ch.enum, true
		}
	}
	return nil, false
}

// reregisterTypes registers again, from the latest committed state, the
// types changed by p, a transaction's changes once it has ended.
func (db *DB) reregisterTypes(p *pending) {
	if len(p.types) == 0 {
		return
	}
	committed := db.cs.load().types
	for id := range p.types {
		if u := committed[id]; u != nil {
			registerType(u)
		}
	}
}

// registerPending publishes the transaction's definition of type id: a
// type it created (no other session can name it) or a domain in the
// types registry; its change to a committed enum only in its own view
// (PendingEnum). Labels added by ADD VALUE are unsafe to use until the
// commit, also to a type the transaction created (check_safe_enum_use).
func (t *Txn) registerPending(id uint64) {
	ch := t.p.types[id]
	if ch.def.Kind != 'e' {
		registerType(ch.def)
		return
	}
	old := map[uint32]bool{}
	if ch.base != nil {
		for _, l := range ch.base.Labels {
			old[l.OID] = true
		}
	}
	d := enumDesc(ch.def)
	for i, l := range d.Labels {
		d.Labels[i].Unsafe = !old[l.OID] && !ch.created[l.OID]
	}
	if ch.base == nil {
		types.RegisterEnum(d)
		return
	}
	types.SortEnumLabels(d)
	ch.enum = d
	t.p.types[id] = ch
}

// registerType tells package types about u.
func registerType(u *UserType) {
	switch u.Kind {
	case 'e':
		types.RegisterEnum(enumDesc(u))
	case 'd':
		types.RegisterDomain(u.DomainDesc())
	case 'c':
		types.RegisterComposite(compositeDesc(u))
	}
}

func enumDesc(u *UserType) *types.EnumDesc {
	return &types.EnumDesc{OID: u.OID(), ArrayOID: u.ArrayOID(), Name: u.Name,
		Labels: append([]types.EnumLabel(nil), u.Labels...)}
}

func cloneTypes(m map[uint64]typeChange) map[uint64]typeChange {
	if m == nil {
		return nil
	}
	out := make(map[uint64]typeChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validateTypes checks p's type changes against work: a type changed by a
// concurrent commit, or a name two types of one schema would share, fails
// the commit whole.
func validateTypes(work *version, p *pending) error {
	if len(p.types) == 0 {
		return nil
	}
	next := map[uint64]*UserType{}
	for id, u := range work.types {
		next[id] = u
	}
	for id, ch := range p.types {
		if work.types[id] != ch.base {
			name := ""
			if ch.base != nil {
				name = ch.base.Name
			} else if ch.def != nil {
				name = ch.def.Name
			}
			return pgerr.New(codeSerialization, "could not serialize access: type %q was changed by a concurrent transaction", name)
		}
		if ch.def == nil {
			delete(next, id)
		} else {
			next[id] = ch.def
		}
	}
	names := map[string]bool{}
	for _, u := range next {
		k := TableKey(u.Schema, u.Name)
		if names[k] {
			return errTypeExists(u.Name)
		}
		names[k] = true
	}
	return nil
}

// applyTypes applies p's type changes to work (copying the map).
func applyTypes(work *version, p *pending) {
	if len(p.types) == 0 {
		return
	}
	next := make(map[uint64]*UserType, len(work.types)+len(p.types))
	for id, u := range work.types {
		next[id] = u
	}
	for id, ch := range p.types {
		if ch.def == nil {
			delete(next, id)
		} else {
			next[id] = ch.def
		}
	}
	work.types = next
}

// typeJSON is a type's manifest entry.
type typeJSON struct {
	ID      uint64      `json:"id"`
	ArrayID uint64      `json:"array_id"`
	Schema  uint64      `json:"schema,omitempty"`
	Name    string      `json:"name"`
	Owner   string      `json:"owner,omitempty"`
	Kind    string      `json:"kind"`
	Labels  []labelJSON `json:"labels,omitempty"`
	// A domain's (UserType).
	BaseOID    uint32                   `json:"base_oid,omitempty"`
	BaseTypmod int32                    `json:"base_typmod,omitempty"`
	NotNull    bool                     `json:"not_null,omitempty"`
	Default    string                   `json:"default,omitempty"`
	Checks     []types.DomainConstraint `json:"checks,omitempty"`
	// A composite type's.
	Attrs   []attrJSON `json:"attrs,omitempty"`
	RelID   uint64     `json:"rel_id,omitempty"`
	Comment string     `json:"comment,omitempty"`
}

type labelJSON struct {
	Label     string  `json:"label"`
	Key       []byte  `json:"key"`
	SortOrder float32 `json:"sort_order"`
	OID       uint32  `json:"oid"`
}

func sortedTypes(v *version) []typeJSON {
	out := make([]typeJSON, 0, len(v.types))
	for _, u := range v.types {
		j := typeJSON{ID: u.ID, ArrayID: u.ArrayID, Schema: u.Schema, Name: u.Name, Owner: u.Owner, Kind: string(u.Kind),
			NotNull: u.NotNull, Default: u.Default, Checks: u.Checks, Comment: u.Comment}
		if u.Kind == 'd' {
			j.BaseOID, j.BaseTypmod = u.Base.CatalogOID(), u.Base.Typmod
		}
		j.RelID, j.Attrs = u.RelID, encodeAttrs(u.Attrs)
		for _, l := range u.Labels {
			j.Labels = append(j.Labels, labelJSON{Label: l.Label, Key: []byte(l.Key), SortOrder: l.SortOrder, OID: l.OID})
		}
		out = append(out, j)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// decodeTypes loads the manifest's types and registers them, before the
// tables whose columns name them are read.
func decodeTypes(v *version, list []typeJSON) error {
	if len(list) > 0 {
		v.types = make(map[uint64]*UserType, len(list))
	}
	for _, x := range list {
		if v.types[x.ID] != nil || len(x.Kind) != 1 {
			return fmt.Errorf("type %q (id %d) listed twice or of no kind", x.Name, x.ID)
		}
		u := &UserType{ID: x.ID, ArrayID: x.ArrayID, Schema: x.Schema, Name: x.Name, Owner: x.Owner, Kind: x.Kind[0],
			NotNull: x.NotNull, Default: x.Default, Checks: x.Checks, Comment: x.Comment}
		if u.Kind == 'd' {
			base, ok := storedType(x.BaseOID, x.BaseTypmod)
			if !ok {
				return fmt.Errorf("domain %q has unknown base type OID %d", x.Name, x.BaseOID)
			}
			u.Base = base
		}
		if u.Kind == 'c' {
			attrs, err := decodeAttrs(x.Name, x.Attrs)
			if err != nil {
				return err
			}
			u.Attrs, u.RelID = attrs, x.RelID
		}
		for _, l := range x.Labels {
			u.Labels = append(u.Labels, types.EnumLabel{Label: l.Label, Key: string(l.Key), SortOrder: l.SortOrder, OID: l.OID})
		}
		v.types[x.ID] = u
		registerType(u)
	}
	return nil
}
