package storage

import (
	"context"
	"fmt"
	"sort"

	"github.com/joind/joind/pgerr"
)

// Foreign data (file_fdw's objects). An extension (CREATE EXTENSION
// file_fdw, which brings the foreign-data wrapper of that name) and a
// foreign server are catalog metadata like a schema (schema.go): committed
// objects live in the version (a map replaced, never modified), a
// transaction's changes in its pending set, and the manifest lists them.
// A foreign table is a table without rows whose definition carries a
// ForeignTableDef (its server and OPTIONS), kept with the table's
// definition as its comment is; what reads its file is the binder's and
// package external's.

// ForeignOption is one OPTIONS (name 'value') entry, as written.
type ForeignOption struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ForeignObject is an extension (Kind 'e') or a foreign server (Kind 's').
type ForeignObject struct {
	ID      uint64 // from the DB's id sequence: OID FirstUserOID + 2*ID
	Kind    byte
	Name    string
	Wrapper string          // a server's foreign-data wrapper
	Options []ForeignOption // a server's OPTIONS
	Owner   string
}

// OID is the object's OID (pg_extension.oid, pg_foreign_server.oid).
func (o ForeignObject) OID() uint32 { return FirstUserOID + 2*uint32(o.ID) }

// ForeignTableDef is a foreign table's server and options.
type ForeignTableDef struct {
	Server  string          `json:"server"`
	Options []ForeignOption `json:"options,omitempty"`
	// ColumnOptions are each column's OPTIONS, by column name.
	ColumnOptions map[string][]ForeignOption `json:"column_options,omitempty"`
}

// ForeignCatalog is implemented by catalogs that keep foreign objects (a
// DB's transactions).
type ForeignCatalog interface {
	// ForeignObjects lists the extensions and servers, by id.
	ForeignObjects() []ForeignObject
	// CreateForeignObject adds o, numbering it; 42710 if an object of its
	// kind has its name.
	CreateForeignObject(ctx context.Context, o ForeignObject) (ForeignObject, error)
	// DropForeignObject removes the object of that id.
	DropForeignObject(ctx context.Context, id uint64) error
	// SetForeign sets tb's foreign definition (CREATE FOREIGN TABLE, and
	// ALTER FOREIGN TABLE ... OPTIONS).
	SetForeign(ctx context.Context, tb Table, def *ForeignTableDef) error
}

// Foreign is implemented by a catalog's tables: the table's foreign
// definition, nil for a stored table.
type Foreign interface {
	ForeignDef() *ForeignTableDef
}

var _ ForeignCatalog = (*Txn)(nil)

// ForeignDefOf is tb's foreign definition, nil for a table that is not
// foreign.
func ForeignDefOf(tb Table) *ForeignTableDef {
	if f, ok := tb.(Foreign); ok {
		return f.ForeignDef()
	}
	return nil
}

type foreignChange struct {
	def  *ForeignObject // nil = dropped
	base *ForeignObject
}

func (t *Txn) foreignDefs() map[uint64]*ForeignObject {
	base := t.version().foreign
	if t.taken && t.iso >= RepeatableRead {
		base = t.db.cs.load().foreign
	}
	if len(t.p.foreign) == 0 {
		return base
	}
	out := make(map[uint64]*ForeignObject, len(base)+len(t.p.foreign))
	for id, o := range base {
		out[id] = o
	}
	for id, ch := range t.p.foreign {
		if ch.def == nil {
			delete(out, id)
		} else {
			out[id] = ch.def
		}
	}
	return out
}

// ForeignObjects implements ForeignCatalog.
func (t *Txn) ForeignObjects() []ForeignObject {
	var out []ForeignObject
	for _, o := range t.foreignDefs() {
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func errForeignExists(o ForeignObject) error {
	what := "server"
	if o.Kind == 'e' {
		what = "extension"
	}
	return pgerr.New("42710", "%s \"%s\" already exists", what, o.Name)
}

// CreateForeignObject implements ForeignCatalog.
func (t *Txn) CreateForeignObject(ctx context.Context, o ForeignObject) (ForeignObject, error) {
	if t.done {
		return ForeignObject{}, errDone
	}
	for _, x := range t.foreignDefs() {
		if x.Kind == o.Kind && x.Name == o.Name {
			return ForeignObject{}, errForeignExists(o)
		}
	}
	o.ID = t.db.nextID.Add(1) - 1
	t.setForeign(o.ID, &o)
	return o, nil
}

// DropForeignObject implements ForeignCatalog.
func (t *Txn) DropForeignObject(ctx context.Context, id uint64) error {
	if t.done {
		return errDone
	}
	t.setForeign(id, nil)
	return nil
}

func (t *Txn) setForeign(id uint64, def *ForeignObject) {
	if t.p.foreign == nil {
		t.p.foreign = map[uint64]foreignChange{}
	}
	ch, ok := t.p.foreign[id]
	if !ok {
		ch.base = t.version().foreign[id]
	}
	ch.def = def
	if ch.def == nil && ch.base == nil {
		delete(t.p.foreign, id)
		return
	}
	t.p.foreign[id] = ch
}

// SetForeign implements ForeignCatalog.
func (t *Txn) SetForeign(ctx context.Context, tb Table, def *ForeignTableDef) error {
	return t.redefineAs(tb, func(nd *tableState) { nd.foreign = def })
}

// ForeignDef implements Foreign.
func (tt *txnTable) ForeignDef() *ForeignTableDef {
	if d := tt.txn.def(tt.id); d != nil {
		return d.foreign
	}
	return nil
}

func cloneForeign(m map[uint64]foreignChange) map[uint64]foreignChange {
	if m == nil {
		return nil
	}
	out := make(map[uint64]foreignChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validateForeign fails a commit whose foreign objects a concurrent commit
// changed, or that would give two objects of a kind one name.
func validateForeign(work *version, p *pending) error {
	if len(p.foreign) == 0 {
		return nil
	}
	next := map[uint64]*ForeignObject{}
	for id, o := range work.foreign {
		next[id] = o
	}
	for id, ch := range p.foreign {
		if work.foreign[id] != ch.base {
			return pgerr.New(codeSerialization, "could not serialize access: a foreign server or extension was changed by a concurrent transaction")
		}
		if ch.def == nil {
			delete(next, id)
		} else {
			next[id] = ch.def
		}
	}
	names := map[string]bool{}
	for _, o := range next {
		k := string(o.Kind) + o.Name
		if names[k] {
			return errForeignExists(*o)
		}
		names[k] = true
	}
	return nil
}

func applyForeign(work *version, p *pending) {
	if len(p.foreign) == 0 {
		return
	}
	next := make(map[uint64]*ForeignObject, len(work.foreign)+len(p.foreign))
	for id, o := range work.foreign {
		next[id] = o
	}
	for id, ch := range p.foreign {
		if ch.def == nil {
			delete(next, id)
		} else {
			next[id] = ch.def
		}
	}
	work.foreign = next
}

// foreignJSON is an extension's or server's manifest entry.
type foreignJSON struct {
	ID      uint64          `json:"id"`
	Kind    string          `json:"kind"`
	Name    string          `json:"name"`
	Wrapper string          `json:"wrapper,omitempty"`
	Options []ForeignOption `json:"options,omitempty"`
	Owner   string          `json:"owner,omitempty"`
}

func sortedForeign(v *version) []foreignJSON {
	out := make([]foreignJSON, 0, len(v.foreign))
	for _, o := range v.foreign {
		out = append(out, foreignJSON{ID: o.ID, Kind: string(o.Kind), Name: o.Name, Wrapper: o.Wrapper, Options: o.Options, Owner: o.Owner})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func decodeForeign(v *version, list []foreignJSON) error {
	if len(list) == 0 {
		return nil
	}
	v.foreign = make(map[uint64]*ForeignObject, len(list))
	for _, x := range list {
		if v.foreign[x.ID] != nil || len(x.Kind) != 1 {
			return fmt.Errorf("foreign object %q (id %d) listed twice or of no kind", x.Name, x.ID)
		}
		v.foreign[x.ID] = &ForeignObject{ID: x.ID, Kind: x.Kind[0], Name: x.Name, Wrapper: x.Wrapper, Options: x.Options, Owner: x.Owner}
	}
	return nil
}
