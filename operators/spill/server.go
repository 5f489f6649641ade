package spill

import (
	"runtime/debug"
	"sync/atomic"
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
// hands the memory it freed
// back to the system at once (debug.FreeOSMemory) rather than leaving it
// to the runtime's background scavenger, so the server's resident size
// falls after a big query.
const bigQuery = 32 << 20

// freeing is set while a FreeOSMemory runs (one at a time: it is a full
// collection).
var freeing atomic.Bool

func returnToOS(peak int64) {
	if peak < bigQuery || !freeing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer freeing.Store(false)
		debug.FreeOSMemory()
	}()
}
