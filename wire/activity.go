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
		BackendStart: c.started, ClientPort: -1}
	if host, port, err := net.SplitHostPort(c.nc.RemoteAddr().String()); err == nil {
		if ip := net.ParseIP(host); ip != nil {
			b.ClientAddr = ip.String()
			if p, err := strconv.Atoi(port); err == nil {
				b.ClientPort = int32(p)
			}
		}
	}
	c.act = reg.Register(b, activity.Signals{
		Cancel:    func() { c.cancelQuery(errQueryCanceled) },
		Terminate: c.shutdown,
	}, params["application_name"])
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
