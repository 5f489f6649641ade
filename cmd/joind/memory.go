package main

import (
	"runtime/debug"
	"strings"

	"github.com/joind/joind/operators/spill"
)

// setServerMemory applies server_memory_limit: every query's operators
// count against it (spill.SetServerLimit), and the Go runtime's soft limit
// is set a little above it so the collector works harder, and freed pages
// go back to the system, before the process outgrows it (a quarter more,
// for what operators do not count: connections' buffers, the stored
// tables' batches, the runtime's own). A GOMEMLIMIT in the environment
// wins over that. It returns the soft limit in force (0: none).
func setServerMemory(limit int64, env []string) int64 {
	spill.SetServerLimit(limit)
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOMEMLIMIT=") {
			return debug.SetMemoryLimit(-1)
		}
	}
	if limit <= 0 {
		return 0
	}
	soft := limit + limit/4
	debug.SetMemoryLimit(soft)
	return soft
}
