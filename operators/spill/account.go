package spill

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Account is one operator execution's share of a Space: the bytes it has
// reserved and the files it has created, both given back by Close, whether
// the execution succeeded, failed or was canceled. The execution's partition
// goroutines may use it concurrently.
type Account struct {
	space *Space
	mu    sync.Mutex
	held  int64
	files []*File
	stats *Stats // nil: not reported
}

// NewAccount opens an account on s (a nil s: no limit, no spilling).
func (s *Space) NewAccount() *Account { return &Account{space: s} }

// NewStatementAccount opens an account for memory held until the
// statement ends (a materialized WITH query's rows): Space.Close closes it.
func (s *Space) NewStatementAccount() *Account {
	a := s.NewAccount()
	if s != nil {
		s.mu.Lock()
		s.stmt = append(s.stmt, a)
		s.mu.Unlock()
	}
	return a
}

// Track reports the account's memory to st (EXPLAIN ANALYZE's and the
// metrics' figures); it returns a for chaining.
func (a *Account) Track(st *Stats) *Account {
	a.stats = st
	return a
}

// Reserve counts n more bytes if they fit under the limit.
func (a *Account) Reserve(n int64) bool {
	if !a.space.Reserve(n) {
		return false
	}
	a.add(n)
	return true
}

// Hold counts n more bytes for an operator with no spill path. It fails
// with the query's 53200 error for what, counting nothing, when the
// operator's own bytes would pass the query's limit or all queries' would
// pass the server's; bytes the query's spilling operators hold past the
// limit do not make it fail (they spill the sooner for it).
func (a *Account) Hold(n int64, what string) error {
	if a.Reserve(n) {
		return nil
	}
	lim := a.space.Limit()
	if serverOver(n) || lim > 0 && a.Held()+n > lim {
		return a.space.OutOfMemory("ExecutorState", what, n)
	}
	a.Force(n)
	return nil
}

// Force counts n bytes even beyond the limit (memory already in use).
func (a *Account) Force(n int64) {
	a.space.Force(n)
	a.add(n)
}

// Charge counts n bytes, beyond the limit if need be, and reports whether
// they fit under it.
func (a *Account) Charge(n int64) bool {
	if a.Reserve(n) {
		return true
	}
	a.Force(n)
	return false
}

// Release returns n of the account's bytes.
func (a *Account) Release(n int64) {
	a.space.Release(n)
	a.add(-n)
}

func (a *Account) add(n int64) {
	a.mu.Lock()
	a.held += n
	a.mu.Unlock()
	if a.stats != nil {
		a.stats.Hold(n)
	}
}

// Held is the number of bytes the account holds now.
func (a *Account) Held() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.held
}

// Create makes a spill file that Close removes.
func (a *Account) Create(schema *arrow.Schema) (*File, error) {
	f, err := a.space.Create(schema)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.files = append(a.files, f)
	a.mu.Unlock()
	a.Force(writeBuffer)
	f.acct = a
	return f, nil
}

// Files are the files the account has created, in order.
func (a *Account) Files() []*File {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*File(nil), a.files...)
}

// Close removes the account's files and returns its bytes; it may be
// called more than once.
func (a *Account) Close() {
	a.mu.Lock()
	files, n := a.files, a.held
	a.files, a.held = nil, 0
	a.mu.Unlock()
	RemoveAll(files)
	a.space.Release(n)
	if a.stats != nil {
		a.stats.Hold(-n)
	}
}
