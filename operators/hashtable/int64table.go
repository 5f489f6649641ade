package hashtable

import (
	"math/bits"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
)

// Int64Table is the hash table for a single int64 join key (also int16/32,
// date32 and timestamp keys widened to int64 by the caller). Build rows get
// ids 0,1,2,... in append order across Append calls (NULL rows take an id
// too, so ids equal positions in the concatenated build input).
//
// Concurrency: Append and Finish are single-writer. After Finish the table
// is read-only and any number of goroutines may probe it at once, each with
// its own Matches; a shared *MatchedBits may be marked concurrently.
type Int64Table struct {
	view      tableView
	logGroups int
	kernel    string
	find      findFunc

	used     uint64 // full slots (distinct keys)
	rows     uint64 // build rows appended, NULLs included
	nulls    uint64
	finished bool

	// During build: next[r] is the previous row with the same key as row r
	// (a chain headed by the slot value); nil until the first duplicate.
	next    []uint32
	hasDups bool

	// After Finish: duplicate lists. Value dupFlag|e means the rows
	// dupRows[dupStart[e]:dupStart[e+1]], ascending.
	dupStart []uint32
	dupRows  []uint32

	// release frees memory not owned by the Go heap (see alloc.go).
	release func()

	scratch []uint64 // Lookup's kernel hashes
}

// NewInt64 returns an empty table sized so that capacityHint distinct keys
// fit without growing.
func NewInt64(capacityHint int) *Int64Table {
	lg := logGroupsFor(capacityHint)
	if lg > maxLogGroups {
		lg = maxLogGroups
	}
	t := &Int64Table{}
	t.kernel, t.find = currentKernel()
	t.setGroups(allocGroups(lg))
	t.view.seed = rand.Uint64()
	return t
}

// newInt64WithGroups builds a table on caller-provided, zeroed group memory
// (tests place it in a MAP_NORESERVE mapping). len(groups) must be a power
// of two.
func newInt64WithGroups(groups []group, seed uint64, find findFunc, name string) *Int64Table {
	t := &Int64Table{kernel: name, find: find}
	t.setGroups(groupMem{groups: groups})
	t.view.seed = seed
	return t
}

func (t *Int64Table) setGroups(m groupMem) {
	n := uint64(len(m.groups))
	if n < 2 || n&(n-1) != 0 {
		panic("hashtable: group count must be a power of two >= 2")
	}
	lg := bits.TrailingZeros64(n)
	if lg > maxLogGroups {
		panic("hashtable: table larger than maxLogGroups")
	}
	t.logGroups = lg
	t.view.groups = m.groups
	t.view.mask = n - 1
	t.view.shift = uint64(64 - lg)
	t.release = nil
	if m.release != nil {
		t.release = onceRelease(t, m.release)
	}
}

// Kernel names the probe kernel this table uses ("avx2" or "portable").
func (t *Int64Table) Kernel() string { return t.kernel }

// SawNull reports whether any appended build key was NULL (such rows are
// not inserted; NOT IN and mark joins need to know).
func (t *Int64Table) SawNull() bool { return t.nulls > 0 }

// NullCount is the number of NULL build keys seen.
func (t *Int64Table) NullCount() int64 { return int64(t.nulls) }

// Rows is the number of build rows appended (NULLs included): the size a
// MatchedBits for this table needs.
func (t *Int64Table) Rows() int64 { return int64(t.rows) }

// Distinct is the number of distinct non-NULL keys.
func (t *Int64Table) Distinct() int64 { return int64(t.used) }

// Groups is the number of 128-byte groups (for EXPLAIN ANALYZE and tests).
func (t *Int64Table) Groups() int64 { return int64(len(t.view.groups)) }

// errTooManyRows is returned instead of ever wrapping a row id.
func errTooManyRows(have, adding uint64) error {
	return pgerr.New(pgerr.ProgramLimitExceeded,
		"hash join build side too large: %d rows exceeds the limit of %d rows", have+adding, uint64(MaxBuildRows))
}

// Append adds an Arrow int64 column as the next build rows. NULL keys are
// skipped and counted.
func (t *Int64Table) Append(keys *array.Int64) error {
	vals := keys.Int64Values()
	if keys.NullN() == 0 {
		return t.AppendSlice(vals, nil)
	}
	// Bitmap walk: whole words of valid rows take the fast path.
	if err := t.checkAppend(len(vals)); err != nil {
		return err
	}
	base := t.rows
	for i, k := range vals {
		if keys.IsNull(i) {
			t.nulls++
			continue
		}
		if err := t.insert(k, uint32(base+uint64(i))); err != nil {
			return err
		}
	}
	t.rows = base + uint64(len(vals))
	return nil
}

// AppendSlice adds keys as the next build rows; valid (nil = all valid)
// marks non-NULL keys.
func (t *Int64Table) AppendSlice(keys []int64, valid []bool) error {
	if err := t.checkAppend(len(keys)); err != nil {
		return err
	}
	if valid != nil && len(valid) < len(keys) {
		panic("hashtable: validity shorter than keys")
	}
	base := t.rows
	if t.clusterable(len(keys)) {
		t.appendClustered(keys, valid, base)
		t.rows = base + uint64(len(keys))
		return nil
	}
	for i, k := range keys {
		if valid != nil && !valid[i] {
			t.nulls++
			continue
		}
		if err := t.insert(k, uint32(base+uint64(i))); err != nil {
			return err
		}
	}
	t.rows = base + uint64(len(keys))
	return nil
}

// Clustered build. Inserting keys in input order touches a random group
// per key: past the cache size every insert waits for memory (~100 ns).
// A large append instead first orders its keys by the top bits of their
// hash, which are the top bits of the group index, so consecutive inserts
// land in the same small region of the table. The order is a stable
// counting sort, so rows with equal keys still arrive in ascending row
// order (Finish's duplicate lists stay ascending).
const (
	clusterMinKeys   = 1 << 15
	clusterMinGroups = 1 << 15 // 4 MiB of groups: beyond the caches that matter
	clusterRadixBits = 10
)

// clusterable reports whether appending n keys should be clustered: a big
// append into a big table that will not grow meanwhile (growing would
// change every key's group).
func (t *Int64Table) clusterable(n int) bool {
	groups := uint64(len(t.view.groups))
	return n >= clusterMinKeys && groups >= clusterMinGroups &&
		(t.used+uint64(n))*8 <= groups*groupSlots*7
}

func (t *Int64Table) appendClustered(keys []int64, valid []bool, base uint64) {
	rb := uint64(min(clusterRadixBits, t.logGroups))
	shift := 64 - rb
	seed := t.view.seed
	var start [1<<clusterRadixBits + 1]int
	n := 0
	for i, k := range keys {
		if valid != nil && !valid[i] {
			t.nulls++
			continue
		}
		start[hashInt64(k, seed)>>shift+1]++
		n++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	type entry struct {
		k int64
		r uint32
	}
	sorted := make([]entry, n)
	for i, k := range keys {
		if valid != nil && !valid[i] {
			continue
		}
		b := hashInt64(k, seed) >> shift
		sorted[start[b]] = entry{k, uint32(base + uint64(i))}
		start[b]++
	}
	for _, e := range sorted {
		t.insertHashed(e.k, hashInt64(e.k, seed), e.r) // cannot grow: clusterable checked the room
	}
}

func (t *Int64Table) checkAppend(n int) error {
	if t.finished {
		panic("hashtable: Append after Finish")
	}
	// 64-bit arithmetic: rows+n cannot wrap (both < 2^63).
	if t.rows+uint64(n) > MaxBuildRows {
		return errTooManyRows(t.rows, uint64(n))
	}
	return nil
}

// insert adds build row r under key k.
func (t *Int64Table) insert(k int64, r uint32) error {
	// Grow before the load passes 7/8 so every probe ends at an empty slot.
	if (t.used+1)*8 > uint64(len(t.view.groups))*groupSlots*7 {
		if err := t.grow(); err != nil {
			return err
		}
	}
	t.insertHashed(k, hashInt64(k, t.view.seed), r)
	return nil
}

// insertHashed adds build row r under key k of hash h; the caller made
// sure the load stays within bounds.
func (t *Int64Table) insertHashed(k int64, h uint64, r uint32) {
	tag := uint8(h&tagMask) | ctrlFull
	groups, mask := t.view.groups, t.view.mask
	g := h >> t.view.shift
	for {
		grp := &groups[g]
		c := grp.ctrl
		for m := matchTag(c, tag); m != 0; m &= m - 1 {
			s := slotOf(m) & 7
			if grp.keys[s] == k {
				t.addDup(grp, s, r)
				return
			}
		}
		if e := emptyMask(c); e != 0 {
			s := slotOf(e) & 7
			grp.keys[s] = k
			grp.vals[s] = r
			grp.ctrl = c | uint64(tag)<<(8*s)
			t.used++
			return
		}
		g = (g + 1) & mask
	}
}

// addDup prepends row r to the chain of slot s.
func (t *Int64Table) addDup(grp *group, s uint64, r uint32) {
	if t.next == nil {
		t.next = make([]uint32, 0, max(1024, t.rows/4))
	}
	for uint64(len(t.next)) <= uint64(r) {
		t.next = append(t.next, notFound)
	}
	t.next[r] = grp.vals[s] &^ dupFlag
	grp.vals[s] = r | dupFlag
	t.hasDups = true
}

// grow doubles the group array and reinserts every slot. Keys are distinct,
// so reinsertion only looks for the first empty slot.
func (t *Int64Table) grow() error { return t.growTo(t.logGroups + 1) }

// Reserve grows the table at once so that n more distinct keys fit without
// growing (a merge of n keys rehashes once, not once per doubling).
func (t *Int64Table) Reserve(n int) error {
	lg := logGroupsFor(int(t.used) + n)
	if lg <= t.logGroups || (t.used+uint64(n))*8 <= uint64(len(t.view.groups))*groupSlots*7 {
		return nil
	}
	return t.growTo(min(lg, maxLogGroups))
}

// growTo moves every slot into a group array of 2^lg groups.
func (t *Int64Table) growTo(lg int) error {
	if lg > maxLogGroups {
		return pgerr.New(pgerr.ProgramLimitExceeded, "hash table too large: more than 2^%d groups", maxLogGroups)
	}
	old := t.view.groups
	oldRelease := t.release
	t.setGroups(allocGroups(lg))
	groups, mask, shift := t.view.groups, t.view.mask, t.view.shift
	for gi := range old {
		og := &old[gi]
		for m := og.ctrl & hiBits; m != 0; m &= m - 1 {
			s := slotOf(m) & 7
			k := og.keys[s]
			h := hashInt64(k, t.view.seed)
			g := h >> shift
			for {
				grp := &groups[g]
				if e := emptyMask(grp.ctrl); e != 0 {
					d := slotOf(e) & 7
					grp.keys[d] = k
					grp.vals[d] = og.vals[s]
					grp.ctrl |= uint64(uint8(h&tagMask)|ctrlFull) << (8 * d)
					break
				}
				g = (g + 1) & mask
			}
		}
	}
	if oldRelease != nil {
		oldRelease()
	}
	return nil
}

// Finish ends the build: duplicate chains become contiguous, ascending row
// lists. After Finish the table is read-only. Finish is idempotent.
func (t *Int64Table) Finish() {
	if t.finished {
		return
	}
	t.finished = true
	if !t.hasDups {
		return
	}
	t.dupStart, t.dupRows = flattenChains(t.view.groups, t.next)
	t.next = nil
}

// flattenChains rewrites every flagged slot value (a chain head) as dupFlag|e
// and lays the chain out in dupRows[dupStart[e]:dupStart[e+1]] ascending.
func flattenChains(groups []group, next []uint32) (dupStart, dupRows []uint32) {
	dupStart = []uint32{0}
	for gi := range groups {
		grp := &groups[gi]
		for m := grp.ctrl & hiBits; m != 0; m &= m - 1 {
			s := slotOf(m) & 7
			v := grp.vals[s]
			if v&dupFlag == 0 {
				continue
			}
			start := len(dupRows)
			for r := v &^ dupFlag; r != notFound&^dupFlag; {
				dupRows = append(dupRows, r)
				if uint64(r) >= uint64(len(next)) {
					break
				}
				r = next[r] &^ dupFlag
			}
			// The chain is newest first; reverse to ascending row ids.
			seg := dupRows[start:]
			for i, j := 0, len(seg)-1; i < j; i, j = i+1, j-1 {
				seg[i], seg[j] = seg[j], seg[i]
			}
			grp.vals[s] = dupFlag | uint32(len(dupStart)-1)
			dupStart = append(dupStart, uint32(len(dupRows)))
		}
	}
	return dupStart, dupRows
}

// Release returns memory not managed by Go's heap at once (large tables are
// mapped directly, see alloc.go). The table must not be used afterwards.
// Without Release that memory is freed when the table is garbage collected.
func (t *Int64Table) Release() {
	if t.release != nil {
		t.release()
		t.release = nil
	}
	t.view.groups = nil
}
