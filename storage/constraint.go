package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Table constraints: PRIMARY KEY, UNIQUE, CHECK and FOREIGN KEY, kept in
// the table's metadata (one manifest field, "constraints") and changed in
// a transaction like any other write. NOT NULL stays a column property
// (ColumnDef.NotNull), as in PostgreSQL 15's attnotnull.
//
// The uniqueness of a PRIMARY KEY or UNIQUE constraint is checked twice:
// by the statement that adds rows, against the rows its snapshot sees
// (commands), and by the committer, against rows committed since then by
// others (validateUnique), so two transactions inserting the same key
// cannot both commit: the later one fails with 23505.

// Constraint kinds, as pg_constraint.contype spells them.
const (
	ConPrimary = 'p'
	ConUnique  = 'u'
	ConCheck   = 'c'
	ConForeign = 'f'
)

// Foreign-key actions, as pg_constraint.confupdtype / confdeltype spell them.
const (
	FKNoAction   = 'a'
	FKRestrict   = 'r'
	FKCascade    = 'c'
	FKSetNull    = 'n'
	FKSetDefault = 'd'
)

// Constraint is one table constraint.
type Constraint struct {
	Name string `json:"name"`
	Kind byte   `json:"kind"`
	// Cols are the constrained columns by name, in key order (conkey); for
	// CHECK, the columns the expression reads, in table order.
	Cols []string `json:"cols,omitempty"`
	// Check is a CHECK constraint's boolean expression as SQL text, stored
	// like a DEFAULT (sql/storedlit.go).
	Check string `json:"check,omitempty"`
	// RefTable and RefCols are a FOREIGN KEY's referenced table and
	// columns (confrelid, confkey), in key order.
	RefTable string   `json:"ref_table,omitempty"`
	RefCols  []string `json:"ref_cols,omitempty"`
	// OnDelete / OnUpdate are FK actions (FKNoAction ...); Match is 's'
	// (SIMPLE) or 'f' (FULL).
	OnDelete   byte `json:"on_delete,omitempty"`
	OnUpdate   byte `json:"on_update,omitempty"`
	Match      byte `json:"match,omitempty"`
	Deferrable bool `json:"deferrable,omitempty"`
	Deferred   bool `json:"deferred,omitempty"`
	// NoInherit marks CHECK ... NO INHERIT (shown by pg_get_constraintdef).
	NoInherit bool `json:"no_inherit,omitempty"`
	// ID orders constraints by creation (set by the catalog): PostgreSQL
	// fires FK checks and lists objects in OID order.
	ID uint64 `json:"id"`
}

// Constrained is implemented by tables that keep constraints (the tables of
// a DB, permanent or temporary).
type Constrained interface {
	Table
	Constraints() []Constraint
}

// ConstraintsOf returns the constraints of tb (none for a table that keeps
// none).
func ConstraintsOf(tb Table) []Constraint {
	if c, ok := tb.(Constrained); ok {
		return c.Constraints()
	}
	return nil
}

// conPending is a transaction's constraint changes: replaced constraint
// lists of committed tables, and the committed version of each table whose
// uniqueness a statement checked (the committer re-checks if it changed).
type conPending struct {
	db  *DB
	set map[uint64][]Constraint
	// checked is the gen of the committed table the first uniqueness check
	// of the transaction read.
	checked map[uint64]uint64
}

func (c *conPending) clone() *conPending {
	if c == nil {
		return nil
	}
	n := &conPending{db: c.db, set: map[uint64][]Constraint{}, checked: map[uint64]uint64{}}
	for k, v := range c.set {
		n.set[k] = v
	}
	for k, v := range c.checked {
		n.checked[k] = v
	}
	return n
}

func (t *Txn) con() *conPending {
	if t.p.cons == nil {
		t.p.cons = &conPending{db: t.db, set: map[uint64][]Constraint{}, checked: map[uint64]uint64{}}
	}
	return t.p.cons
}

// Constraints implements Constrained.
func (tt *txnTable) Constraints() []Constraint {
	p := tt.txn.p
	if p.cons != nil {
		if cs, ok := p.cons.set[tt.id]; ok {
			return cs
		}
	}
	if c := p.created[tt.id]; c != nil {
		return c.cons
	}
	if ts := tt.txn.version().byID[tt.id]; ts != nil {
		return ts.cons
	}
	return nil
}

// CreateConstrained is Create with the new table's constraints.
func (t *Txn) CreateConstrained(ctx context.Context, name string, cols []ColumnDef, cons []Constraint) (Table, error) {
	tb, err := t.Create(ctx, name, cols)
	if err != nil || len(cons) == 0 {
		return tb, err
	}
	tt := tb.(*txnTable)
	ts := t.p.created[tt.id]
	ts.cons = t.numbered(cons)
	return tt, nil
}

// numbered gives constraints without an ID one, in order.
func (t *Txn) numbered(cons []Constraint) []Constraint {
	out := append([]Constraint(nil), cons...)
	for i := range out {
		if out[i].ID == 0 {
			out[i].ID = t.db.nextID.Add(1) - 1
		}
	}
	return out
}

// SetConstraints replaces tb's constraints (ALTER TABLE ADD / DROP
// CONSTRAINT, DROP TABLE ... CASCADE of a referenced table).
func (t *Txn) SetConstraints(ctx context.Context, tb Table, cons []Constraint) error {
	if t.done {
		return errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	cons = t.numbered(cons)
	if c := t.p.created[tt.id]; c != nil {
		n := c.copy()
		n.cons = cons
		t.p.created[tt.id] = n
		return nil
	}
	t.con().set[tt.id] = cons
	return nil
}

// NoteUniqueChecked records that a statement checked the uniqueness of rows
// it adds to tb against the committed rows its snapshot sees; the committer
// re-checks them if others committed rows to tb since the first such check.
func (t *Txn) NoteUniqueChecked(tb Table) {
	tt, ok := tb.(*txnTable)
	if !ok || tt.txn != t || t.p.created[tt.id] != nil {
		return
	}
	c := t.con()
	if _, seen := c.checked[tt.id]; seen {
		return
	}
	if ts := t.version().byID[tt.id]; ts != nil {
		c.checked[tt.id] = ts.gen
	}
}

// applyConstraints installs the transaction's replaced constraint lists.
func applyConstraints(work *version, touched map[uint64]bool, p *pending) {
	if p.cons == nil {
		return
	}
	for id, cs := range p.cons.set {
		if t := mutable(work, touched, id); t != nil {
			t.cons = cs
			t.enc = nil
		}
	}
}

// validateUnique re-checks, against work (the committed rows plus those of
// the earlier commits of the group), the keys the transaction adds to each
// table whose rows changed since its statements checked them.
func validateUnique(work *version, p *pending) error {
	if p.cons == nil {
		return nil
	}
	for id, gen := range p.cons.checked {
		t := work.byID[id]
		if t == nil || t.gen == gen || p.truncated[id] || len(p.appends[id]) == 0 {
			continue
		}
		cons := t.cons
		if cs, ok := p.cons.set[id]; ok {
			cons = cs
		}
		var committed []arrow.Record
		for _, s := range t.segs {
			recs, err := s.records(p.cons.db, t.cols)
			if err != nil {
				return err
			}
			committed = append(committed, recs...)
		}
		committed = append(committed, t.fresh...)
		for _, c := range cons {
			if c.Kind != ConPrimary && c.Kind != ConUnique {
				continue
			}
			ords, err := ColumnOrdinals(t.cols, c.Cols)
			if err != nil {
				return err
			}
			keys := NewKeySet(t.cols, ords)
			keys.AddAll(committed)
			for _, r := range p.appends[id] {
				for i := 0; i < int(r.NumRows()); i++ {
					if keys.Contains(r, i) {
						return UniqueViolation(c.Name, t.cols, ords, r, i, nil)
					}
				}
			}
		}
	}
	return nil
}

// ColumnOrdinals maps column names to their ordinals in cols.
func ColumnOrdinals(cols []ColumnDef, names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = -1
		for c, d := range cols {
			if d.Name == n {
				out[i] = c
				break
			}
		}
		if out[i] < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", n)
		}
	}
	return out, nil
}

// KeySet is a set of multi-column keys over Arrow rows, compared as
// PostgreSQL's btree equality compares them (types.Equal, hashed
// consistently by types.Hash). A key with a NULL is never added nor found:
// NULLs are distinct.
type KeySet struct {
	types []types.Type // the stored keys' types (comparisons use these)
	in    []types.Type // the types of the rows it is given
	ords  []int        // where this set reads keys of the rows it is given
	refs  []int // where the stored rows hold their keys
	m     map[uint64][]keyRef
}

type keyRef struct {
	r   arrow.Record
	row int
}

// NewKeySet makes an empty set of the keys at column ordinals ords of rows
// with columns cols.
func NewKeySet(cols []ColumnDef, ords []int) *KeySet {
	ts := make([]types.Type, len(ords))
	for i, o := range ords {
		ts[i] = cols[o].Type
	}
	return &KeySet{types: ts, in: ts, ords: ords, refs: ords, m: map[uint64][]keyRef{}}
}

// Probe is a set sharing k's keys that reads rows with columns cols at
// ordinals ords (a foreign key's columns probing the referenced table's
// keys; their types compare as k's, e.g. int4 against int8).
func (k *KeySet) Probe(cols []ColumnDef, ords []int) *KeySet {
	in := make([]types.Type, len(ords))
	for i, o := range ords {
		in[i] = cols[o].Type
	}
	return &KeySet{types: k.types, in: in, ords: ords, refs: k.refs, m: k.m}
}

func (k *KeySet) hash(r arrow.Record, row int, ords []int) (uint64, bool) {
	h := uint64(0x9e3779b97f4a7c15)
	for i, o := range ords {
		col := r.Column(o)
		if col.IsNull(row) {
			return 0, false
		}
		h = h*31 + types.Hash(types.GetValue(col, k.in[i], row), k.types[i])
	}
	return h, true
}

func (k *KeySet) find(h uint64, r arrow.Record, row int, ords []int) bool {
	for _, ref := range k.m[h] {
		eq := true
		for i, o := range ords {
			a := types.GetValue(r.Column(o), k.in[i], row)
			b := types.GetValue(ref.r.Column(k.refs[i]), k.types[i], ref.row)
			if !types.Equal(a, b, k.types[i]) {
				eq = false
				break
			}
		}
		if eq {
			return true
		}
	}
	return false
}

// Contains reports whether row of r (read at k's ordinals) has a key in k.
func (k *KeySet) Contains(r arrow.Record, row int) bool {
	h, ok := k.hash(r, row, k.ords)
	return ok && k.find(h, r, row, k.ords)
}

// Add adds row of r's key; it reports false if the key was there already
// (true for a key with a NULL, which is never a duplicate).
func (k *KeySet) Add(r arrow.Record, row int) bool {
	h, ok := k.hash(r, row, k.ords)
	if !ok {
		return true
	}
	if k.find(h, r, row, k.ords) {
		return false
	}
	k.m[h] = append(k.m[h], keyRef{r, row})
	return true
}

// AddAll adds every row of recs.
func (k *KeySet) AddAll(recs []arrow.Record) {
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			k.Add(r, i)
		}
	}
}

// KeyText is PostgreSQL's rendering of a key in a constraint error's
// DETAIL: "(a, b)=(1, x)"; f formats the values (nil: ISO).
func KeyText(cols []ColumnDef, ords []int, r arrow.Record, row int, f *types.Format) string {
	names := make([]string, len(ords))
	vals := make([]string, len(ords))
	for i, o := range ords {
		names[i] = cols[o].Name
		v := types.GetValue(r.Column(o), cols[o].Type, row)
		if v.Null {
			vals[i] = "null"
		} else {
			vals[i] = string(types.FormatText(nil, v, cols[o].Type, f))
		}
	}
	return fmt.Sprintf("(%s)=(%s)", strings.Join(names, ", "), strings.Join(vals, ", "))
}

// UniqueViolation is PostgreSQL's 23505 error for row of r duplicating a key
// of constraint name.
func UniqueViolation(name string, cols []ColumnDef, ords []int, r arrow.Record, row int, f *types.Format) error {
	return pgerr.New(codeUniqueViolation, "duplicate key value violates unique constraint \"%s\"", name).
		WithDetail("Key %s already exists.", KeyText(cols, ords, r, row, f))
}

const codeUniqueViolation = "23505"
