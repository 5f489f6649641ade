package hashtable

import (
	"runtime"
	"sync"
	"unsafe"
)

// groupMem is a zeroed group array and, for memory mapped outside Go's heap,
// the function that unmaps it.
type groupMem struct {
	groups  []group
	release func()
}

// directMapMin is the size from which group arrays are mapped directly
// (mapGroups) so the kernel can back them with huge pages: a probe into a
// table far larger than the TLB otherwise pays a page walk per key.
const directMapMin = 64 << 20

// allocGroups returns 2^lg zeroed groups. All size arithmetic is 64-bit.
func allocGroups(lg int) groupMem {
	n := uint64(1) << uint(lg)
	if bytes := n << groupShift; bytes >= directMapMin {
		if m, ok := mapGroups(n); ok {
			return m
		}
	}
	return groupMem{groups: make([]group, n)}
}

// onceRelease makes an unmap function idempotent and also runs it when owner
// becomes unreachable, so a table dropped without Release does not leak.
func onceRelease[T any](owner *T, unmap func()) func() {
	var once sync.Once
	f := func() { once.Do(unmap) }
	if owner != nil {
		runtime.AddCleanup(owner, func(f func()) { f() }, f)
	}
	return f
}

// groupsFromBytes views a zeroed, 128-byte-aligned byte region as groups.
func groupsFromBytes(b []byte) []group {
	n := uint64(len(b)) >> groupShift
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*group)(unsafe.Pointer(&b[0])), n)
}
