package storage

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// The DB itself is a Catalog whose every call is its own transaction
// (autocommit), for callers without a session: tools, benchmarks, tests.
var _ Catalog = (*DB)(nil)

// Lookup implements Catalog; the table shows the latest committed state.
func (db *DB) Lookup(name string) (Table, bool) {
	t := db.Begin()
	tb, ok := t.Lookup(name)
	t.Rollback()
	return tb, ok
}

// Tables implements Catalog.
func (db *DB) Tables() []Table {
	t := db.Begin()
	defer t.Rollback()
	return t.Tables()
}

func (db *DB) autocommit(ctx context.Context, f func(t *Txn) error) error {
	t := db.Begin()
	if err := f(t); err != nil {
		t.Rollback()
		return err
	}
	return t.Commit(ctx)
}

// Create implements Catalog.
func (db *DB) Create(ctx context.Context, name string, cols []ColumnDef) (Table, error) {
	var tb Table
	err := db.autocommit(ctx, func(t *Txn) (err error) {
		tb, err = t.Create(ctx, name, cols)
		return err
	})
	if err != nil {
		return nil, err
	}
	return tb, nil
}

// Drop implements Catalog.
func (db *DB) Drop(ctx context.Context, name string) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.Drop(ctx, name) })
}

// Append implements Catalog.
func (db *DB) Append(ctx context.Context, tb Table, batch arrow.Record) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.Append(ctx, tb, batch) })
}

// Truncate implements Catalog.
func (db *DB) Truncate(ctx context.Context, tables []Table) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.Truncate(ctx, tables) })
}

// Delete implements Catalog.
func (db *DB) Delete(ctx context.Context, tb Table, ids []RowID) error {
	return db.autocommit(ctx, func(t *Txn) error { return t.Delete(ctx, tb, ids) })
}
