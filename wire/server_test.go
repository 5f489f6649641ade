package wire

// Unit tests of the protocol layer, run against protocolTestEngine (see
// testengine_test.go), not against joind's SQL engine.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

func TestStartupAfterSSLRequest(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := dialFE(t, ts.addr)
	c.send(&pgproto3.SSLRequest{})
	b := make([]byte, 1)
	if _, err := c.nc.Read(b); err != nil || b[0] != 'N' {
		t.Fatalf("SSLRequest answer %q, %v; want N", b, err)
	}
	expectMessages(t, c.startup(map[string]string{"user": "u"}), startupOK()...)
	expectMessages(t, c.query("select 1"), "T:?column?/23", "D:1", "C:SELECT 1", "Z:I")
}

func TestStartupAfterGSSENCRequest(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := dialFE(t, ts.addr)
	c.send(&pgproto3.GSSEncRequest{})
	b := make([]byte, 1)
	if _, err := c.nc.Read(b); err != nil || b[0] != 'N' {
		t.Fatalf("GSSENCRequest answer %q, %v; want N", b, err)
	}
	// psql with sslmode=prefer then tries SSL on the same socket.
	c.send(&pgproto3.SSLRequest{})
	if _, err := c.nc.Read(b); err != nil || b[0] != 'N' {
		t.Fatalf("SSLRequest answer %q, %v; want N", b, err)
	}
	expectMessages(t, c.startup(map[string]string{"user": "u"}), startupOK()...)
}

func TestStartupParametersReachSession(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := dialFE(t, ts.addr)
	got := c.startup(map[string]string{
		"user":             "alice",
		"application_name": "app",
		"DateStyle":        "SQL, DMY",
		"TimeZone":         "Europe/Paris",
		"options":          `-c search_path=s1 --enable-seqscan=off -cIntervalStyle=postgres_verbose -c lc_messages=a\ b -c datestyle=ignored`,
	})
	if got[len(got)-1] != "Z:I" {
		t.Fatalf("startup failed: %q", got)
	}
	want := map[string]string{
		"user":             "alice",
		"database":         "alice", // defaults to the user name
		"application_name": "app",
		"datestyle":        "SQL, DMY", // the startup parameter wins over -c
		"timezone":         "Europe/Paris",
		"search_path":      "s1",
		"enable_seqscan":   "off",
		"intervalstyle":    "postgres_verbose",
		"lc_messages":      "a b",
	}
	if p := ts.eng.lastSession().params; !reflect.DeepEqual(p, want) {
		t.Fatalf("session params\n got  %v\n want %v", p, want)
	}
	// The reported DateStyle is the session's, sent at startup.
	found := false
	for _, m := range got {
		found = found || m == "S:DateStyle=SQL, DMY"
	}
	if !found {
		t.Fatalf("DateStyle not reported: %q", got)
	}
}

func TestStartupErrors(t *testing.T) {
	ts := startTestServer(t, ServerOptions{Database: "joind"})
	cases := []struct {
		name   string
		packet []byte
		want   []string
	}{
		{"no user", rawStartup(3<<16, "database", "joind"),
			[]string{"E:FATAL:28000:no PostgreSQL user name specified in startup packet", "EOF"}},
		{"-c without value", rawStartup(3<<16, "user", "u", "database", "joind", "options", "-c foo"),
			[]string{"R", "E:FATAL:42601:-c foo requires a value", "EOF"}},
		{"-- without value", rawStartup(3<<16, "user", "u", "database", "joind", "options", "--foo"),
			[]string{"R", "E:FATAL:42601:--foo requires a value", "EOF"}},
		{"unknown switch", rawStartup(3<<16, "user", "u", "database", "joind", "options", "-x"),
			[]string{"R", "E:FATAL:42601:invalid command-line argument for server process: -x", "EOF"}},
		{"wrong database", rawStartup(3<<16, "user", "u", "database", "other"),
			[]string{"R", `E:FATAL:3D000:database "other" does not exist`, "EOF"}},
		{"protocol 2", rawStartup(2<<16, "user", "u"),
			[]string{"E:FATAL:0A000:unsupported frontend protocol 2.0: server supports 3.0 to 3.0", "EOF"}},
		{"protocol 3.1 with _pq_ option", rawStartup(3<<16|1, "user", "u", "database", "joind", "_pq_.b", "1", "_pq_.a", "2"),
			append([]string{"v:196608:_pq_.a,_pq_.b"}, startupOK()...)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dialFE(t, ts.addr)
			c.writeRaw(tc.packet)
			expectMessages(t, c.untilReady(), tc.want...)
		})
	}
}

func TestEngineRefusesSession(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	ts.eng.refuse = errors.New("no room")
	c := dialFE(t, ts.addr)
	expectMessages(t, c.startup(map[string]string{"user": "u"}), "R", "E:FATAL:XX000:no room", "EOF")
}

func TestSimpleQueryMessages(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	cases := []struct {
		sql  string
		want []string
	}{
		{"", []string{"I", "Z:I"}},
		{"-- ping", []string{"I", "Z:I"}},
		{" ; ", []string{"I", "Z:I"}},
		{"select 1; select 2", []string{"T:?column?/23", "D:1", "C:SELECT 1", "T:?column?/23", "D:2", "C:SELECT 1", "Z:I"}},
		// The first error stops the query string; one ReadyForQuery.
		{"select 1; fail; select 2", []string{"T:?column?/23", "D:1", "C:SELECT 1", "E:ERROR:22012:division by zero", "Z:I"}},
		{"select 1;  badcol foo", []string{"T:?column?/23", "D:1", "C:SELECT 1", `E:ERROR:42703:column "foo" does not exist:pos=19`, "Z:I"}},
		{"select 1; syntax", []string{`E:ERROR:42601:syntax error at or near "syntax":pos=11`, "Z:I"}},
		{"notice", []string{"N:NOTICE:hello", "C:SELECT 0", "Z:I"}},
		{"show user", []string{"T:user/25", "D:u", "C:SHOW", "Z:I"}},
		// Changed settings are reported once, just before ReadyForQuery
		// (PostgreSQL 14+ behaviour, checked against 15).
		{"set TimeZone=Europe/Paris; select 1", []string{"C:SET", "T:?column?/23", "D:1", "C:SELECT 1", "S:TimeZone=Europe/Paris", "Z:I"}},
		{"set TimeZone=Europe/Paris", []string{"C:SET", "Z:I"}},
		{"set TimeZone=UTC; set application_name=x", []string{"C:SET", "C:SET", "S:application_name=x", "S:TimeZone=UTC", "Z:I"}},
		{"begin", []string{"C:BEGIN", "Z:T"}},
		{"commit", []string{"C:COMMIT", "Z:I"}},
		// A query string that is not UTF-8 fails whole before parsing,
		// naming the bad character's bytes (as PostgreSQL 15 does).
		{"select 1; select 'a\xc3'", []string{`E:ERROR:22021:invalid byte sequence for encoding "UTF8": 0xc3 0x27`, "Z:I"}},
		{"select '\xed\xa0\x80'", []string{`E:ERROR:22021:invalid byte sequence for encoding "UTF8": 0xed 0xa0 0x80`, "Z:I"}},
	}
	for _, tc := range cases {
		expectMessages(t, c.query(tc.sql), tc.want...)
	}
}

func TestErrorResponseFields(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	c.send(&pgproto3.Query{String: "badcol zz"})
	_, m := c.recv()
	e, ok := m.(*pgproto3.ErrorResponse)
	if !ok {
		t.Fatalf("got %T, want ErrorResponse", m)
	}
	if e.Severity != "ERROR" || e.SeverityUnlocalized != "ERROR" || e.Code != "42703" ||
		e.Message != `column "zz" does not exist` || e.Hint != "Perhaps you meant another column." || e.Position != 8 {
		t.Fatalf("error fields: %+v", e)
	}
	expectMessages(t, c.untilReady(), "Z:I")
}

func TestPanicIsRecovered(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	got := c.query("select 1; panic; select 2")
	if len(got) != 5 || !strings.HasPrefix(got[3], "E:ERROR:XX000:internal error: ") || got[4] != "Z:I" {
		t.Fatalf("panic answer: %q", got)
	}
	expectMessages(t, c.query("select 3"), "T:?column?/23", "D:3", "C:SELECT 1", "Z:I")
	logs := ts.logs.String()
	if !strings.Contains(logs, "panic in executing a statement") || !strings.Contains(logs, "testengine_test.go") {
		t.Fatalf("panic not logged with its stack:\n%s", logs)
	}
	// Other clients are unaffected.
	c2 := connected(t, ts)
	expectMessages(t, c2.query("select 4"), "T:?column?/23", "D:4", "C:SELECT 1", "Z:I")
}

func TestExtendedProtocolRefusedUntilSync(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	c.send(&pgproto3.Parse{Query: "select 1"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{}, &pgproto3.Sync{})
	expectMessages(t, c.untilReady(), "E:ERROR:0A000:extended query protocol is not supported", "Z:I")
	expectMessages(t, c.query("select 1"), "T:?column?/23", "D:1", "C:SELECT 1", "Z:I")
	// A lone Sync just gets ReadyForQuery.
	c.send(&pgproto3.Sync{})
	expectMessages(t, c.untilReady(), "Z:I")
}

// TestSmallMessageLimit: a message without data claiming more than
// PostgreSQL's 10000-byte limit for it fails before its body arrives (no
// buffer of the claimed size is made, though the server takes 64 MiB
// messages); the query before it, in the same packet, is answered first.
func TestSmallMessageLimit(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	for _, typ := range []byte{'S', 'H', 'X', 'C', 'D', 'E', 'c', 'f'} {
		c := connected(t, ts)
		q, _ := (&pgproto3.Query{String: "select 5"}).Encode(nil)
		c.writeRaw(append(q, typ, 0, 0, 0x27, 0x15)) // 10005 bytes of body claimed, none sent
		expectMessages(t, c.untilReady(), "T:?column?/23", "D:5", "C:SELECT 1", "Z:I")
		expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid message length", "EOF")
	}
	// At the limit the body is read, and a Sync's must be empty.
	c := connected(t, ts)
	c.writeRaw(append([]byte{'S', 0, 0, 0x27, 0x14}, make([]byte, 10000)...))
	expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid message format", "EOF")
	// A large Query is fine.
	c = connected(t, ts)
	expectMessages(t, c.query("select 6; -- "+strings.Repeat("x", 20000)), "T:?column?/23", "D:6", "C:SELECT 1", "Z:I")
}

func TestMalformedMessageClosesOnlyThatConnection(t *testing.T) {
	ts := startTestServer(t, ServerOptions{MaxMessageSize: 1024})
	other := connected(t, ts)

	c := connected(t, ts)
	c.writeRaw([]byte{'z', 0, 0, 0, 4})
	expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid frontend message type 122", "EOF")

	c = connected(t, ts)
	c.send(&pgproto3.Query{String: strings.Repeat("x", 2000)})
	expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid message length", "EOF")

	c = connected(t, ts)
	c.writeRaw([]byte{'Q', 0, 0, 0, 2}) // length below the header's own 4 bytes
	expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid message length", "EOF")

	c = connected(t, ts)
	c.writeRaw([]byte{'Q', 0, 0, 0, 7, 'a', 'b', 'c'}) // query string without its NUL
	expectMessages(t, c.untilReady(), "E:FATAL:08P01:invalid message format", "EOF")

	expectMessages(t, other.query("select 1"), "T:?column?/23", "D:1", "C:SELECT 1", "Z:I")
}

func TestLargeResultStreamsBeforeStatementEnds(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	// "stream" sends ~220 KB of rows, then waits for release: the client must
	// see rows before that, i.e. the server flushed mid-statement.
	c.send(&pgproto3.Query{String: "stream 2000"})
	if s, _ := c.recv(); s != "T:r/25" {
		t.Fatalf("first message %q", s)
	}
	if s, _ := c.recv(); !strings.HasPrefix(s, "D:") {
		t.Fatalf("second message %q", s)
	}
	close(ts.eng.release)
	got := c.untilReady()
	if n := len(got); n != 2001 || got[n-2] != "C:SELECT 2000" || got[n-1] != "Z:I" {
		t.Fatalf("%d messages, last %q", n, got[max(0, n-2):])
	}
}

func TestTerminateClosesSession(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	c := connected(t, ts)
	sess := ts.eng.lastSession()
	c.send(&pgproto3.Terminate{})
	expectMessages(t, c.untilReady(), "EOF")
	waitFor(t, sess.isClosed)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func pgxConnect(t *testing.T, addr, appName string) *pgx.Conn {
	t.Helper()
	// sslmode=prefer: pgx opens with SSLRequest and falls back on 'N'.
	cfg, err := pgx.ParseConfig(fmt.Sprintf("postgres://tester@%s/somedb?sslmode=prefer&application_name=%s", addr, appName))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestPgxSimpleProtocol(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	conn := pgxConnect(t, ts.addr, "pgxtest")
	ctx := context.Background()

	if v := conn.PgConn().ParameterStatus("server_version"); v != "15.18" {
		t.Fatalf("server_version %q", v)
	}
	if v := conn.PgConn().ParameterStatus("application_name"); v != "pgxtest" {
		t.Fatalf("application_name %q", v)
	}
	if err := conn.Ping(ctx); err != nil { // sends "-- ping"
		t.Fatalf("ping: %v", err)
	}
	var n int32
	if err := conn.QueryRow(ctx, "select 42").Scan(&n); err != nil || n != 42 {
		t.Fatalf("select 42: %d, %v", n, err)
	}

	_, err := conn.Exec(ctx, "badcol c1")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42703" || pe.Position != 8 || pe.Severity != "ERROR" {
		t.Fatalf("badcol: %#v", err)
	}

	results, err := conn.PgConn().Exec(ctx, "select 1; fail; select 2").ReadAll()
	if !errors.As(err, &pe) || pe.Code != "22012" {
		t.Fatalf("multi-statement error: %v", err)
	}
	if len(results) == 0 || len(results[0].Rows) != 1 || string(results[0].Rows[0][0]) != "1" {
		t.Fatalf("first statement's result lost: %+v", results)
	}
	for _, r := range results[1:] {
		if len(r.Rows) > 0 {
			t.Fatalf("statement after the error ran: %+v", r)
		}
	}

	if _, err := conn.Exec(ctx, "panic"); !errors.As(err, &pe) || pe.Code != "XX000" {
		t.Fatalf("panic: %v", err)
	}
	if err := conn.QueryRow(ctx, "select 7").Scan(&n); err != nil || n != 7 {
		t.Fatalf("after panic: %d, %v", n, err)
	}

	// The session knows its backend process id (for pg_backend_pid()).
	var pid int32
	if err := conn.QueryRow(ctx, "pid").Scan(&pid); err != nil || uint32(pid) != conn.PgConn().PID() {
		t.Fatalf("pid: %d, %v; BackendKeyData said %d", pid, err, conn.PgConn().PID())
	}

	if _, err := conn.Exec(ctx, "set TimeZone=Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	if v := conn.PgConn().ParameterStatus("TimeZone"); v != "Asia/Tokyo" {
		t.Fatalf("TimeZone after SET: %q", v)
	}
}

func TestCancelRequestCancelsOnlyItsBackend(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	a := pgxConnect(t, ts.addr, "a")
	b := pgxConnect(t, ts.addr, "b")
	idle := pgxConnect(t, ts.addr, "idle")

	run := func(conn *pgx.Conn) chan error {
		ch := make(chan error, 1)
		go func() {
			_, err := conn.Exec(context.Background(), "sleep")
			ch <- err
		}()
		return ch
	}
	doneA, doneB := run(a), run(b)
	started := map[string]bool{}
	for range 2 {
		select {
		case name := <-ts.eng.started:
			started[name] = true
		case <-time.After(5 * time.Second):
			t.Fatal("queries did not start")
		}
	}

	// Cancelling an idle backend does nothing to the others (or to it).
	if err := idle.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A wrong secret key cancels nothing.
	bad := dialFE(t, ts.addr)
	key := append([]byte(nil), a.PgConn().SecretKey()...)
	key[0] ^= 0xff
	bad.send(&pgproto3.CancelRequest{ProcessID: a.PgConn().PID(), SecretKey: key})
	expectMessages(t, bad.untilReady(), "EOF")

	select {
	case err := <-doneA:
		t.Fatalf("a ended without a valid cancel: %v", err)
	case err := <-doneB:
		t.Fatalf("b ended without a valid cancel: %v", err)
	case <-time.After(200 * time.Millisecond):
	}

	if err := a.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	var pe *pgconn.PgError
	select {
	case err := <-doneA:
		if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
			t.Fatalf("a: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a not cancelled")
	}
	select {
	case err := <-doneB:
		t.Fatalf("b was cancelled too: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if err := b.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-doneB; !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("b: %v", err)
	}
	// All three connections still work.
	for _, conn := range []*pgx.Conn{a, b, idle} {
		var n int32
		if err := conn.QueryRow(context.Background(), "select 5").Scan(&n); err != nil || n != 5 {
			t.Fatalf("after cancel: %d, %v", n, err)
		}
	}
}

func TestShutdownTerminatesClients(t *testing.T) {
	ts := startTestServer(t, ServerOptions{})
	idle := connected(t, ts)
	busy := connected(t, ts)
	busy.send(&pgproto3.Query{String: "sleep"})
	<-ts.eng.started
	inStartup := dialFE(t, ts.addr) // connected, StartupMessage not sent yet

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	fatal := "E:FATAL:57P01:terminating connection due to administrator command"
	expectMessages(t, busy.untilReady(), fatal, "EOF")
	expectMessages(t, idle.untilReady(), fatal, "EOF")
	expectMessages(t, inStartup.untilReady(), "EOF")
	<-ts.done
	if !errors.Is(ts.serveErr, ErrServerClosed) {
		t.Fatalf("Serve returned %v", ts.serveErr)
	}
	for _, s := range ts.eng.sessions {
		if !s.isClosed() {
			t.Fatal("session not closed at shutdown")
		}
	}
	if nc, err := net.DialTimeout("tcp", ts.addr, time.Second); err == nil {
		nc.Close()
		t.Fatal("still accepting after shutdown")
	}
}

func TestServeStopsWhenContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(newProtocolTestEngine(), ServerOptions{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	c := dialFE(t, ln.Addr().String())
	expectMessages(t, c.startup(map[string]string{"user": "u"}), startupOK()...)
	cancel()
	if err := <-done; !errors.Is(err, ErrServerClosed) {
		t.Fatalf("Serve: %v", err)
	}
	expectMessages(t, c.untilReady(), "E:FATAL:57P01:terminating connection due to administrator command", "EOF")
}

func TestPsql(t *testing.T) {
	psql, err := exec.LookPath("/usr/lib/postgresql/15/bin/psql")
	if err != nil {
		if psql, err = exec.LookPath("psql"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("psql is not installed (CI=true: .ci/run installs postgresql-client-15)")
			}
			t.Skip("psql not on PATH")
		}
	}
	ts := startTestServer(t, ServerOptions{})
	host, port, _ := net.SplitHostPort(ts.addr)
	cmd := exec.Command(psql, "-X", "-h", host, "-p", port, "-U", "someone", "-d", "db", "-c", "select 1")
	// psql tries GSSENCRequest (if built with GSSAPI) and SSLRequest first.
	cmd.Env = append(cmd.Environ(), "PGSSLMODE=prefer", "PGGSSENCMODE=prefer", "PGCONNECT_TIMEOUT=5")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	want := " ?column? \n----------\n        1\n(1 row)\n\n"
	if string(out) != want {
		t.Fatalf("psql output:\n%q\nwant\n%q", out, want)
	}

	cmd = exec.Command(psql, "-X", "-h", host, "-p", port, "-U", "someone", "-c", "select 1;  badcol nope")
	cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=5")
	out, _ = cmd.CombinedOutput()
	wantErr := want + "ERROR:  column \"nope\" does not exist\nLINE 1: select 1;  badcol nope\n                          ^\nHINT:  Perhaps you meant another column.\n"
	if string(out) != wantErr {
		t.Fatalf("psql error output:\n%q\nwant\n%q", out, wantErr)
	}
}
