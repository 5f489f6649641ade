package stats

import (
	"sort"
	"sync"
	"sync/atomic"
)

// CopyProgress is one running COPY as pg_stat_progress_copy shows it.
// The COPY's own goroutines add to BytesProcessed and TuplesProcessed as
// they go; any session reads them (atomics: a reader sees a count the
// COPY had reached).
type CopyProgress struct {
	PID             int32
	Database        string
	RelID           uint32 // 0 for COPY (query) TO
	Command, Type   string // "COPY FROM"/"COPY TO"; "FILE", "PROGRAM", "PIPE" or "CALLBACK"
	BytesTotal      int64  // the file's size for COPY FROM a file, else 0
	BytesProcessed  atomic.Int64
	TuplesProcessed atomic.Int64
	TuplesExcluded  atomic.Int64
	copies          *Copies
}

// Copies are the COPY statements running now.
//
// INVARIANT: the set is guarded by mu; a CopyProgress is in it from Start
// to Done.
type Copies struct {
	mu  sync.Mutex
	set map[*CopyProgress]struct{}
}

func newCopies() *Copies { return &Copies{set: map[*CopyProgress]struct{}{}} }

// Start lists p as running and returns it; on a nil Copies it returns p
// unlisted, so the COPY counts into it all the same.
func (c *Copies) Start(p *CopyProgress) *CopyProgress {
	if c == nil {
		return p
	}
	p.copies = c
	c.mu.Lock()
	c.set[p] = struct{}{}
	c.mu.Unlock()
	return p
}

// Done removes p from the running COPYs.
func (p *CopyProgress) Done() {
	if p == nil || p.copies == nil {
		return
	}
	p.copies.mu.Lock()
	delete(p.copies.set, p)
	p.copies.mu.Unlock()
}

// Running lists the running COPYs by PID.
func (c *Copies) Running() []*CopyProgress {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	out := make([]*CopyProgress, 0, len(c.set))
	for p := range c.set {
		out = append(out, p)
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}
