package hashtable

import (
	"math/bits"
	"unsafe"
)

// Layout constants. See doc.go for the picture.
const (
	groupSlots = 8
	// groupShift is log2 of the group stride in bytes. Every group address is
	// base + (uint64(g) << groupShift): a 64-bit shift, never a 32-bit product.
	groupShift  = 7
	groupStride = 1 << groupShift // 128 bytes, two cache lines

	// tagBits low bits of the hash form the control-byte tag; the group index
	// is taken from the top log2(groups) bits. They never overlap while
	// log2(groups) <= 64-tagBits; maxLogGroups is far below that.
	tagBits = 7
	tagMask = 1<<tagBits - 1

	// maxLogGroups bounds the table: 2^32 groups of 128 bytes = 512 GiB of
	// address space, enough for MaxBuildRows distinct keys at any load.
	maxLogGroups = 32
	minLogGroups = 1 // shift = 64-logGroups must stay below 64 (x86 masks shift counts)

	ctrlFull  = 0x80 // set in a used slot's control byte; 0x00 means empty
	loBits    = 0x0101010101010101
	hiBits    = 0x8080808080808080
	emptyCtrl = 0 // a zeroed group is an empty group (mmap and make both give zeros)
)

// Compile-time proof that tag bits and group-index bits are disjoint at the
// largest table accepted: this constant underflows (and fails to compile) if
// maxLogGroups+tagBits > 64.
const _ = uint(64 - maxLogGroups - tagBits)

// Compile-time proof that group is exactly one stride.
var _ [groupStride - unsafe.Sizeof(group{})]byte
var _ [unsafe.Sizeof(group{}) - groupStride]byte

// Payload encoding of a slot value (uint32).
const (
	// dupFlag set: the value is an index into the duplicate lists (dupStart);
	// clear: the value is the single build row id for that key.
	dupFlag = 1 << 31
	// notFound is what kernels write for a probe key that is absent. It cannot
	// be a valid value: row ids and duplicate-list indexes are < 2^31-1.
	notFound = ^uint32(0)

	// MaxBuildRows is the largest number of build rows (NULL keys included, as
	// they take row ids) a table accepts. Row ids are uint32 below dupFlag and
	// notFound is reserved, so ids run 0..MaxBuildRows-1.
	MaxBuildRows = dupFlag - 1
)

// group is one 128-byte bucket of 8 slots. Offsets within a group are fixed:
// keys at 8*i (the first cache line, so the AVX2 kernel's two 32-byte key
// loads never split a line), ctrl at 64, vals at 72+4*i. The assembly kernel
// relies on these offsets (checked in layout_test.go).
type group struct {
	keys [groupSlots]int64 // int64 keys, or 64-bit hashes of keys of other shapes
	ctrl uint64            // byte i: 0 = empty, 0x80|tag = full
	vals [groupSlots]uint32
	_    [24]byte
}

// Hash constants: odd multipliers, so the mixer is a bijection on uint64
// (tests invert it to place keys in chosen groups).
const (
	hashMul1 = 0x9E3779B97F4A7C15
	hashMul2 = 0xD6E8FEB86659FD93
)

// hashInt64 mixes an int64 key with the table seed. Three steps, each
// invertible: xor seed, multiply by an odd constant, xor-shift, multiply.
// The group index comes from the top bits, which a multiply mixes best; the
// tag from the low 7 bits.
func hashInt64(k int64, seed uint64) uint64 {
	h := (uint64(k) ^ seed) * hashMul1
	h ^= h >> 32
	return h * hashMul2
}

// tableView is what a kernel needs to probe: the group array, its size and
// the seed. All fields are 64-bit.
type tableView struct {
	groups []group
	shift  uint64 // 64 - log2(len(groups))
	mask   uint64 // len(groups)-1
	seed   uint64
}

func (v *tableView) groupOf(h uint64) uint64 { return h >> v.shift }

// matchTag returns a mask with bit 8*i+7 set for every byte i of ctrl that
// may equal b. False positives are possible (a borrow from a lower matching
// byte); callers always confirm by comparing the key.
func matchTag(ctrl uint64, b uint8) uint64 {
	x := ctrl ^ (loBits * uint64(b))
	return (x - loBits) &^ x & hiBits
}

// emptyMask returns bit 8*i+7 set for every empty slot i.
func emptyMask(ctrl uint64) uint64 { return ^ctrl & hiBits }

// slotOf converts a bit from matchTag/emptyMask to the slot index.
func slotOf(m uint64) uint64 { return uint64(bits.TrailingZeros64(m)) >> 3 }

// logGroupsFor returns log2 of the group count for n distinct keys at a
// maximum load of 7/8 (plus headroom so a fresh table is at most ~half full).
func logGroupsFor(n int) int {
	if n < 0 {
		n = 0
	}
	need := (uint64(n)*2 + groupSlots - 1) / groupSlots // groups for load <= 1/2 at the hint
	lg := 0
	if need > 1 {
		lg = bits.Len64(need - 1)
	}
	if lg < minLogGroups {
		lg = minLogGroups
	}
	return lg
}
