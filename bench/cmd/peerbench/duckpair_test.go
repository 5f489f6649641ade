package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// duckPair is joind (built from JOIND_SRC, default this repository, and
// started with copy_dirs tmp) and an in-memory DuckDB, for the tests that
// hand files between them.
type duckPair struct {
	ctx  context.Context
	tmp  string
	j, d peer
	t    *testing.T
}

func startDuckPair(t *testing.T) *duckPair {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts joind")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	src := os.Getenv("JOIND_SRC")
	if src == "" {
		src = "../../.."
	}
	src, _ = filepath.Abs(src)
	tmp := t.TempDir()
	bin, err := buildJoind(src, tmp)
	if err != nil {
		t.Fatal(err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	js, err := startJoind(ctx, bin, tmp, port, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(js.stop)
	j, err := dialPG(ctx, "joind", js.dsn())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	d, err := openDuck(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return &duckPair{ctx: ctx, tmp: tmp, j: j, d: d, t: t}
}

func (p *duckPair) exec(on peer, q string) {
	p.t.Helper()
	if err := on.Exec(p.ctx, q); err != nil {
		p.t.Fatalf("%s: %s: %v", on.Name(), q, err)
	}
}

func (p *duckPair) query(on peer, q string) []string {
	p.t.Helper()
	rows, err := on.Query(p.ctx, q)
	if err != nil {
		p.t.Fatalf("%s: %s: %v", on.Name(), q, err)
	}
	return rows
}
