//go:build unix

package engine

import (
	"context"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/wire"
)

// benchRows is n unless the environment variable env overrides it.
func benchRows(env string, n int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(env), 10, 64); err == nil && v > 0 {
		return v
	}
	return n
}

// newStoredBenchSession creates table lt with ddl in a durable engine, fills
// it with n rows in one transaction (fill returns the columns of rows
// [lo, hi), in table order), then closes and reopens the engine so the
// benchmarks read segments back from their files, as after a restart. The
// data directory lives as long as the process: the reopened engine maps it.
func newStoredBenchSession(prefix, ddl string, n int64, fill func(lo, hi int64) []arrow.Array) (wire.Session, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	e, err := New(Options{DataDir: dir, NoFsync: true})
	if err != nil {
		return nil, err
	}
	s, err := e.NewSession(context.Background(), map[string]string{"user": "bench"})
	if err != nil {
		return nil, err
	}
	if _, err := execAll(s, ddl, &discardWriter{}); err != nil {
		return nil, err
	}
	ctx := context.Background()
	txn := e.catalog.Begin()
	t, _ := txn.Lookup("lt")
	defs := t.Columns()
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	const chunk = 65536 // COPY's batch size order of magnitude
	for lo := int64(0); lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		rec := array.NewRecord(schema, fill(lo, hi), hi-lo)
		if err := txn.Append(ctx, t, rec); err != nil {
			return nil, err
		}
	}
	if err := txn.Commit(ctx); err != nil {
		return nil, err
	}
	if err := e.Close(); err != nil {
		return nil, err
	}
	e, err = New(Options{DataDir: dir, NoFsync: true})
	if err != nil {
		return nil, err
	}
	return e.NewSession(context.Background(), map[string]string{"user": "bench"})
}
