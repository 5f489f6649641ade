package storage

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// Schemas. Every table and view lives in a schema. The catalog still maps
// one string per relation (the Catalog API is unchanged): a relation's key
// is its bare name for a relation of public, the schema every data
// directory has had from the start, so older manifests load unchanged,
// and "<schema id>\x00<name>" for any other schema (TableKey). NUL cannot
// occur in a PostgreSQL identifier, so no name of public can be mistaken
// for a qualified key, and keying by the schema's id, not its name, makes
// ALTER SCHEMA ... RENAME a change of the schema entry alone.
//
// A schema other than public is catalog metadata like a view: committed
// schemas live in the version (a map replaced, never modified), a
// transaction's changes in its pending set, and the manifest lists them, so
// they commit atomically with the tables created in them.

// PublicSchemaID is the id of schema public in table keys (its entry is
// implicit: it always exists).
const PublicSchemaID = 0

// Schema is a schema other than public.
type Schema struct {
	ID    uint64 // from the DB's id sequence (tables, views, segments): never reused
	Name  string
	Owner string // the owning role's name ("" = the bootstrap superuser)
}

// OID is the schema's object id: FirstUserOID + 2*ID, disjoint from every
// table's (ids are unique) and view's (odd).
func (s Schema) OID() uint32 { return FirstUserOID + 2*uint32(s.ID) }

// TableKey is the catalog key of relation name in the schema with that id.
func TableKey(schemaID uint64, name string) string {
	if schemaID == PublicSchemaID {
		return name
	}
	return strconv.FormatUint(schemaID, 10) + "\x00" + name
}

// SplitKey is TableKey's inverse: the schema id and bare name of a key.
func SplitKey(key string) (schemaID uint64, name string) {
	i := strings.IndexByte(key, 0)
	if i < 0 {
		return PublicSchemaID, key
	}
	id, err := strconv.ParseUint(key[:i], 10, 64)
	if err != nil {
		return PublicSchemaID, key
	}
	return id, key[i+1:]
}

// BareName is a key's relation name without its schema: what PostgreSQL's
// messages print as the relation's name.
func BareName(key string) string {
	_, n := SplitKey(key)
	return n
}

// SchemaCatalog is implemented by catalogs that keep schemas (a DB's
// transactions, and catalogs embedding one). A catalog that does not has
// public only.
type SchemaCatalog interface {
	// LookupSchema finds a schema other than public by name.
	LookupSchema(name string) (Schema, bool)
	// SchemaByID finds a schema other than public by id.
	SchemaByID(id uint64) (Schema, bool)
	// Schemas lists the schemas other than public, by name.
	Schemas() []Schema
	// CreateSchema adds a schema; 42P06 if the name is taken.
	CreateSchema(ctx context.Context, name, owner string) (Schema, error)
	// DropSchema removes an (empty: the caller drops its relations first)
	// schema; 3F000 if there is none.
	DropSchema(ctx context.Context, name string) error
	// AlterSchema replaces the schema of id s.ID by s (RENAME, OWNER TO);
	// 42P06 if the new name is taken.
	AlterSchema(ctx context.Context, s Schema) error
}

var _ SchemaCatalog = (*Txn)(nil)

// schemaChange is a transaction's pending change to one schema id.
type schemaChange struct {
	def  *Schema // the new entry; nil = dropped
	base *Schema // the committed entry the transaction saw (nil = none)
}

func errSchemaExists(name string) error {
	return pgerr.New("42P06", "schema \"%s\" already exists", name)
}

func errNoSchema(name string) error {
	return pgerr.New("3F000", "schema \"%s\" does not exist", name)
}

// schemaDefs is the set of schemas the transaction sees, by id. Like
// relation names (catalogEntry), schema names resolve in the latest
// catalog even under REPEATABLE READ, as PostgreSQL's catalog snapshot.
func (t *Txn) schemaDefs() map[uint64]*Schema {
	base := t.version().schemas
	if t.taken && t.iso >= RepeatableRead {
		base = t.db.cs.load().schemas
	}
	if len(t.p.schemas) == 0 {
		return base
	}
	out := make(map[uint64]*Schema, len(base)+len(t.p.schemas))
	for id, s := range base {
		out[id] = s
	}
	for id, ch := range t.p.schemas {
		if ch.def == nil {
			delete(out, id)
		} else {
			out[id] = ch.def
		}
	}
	return out
}

// LookupSchema implements SchemaCatalog.
func (t *Txn) LookupSchema(name string) (Schema, bool) {
	for _, s := range t.schemaDefs() {
		if s.Name == name {
			return *s, true
		}
	}
	return Schema{}, false
}

// SchemaByID implements SchemaCatalog.
func (t *Txn) SchemaByID(id uint64) (Schema, bool) {
	if s := t.schemaDefs()[id]; s != nil {
		return *s, true
	}
	return Schema{}, false
}

// Schemas implements SchemaCatalog.
func (t *Txn) Schemas() []Schema {
	var out []Schema
	for _, s := range t.schemaDefs() {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CreateSchema implements SchemaCatalog.
func (t *Txn) CreateSchema(ctx context.Context, name, owner string) (Schema, error) {
	if t.done {
		return Schema{}, errDone
	}
	if _, ok := t.LookupSchema(name); ok || name == "public" {
		return Schema{}, errSchemaExists(name)
	}
	s := Schema{ID: t.db.nextID.Add(1) - 1, Name: name, Owner: owner}
	t.setSchema(s.ID, &s)
	return s, nil
}

// DropSchema implements SchemaCatalog.
func (t *Txn) DropSchema(ctx context.Context, name string) error {
	if t.done {
		return errDone
	}
	s, ok := t.LookupSchema(name)
	if !ok {
		return errNoSchema(name)
	}
	t.setSchema(s.ID, nil)
	return nil
}

// AlterSchema implements SchemaCatalog.
func (t *Txn) AlterSchema(ctx context.Context, s Schema) error {
	if t.done {
		return errDone
	}
	if _, ok := t.SchemaByID(s.ID); !ok {
		return errNoSchema(s.Name)
	}
	if other, ok := t.LookupSchema(s.Name); (ok && other.ID != s.ID) || s.Name == "public" {
		return errSchemaExists(s.Name)
	}
	t.setSchema(s.ID, &s)
	return nil
}

func (t *Txn) setSchema(id uint64, def *Schema) {
	if t.p.schemas == nil {
		t.p.schemas = map[uint64]schemaChange{}
	}
	ch, ok := t.p.schemas[id]
	if !ok {
		ch.base = t.version().schemas[id]
	}
	ch.def = def
	if ch.def == nil && ch.base == nil {
		delete(t.p.schemas, id) // created and dropped by this transaction
		return
	}
	t.p.schemas[id] = ch
}

func cloneSchemas(m map[uint64]schemaChange) map[uint64]schemaChange {
	if m == nil {
		return nil
	}
	out := make(map[uint64]schemaChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validateSchemas checks p's schema changes against work (the committed
// state as the earlier commits of the group left it): a schema changed by a
// concurrent commit, a name two schemas would share, or a table or view
// created in a schema that is gone fails the commit whole.
func validateSchemas(work *version, p *pending) error {
	next := work.schemas
	if len(p.schemas) > 0 {
		next = map[uint64]*Schema{}
		for id, s := range work.schemas {
			next[id] = s
		}
		for id, ch := range p.schemas {
			if work.schemas[id] != ch.base {
				name := ""
				if ch.base != nil {
					name = ch.base.Name
				} else if ch.def != nil {
					name = ch.def.Name
				}
				return pgerr.New(codeSerialization, "could not serialize access: schema %q was changed by a concurrent transaction", name)
			}
			if ch.def == nil {
				delete(next, id)
			} else {
				next[id] = ch.def
			}
		}
		names := map[string]bool{}
		for _, s := range next {
			if names[s.Name] {
				return errSchemaExists(s.Name)
			}
			names[s.Name] = true
		}
	}
	in := func(key string) error {
		if id, _ := SplitKey(key); id != PublicSchemaID && next[id] == nil {
			return pgerr.New("3F000", "schema of relation %q was dropped by a concurrent transaction", BareName(key))
		}
		return nil
	}
	for _, tb := range p.created {
		if err := in(tb.name); err != nil {
			return err
		}
	}
	for name, ch := range p.views {
		if ch.def != nil {
			if err := in(name); err != nil {
				return err
			}
		}
	}
	for name, ch := range p.seqs {
		if ch.def != nil {
			if err := in(name); err != nil {
				return err
			}
		}
	}
	// A dropped schema must be empty once the commit applies.
	for id, ch := range p.schemas {
		if ch.def != nil {
			continue
		}
		for key, tb := range work.tables {
			if sid, _ := SplitKey(key); sid == id {
				if _, dropping := p.dropped[tb.id]; !dropping {
					return pgerr.New(codeSerialization, "could not serialize access: schema %q was changed by a concurrent transaction", ch.base.Name)
				}
			}
		}
		for key := range work.seqs {
			if sid, _ := SplitKey(key); sid == id {
				if sc, changed := p.seqs[key]; !changed || sc.def != nil {
					return pgerr.New(codeSerialization, "could not serialize access: schema %q was changed by a concurrent transaction", ch.base.Name)
				}
			}
		}
	}
	return nil
}

// applySchemas applies p's schema changes to work (copying the map).
func applySchemas(work *version, p *pending) {
	if len(p.schemas) == 0 {
		return
	}
	next := make(map[uint64]*Schema, len(work.schemas)+len(p.schemas))
	for id, s := range work.schemas {
		next[id] = s
	}
	for id, ch := range p.schemas {
		if ch.def == nil {
			delete(next, id)
		} else {
			next[id] = ch.def
		}
	}
	work.schemas = next
}

// schemaJSON is a schema's manifest entry.
type schemaJSON struct {
	ID    uint64 `json:"id"`
	Name  string `json:"name"`
	Owner string `json:"owner,omitempty"`
}

func sortedSchemas(v *version) []schemaJSON {
	out := make([]schemaJSON, 0, len(v.schemas))
	for _, s := range v.schemas {
		out = append(out, schemaJSON{ID: s.ID, Name: s.Name, Owner: s.Owner})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// decodeSchemas loads the manifest's schemas and checks that every
// relation's key names one.
func decodeSchemas(v *version, schemas []schemaJSON) error {
	if len(schemas) > 0 {
		v.schemas = make(map[uint64]*Schema, len(schemas))
	}
	names := map[string]bool{}
	for _, x := range schemas {
		if v.schemas[x.ID] != nil || names[x.Name] || x.ID == PublicSchemaID {
			return fmt.Errorf("schema %q (id %d) listed twice", x.Name, x.ID)
		}
		names[x.Name] = true
		v.schemas[x.ID] = &Schema{ID: x.ID, Name: x.Name, Owner: x.Owner}
	}
	check := func(key string) error {
		if id, _ := SplitKey(key); id != PublicSchemaID && v.schemas[id] == nil {
			return fmt.Errorf("relation %q is in schema id %d, which is not listed", BareName(key), id)
		}
		return nil
	}
	for key := range v.tables {
		if err := check(key); err != nil {
			return err
		}
	}
	for key := range v.views {
		if err := check(key); err != nil {
			return err
		}
	}
	return nil
}
