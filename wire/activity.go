package wire

import (
	"net"
	"strconv"
	"time"

	"github.com/joind/joind/activity"
)

// The connection's entry in the server's activity registry
// (ServerOptions.Activity): pg_stat_activity's row, and the signals
// pg_cancel_backend and pg_terminate_backend send. Every method is a
// no-op without a registry.

// QueryText is implemented by a Portal that knows the SQL it runs, which
// pg_stat_activity shows while it executes.
type QueryText interface{ SQL() string }

func (c *conn) registerActivity(params map[string]string) {
	reg := c.srv.opts.Activity
	if reg == nil {
		return
	}
	b := &activity.Backend{PID: int32(c.pid), User: params["user"], Database: params["database"],
		BackendStart: c.started}
	b.ClientAddr, b.ClientPort = ipAndPort(c.nc.RemoteAddr())
	b.ServerAddr, b.ServerPort = ipAndPort(c.nc.LocalAddr())
	c.act = reg.Register(b, activity.Signals{
		Cancel:    func() { c.cancelQuery(errQueryCanceled) },
		Terminate: c.shutdown,
	}, params["application_name"])
}

// ipAndPort is an IP connection's address and port; "" and -1 for any
// other (a Unix socket).
func ipAndPort(a net.Addr) (string, int32) {
	if a == nil {
		return "", -1
	}
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "", -1
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return "", -1
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return ip.String(), -1
	}
	return ip.String(), int32(p)
}

func (c *conn) activityStart(query string) {
	if c.act != nil {
		c.act.StartQuery(query, time.Now())
	}
}

func (c *conn) activityReady(txStatus byte) {
	if c.act != nil {
		c.act.SetApplicationName(c.reported["application_name"])
		c.act.Ready(txStatus, time.Now())
	}
}

func (c *conn) unregisterActivity() {
	if c.act != nil {
		c.act.Unregister()
	}
}
