package wire

import (
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestMaxConnections: with max_connections 4 and 2 reserved slots, two
// ordinary users connect, a third is refused with PostgreSQL's reserved
// wording after authentication, superusers take the last two slots, the
// next client is refused with "sorry, too many clients already", and a slot
// freed by a disconnect is usable again.
func TestMaxConnections(t *testing.T) {
	ts := startTestServer(t, ServerOptions{MaxConnections: 4, SuperuserReservedConnections: 2,
		IsSuperuser: func(user string) bool { return user == "admin" }})
	login := func(user string) (*feClient, []string) {
		c := dialFE(t, ts.addr)
		return c, c.startup(map[string]string{"user": user, "database": "d"})
	}
	var open []*feClient
	for range 2 {
		c, got := login("u")
		expectMessages(t, got, startupOK()...)
		open = append(open, c)
	}
	_, got := login("u")
	expectMessages(t, got, "R", "E:FATAL:53300:remaining connection slots are reserved for non-replication superuser connections", "EOF")
	for range 2 {
		c, got := login("admin")
		expectMessages(t, got, startupOK()...)
		open = append(open, c)
	}
	_, got = login("admin")
	expectMessages(t, got, "E:FATAL:53300:sorry, too many clients already", "EOF")

	open[0].send(&pgproto3.Terminate{})
	open[0].nc.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, got := login("admin")
		if len(got) > 1 && got[len(got)-1] == "Z:I" {
			c.query("SELECT 1")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the freed slot was not reused: %q", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestIdleSocketsBounded: sockets that never send a startup packet are
// bounded to twice max_connections; past that an accepted socket is
// answered FATAL 53300 at once and closed.
func TestIdleSocketsBounded(t *testing.T) {
	ts := startTestServer(t, ServerOptions{MaxConnections: 2})
	for range 4 {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := dialFE(t, ts.addr)
		_ = c.nc.SetReadDeadline(time.Now().Add(2 * time.Second))
		if s, _ := c.recv(); s == "E:FATAL:53300:sorry, too many clients already" {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("fifth idle socket: %s, want FATAL 53300", s)
		}
		c.nc.Close()
	}
}

// TestAuthenticationTimeout: a client that does not finish its startup
// within authentication_timeout is disconnected.
func TestAuthenticationTimeout(t *testing.T) {
	ts := startTestServer(t, ServerOptions{StartupTimeout: 300 * time.Millisecond})
	c := dialFE(t, ts.addr)
	start := time.Now()
	_ = c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	if s, _ := c.recv(); s != "EOF" {
		t.Fatalf("silent client: %s, want the connection closed", s)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 3*time.Second {
		t.Errorf("closed after %v, authentication_timeout 300ms", d)
	}
}
