package wire

// Native fuzz targets for the protocol: FuzzStartup here (the untyped
// startup packets and authentication, against protocolTestEngine), and
// FuzzFrontendMessages in fuzz_engine_test.go (every message after startup,
// against joind's engine). `go test ./wire` runs their seeds and
// testdata/fuzz/<Name>/ (inputs that once failed, kept as regressions); to
// search longer run one target at a time, e.g.
//
//	go test ./wire -run '^$' -fuzz '^FuzzStartup$' -fuzztime 10m
//
// Each input is written to a fresh loopback connection, followed by a
// half-close, and everything the server sends is read back. The server
// must answer with well-formed messages whose errors carry a SQLSTATE it
// may send at that point, close the connection within a deadline, log no
// recovered panic, and serve the next connection normally.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// The exchange and its checks, for FuzzFrontendMessages in package
// wire_test.
var (
	FuzzExchange        = exchange
	FuzzBackendMessages = backendMessages
	FuzzCheckErrors     = checkErrors
)

// fuzzDeadline bounds one input's exchange: the server must have closed
// the connection by then.
const fuzzDeadline = 10 * time.Second

// FuzzLog records what the server logs at level Error, which it does only
// for a recovered panic.
type FuzzLog struct {
	mu   sync.Mutex
	logs []string
}

func (l *FuzzLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.logs = append(l.logs, string(p))
	return len(p), nil
}

// Take returns and forgets the logged panics.
func (l *FuzzLog) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.logs
	l.logs = nil
	return out
}

// Logger is the server's logger, keeping only level Error.
func (l *FuzzLog) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelError}))
}

// exchange writes input to a new connection to addr, half-closes it and
// returns everything the server sent. reset reports that the server reset
// the connection (it closed with input unread), which may lose its last
// bytes. It fails t if the server has not closed by the deadline.
func exchange(t *testing.T, addr string, prefix, input []byte) (out []byte, reset bool) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(fuzzDeadline))
	// Write from another goroutine: a server that answers a lot while
	// we still write must not deadlock the test.
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		if _, err := nc.Write(append(append([]byte(nil), prefix...), input...)); err == nil {
			_ = nc.(*net.TCPConn).CloseWrite()
		}
	}()
	out, err = io.ReadAll(nc)
	<-wrote
	var ne net.Error
	switch {
	case err == nil:
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatalf("server did not close the connection within %v (input %q); it sent %q", fuzzDeadline, input, out)
	case errors.Is(err, syscall.ECONNRESET):
		reset = true
	default:
		t.Fatalf("reading the answer: %v", err)
	}
	return out, reset
}

// backendMessages decodes a server's output. A message cut short is an
// error unless the connection was reset.
func backendMessages(t *testing.T, out []byte, reset bool, input []byte) []pgproto3.BackendMessage {
	t.Helper()
	frames, pos := 0, 0
	for len(out)-pos >= 5 {
		n := int(int32(binary.BigEndian.Uint32(out[pos+1:])))
		if n < 4 {
			t.Fatalf("input %q: answer %q has a message of length %d", input, out, n)
		}
		if pos+1+n > len(out) {
			break
		}
		pos += 1 + n
		frames++
	}
	if pos < len(out) && !reset {
		t.Fatalf("input %q: answer %q ends in a partial message", input, out)
	}
	fe := pgproto3.NewFrontend(bytes.NewReader(out[:pos]), io.Discard)
	msgs := make([]pgproto3.BackendMessage, 0, frames)
	for range frames {
		m, err := fe.Receive()
		if err != nil {
			t.Fatalf("input %q: undecodable answer %q: %v", input, out, err)
		}
		// Receive reuses its messages: keep copies of those checked later.
		msgs = append(msgs, copyBackendMessage(m))
	}
	return msgs
}

func copyBackendMessage(m pgproto3.BackendMessage) pgproto3.BackendMessage {
	switch m := m.(type) {
	case *pgproto3.ErrorResponse:
		c := *m
		return &c
	case *pgproto3.ReadyForQuery:
		c := *m
		return &c
	}
	return m
}

// validSQLSTATE reports whether code is five digits or upper-case letters.
func validSQLSTATE(code string) bool {
	if len(code) != 5 {
		return false
	}
	for _, c := range code {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// checkErrors requires every ErrorResponse to carry a valid SQLSTATE that
// allowed accepts, a FATAL one to be the last message, and no panic to have
// been logged.
func checkErrors(t *testing.T, msgs []pgproto3.BackendMessage, input []byte, allowed func(i int, code, severity string) bool, logs *FuzzLog) {
	t.Helper()
	for i, m := range msgs {
		e, ok := m.(*pgproto3.ErrorResponse)
		if !ok {
			continue
		}
		if !validSQLSTATE(e.Code) || e.Message == "" || (e.Severity != "ERROR" && e.Severity != "FATAL") {
			t.Fatalf("input %q: malformed error %+v", input, e)
		}
		if !allowed(i, e.Code, e.Severity) {
			t.Fatalf("input %q: unexpected error %s %s: %s", input, e.Severity, e.Code, e.Message)
		}
		if e.Severity == "FATAL" && i != len(msgs)-1 {
			t.Fatalf("input %q: messages after FATAL %s: %T", input, e.Code, msgs[i+1])
		}
	}
	if p := logs.Take(); len(p) > 0 {
		t.Fatalf("input %q: the server recovered a panic:\n%s", input, strings.Join(p, "\n"))
	}
}

// startupErrorCodes are the errors the startup phase may end with.
var startupErrorCodes = map[string]bool{
	"08P01": true, // protocol violation
	"28000": true, // no user, no rule, rejected
	"28P01": true, // password authentication failed
	"3D000": true, // no such database
	"0A000": true, // unsupported protocol version
	"42601": true, // bad options switch
	"22023": true, // invalid parameter value
	"42704": true, // unrecognized configuration parameter
}

// rawPacket frames an untyped packet: length, then code and body.
func rawPacket(code uint32, body ...string) []byte {
	b := binary.BigEndian.AppendUint32(nil, code)
	for _, s := range body {
		b = append(b, s...)
		b = append(b, 0)
	}
	if len(body) > 0 {
		b = append(b, 0)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b)+4)), b...)
}

func encodeAll(tb testing.TB, msgs ...interface{ Encode([]byte) ([]byte, error) }) []byte {
	var out []byte
	for _, m := range msgs {
		var err error
		if out, err = m.Encode(out); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// FuzzStartup sends arbitrary bytes as the start of a connection: SSL,
// GSSENC and cancel requests, StartupMessages of any version and
// parameters, password and SASL messages. Users md5u, scram and clear must
// authenticate (password "pw"), nobody is rejected, others are trusted;
// the only database is "joind".
func FuzzStartup(f *testing.F) {
	logs := &FuzzLog{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	users := map[string]string{"md5u": "pw", "scram": "pw", "clear": "pw"}
	rule := func(user, method string) HBARule {
		return HBARule{Type: "host", Databases: []string{"all"}, Users: []string{user}, Address: "all", Method: method}
	}
	srv := NewServer(newProtocolTestEngine(), ServerOptions{
		Database:       "joind",
		StartupTimeout: 3 * time.Second,
		Auth: AuthConfig{Users: users, Rules: []HBARule{
			rule("md5u", AuthMD5), rule("scram", AuthSCRAM), rule("clear", AuthPassword),
			rule("nobody", AuthReject), rule("all", AuthTrust),
		}},
	}, logs.Logger())
	go srv.Serve(context.Background(), ln)
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			f.Errorf("shutdown: %v", err)
		}
	})
	addr := ln.Addr().String()

	v3 := uint32(pgproto3.ProtocolVersion30)
	psql := rawPacket(v3, "user", "u", "database", "joind", "application_name", "psql", "client_encoding", "UTF8")
	pgx := encodeAll(f, &pgproto3.StartupMessage{ProtocolVersion: v3, Parameters: map[string]string{"user": "u", "database": "joind"}})
	jdbc := rawPacket(v3, "user", "u", "database", "joind", "client_encoding", "UTF8", "DateStyle", "ISO",
		"TimeZone", "UTC", "extra_float_digits", "2")
	ssl := encodeAll(f, &pgproto3.SSLRequest{})
	gss := encodeAll(f, &pgproto3.GSSEncRequest{})
	query := encodeAll(f, &pgproto3.Query{String: "select 1"}, &pgproto3.Terminate{})
	for _, seed := range [][]byte{
		cat(ssl, psql, query),
		cat(gss, ssl, psql),
		pgx,
		jdbc,
		encodeAll(f, &pgproto3.CancelRequest{ProcessID: 1234, SecretKey: []byte{1, 2, 3, 4}}),
		rawPacket(v3|1, "user", "u", "database", "joind", "_pq_.x", "1"),
		rawPacket(2<<16, "user", "u"),
		rawPacket(1234<<16|5681, "user", "u"),
		rawPacket(v3, "database", "joind"),
		rawPacket(v3, "user", "u", "database", "other"),
		rawPacket(v3, "user", "u", "database", "joind", "options", `-c search_path=a\ b --x=y -c`),
		rawPacket(v3, "user", "nobody", "database", "joind"),
		cat(rawPacket(v3, "user", "md5u", "database", "joind"), encodeAll(f, &pgproto3.PasswordMessage{Password: "md5" + strings.Repeat("0", 32)})),
		cat(rawPacket(v3, "user", "clear", "database", "joind"), encodeAll(f, &pgproto3.PasswordMessage{Password: "pw"}), query),
		cat(rawPacket(v3, "user", "scram", "database", "joind"), encodeAll(f, &pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,,n=,r=abcdefghijkl")})),
		cat(rawPacket(v3, "user", "scram", "database", "joind"), encodeAll(f, &pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-1", Data: []byte("x")})),
		{0xff, 0xff, 0xff, 0xff, 0, 3, 0, 0},
		{0, 0, 0, 7, 0, 3, 0},
		binary.BigEndian.AppendUint32(nil, 10001),
		psql[:len(psql)-3],
		ssl[:6],
		cat(ssl, ssl, ssl, ssl, ssl, psql),
		{},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, reset := exchange(t, addr, nil, data)
		// 'N' answers SSLRequest/GSSENCRequest (at most maxNegotiations);
		// no typed message the server sends first starts with 'N'.
		n := 0
		for n < len(out) && out[n] == 'N' {
			n++
		}
		if n > maxNegotiations {
			t.Fatalf("input %q: %d negotiation answers", data, n)
		}
		msgs := backendMessages(t, out[n:], reset, data)
		ready := len(msgs) // the first ReadyForQuery ends the startup
		for i, m := range msgs {
			if _, ok := m.(*pgproto3.ReadyForQuery); ok {
				ready = i
				break
			}
		}
		checkErrors(t, msgs, data, func(i int, code, severity string) bool {
			if i > ready {
				return code != "XX000" // protocolTestEngine's own errors
			}
			return severity == "FATAL" && startupErrorCodes[code]
		}, logs)
		// The server still serves a normal client.
		c := dialFE(t, addr)
		expectMessages(t, c.startup(map[string]string{"user": "u", "database": "joind"}), startupOK()...)
		expectMessages(t, c.query("select 7"), "T:?column?/23", "D:7", "C:SELECT 1", "Z:I")
		c.send(&pgproto3.Terminate{})
	})
}
