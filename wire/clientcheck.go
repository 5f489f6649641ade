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
//
// INVARIANT: after stop returns, cancel is never called (the timer's
// check and stop serialise on mu, and stop marks the watcher stopped
// before it releases mu).
func (c *conn) watchClient(cancel func(error)) (stop func()) {
	sc, ok := c.raw.(syscall.Conn)
	if !ok {
		return func() {}
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return func() {}
	}
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		if clientGone(rc) {
			c.log.Info("client closed the connection during a query: cancelling it")
			cancel(errClientGone)
			return
		}
		t.Reset(clientCheckInterval)
	}
	mu.Lock()
	t = time.AfterFunc(clientCheckInterval, check)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
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
