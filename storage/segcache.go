package storage

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// segCache bounds the memory of the stored tables' loaded segments: a
// segment read from its file is kept for the next scan, least recently
// used first out once the loaded segments together pass the budget, and
// read again from its file when next wanted. Only segments whose file is
// on disk and stays there (onDisk) are ever dropped: a segment only in the
// log, one of an in-memory DB, and one whose file a retire deleted while
// readers of older versions may still scan it are held.
//
// Locks: a segment's mu may be held while taking the cache's mu, never
// the reverse. touch runs without the segment's mu; it only picks victims
// (unlinking them), and each victim is dropped under its own mu and the
// cache's, and only if no touch linked it again in between.
//
// Invariants, checked by TestSegmentCacheExplore over every interleaving
// of two readers and a retire: a segment pin reported loaded stays loaded;
// every linked segment is onDisk; bytes is the sum of the linked
// segments' charges; a reader always gets the segment's rows.
type segCache struct {
	budget int64 // bytes; 0 = unbounded (nothing is dropped)
	// park, set only by the explorer, marks a read of state other
	// goroutines write outside the locks.
	park func(label string)

	mu    segLock
	lru   list.List // *segment, most recently used at the front
	bytes int64     // the linked segments' charged bytes

	evictions atomic.Int64
}

// touch records a use of s, now holding recs, and drops the least recently
// used segments past the budget.
func (c *segCache) touch(s *segment, recs []arrow.Record) {
	if c == nil || c.budget <= 0 {
		return
	}
	if c.park != nil {
		c.park("touch reads onDisk")
	}
	if !s.onDisk.Load() {
		return
	}
	n := recordsBytes(recs)
	c.mu.Lock()
	// Again under the lock: a pin between the read above and here has
	// either cleared onDisk already, or will unlink s once we let go.
	if !s.onDisk.Load() {
		c.mu.Unlock()
		return
	}
	if s.lruElem == nil {
		s.lruElem = c.lru.PushFront(s)
	} else {
		c.lru.MoveToFront(s.lruElem)
	}
	c.bytes += n - s.charged
	s.charged = n
	var victims []*segment
	for e := c.lru.Back(); c.bytes > c.budget && e != nil && e != s.lruElem; {
		v := e.Value.(*segment)
		prev := e.Prev()
		c.unlink(v)
		victims = append(victims, v)
		e = prev
	}
	c.mu.Unlock()
	for _, v := range victims {
		v.evict(c)
	}
}

// unlink takes s out of the LRU; c.mu is held.
func (c *segCache) unlink(s *segment) {
	if s.lruElem != nil {
		c.lru.Remove(s.lruElem)
		s.lruElem = nil
		c.bytes -= s.charged
		s.charged = 0
	}
}

// forget takes s out of the cache for good (its file is going away).
func (c *segCache) forget(s *segment) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.unlink(s)
	c.mu.Unlock()
}

// evict drops s's batches unless it was used again since touch picked it,
// or its file can no longer be read.
func (s *segment) evict(c *segCache) {
	s.mu.Lock()
	c.mu.Lock()
	drop := s.lruElem == nil && s.onDisk.Load() && s.loaded
	c.mu.Unlock()
	if drop {
		s.recs, s.loaded = nil, false
		s.conformed, s.conformKey = nil, ""
	}
	s.mu.Unlock()
	if drop {
		s.dropRuns()
		c.evictions.Add(1)
	}
}

// recordsBytes is the memory the batches' buffers take, as far as they
// are decoded (lazyRecord).
func recordsBytes(recs []arrow.Record) int64 {
	var n int64
	for _, r := range recs {
		if lr, ok := r.(*lazyRecord); ok {
			n += lr.bytes()
			continue
		}
		for _, a := range r.Columns() {
			n += arrayDataBytes(a.Data())
		}
	}
	return n
}

func arrayDataBytes(d arrow.ArrayData) int64 {
	if dd, ok := d.(*array.Data); d == nil || ok && dd == nil { // Dictionary() of a plain array is a nil *Data
		return 0
	}
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, ch := range d.Children() {
		n += arrayDataBytes(ch)
	}
	if dict := d.Dictionary(); dict != nil {
		n += arrayDataBytes(dict)
	}
	return n
}

// segLock is a sync.Mutex the interleaving explorer can replace with its
// own (explore), so that the shipped code runs under its schedules.
type segLock struct {
	sync.Mutex
	explore sync.Locker
}

func (l *segLock) Lock() {
	if l.explore != nil {
		l.explore.Lock()
		return
	}
	l.Mutex.Lock()
}

func (l *segLock) Unlock() {
	if l.explore != nil {
		l.explore.Unlock()
		return
	}
	l.Mutex.Unlock()
}
