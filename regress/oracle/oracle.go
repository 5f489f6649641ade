package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// BinDir holds the PostgreSQL 15 server binaries.
const BinDir = "/usr/lib/postgresql/15/bin"

// Server is a running scratch PostgreSQL cluster.
type Server struct {
	dir  string // temp root: data/, the socket, owned by the server's user
	port int
	cmd  *exec.Cmd
	log  *SyncBuffer
	done chan struct{} // closed when the postmaster exits
}

// Port is the TCP port the server listens on (127.0.0.1).
func (s *Server) Port() int { return s.port }

// Host is the address the server listens on.
func (s *Server) Host() string { return "127.0.0.1" }

// SocketDir is the directory holding the server's unix socket.
func (s *Server) SocketDir() string { return s.dir }

// DSN is a connection URL for database postgres as superuser postgres.
func (s *Server) DSN() string { return s.DSNFor("postgres") }

// DSNFor is a connection URL for the named database.
func (s *Server) DSNFor(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// Log returns what the server wrote to stderr so far.
func (s *Server) Log() string { return s.log.String() }

// CreateDatabase creates database name if it does not exist yet. Tests
// that leave objects behind use their own database to stay independent.
func (s *Server) CreateDatabase(tb testing.TB, name string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, s.DSN())
	if err != nil {
		tb.Fatalf("oracle: connect: %v", err)
	}
	defer c.Close(ctx)
	ident := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	_, err = c.Exec(ctx, "CREATE DATABASE "+ident).ReadAll()
	var pgErr *pgconn.PgError
	if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42P04") {
		tb.Fatalf("oracle: create database %s: %v", name, err)
	}
}

// Available reports whether the PostgreSQL 15 binaries are installed.
func Available() bool {
	for _, b := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(BinDir, b)); err != nil {
			return false
		}
	}
	return true
}

// SkipIfUnavailable skips tb when PostgreSQL is not installed, except when
// CI=true: there a skipped oracle would be a check that cannot fail, so it
// is a fatal error.
func SkipIfUnavailable(tb testing.TB) {
	tb.Helper()
	if Available() {
		return
	}
	msg := "PostgreSQL 15 is not installed in " + BinDir
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + " (CI=true: the oracle must run)")
	}
	tb.Skip(msg)
}

var shared struct {
	sync.Mutex
	enabled bool
	srv     *Server
	err     error
}

// Share makes Start hand out one cluster for the whole test binary instead
// of one per call (initdb takes seconds). Call it from TestMain, and call
// StopShared after m.Run.
func Share() {
	shared.Lock()
	shared.enabled = true
	shared.Unlock()
}

// StopShared stops the shared cluster, if one was started.
func StopShared() {
	shared.Lock()
	defer shared.Unlock()
	if shared.srv != nil {
		shared.srv.stop()
		shared.srv = nil
	}
}

// Start returns a running PostgreSQL 15 server. After Share it is the
// binary's shared cluster (stopped by StopShared); otherwise a private one
// stopped in tb.Cleanup. It skips (or, with CI=true, fails) when PostgreSQL
// is not installed.
func Start(tb testing.TB) *Server {
	tb.Helper()
	SkipIfUnavailable(tb)
	shared.Lock()
	if shared.enabled {
		defer shared.Unlock()
		if shared.srv == nil && shared.err == nil {
			shared.srv, shared.err = start()
		}
		if shared.err != nil {
			tb.Fatalf("oracle: %v", shared.err)
		}
		return shared.srv
	}
	shared.Unlock()
	s, err := start()
	if err != nil {
		tb.Fatalf("oracle: %v", err)
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("oracle PostgreSQL log:\n%s", s.Log())
		}
		s.stop()
	})
	return s
}

// start runs initdb and the postmaster. The postmaster is our direct child
// (not daemonized by pg_ctl) so that it gets SIGQUIT (immediate shutdown)
// if the test binary dies before stopping it.
func start() (*Server, error) {
	cred, uid, gid, err := serverUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "joind-oracle-")
	if err != nil {
		return nil, err
	}
	if uid >= 0 {
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	s := &Server{dir: dir, log: &SyncBuffer{}, done: make(chan struct{})}
	ok := false
	defer func() {
		if !ok {
			s.stop()
		}
	}()

	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(BinDir, "initdb"), "-D", data,
		"-A", "trust", "-U", "postgres", "--locale=C.UTF-8", "--encoding=UTF8", "--no-sync")
	initdb.Dir = dir
	initdb.Env = serverEnv()
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}

	// A free port can be taken by someone else between probing and binding;
	// retry a few times rather than fail the run.
	for attempt := 0; ; attempt++ {
		s.port, err = FreePort()
		if err != nil {
			return nil, err
		}
		s.done = make(chan struct{})
		s.log.Reset()
		err = s.launch(data, cred)
		if err == nil {
			break
		}
		if attempt == 4 {
			return nil, err
		}
	}
	ok = true
	return s, nil
}

func (s *Server) launch(data string, cred *syscall.Credential) error {
	cmd := exec.Command(filepath.Join(BinDir, "postgres"), "-D", data,
		"-p", strconv.Itoa(s.port), "-k", s.dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "TimeZone=UTC",
		"-c", "DateStyle=ISO, MDY",
		"-c", "IntervalStyle=postgres",
		"-c", "work_mem=256MB",
		"-c", "max_connections=100",
		// pg_stat_statements' view answers only when preloaded (the
		// monitoring replays query it, as joind has it built in).
		"-c", "shared_preload_libraries=pg_stat_statements",
		// Durability is pointless for a scratch cluster and costs time.
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
	)
	cmd.Dir = s.dir
	cmd.Env = serverEnv()
	cmd.Stdout = s.log
	cmd.Stderr = s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %v", err)
	}
	s.cmd = cmd
	done := s.done
	go func() { cmd.Wait(); close(done) }()

	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := pgconn.Connect(ctx, s.DSN())
		cancel()
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		select {
		case <-done:
			s.cmd = nil
			return fmt.Errorf("postgres exited during startup: %v\n%s", err, s.Log())
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			return fmt.Errorf("postgres not ready after 60s: %v\n%s", err, s.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop shuts the server down and removes its directory.
func (s *Server) stop() {
	s.kill()
	if s.dir != "" {
		os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// kill shuts the postmaster down: fast shutdown, then SIGKILL to its
// process group if it hangs.
func (s *Server) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
		s.cmd = nil
	}
}

// serverUser returns the credential to run PostgreSQL with: it refuses to
// run as root, so as root we switch to user postgres.
func serverUser() (*syscall.Credential, int, int, error) {
	if os.Geteuid() != 0 {
		return nil, -1, -1, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, -1, -1, fmt.Errorf("running as root and there is no user postgres to run the server as: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid, gid, nil
}

// serverEnv is a minimal environment: no PG* variables of the caller leak
// into the server, and messages are untranslated.
func serverEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "LANG=C.UTF-8"}
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// SyncBuffer is a bytes.Buffer safe for a writing process and a reading
// test (server logs; joindtest uses it too).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *SyncBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.Reset()
}
