package spill

import (
	"runtime/metrics"
	"testing"
	"time"
)

var garbage [][]byte

// TestIdleServerReturnsMemory: when the last running query ends with the
// runtime holding much more than the live heap (many small queries, none
// big by itself), the memory goes back to the system. A Space made for a
// statement that never ran does not keep the server looking busy.
func TestIdleServerReturnsMemory(t *testing.T) {
	released := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	lastIdleFree.Store(0) // no earlier idle return holds this one back
	NewSpace("", 0)       // prepared, never run
	running := NewSpace("", 0)
	running.Start()
	for i := 0; i < 160; i++ {
		garbage = append(garbage, make([]byte, 1<<20))
	}
	garbage = nil
	before := released()
	running.Close()
	deadline := time.Now().Add(5 * time.Second)
	for released() < before+bigQuery {
		if time.Now().After(deadline) {
			t.Fatalf("released heap %d MiB -> %d MiB: the idle server kept the freed memory", before>>20, released()>>20)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := openSpaces.Load(); n != 0 {
		t.Fatalf("%d queries still counted as running", n)
	}
}
