package storage

import (
	"context"
	"fmt"
	"sort"
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
// A PRIMARY KEY or UNIQUE constraint is backed by a unique index of its
// name (constraintIndexes, indexdef.go): Append checks the rows it adds
// against the rows the transaction sees, and the committer re-checks them
// against rows committed since by others (validateUnique), so two
// transactions inserting the same key cannot both commit: the later one
// fails with 23505.

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
	OnDelete byte `json:"on_delete,omitempty"`
	OnUpdate byte `json:"on_update,omitempty"`
	// DeleteSetCols are ON DELETE SET NULL / SET DEFAULT's columns (a
	// subset of Cols; nil: all), confdelsetcols.
	DeleteSetCols []string `json:"delete_set_cols,omitempty"`
	Match         byte     `json:"match,omitempty"`
	Deferrable    bool     `json:"deferrable,omitempty"`
	Deferred      bool     `json:"deferred,omitempty"`
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

// conPending is a transaction's constraint changes: the replaced
// constraint lists of committed tables; the checks of deferred
// constraints Commit runs first (by constraint), and SET CONSTRAINTS'
// modes (by name; all: SET CONSTRAINTS ALL).
type conPending struct {
	set      map[uint64][]Constraint
	deferred map[string]func(context.Context) error
	modes    map[string]bool
	all      *bool
}

func (c *conPending) clone() *conPending {
	if c == nil {
		return nil
	}
	n := &conPending{set: map[uint64][]Constraint{}, deferred: map[string]func(context.Context) error{},
		modes: map[string]bool{}, all: c.all}
	for k, v := range c.set {
		n.set[k] = v
	}
	for k, v := range c.deferred {
		n.deferred[k] = v
	}
	for k, v := range c.modes {
		n.modes[k] = v
	}
	return n
}

// Defer registers the check of a deferred constraint (key names it) for
// Commit to run before the commit is submitted; a later registration of
// the same key replaces it. A savepoint rolled back forgets it.
func (t *Txn) Defer(key string, check func(context.Context) error) {
	t.con().deferred[key] = check
}

// RunDeferred runs (and forgets) the deferred checks whose keys keep says
// (nil: all), in key order; the first failure is the error.
func (t *Txn) RunDeferred(ctx context.Context, keep func(key string) bool) error {
	if t.p.cons == nil || len(t.p.cons.deferred) == 0 {
		return nil
	}
	keys := make([]string, 0, len(t.p.cons.deferred))
	for k := range t.p.cons.deferred {
		if keep == nil || keep(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		check := t.p.cons.deferred[k]
		delete(t.p.cons.deferred, k)
		if err := check(ctx); err != nil {
			return err
		}
	}
	return nil
}

// SetConstraintMode is SET CONSTRAINTS name | ALL (name "") DEFERRED /
// IMMEDIATE for the rest of the transaction.
func (t *Txn) SetConstraintMode(name string, deferred bool) {
	c := t.con()
	if name == "" {
		c.all, c.modes = &deferred, map[string]bool{}
		return
	}
	c.modes[name] = deferred
}

// IsDeferred reports whether constraint c is checked at COMMIT in this
// transaction: DEFERRABLE, and INITIALLY DEFERRED or SET CONSTRAINTS ...
// DEFERRED.
func (t *Txn) IsDeferred(c Constraint) bool {
	if !c.Deferrable {
		return false
	}
	if p := t.p.cons; p != nil {
		if m, ok := p.modes[c.Name]; ok {
			return m
		}
		if p.all != nil {
			return *p.all
		}
	}
	return c.Deferred
}

// Appended is the rows the transaction added to tb.
func (t *Txn) Appended(tb Table) []arrow.Record {
	tt, ok := tb.(*txnTable)
	if !ok || tt.txn.db != t.db {
		return nil
	}
	return t.p.appends[tt.id]
}

func (t *Txn) con() *conPending {
	if t.p.cons == nil {
		t.p.cons = &conPending{set: map[uint64][]Constraint{}, deferred: map[string]func(context.Context) error{}, modes: map[string]bool{}}
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
// table under its PRIMARY KEY and UNIQUE constraints, if others changed the
// table's rows since its first check (Append's, checkAppend). The indexes
// of the table's own unique indexes are validateIndexes'.
//
// Invariant (with Append's check, for every unique index): after any
// sequence of commits no two live rows of a table have equal non-null
// keys. Of two transactions adding the same key, at most one commits it:
// a statement whose view (snapshot and own changes) holds the key fails in
// Append, and otherwise the later commit fails here with 23505, whether the
// earlier one is published or an earlier commit of the same group (the
// fresh rows of work). Append checked each added key against the live rows
// of the segments committed at the transaction's first check (every later
// snapshot holds those still committed, and deletes only grow), so the
// re-check reads only the segments committed since (idxPending.checkedSegs,
// compactions' outputs included). No false 23505: the rows the
// transaction deletes are subtracted, so an UPDATE that deletes a key and
// inserts it again, or moves a key k→k2, commits unless another commit
// added k2 (or k) meanwhile; a key whose row a committed transaction
// deleted may be added again, even by a REPEATABLE READ transaction whose
// snapshot still holds the row (Append subtracts the deletes committed by
// the time it looks, FindDuplicate, as PostgreSQL's check does); a row
// whose deleter has not committed still counts (23505: joind does not wait
// for the deleter as PostgreSQL does). A transaction that truncated the table is not
// re-checked (its commit removes every committed row). A refused commit
// changes nothing; the write-ahead log records only validated commits, so
// the invariant is the same with the log on or off. The interleaving
// explorer checks it on every schedule (commit_explore_test.go, the
// "unique:" scenarios).
func validateUnique(work *version, p *pending) error {
	if p.idx == nil {
		return nil
	}
	for id, gen := range p.idx.checked {
		t := work.byID[id]
		if t == nil || t.gen == gen || p.truncated[id] {
			continue
		}
		cons := t.cons
		if p.cons != nil {
			if cs, ok := p.cons.set[id]; ok {
				cons = cs
			}
		}
		old := map[uint64]bool{}
		for _, c := range t.cons {
			old[c.ID] = true
		}
		for _, d := range constraintIndexes(cons) {
			// A constraint the transaction added (ALTER TABLE) covers
			// every row, the others the rows it adds.
			if err := recheckUnique(p.idx.db, t, d, !old[d.ID], p.appends[id], p.deletes[id], p.idx.checkedSegs[id]); err != nil {
				return err
			}
		}
	}
	return nil
}

// constraintIndexes are the indexes backing PRIMARY KEY and UNIQUE
// constraints, named like them, as PostgreSQL's.
func constraintIndexes(cons []Constraint) []IndexDef {
	var out []IndexDef
	for _, c := range cons {
		if c.Kind == ConPrimary || c.Kind == ConUnique {
			out = append(out, IndexDef{Name: c.Name, Cols: c.Cols, Unique: true, Primary: c.Kind == ConPrimary,
				Method: MethodBtree, Constraint: true, ID: c.ID})
		}
	}
	return out
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

// CheckUnique fails as Append would if batch (rows of tb) duplicated a key
// of one of tb's unique indexes, without adding it.
func (t *Txn) CheckUnique(tb Table, batch arrow.Record) error {
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	return t.checkAppend(tt, batch)
}

// CheckKeyUnique fails if two rows of tb the transaction sees have equal
// keys on cols (ALTER TABLE ADD PRIMARY KEY / UNIQUE: "could not create
// unique index name"); the committer checks again if others add rows.
func (t *Txn) CheckKeyUnique(tb Table, name string, cols []string) error {
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	ords, err := ColumnOrdinals(tt.cols, cols)
	if err != nil {
		return err
	}
	t.noteChecked(tt)
	return tt.checkUnique(name, ords)
}

// SetErrorFormat sets the format the values of a duplicate-key error's
// DETAIL are written in (the session's DateStyle, ...; nil: ISO).
func (t *Txn) SetErrorFormat(f *types.Format) { t.errFmt = f }
