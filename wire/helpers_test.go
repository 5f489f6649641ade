package wire

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// syncBuffer is a goroutine-safe log sink (connections log from their own
// goroutines, possibly after a test's last t.Log).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type testServer struct {
	srv      *Server
	eng      *protocolTestEngine
	addr     string
	logs     *syncBuffer
	done     chan struct{} // closed when Serve returned
	serveErr error
}

func startTestServer(t *testing.T, opts ServerOptions) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{eng: newProtocolTestEngine(), addr: ln.Addr().String(), logs: &syncBuffer{}, done: make(chan struct{})}
	logger := slog.New(slog.NewTextHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ts.srv = NewServer(ts.eng, opts, logger)
	go func() {
		ts.serveErr = ts.srv.Serve(context.Background(), ln)
		close(ts.done)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-ts.done
		if t.Failed() {
			t.Logf("server log:\n%s", ts.logs.String())
		}
	})
	return ts
}

// feClient drives the server with raw protocol messages.
type feClient struct {
	t  *testing.T
	nc net.Conn
	fe *pgproto3.Frontend
}

func dialFE(t *testing.T, addr string) *feClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	t.Cleanup(func() { nc.Close() })
	return &feClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

func (c *feClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *feClient) writeRaw(b []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// rawStartup builds a StartupMessage by hand, so tests can use protocol
// versions pgproto3 refuses to encode.
func rawStartup(version uint32, kv ...string) []byte {
	body := binary.BigEndian.AppendUint32(nil, version)
	for _, s := range kv {
		body = append(body, s...)
		body = append(body, 0)
	}
	body = append(body, 0)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body)+4)), body...)
}

// summary renders a backend message compactly for comparisons.
func summary(m pgproto3.BackendMessage) string {
	switch m := m.(type) {
	case *pgproto3.AuthenticationOk:
		return "R"
	case *pgproto3.ParameterStatus:
		return "S:" + m.Name + "=" + m.Value
	case *pgproto3.BackendKeyData:
		return "K"
	case *pgproto3.ReadyForQuery:
		return "Z:" + string(m.TxStatus)
	case *pgproto3.RowDescription:
		names := make([]string, len(m.Fields))
		for i, f := range m.Fields {
			names[i] = fmt.Sprintf("%s/%d", f.Name, f.DataTypeOID)
		}
		return "T:" + strings.Join(names, ",")
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for i, v := range m.Values {
			if v == nil {
				vals[i] = "NULL"
			} else {
				vals[i] = string(v)
			}
		}
		return "D:" + strings.Join(vals, ",")
	case *pgproto3.CommandComplete:
		return "C:" + string(m.CommandTag)
	case *pgproto3.EmptyQueryResponse:
		return "I"
	case *pgproto3.ErrorResponse:
		s := "E:" + m.Severity + ":" + m.Code + ":" + m.Message
		if m.Position > 0 {
			s += fmt.Sprintf(":pos=%d", m.Position)
		}
		return s
	case *pgproto3.NoticeResponse:
		return "N:" + m.Severity + ":" + m.Message
	case *pgproto3.NegotiateProtocolVersion:
		return fmt.Sprintf("v:%d:%s", m.NewestMinorProtocol, strings.Join(m.UnrecognizedOptions, ","))
	}
	return fmt.Sprintf("%T", m)
}

// recv reads one message; "EOF" when the server closed the connection.
func (c *feClient) recv() (string, pgproto3.BackendMessage) {
	c.t.Helper()
	m, err := c.fe.Receive()
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "reset by peer") {
			return "EOF", nil
		}
		c.t.Fatalf("receive: %v", err)
	}
	return summary(m), m
}

// untilReady reads up to and including ReadyForQuery, or up to EOF.
func (c *feClient) untilReady() []string {
	c.t.Helper()
	var out []string
	for {
		s, _ := c.recv()
		out = append(out, s)
		if s == "EOF" || strings.HasPrefix(s, "Z:") {
			return out
		}
	}
}

func (c *feClient) startup(params map[string]string) []string {
	c.t.Helper()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: params})
	return c.untilReady()
}

func (c *feClient) query(sql string) []string {
	c.t.Helper()
	c.send(&pgproto3.Query{String: sql})
	return c.untilReady()
}

func expectMessages(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("messages:\n got  %q\n want %q", got, want)
	}
}

// startupSettings is what the protocol test engine reports at startup, in
// PostgreSQL's order (case-insensitive by name).
var startupSettings = []string{
	"S:application_name=",
	"S:client_encoding=UTF8",
	"S:DateStyle=ISO, MDY",
	"S:integer_datetimes=on",
	"S:server_encoding=UTF8",
	"S:server_version=15.18",
	"S:standard_conforming_strings=on",
	"S:TimeZone=UTC",
}

func startupOK() []string {
	out := append([]string{"R"}, startupSettings...)
	return append(out, "K", "Z:I")
}

// connected returns a frontend client past startup.
func connected(t *testing.T, ts *testServer) *feClient {
	t.Helper()
	c := dialFE(t, ts.addr)
	expectMessages(t, c.startup(map[string]string{"user": "u", "database": "d"}), startupOK()...)
	return c
}
