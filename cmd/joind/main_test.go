package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

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

func TestVersionAndHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, []string{}, &out, &errOut); code != 0 || out.String() != "joind dev\n" {
		t.Fatalf("--version: code %d, out %q, err %q", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"--help"}, []string{}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "JOIND_MEMORY_LIMIT") {
		t.Fatalf("--help: code %d, out %q", code, out.String())
	}
}

func TestStartupErrorsAreOneLine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--partitions", "0"}, 2, `joind: invalid value "0" for partitions (JOIND_PARTITIONS / --partitions)`},
		{[]string{"--listen", ln.Addr().String(), "--data-dir", t.TempDir()}, 1, "joind: cannot listen on " + ln.Addr().String()},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, []string{}, &out, &errOut)
		msg := errOut.String()
		if code != tc.code || !strings.HasPrefix(msg, tc.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: code %d, stderr %q; want code %d and one line starting %q", tc.args, code, msg, tc.code, tc.want)
		}
	}
}

// TestServeUntilSIGTERM starts the real server, connects, and stops it with
// SIGTERM: the client must be told 57P01 and run must return 0.
func TestServeUntilSIGTERM(t *testing.T) {
	logs := &syncBuffer{}
	done := make(chan int, 1)
	args := []string{"--listen", "127.0.0.1:0", "--data-dir", t.TempDir(), "--log-format", "json", "--hash-kernel", "portable"}
	go func() { done <- run(context.Background(), args, []string{}, &bytes.Buffer{}, logs) }()

	var addr, kernel string
	deadline := time.Now().Add(10 * time.Second)
	for addr == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no listening log line:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
		for _, line := range strings.Split(logs.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "joind listening" {
				addr, _ = rec["address"].(string)
				kernel, _ = rec["kernel"].(string)
			}
		}
	}
	if kernel != "portable" {
		t.Errorf("kernel logged as %q with --hash-kernel portable", kernel)
	}

	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	msg, err := fe.Receive()
	if _, ok := msg.(*pgproto3.AuthenticationOk); !ok {
		t.Fatalf("first startup answer %T, %v", msg, err)
	}
	// Read to ReadyForQuery (a working engine) or a FATAL (an engine that
	// refuses sessions); either way the server must be up.
	sessionOpen := false
	for {
		msg, err := fe.Receive()
		if err != nil {
			break
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			sessionOpen = true
			break
		}
	}

	t.Logf("engine opened a session: %v", sessionOpen)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit code %d\n%s", code, logs.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no shutdown after SIGTERM\n%s", logs.String())
	}
	if sessionOpen {
		msg, err := fe.Receive()
		e, ok := msg.(*pgproto3.ErrorResponse)
		if !ok || e.Code != "57P01" || e.Severity != "FATAL" {
			t.Fatalf("client got %#v, %v at shutdown; want FATAL 57P01", msg, err)
		}
	}
	if !strings.Contains(logs.String(), `"msg":"joind stopped"`) {
		t.Fatalf("no stop log:\n%s", logs.String())
	}
}
