package storage

import (
	"context"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

func intBatch(vals ...int64) arrow.Record {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues(vals, nil)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecord(schema, []arrow.Array{b.NewArray()}, int64(len(vals)))
}

func TestCatalogLifecycle(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCatalog()
	tb, err := c.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, "t", nil); pgerr.Code(err) != pgerr.DuplicateTable {
		t.Fatalf("second CREATE: want 42P07, got %v", err)
	}
	snap := tb.Snapshot()
	if err := c.Append(ctx, tb, intBatch(1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	if len(snap) != 0 {
		t.Fatalf("a snapshot taken before an append must not change")
	}
	if got := tb.Stats().Rows; got != 3 {
		t.Fatalf("rows = %d, want 3", got)
	}
	if err := c.Truncate(ctx, []Table{tb}); err != nil || tb.Stats().Rows != 0 || len(tb.Snapshot()) != 0 {
		t.Fatalf("truncate: err=%v rows=%d", err, tb.Stats().Rows)
	}
	if err := c.Drop(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := c.Append(ctx, tb, intBatch(1)); pgerr.Code(err) != pgerr.UndefinedTable {
		t.Fatalf("append to a dropped table: want 42P01, got %v", err)
	}
	if err := c.Drop(ctx, "t"); pgerr.Code(err) != pgerr.UndefinedTable {
		t.Fatalf("drop twice: want 42P01, got %v", err)
	}
}

func TestAppendRejectsWrongSchema(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCatalog()
	tb, _ := c.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int4Type}})
	if err := c.Append(ctx, tb, intBatch(1)); err == nil {
		t.Fatal("an int64 batch was appended to an integer column")
	}
}

func TestConcurrentAppendsLoseNothing(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCatalog()
	tb, _ := c.Create(ctx, "t", []ColumnDef{{Name: "k", Type: types.Int8Type}})
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if err := c.Append(ctx, tb, intBatch(1, 2)); err != nil {
					t.Error(err)
				}
				_ = tb.Snapshot()
			}
		}()
	}
	wg.Wait()
	var n int64
	for _, r := range tb.Snapshot() {
		n += r.NumRows()
	}
	if n != 1600 || tb.Stats().Rows != 1600 {
		t.Fatalf("rows = %d (stats %d), want 1600", n, tb.Stats().Rows)
	}
}
