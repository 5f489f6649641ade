package storage

import (
	"context"
	"fmt"
	"sort"

	"github.com/joind/joind/pgerr"
)

// Views. A view is catalog metadata only (its SQL text, column names and
// dependencies): no segments. In a DB, committed views live in the version
// (copy on write, like tables), a transaction's view changes in its pending
// set, and the manifest lists them after the tables, so views survive a
// restart and commit atomically with the tables they were created with.

// viewChange is a transaction's pending change to one view name.
type viewChange struct {
	def  *View // the new definition; nil = dropped
	base *View // the committed view the transaction saw (nil = none): a commit conflicts if it changed
}

func cloneViews(m map[string]viewChange) map[string]viewChange {
	if m == nil {
		return nil
	}
	out := make(map[string]viewChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyView(v View) *View {
	v.Columns = append([]string(nil), v.Columns...)
	v.Deps = append([]string(nil), v.Deps...)
	return &v
}

// viewDef returns the view the transaction sees under name.
func (t *Txn) viewDef(name string) *View {
	t.noteRead(name)
	if ch, ok := t.p.views[name]; ok {
		return ch.def
	}
	if t.taken && t.iso >= RepeatableRead {
		return t.catalogView(name)
	}
	return t.version().views[name]
}

// LookupView implements Catalog.
func (t *Txn) LookupView(name string) (View, bool) {
	if v := t.viewDef(name); v != nil {
		return *copyView(*v), true
	}
	return View{}, false
}

// Views implements Catalog.
func (t *Txn) Views() []View {
	t.readAll = true
	var out []View
	for name, v := range t.version().views {
		if _, changed := t.p.views[name]; !changed {
			out = append(out, *copyView(*v))
		}
	}
	for _, ch := range t.p.views {
		if ch.def != nil {
			out = append(out, *copyView(*ch.def))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CreateView implements Catalog.
func (t *Txn) CreateView(ctx context.Context, v View, replace bool) error {
	if t.done {
		return errDone
	}
	if _, _, isIndex := t.LookupIndex(v.Name); t.view(v.Name) != nil || t.seqDef(v.Name) != nil || isIndex {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", v.Name)
	}
	old := t.viewDef(v.Name)
	if old != nil && !replace {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", v.Name)
	}
	if old != nil {
		v.ID = old.ID
	} else {
		v.ID = t.db.nextID.Add(1) - 1
	}
	t.setView(v.Name, copyView(v))
	return nil
}

// DropView implements Catalog.
func (t *Txn) DropView(ctx context.Context, name string) error {
	if t.done {
		return errDone
	}
	if t.viewDef(name) == nil {
		return pgerr.New(pgerr.UndefinedTable, "view %q does not exist", name)
	}
	t.setView(name, nil)
	return nil
}

func (t *Txn) setView(name string, def *View) {
	if t.p.views == nil {
		t.p.views = map[string]viewChange{}
	}
	ch, ok := t.p.views[name]
	if !ok {
		ch.base = t.version().views[name]
	}
	ch.def = def
	if ch.def == nil && ch.base == nil {
		// Created and dropped by this transaction: nothing to commit.
		delete(t.p.views, name)
		return
	}
	t.p.views[name] = ch
}

// validateViews checks p's view changes against work (the committed state
// as the earlier commits of the group left it): a view changed by a
// concurrent commit, or a name a table and a view would share, fails the
// commit whole.
func validateViews(work *version, p *pending) error {
	for name, ch := range p.views {
		cur := work.views[name]
		if cur != ch.base {
			if ch.base == nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
			return pgerr.New(codeSerialization, "could not serialize access: view %q was changed by a concurrent transaction", name)
		}
		if ch.def == nil {
			continue
		}
		if tb, taken := work.tables[name]; taken {
			if _, dropping := p.dropped[tb.id]; !dropping {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
		for _, tb := range p.created {
			if tb.name == name {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
	}
	for _, tb := range p.created {
		if _, isView := work.views[tb.name]; isView {
			if ch, changed := p.views[tb.name]; !changed || ch.def != nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(tb.name))
			}
		}
	}
	return nil
}

// applyViews applies p's view changes to work; the map is copied, not
// modified, since published versions share it.
func applyViews(work *version, p *pending) {
	if len(p.views) == 0 {
		return
	}
	next := make(map[string]*View, len(work.views)+len(p.views))
	for k, v := range work.views {
		next[k] = v
	}
	for name, ch := range p.views {
		if ch.def == nil {
			delete(next, name)
		} else {
			next[name] = ch.def
		}
	}
	work.views = next
}

// viewJSON is a view's manifest entry.
type viewJSON struct {
	Name    string   `json:"name"`
	SQL     string   `json:"sql"`
	Columns []string `json:"columns"`
	Deps    []string `json:"deps,omitempty"`
	ID      uint64   `json:"id"`
	// Comment, ColumnComments: COMMENT ON (alter.go).
	Comment        string   `json:"comment,omitempty"`
	ColumnComments []string `json:"column_comments,omitempty"`
}

func sortedViews(v *version) []viewJSON {
	out := make([]viewJSON, 0, len(v.views))
	for _, x := range v.views {
		out = append(out, viewJSON{Name: x.Name, SQL: x.SQL, Columns: x.Columns, Deps: x.Deps, ID: x.ID, Comment: x.Comment, ColumnComments: x.ColumnComments})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func decodeViews(v *version, views []viewJSON) error {
	if len(views) == 0 {
		return nil
	}
	v.views = make(map[string]*View, len(views))
	for _, x := range views {
		if _, dup := v.views[x.Name]; dup {
			return fmt.Errorf("view %q listed twice", x.Name)
		}
		if _, dup := v.tables[x.Name]; dup {
			return fmt.Errorf("%q is both a table and a view", x.Name)
		}
		v.views[x.Name] = &View{Name: x.Name, SQL: x.SQL, Columns: x.Columns, Deps: x.Deps, ID: x.ID, Comment: x.Comment, ColumnComments: x.ColumnComments}
	}
	return nil
}

// The DB itself: each call is its own transaction.

// LookupView implements Catalog.
func (db *DB) LookupView(name string) (View, bool) {
	t := db.Begin()
	defer t.Rollback()
	return t.LookupView(name)
}

// Views implements Catalog.
func (db *DB) Views() []View {
	t := db.Begin()
	defer t.Rollback()
	return t.Views()
}

// CreateView implements Catalog.
func (db *DB) CreateView(ctx context.Context, v View, replace bool) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.CreateView(ctx, v, replace) })
}

// DropView implements Catalog.
func (db *DB) DropView(ctx context.Context, name string) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.DropView(ctx, name) })
}

// The in-memory catalog.

// LookupView implements Catalog.
func (c *MemoryCatalog) LookupView(name string) (View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.views[name]
	if !ok {
		return View{}, false
	}
	return *copyView(*v), true
}

// Views implements Catalog.
func (c *MemoryCatalog) Views() []View {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]View, 0, len(c.views))
	for _, v := range c.views {
		out = append(out, *copyView(*v))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CreateView implements Catalog.
func (c *MemoryCatalog) CreateView(ctx context.Context, v View, replace bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[v.Name]; ok {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", v.Name)
	}
	old, ok := c.views[v.Name]
	if ok && !replace {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", v.Name)
	}
	if ok {
		v.ID = old.ID
	} else {
		c.viewSeq++
		v.ID = c.viewSeq
	}
	if c.views == nil {
		c.views = map[string]*View{}
	}
	c.views[v.Name] = copyView(v)
	return nil
}

// DropView implements Catalog.
func (c *MemoryCatalog) DropView(ctx context.Context, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[name]; !ok {
		return pgerr.New(pgerr.UndefinedTable, "view %q does not exist", name)
	}
	delete(c.views, name)
	return nil
}
