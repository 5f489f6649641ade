package stats

import "time"

// Server is the one set of statistics of a running server.
type Server struct {
	Statements *Statements
	Tables     *Tables
	Databases  *Databases
	Copies     *Copies
	Observer   Observer // nil: nobody listens
}

// New returns empty statistics; now is when they start (stats_reset).
func New(now time.Time) *Server {
	return &Server{Statements: newStatements(now), Tables: newTables(), Databases: newDatabases(now), Copies: newCopies()}
}

// Observer hears of events as they happen, for what counts them outside
// the views (package metrics' Prometheus collectors). Set Server.Observer
// before the server serves; it is read-only afterwards, and its methods
// are called from every session at once.
type Observer interface {
	// StatementDone is one statement's end: sqlstate "" for success.
	StatementDone(elapsed time.Duration, rows int64, sqlstate string)
	// CommitDone is one commit's end (its durability wait included).
	CommitDone(elapsed time.Duration, ok bool)
}

// StatementDone tells the observer, if any.
func (s *Server) StatementDone(elapsed time.Duration, rows int64, sqlstate string) {
	if s != nil && s.Observer != nil {
		s.Observer.StatementDone(elapsed, rows, sqlstate)
	}
}

// CommitDone tells the observer, if any.
func (s *Server) CommitDone(elapsed time.Duration, ok bool) {
	if s != nil && s.Observer != nil {
		s.Observer.CommitDone(elapsed, ok)
	}
}
