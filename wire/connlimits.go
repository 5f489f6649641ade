package wire

import (
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/pgerr"
)

// Connection slots, as PostgreSQL's max_connections and
// superuser_reserved_connections: a connection takes a slot once its
// startup packet is read (InitProcess, before authentication) and holds it
// until it ends; with none free it is refused with 53300 "sorry, too many
// clients already". After authentication a user who is not a superuser is
// refused when fewer than superuser_reserved_connections slots remain
// free. Sockets that have not sent a startup packet are bounded too, to
// twice max_connections (the postmaster's MaxLivePostmasterChildren), so
// idle unauthenticated connections cannot use up the process's files.

const (
	defaultMaxConnections        = 100
	defaultSuperuserReservedSlot = 3
)

func errTooManyClients() *pgerr.Error {
	return pgerr.New(tooManyConnections, "sorry, too many clients already")
}

const tooManyConnections = "53300"

func errReservedSlots() *pgerr.Error {
	return pgerr.New(tooManyConnections, "remaining connection slots are reserved for non-replication superuser connections")
}

// takeSlot claims a connection slot for c; false when none is free.
func (s *Server) takeSlot(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slots >= s.opts.MaxConnections {
		return false
	}
	s.slots++
	c.hasSlot = true
	return true
}

// releaseSlot gives c's slot back, if it holds one.
func (s *Server) releaseSlot(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.hasSlot {
		c.hasSlot = false
		s.slots--
	}
}

// reservedOnly reports whether the free slots (c's own already taken) are
// fewer than superuser_reserved_connections: HaveNFreeProcs.
func (s *Server) reservedOnly() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.MaxConnections-s.slots < s.opts.SuperuserReservedConnections
}

// isSuperuser says whether user may use the reserved slots (every joind
// user is a superuser unless ServerOptions.IsSuperuser says otherwise).
func (s *Server) isSuperuser(user string) bool {
	return s.opts.IsSuperuser == nil || s.opts.IsSuperuser(user)
}

// tooManySockets reports whether the accepted sockets (before this one)
// are at the bound for connections not yet given a slot.
func (s *Server) tooManySockets() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns) >= 2*s.opts.MaxConnections
}

// refuseSocket answers an accepted socket over the bound with FATAL 53300
// and closes it, without reading from it.
func refuseSocket(nc net.Conn) {
	_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
	m := errorFields(errTooManyClients(), "FATAL")
	m.Severity, m.SeverityUnlocalized = "FATAL", "FATAL"
	be := pgproto3.NewBackend(nc, nc)
	be.Send(&m)
	_ = be.Flush()
	nc.Close()
}
