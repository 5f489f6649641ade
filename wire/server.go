package wire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/joind/joind/activity"
)

// ErrServerClosed is returned by Serve after Shutdown (or after Serve's
// context ends).
var ErrServerClosed = errors.New("wire: server closed")

// Causes of a cancelled query context, so the connection can tell the client
// why its query stopped.
var (
	errQueryCanceled  = errors.New("query canceled by cancel request")
	errServerShutdown = errors.New("server shutting down")
)

const (
	defaultMaxMessageSize = 64 << 20 // 64 MiB
	defaultFlushBytes     = 64 << 10 // 64 KiB
	defaultStartupTimeout = time.Minute
)

// ServerOptions tune a Server. The zero value is usable.
type ServerOptions struct {
	// Database, if set, is the only database name a client may ask for;
	// others are refused with 3D000. Empty accepts any name.
	Database string
	// MaxMessageSize bounds the body of one client message (default 64 MiB);
	// a larger message is a protocol violation that closes the connection.
	MaxMessageSize int
	// FlushBytes is how much result data is buffered before it is written
	// to the client mid-statement (default 64 KiB).
	FlushBytes int
	// StartupTimeout bounds the startup phase (default 1 minute), like
	// PostgreSQL's authentication_timeout.
	StartupTimeout time.Duration
	// Auth says who may connect and how (see AuthConfig for the default).
	Auth AuthConfig
	// TLS, if set, makes the server answer SSLRequest with 'S' and
	// encrypt the connection.
	TLS *tls.Config
	// RequireTLSRemote refuses unencrypted connections from other machines.
	RequireTLSRemote bool
	// Activity, if set, is where connections record what they do
	// (pg_stat_activity) and how to signal them.
	Activity *activity.Registry
	// MaxConnections is max_connections (default 100): the connections
	// that may be past their startup packet at once (connlimits.go).
	MaxConnections int
	// SuperuserReservedConnections is superuser_reserved_connections
	// (default 3; negative: 0): the last slots, for superusers only.
	SuperuserReservedConnections int
	// IsSuperuser says which users may take the reserved slots (nil:
	// every user, as every joind user is a superuser).
	IsSuperuser func(user string) bool
}

// Server accepts PostgreSQL wire-protocol connections and serves each with a
// Session of its Engine, one goroutine per connection.
type Server struct {
	engine Engine
	opts   ServerOptions
	log    *slog.Logger

	mu        sync.Mutex
	closing   bool
	listeners map[net.Listener]struct{}
	conns     map[uint32]*conn // by backend process id
	slots     int              // connections holding a slot (connlimits.go)
	nextPID   uint32
	wg        sync.WaitGroup // one per accepted connection
	// scramCache holds SCRAM verifiers derived from plain-text passwords.
	scramCache map[string]*scramVerifier
	// mockKey keys the SCRAM salts the server makes up (mockSalt).
	mockKey [32]byte
}

// NewServer returns a Server for engine. A nil logger discards logs.
func NewServer(engine Engine, opts ServerOptions, logger *slog.Logger) *Server {
	if opts.MaxMessageSize <= 0 {
		opts.MaxMessageSize = defaultMaxMessageSize
	}
	if opts.FlushBytes <= 0 {
		opts.FlushBytes = defaultFlushBytes
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = defaultStartupTimeout
	}
	if opts.MaxConnections <= 0 {
		opts.MaxConnections = defaultMaxConnections
	}
	if opts.SuperuserReservedConnections == 0 {
		opts.SuperuserReservedConnections = defaultSuperuserReservedSlot
	}
	opts.SuperuserReservedConnections = max(opts.SuperuserReservedConnections, 0)
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var seed [2]byte
	_, _ = rand.Read(seed[:])
	var mockKey [32]byte
	_, _ = rand.Read(mockKey[:])
	return &Server{
		mockKey:   mockKey,
		engine:    engine,
		opts:      opts,
		log:       logger,
		listeners: make(map[net.Listener]struct{}),
		conns:     make(map[uint32]*conn),
		// Process ids start at a random small offset so two joind runs do not
		// hand out the same ids; they stay positive int32s as clients expect.
		nextPID: 1000 + uint32(binary.BigEndian.Uint16(seed[:])),
	}
}

// Serve accepts connections on ln until Shutdown is called or ctx ends (which
// starts a shutdown without deadline). It closes ln and returns
// ErrServerClosed, or the listener's error if accepting fails for good.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()

	stop := context.AfterFunc(ctx, func() { _ = s.Shutdown(context.Background()) })
	defer stop()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		ln.Close()
	}()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				// Transient (e.g. out of file descriptors): wait and retry
				// rather than stop serving everyone.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				s.log.Warn("accept failed; retrying", "err", err, "retry_in", backoff)
				time.Sleep(backoff)
				continue
			}
			return err
		}
		backoff = 0
		if s.tooManySockets() {
			go refuseSocket(nc)
			continue
		}
		c := s.register(nc)
		if c == nil {
			nc.Close()
			continue
		}
		go c.serve()
	}
}

// register creates the conn for nc and records it, unless the server is
// shutting down (then it returns nil).
func (s *Server) register(nc net.Conn) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil
	}
	pid := s.nextPID
	for {
		pid++
		if pid > 1<<31-1 {
			pid = 1000
		}
		if _, used := s.conns[pid]; !used {
			break
		}
	}
	s.nextPID = pid
	c := newConn(s, nc, pid)
	s.conns[pid] = c
	s.wg.Add(1)
	return c
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	delete(s.conns, c.pid)
	s.mu.Unlock()
	s.wg.Done()
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// cancelBackend handles a CancelRequest: it cancels the running query of the
// backend with this process id, if the secret key matches. Like PostgreSQL it
// says nothing to the requester either way.
func (s *Server) cancelBackend(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c == nil || len(secret) != len(c.secret) || subtle.ConstantTimeCompare(secret, c.secret[:]) != 1 {
		s.log.Debug("cancel request for unknown backend or with wrong key", "pid", pid)
		return
	}
	c.cancelQuery(errQueryCanceled)
}

// Shutdown stops accepting connections, cancels every running query and ends
// every connection with FATAL 57P01. It waits for the connections to finish;
// if ctx ends first it closes the remaining sockets and returns ctx.Err().
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for ln := range s.listeners {
		ln.Close()
	}
	conns := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	for _, c := range conns {
		c.shutdown()
	}
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for _, c := range s.conns {
			c.nc.Close()
		}
		s.mu.Unlock()
		return ctx.Err()
	}
}
