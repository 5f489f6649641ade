package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/joind/joind/operators/spill"
)

// TestSetServerMemory: server_memory_limit becomes the operators'
// server-wide limit and, a quarter above it, the Go runtime's soft limit,
// unless GOMEMLIMIT is in the environment.
func TestSetServerMemory(t *testing.T) {
	saved := debug.SetMemoryLimit(-1)
	defer func() { debug.SetMemoryLimit(saved); spill.SetServerLimit(0) }()

	if got := setServerMemory(1<<30, []string{"HOME=/x"}); got != 1<<30+1<<28 || debug.SetMemoryLimit(-1) != got {
		t.Fatalf("soft limit %d (runtime %d), want %d", got, debug.SetMemoryLimit(-1), 1<<30+1<<28)
	}
	if spill.ServerLimit() != 1<<30 {
		t.Fatalf("server-wide limit %d", spill.ServerLimit())
	}
	debug.SetMemoryLimit(math.MaxInt64)
	if got := setServerMemory(2<<30, []string{"GOMEMLIMIT=5GiB"}); got != math.MaxInt64 || spill.ServerLimit() != 2<<30 {
		t.Fatalf("with GOMEMLIMIT set: soft limit %d changed, server-wide %d", got, spill.ServerLimit())
	}
}
