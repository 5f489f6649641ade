package wire

import (
	"errors"
	"sync"
	"syscall"
	"time"
)

// While a query runs, the connection checks every clientCheckInterval
// whether the client has gone (closed its end, or the connection was
// reset) and, if so, cancels the query: a query whose client has vanished
// would otherwise run to its end (an endless recursive CTE: forever), as
// PostgreSQL does unless client_connection_check_interval is set. joind
// always checks; the check is a non-blocking peek at the socket, so
// pipelined messages the client already sent stay unread.
const clientCheckInterval = time.Second

var errClientGone = errors.New("client closed the connection")

// watchClient starts checking for a vanished client on behalf of the
// query that cancel cancels, and returns the function that stops it.
func (c *conn) watchClient(cancel func(error)) (stop func()) {
	sc, ok := c.raw.(syscall.Conn)
	if !ok {
		return func() {}
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return func() {}
	}
	g := &watchGate{mu: &sync.Mutex{}}
	var t *time.Timer
	gone := func() bool {
		if clientGone(rc) {
			c.log.Info("client closed the connection during a query: cancelling it")
			return true
		}
		return false
	}
	g.mu.Lock()
	t = time.AfterFunc(clientCheckInterval, func() {
		g.fire(gone, cancel, func() { t.Reset(clientCheckInterval) })
	})
	g.mu.Unlock()
	return func() { g.stop(func() { t.Stop() }) }
}

// watchGate serialises the timer's checks with stop.
//
// INVARIANT: after stop returns, cancel is never called. fire and stop
// serialise on mu, and stop marks the gate stopped before it releases mu,
// so a fire either completes (cancel included) before stop takes mu or
// sees stopped. TestClientWatchNeverCancelsAfterStop
// explores every interleaving of fires, the client leaving and stop.
type watchGate struct {
	mu      sync.Locker
	stopped bool
}

// fire is one timer expiry: unless stopped, cancel the query if the client
// has gone, else re-arm the timer.
func (g *watchGate) fire(gone func() bool, cancel func(error), rearm func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	if gone() {
		cancel(errClientGone)
		return
	}
	rearm()
}

// stop ends the watch: no cancel after it returns.
func (g *watchGate) stop(stopTimer func()) {
	g.mu.Lock()
	g.stopped = true
	stopTimer()
	g.mu.Unlock()
}

// clientGone peeks at the socket without blocking: end of file or a
// socket error means the client is gone; pending data or nothing to read
// means it is still there.
func clientGone(rc syscall.RawConn) bool {
	gone := false
	_ = rc.Control(func(fd uintptr) {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == nil:
			gone = n == 0
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR):
		default:
			gone = true
		}
	})
	return gone
}
