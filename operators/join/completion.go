package join

import "sync/atomic"

// Probe completion: which probe partition emits the build-side rows, and what
// did all of them see.
//
// N probe partitions share one build side. Build-side rows that depend on the
// whole probe side (unmatched rows of left/full/anti joins, mark values, the
// null-aware NOT IN decisions) must be emitted exactly once, by the partition
// that finishes last, and that partition must know what every partition saw
// (a probe row at all? a NULL probe key?).
//
// INVARIANT: whoever observes itself to be last sees every fact recorded by
// every other partition.
//
// It rests on two properties, and the API is shaped to keep both:
//
//   - Order. The Summary of facts is returned only by Finish, from the call
//     that decrements the running counter and finds it zero. There is no other
//     way to read the facts, so no caller can read them before its own
//     decrement (the classic bug: read "saw a NULL" = false, a sibling records
//     a NULL and finishes, then the reader decrements, finds itself last and
//     emits rows NOT IN must suppress).
//   - Visibility. Go's sync/atomic operations are sequentially consistent, so
//     every Record that happens before a sibling's decrement is visible to the
//     partition whose decrement comes last. What remains to get right is the
//     order of the operations, which is exactly what the interleaving explorer
//     in completion_test.go checks, running this same code under every
//     schedule.
//
// Hint may lag behind siblings but never reports a fact that was not recorded;
// it is only for skipping work and must never decide what is emitted.
//
// The protocol is written once, generic over its atomic operations (Word), and
// instantiated over sync/atomic for the join and over the explorer's
// instrumented words in the tests. Keep it that way: a second copy of this
// sequence of operations would not be covered by the model check.

// Word is a shared 64-bit word with the atomic operations the protocol uses.
// *sync/atomic.Uint64 implements it.
type Word interface {
	Load() uint64
	Add(delta uint64) (new uint64)
	Or(mask uint64) (old uint64)
	CompareAndSwap(old, new uint64) (swapped bool)
}

// Fact is a set of things a probe partition saw, as bits.
type Fact uint64

const (
	// FactRow: the partition saw a probe row. An empty probe side is not the
	// same as one that matched nothing: NULL NOT IN (empty) is TRUE.
	FactRow Fact = 1 << iota
	// FactNullKey: the partition saw a probe row whose (NOT IN value) key is
	// NULL.
	FactNullKey
)

// Summary is what all probe partitions together saw, as observed by the last
// one to finish. It is obtainable only from Completion.Finish.
type Summary struct{ facts Fact }

// SawRow reports whether some partition saw a probe row.
func (s Summary) SawRow() bool { return s.facts&FactRow != 0 }

// SawNullKey reports whether some partition saw a NULL probe key.
func (s Summary) SawNullKey() bool { return s.facts&FactNullKey != 0 }

// Completion tracks the running probe partitions and the facts they recorded.
type Completion[W Word] struct {
	running W // probe partitions that have not finished yet
	facts   W // OR of every Fact recorded so far
}

// NewCompletion starts tracking `partitions` probe partitions over two fresh
// zero words.
func NewCompletion[W Word](partitions int, running, facts W) *Completion[W] {
	if partitions < 1 {
		panic("join: completion needs at least one partition")
	}
	running.Add(uint64(partitions))
	return &Completion[W]{running: running, facts: facts}
}

// Record notes what one partition saw in one batch. It must be called before
// that partition's Finish.
func (c *Completion[W]) Record(f Fact) {
	if f != 0 {
		c.facts.Or(uint64(f))
	}
}

// Hint reports whether some partition has already recorded all of f. It may
// lag behind siblings (false although a sibling just recorded f), but it never
// reports a fact nobody recorded. Use it only to skip work.
func (c *Completion[W]) Hint(f Fact) bool {
	return Fact(c.facts.Load())&f == f
}

// Finish reports that the calling partition has finished probing (and
// recorded all its facts). Exactly one call — the one that takes the running
// counter to zero — returns last = true, together with the summary of every
// partition's facts. Each partition calls Finish at most once.
func (c *Completion[W]) Finish() (s Summary, last bool) {
	left := c.running.Add(^uint64(0)) // decrement
	if left == ^uint64(0) {
		panic("join: more Finish calls than probe partitions")
	}
	if left != 0 {
		return Summary{}, false
	}
	// Only after our own decrement found zero: every sibling has recorded
	// everything and decremented before us.
	return Summary{facts: Fact(c.facts.Load())}, true
}

// newAtomicCompletion is the instantiation the join uses.
func newAtomicCompletion(partitions int) *Completion[*atomic.Uint64] {
	return NewCompletion(partitions, new(atomic.Uint64), new(atomic.Uint64))
}
