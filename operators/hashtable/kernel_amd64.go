//go:build amd64 && !purego

package hashtable

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func findAVX2(groups unsafe.Pointer, mask, shift, seed uint64, keys *int64, sel *int32, n int, hashes *uint64, res *uint32)

// haveAVX2 reports whether the AVX2 kernel can run here. The OS must also
// save the YMM state, which cpu.X86.HasAVX2 already accounts for (it checks
// OSXSAVE/XGETBV).
func haveAVX2() bool { return cpu.X86.HasAVX && cpu.X86.HasAVX2 }

// findAVX2Kernel checks every bound the assembly does not (it indexes keys
// through sel without bounds checks), then runs the batch loop in assembly.
func findAVX2Kernel(v *tableView, keys []int64, sel []int32, n int, hashes []uint64, res []uint32) {
	if n <= 0 {
		return
	}
	_ = hashes[n-1]
	_ = res[n-1]
	var selp *int32
	if sel == nil {
		_ = keys[n-1]
	} else {
		sel = sel[:n]
		for _, r := range sel {
			if uint(r) >= uint(len(keys)) {
				panic("hashtable: selection vector row out of range")
			}
		}
		selp = &sel[0]
	}
	var kp *int64
	if len(keys) > 0 {
		kp = &keys[0]
	}
	if len(v.groups) == 0 || uint64(len(v.groups)) != v.mask+1 {
		panic("hashtable: malformed table view")
	}
	findAVX2(unsafe.Pointer(&v.groups[0]), v.mask, v.shift, v.seed, kp, selp, n, &hashes[0], &res[0])
	runtime.KeepAlive(v)
}

func init() {
	if haveAVX2() {
		accelName = "avx2"
		accelFind = findAVX2Kernel
	}
}
