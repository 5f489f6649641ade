//go:build linux

package hashtable

import (
	"golang.org/x/sys/unix"
)

// mapGroups maps n groups of anonymous memory (zero-filled by the kernel,
// so a fresh table needs no initialisation pass) and asks for huge pages.
func mapGroups(n uint64) (groupMem, bool) {
	size := n << groupShift
	if size > uint64(^uint(0)>>1) {
		return groupMem{}, false
	}
	b, err := unix.Mmap(-1, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return groupMem{}, false
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // best effort
	g := groupsFromBytes(b)
	return groupMem{groups: g, release: func() { _ = unix.Munmap(b) }}, true
}
