package storage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

var benchCols = []ColumnDef{{Name: "id", Type: types.Int8Type}, {Name: "x", Type: types.Float8Type}, {Name: "s", Type: types.TextType}}

func benchBatch(start, n int) arrow.Record {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	for i := start; i < start+n; i++ {
		ib.Append(int64(i))
		fb.Append(float64(i%1000) / 7)
		sb.Append(fmt.Sprintf("name-%d", i%5000))
	}
	return array.NewRecord(arrowSchema(benchCols), []arrow.Array{ib.NewArray(), fb.NewArray(), sb.NewArray()}, int64(n))
}

// BenchmarkLoad commits 1M rows (64K-row batches, one transaction) with
// fsync, as COPY would: segment write, statistics and manifest.
func BenchmarkLoad(b *testing.B) {
	const rows, batch = 1 << 20, 64 << 10
	recs := make([]arrow.Record, rows/batch)
	for i := range recs {
		recs[i] = benchBatch(i*batch, batch)
	}
	ctx := context.Background()
	b.SetBytes(rows * (8 + 8 + 10))
	for i := 0; i < b.N; i++ {
		db, err := Open(b.TempDir(), Options{NoCompaction: true})
		if err != nil {
			b.Fatal(err)
		}
		tb, _ := db.Create(ctx, "t", benchCols)
		txn := db.Begin()
		for _, r := range recs {
			txn.Append(ctx, tb, r)
		}
		if err := txn.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkSmallCommits is single-row INSERTs from 8 concurrent sessions
// with fsync: the group commit's throughput.
func BenchmarkSmallCommits(b *testing.B) {
	db, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	tb, _ := db.Create(ctx, "t", benchCols)
	rec := benchBatch(0, 1)
	b.SetParallelism(4) // 2 CPUs × 4 = 8 writers
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := db.Append(ctx, tb, rec); err != nil {
				b.Error(err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkScan sums a column of a 1M-row table: stored (reopened, so the
// segment is read once and then cached) against in memory.
func BenchmarkScan(b *testing.B) {
	ctx := context.Background()
	const rows = 1 << 20
	fill := func(c Catalog) {
		tb, _ := c.Create(ctx, "t", benchCols)
		for i := 0; i < rows; i += 64 << 10 {
			c.Append(ctx, tb, benchBatch(i, 64<<10))
		}
	}
	scan := func(b *testing.B, tb Table) {
		b.SetBytes(rows * 8)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var sum int64
			for _, r := range tb.Snapshot() {
				for _, v := range r.Column(0).(*array.Int64).Int64Values() {
					sum += v
				}
			}
			if sum != rows*(rows-1)/2 {
				b.Fatalf("sum %d", sum)
			}
		}
	}
	b.Run("memory", func(b *testing.B) {
		c := NewMemoryCatalog()
		fill(c)
		tb, _ := c.Lookup("t")
		scan(b, tb)
	})
	for _, compressed := range []bool{true, false} {
		name := map[bool]string{true: "stored-zstd", false: "stored-uncompressed"}[compressed]
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			db, _ := Open(dir, Options{NoSync: true, NoCompression: !compressed})
			fill(db)
			db.Close()
			db, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			tb, _ := db.Lookup("t")
			scan(b, tb)
		})
	}
}

// BenchmarkOpen is start-up on a data directory of 500 tables × 4
// segments: manifest plus a size/trailer check per segment, no data read.
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	db, err := Open(dir, Options{NoSync: true, NoCompaction: true})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		tb, _ := db.Create(ctx, fmt.Sprintf("t%d", i), benchCols)
		for s := 0; s < 4; s++ {
			db.Append(ctx, tb, benchBatch(s*1000, 1000))
		}
	}
	db.Close()
	if fi, err := os.Stat(filepath.Join(dir, manifestName)); err == nil {
		b.ReportMetric(float64(fi.Size()), "manifest-bytes")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db, err := Open(dir, Options{NoCompaction: true})
		if err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

// BenchmarkDelete deletes 1M of a 10M-row table (every 10th row) in one
// transaction and commits it with fsync: RowIDs sorted and grouped per
// segment, row locks and deletion vectors as bitmaps, one delta file.
func BenchmarkDelete(b *testing.B) {
	ctx := context.Background()
	const rows, batch = 10 << 20, 1 << 20
	cols := []ColumnDef{{Name: "id", Type: types.Int8Type}}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := Open(b.TempDir(), Options{NoCompaction: true})
		if err != nil {
			b.Fatal(err)
		}
		tb, _ := db.Create(ctx, "t", cols)
		for s := 0; s < rows; s += batch {
			ib := array.NewInt64Builder(memory.DefaultAllocator)
			for k := s; k < s+batch; k++ {
				ib.Append(int64(k))
			}
			db.Append(ctx, tb, array.NewRecord(arrowSchema(cols), []arrow.Array{ib.NewArray()}, batch))
		}
		tb, _ = db.Lookup("t")
		var ids []RowID
		for _, seg := range tb.(Segmented).Segments() {
			for off := int64(0); off < seg.Rows; off += 10 {
				ids = append(ids, MakeRowID(seg.ID, off))
			}
		}
		b.StartTimer()
		txn := db.Begin()
		tt, _ := txn.Lookup("t")
		if err := txn.Delete(ctx, tt, ids); err != nil {
			b.Fatal(err)
		}
		if err := txn.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		tb, _ = db.Lookup("t")
		if n := tb.Stats().Rows; n != rows-int64(len(ids)) {
			b.Fatalf("%d rows left", n)
		}
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows/10)*float64(b.N)/b.Elapsed().Seconds(), "deletes/s")
}
