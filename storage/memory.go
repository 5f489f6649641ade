package storage

import (
	"context"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
)

// MemoryCatalog is a Catalog whose tables live in memory.
type MemoryCatalog struct {
	mu      sync.RWMutex
	tables  map[string]*memTable
	views   map[string]*View // views.go
	viewSeq uint64
}

var _ Catalog = (*MemoryCatalog)(nil)

// NewMemoryCatalog returns an empty in-memory catalog.
func NewMemoryCatalog() *MemoryCatalog {
	return &MemoryCatalog{tables: map[string]*memTable{}}
}

type memTable struct {
	name string
	cols []ColumnDef

	mu      sync.RWMutex
	batches []arrow.Record // replaced, never mutated in place: snapshots share it
	rows    int64
}

func (t *memTable) Name() string         { return t.name }
func (t *memTable) Columns() []ColumnDef { return t.cols }

func (t *memTable) Snapshot() []arrow.Record {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.batches
}

func (t *memTable) Stats() Stats {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return Stats{Rows: t.rows}
}

// Lookup implements Catalog.
func (c *MemoryCatalog) Lookup(name string) (Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tables[name]
	if !ok {
		return nil, false
	}
	return t, true
}

// Tables implements Catalog; tables are listed by name.
func (c *MemoryCatalog) Tables() []Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Table, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Create implements Catalog.
func (c *MemoryCatalog) Create(ctx context.Context, name string, cols []ColumnDef) (Table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[name]; ok {
		return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	if _, ok := c.views[name]; ok {
		return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	t := &memTable{name: name, cols: append([]ColumnDef(nil), cols...)}
	c.tables[name] = t
	return t, nil
}

// Drop implements Catalog.
func (c *MemoryCatalog) Drop(ctx context.Context, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[name]; !ok {
		return pgerr.New(pgerr.UndefinedTable, "table %q does not exist", name)
	}
	delete(c.tables, name)
	return nil
}

// Append implements Catalog. The batch must match the table's schema; it is
// published whole or not at all.
func (c *MemoryCatalog) Append(ctx context.Context, t Table, batch arrow.Record) error {
	mt, err := c.own(t)
	if err != nil {
		return err
	}
	if int(batch.NumCols()) != len(mt.cols) {
		return pgerr.New(pgerr.InternalError, "append to %q: batch has %d columns, table has %d", mt.name, batch.NumCols(), len(mt.cols))
	}
	for i, col := range mt.cols {
		if !arrow.TypeEqual(batch.Column(i).DataType(), col.Type.ArrowType()) {
			return pgerr.New(pgerr.InternalError, "append to %q: column %q has Arrow type %s, want %s",
				mt.name, col.Name, batch.Column(i).DataType(), col.Type.ArrowType())
		}
	}
	if batch.NumRows() == 0 {
		return nil
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	next := make([]arrow.Record, len(mt.batches), len(mt.batches)+1)
	copy(next, mt.batches)
	mt.batches = append(next, batch)
	mt.rows += batch.NumRows()
	return nil
}

// Truncate implements Catalog.
func (c *MemoryCatalog) Truncate(ctx context.Context, tables []Table) error {
	owned := make([]*memTable, len(tables))
	for i, t := range tables {
		mt, err := c.own(t)
		if err != nil {
			return err
		}
		owned[i] = mt
	}
	for _, mt := range owned {
		mt.mu.Lock()
		mt.batches = nil
		mt.rows = 0
		mt.mu.Unlock()
	}
	return nil
}

// own checks that t is a live table of this catalog.
func (c *MemoryCatalog) own(t Table) (*memTable, error) {
	mt, ok := t.(*memTable)
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "table %q does not belong to this catalog", BareName(t.Name()))
	}
	c.mu.RLock()
	live := c.tables[mt.name] == mt
	c.mu.RUnlock()
	if !live {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", mt.name)
	}
	return mt, nil
}

// Delete implements Catalog: a MemoryCatalog (tests and tools) keeps no
// row ids, so it cannot delete.
func (c *MemoryCatalog) Delete(ctx context.Context, t Table, ids []RowID) error {
	return pgerr.New(pgerr.FeatureNotSupported, "DELETE is not supported on table %q", BareName(t.Name()))
}
