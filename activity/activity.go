package activity

import (
	"sort"
	"sync"
	"time"
)

// State is a backend's pg_stat_activity.state.
type State uint8

const (
	Idle State = iota
	Active
	IdleInTransaction
	IdleInTransactionAborted
)

func (s State) String() string {
	return [...]string{"idle", "active", "idle in transaction", "idle in transaction (aborted)"}[s]
}

// Signals are how a backend is told to stop from another session.
type Signals struct {
	// Cancel cancels the backend's running query, if any (57014).
	Cancel func()
	// Terminate ends the backend's connection (FATAL 57P01).
	Terminate func()
}

// Registry is the set of live backends.
//
// INVARIANT: every field of a Backend that changes after Register is
// written and read only under that Backend's mu, so a Row is the state of
// one instant (never a query with the previous query's start time); the
// map is guarded by the Registry's mu, and signals run outside both locks
// (a Cancel takes the connection's own lock).
type Registry struct {
	started  time.Time
	mu       sync.Mutex
	backends map[int32]*Backend
}

// NewRegistry returns an empty registry; now is the server's start time
// (pg_postmaster_start_time).
func NewRegistry(now time.Time) *Registry {
	return &Registry{started: now, backends: map[int32]*Backend{}}
}

// Started is when the server started.
func (r *Registry) Started() time.Time { return r.started }

// Backend is one connection's entry.
type Backend struct {
	// Set at Register, then read-only.
	PID                   int32
	User, Database        string
	ClientAddr            string // "" for a connection without an IP address
	ClientPort            int32
	ServerAddr            string // the address the connection was accepted on; "" as ClientAddr
	ServerPort            int32
	BackendStart          time.Time
	signals               Signals
	registry              *Registry
	mu                    sync.Mutex
	appName               string
	state                 State
	query                 string
	xactStart, queryStart time.Time
	stateChange           time.Time
	inTransaction         bool
}

// Register adds a backend (b's read-only fields filled in) and returns it.
func (r *Registry) Register(b *Backend, sig Signals, appName string) *Backend {
	b.signals, b.registry, b.appName = sig, r, appName
	b.stateChange = b.BackendStart
	r.mu.Lock()
	r.backends[b.PID] = b
	r.mu.Unlock()
	return b
}

// Unregister removes the backend.
func (b *Backend) Unregister() {
	r := b.registry
	r.mu.Lock()
	if r.backends[b.PID] == b {
		delete(r.backends, b.PID)
	}
	r.mu.Unlock()
}

// StartQuery records that the backend began running query. A query that
// starts outside a transaction block starts a transaction too
// (xact_start), as in PostgreSQL.
func (b *Backend) StartQuery(query string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.inTransaction {
		b.xactStart = now
	}
	b.query, b.queryStart, b.state, b.stateChange = query, now, Active, now
}

// Ready records the transaction status a ReadyForQuery reports ('I', 'T'
// or 'E').
func (b *Backend) Ready(txStatus byte, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := Idle
	switch txStatus {
	case 'T':
		st = IdleInTransaction
	case 'E':
		st = IdleInTransactionAborted
	}
	b.inTransaction = st != Idle
	// An aborted transaction block has no transaction running, only the
	// block waiting for ROLLBACK: PostgreSQL shows no xact_start then.
	if st == Idle || st == IdleInTransactionAborted {
		b.xactStart = time.Time{}
	}
	if st != b.state {
		b.state, b.stateChange = st, now
	}
}

// SetApplicationName records a new application_name.
func (b *Backend) SetApplicationName(name string) {
	b.mu.Lock()
	b.appName = name
	b.mu.Unlock()
}

// Row is one backend as pg_stat_activity shows it; zero times are NULL.
type Row struct {
	PID                                              int32
	User, Database, ApplicationName                  string
	ClientAddr                                       string
	ClientPort                                       int32
	ServerAddr                                       string
	ServerPort                                       int32
	BackendStart, XactStart, QueryStart, StateChange time.Time
	State, Query                                     string
}

// Rows returns every live backend's row, by PID.
func (r *Registry) Rows() []Row {
	r.mu.Lock()
	bs := make([]*Backend, 0, len(r.backends))
	for _, b := range r.backends {
		bs = append(bs, b)
	}
	r.mu.Unlock()
	out := make([]Row, 0, len(bs))
	for _, b := range bs {
		b.mu.Lock()
		row := Row{PID: b.PID, User: b.User, Database: b.Database, ApplicationName: b.appName,
			ClientAddr: b.ClientAddr, ClientPort: b.ClientPort, ServerAddr: b.ServerAddr, ServerPort: b.ServerPort,
			BackendStart: b.BackendStart,
			XactStart:    b.xactStart, QueryStart: b.queryStart, StateChange: b.stateChange,
			State: b.state.String(), Query: b.query}
		b.mu.Unlock()
		out = append(out, row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Cancel cancels the running query of backend pid; false if there is no
// such backend.
func (r *Registry) Cancel(pid int32) bool {
	return r.signal(pid, func(s Signals) func() { return s.Cancel })
}

// Terminate ends backend pid's connection; false if there is no such
// backend.
func (r *Registry) Terminate(pid int32) bool {
	return r.signal(pid, func(s Signals) func() { return s.Terminate })
}

func (r *Registry) signal(pid int32, which func(Signals) func()) bool {
	r.mu.Lock()
	b := r.backends[pid]
	r.mu.Unlock()
	if b == nil {
		return false
	}
	if f := which(b.signals); f != nil {
		f()
	}
	return true
}
