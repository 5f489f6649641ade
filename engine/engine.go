package engine

import (
	"context"
	"log/slog"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// Options configure an Engine (filled from package config by cmd/joind).
type Options struct {
	DataDir     string
	Partitions  int   // probe/scan partitions per query (>= 1)
	BatchSize   int   // rows per batch
	MemoryLimit int64 // per-query memory budget in bytes (0 = unlimited)
	// HashKernel is "auto" or "portable" (forces the pure-Go Swiss-table kernel).
	HashKernel string
	Logger     *slog.Logger
}

// Engine runs SQL for wire sessions.
type Engine struct {
	opts Options
}

var _ wire.Engine = (*Engine)(nil)

// New opens the data directory and returns a ready engine.
func New(opts Options) (*Engine, error) {
	return &Engine{opts: opts}, nil
}

// NewSession implements wire.Engine.
func (e *Engine) NewSession(ctx context.Context, params map[string]string) (wire.Session, error) {
	return nil, pgerr.New(pgerr.FeatureNotSupported, "engine not implemented yet")
}

// Close flushes and closes the data directory.
func (e *Engine) Close() error { return nil }
