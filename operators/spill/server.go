package spill

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The server-wide memory limit: every query's Space counts its bytes here
// too, so that many queries each under their own limit cannot together
// exhaust the machine. Past it a Reserve fails as past the query's own
// limit (the operator spills or fails with 53200).
var serverLimit, serverInUse atomic.Int64

// SetServerLimit sets the server-wide limit in bytes (0 = none); the
// server sets it once at startup, from its configuration.
func SetServerLimit(n int64) { serverLimit.Store(max(n, 0)) }

// ServerLimit is the server-wide limit in bytes (0 = none).
func ServerLimit() int64 { return serverLimit.Load() }

// ServerUsed is the bytes every query's operators hold now.
func ServerUsed() int64 { return serverInUse.Load() }

// serverReserve counts n bytes against the server-wide limit; false, and
// nothing counted, when they would exceed it.
func serverReserve(n int64) bool {
	lim := serverLimit.Load()
	if lim <= 0 || n <= 0 {
		serverInUse.Add(n)
		return true
	}
	for {
		cur := serverInUse.Load()
		if cur+n > lim {
			return false
		}
		if serverInUse.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}

// serverOver reports whether n more bytes pass the server-wide limit.
func serverOver(n int64) bool {
	lim := serverLimit.Load()
	return lim > 0 && serverInUse.Load()+n > lim
}

// serverFull reports whether request more bytes are past the server-wide
// limit (rather than only past the query's).
func (s *Space) serverFull(request int64) bool {
	return serverOver(request) && (s.limit <= 0 || s.used.Load()+request <= s.limit)
}

// bigQuery is the peak past which a query's end (also a failed one's)
// hands the memory it freed back to the system at once
// (debug.FreeOSMemory) rather than leaving it to the runtime's background
// scavenger, so the server's resident size falls after a big query. Many
// small queries at once add up the same way: when the last running query
// ends and the heap has grown by bigQuery since it was last trimmed, that
// is returned too, at most once per idleFreeEvery (a busy server that is
// idle between statements does not collect after each one).
const bigQuery = 32 << 20

const idleFreeEvery = time.Second

// openSpaces counts the queries running (Spaces made and not closed);
// lastIdleFree is when an idle server last returned memory (UnixNano).
var openSpaces, lastIdleFree atomic.Int64

// freeing is set while a FreeOSMemory runs (one at a time: it is a full
// collection); again asks the running one to go once more, for a query
// that ended while it ran.
var freeing, again atomic.Bool

// recheck is set while a timer waits to look at an idle server again.
var recheck atomic.Bool

func returnToOS(peak int64) {
	if peak < bigQuery {
		if openSpaces.Load() > 0 || retainedHeap() < bigQuery {
			return
		}
		now := time.Now().UnixNano()
		last := lastIdleFree.Load()
		if wait := int64(idleFreeEvery) - (now - last); wait > 0 {
			// Too soon after the last one: look again when it is time,
			// since no query may end to ask.
			if recheck.CompareAndSwap(false, true) {
				time.AfterFunc(time.Duration(wait), func() { recheck.Store(false); returnToOS(0) })
			}
			return
		}
		if !lastIdleFree.CompareAndSwap(last, now) {
			return
		}
	}
	again.Store(true)
	if !freeing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for again.Swap(false) {
			debug.FreeOSMemory()
			heldAfterFree.Store(heldHeap())
		}
		freeing.Store(false)
		if again.Load() {
			returnToOS(bigQuery) // one arrived between the loop and the reset
		}
	}()
}

var heapSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
}
var heapSamplesMu sync.Mutex

// heldHeap is the heap memory the runtime keeps from the system: objects
// (live or garbage not yet collected) and free spans not yet returned.
func heldHeap() int64 {
	heapSamplesMu.Lock()
	defer heapSamplesMu.Unlock()
	metrics.Read(heapSamples)
	var held uint64
	for _, s := range heapSamples {
		held += s.Value.Uint64()
	}
	return int64(held)
}

// heldAfterFree is heldHeap just after the last return to the system:
// what the server keeps at rest.
var heldAfterFree atomic.Int64

// retainedHeap is how much the heap grew since it was last trimmed.
func retainedHeap() int64 { return heldHeap() - heldAfterFree.Load() }
