package engine

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	_ "time/tzdata" // TimeZone settings must not depend on the host's zoneinfo

	"github.com/joind/joind/activity"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/wire"
)

// Options configure an Engine (filled from package config by cmd/joind).
type Options struct {
	DataDir     string
	Partitions  int   // probe/scan partitions per query (>= 1)
	BatchSize   int   // rows per batch
	MemoryLimit int64 // per-query memory budget in bytes (0 = unlimited)
	// SegmentCache bounds the stored tables' loaded segments, in bytes
	// (0 = unlimited).
	SegmentCache int64
	// HashKernel is "auto" or "portable" (forces the pure-Go Swiss-table kernel).
	HashKernel string
	// NoFsync skips fsync in the data directory (tests and benchmarks
	// only: a crash may then lose acknowledged commits).
	NoFsync bool
	// CopyDirs are the absolute directories server-side COPY files may be
	// in (COPY t FROM/TO '/path'); empty refuses every server-side file.
	CopyDirs []string
	Logger   *slog.Logger
	// Activity is the server's registry of live backends, the one wire's
	// ServerOptions.Activity records into: pg_stat_activity reads it and
	// pg_cancel_backend/pg_terminate_backend signal through it (nil: no
	// backends are listed).
	Activity *activity.Registry
	// Stats are the server's cumulative statistics (pg_stat_statements,
	// pg_stat_*_tables, pg_stat_database, pg_stat_progress_copy), which
	// sessions record into and pgcatalog reads (nil: nothing is counted).
	Stats *stats.Server
	// PasswordVerifier makes the stored secret of a password (CREATE
	// ROLE ... PASSWORD, --users): wire.SCRAMVerifier; nil stores it as given.
	PasswordVerifier func(pw string) string
}

// Engine runs SQL for wire sessions. It owns the catalog; sessions share it.
type Engine struct {
	opts    Options
	catalog *storage.DB
	log     *slog.Logger
	// spillDir is where queries past their memory limit spill: the data
	// directory's tmp/ (emptied at startup), or a private temporary
	// directory without a data directory (removed at Close).
	spillDir, ownTmp string
	// sessions counts live sessions (for logs and tests).
	sessions atomic.Int64
}

var _ wire.Engine = (*Engine)(nil)

// New opens the data directory and returns a ready engine. An empty
// DataDir keeps the tables in memory only.
func New(opts Options) (*Engine, error) {
	if opts.Partitions < 1 {
		opts.Partitions = runtime.NumCPU()
	}
	if opts.BatchSize < 1 {
		opts.BatchSize = 4096
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	db, err := storage.Open(opts.DataDir, storage.Options{NoSync: opts.NoFsync, Logger: opts.Logger, CacheBytes: opts.SegmentCache})
	if err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, catalog: db, log: opts.Logger}
	if opts.DataDir != "" {
		// After storage.Open: its lock makes the directory this process's.
		e.spillDir = filepath.Join(opts.DataDir, "tmp")
		err = spill.Clean(e.spillDir)
	} else {
		e.spillDir, err = os.MkdirTemp("", "joind-tmp-")
		e.ownTmp = e.spillDir
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return e, nil
}

// NewSession implements wire.Engine.
func (e *Engine) NewSession(ctx context.Context, params map[string]string) (wire.Session, error) {
	s := newSession(e, params)
	if ci, ok := wire.ConnInfoFrom(ctx); ok {
		s.pid = int32(ci.PID)
	}
	if err := s.applyStartup(params); err != nil {
		return nil, err
	}
	e.sessions.Add(1)
	return s, nil
}

// Close flushes and closes the data directory.
func (e *Engine) Close() error {
	if e.ownTmp != "" {
		os.RemoveAll(e.ownTmp)
	}
	return e.catalog.Close()
}
