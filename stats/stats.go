package stats

import "time"

// Server is the one set of statistics of a running server.
type Server struct {
	Statements *Statements
	Tables     *Tables
	Databases  *Databases
	Copies     *Copies
}

// New returns empty statistics; now is when they start (stats_reset).
func New(now time.Time) *Server {
	return &Server{Statements: newStatements(now), Tables: newTables(), Databases: newDatabases(now), Copies: newCopies()}
}
