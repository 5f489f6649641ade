package joindtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/regress/oracle"
)

// Joind is a running joind server process.
type Joind struct {
	port    int
	dataDir string
	cmd     *exec.Cmd
	log     *oracle.SyncBuffer
	done    chan struct{}
	exitErr error
	stopped atomic.Bool // Stop was called: an exit is expected
}

// Port is the TCP port joind listens on (127.0.0.1).
func (j *Joind) Port() int { return j.port }

// Pid is the server's process id (to read its CPU time in /proc).
func (j *Joind) Pid() int { return j.cmd.Process.Pid }

// Host is the address joind listens on.
func (j *Joind) Host() string { return "127.0.0.1" }

// DataDir is the server's --data-dir.
func (j *Joind) DataDir() string { return j.dataDir }

// DSN is a connection URL for database "regression" as user postgres.
func (j *Joind) DSN() string { return j.DSNFor("regression") }

// DSNFor is a connection URL for the named database.
func (j *Joind) DSNFor(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", j.port, db)
}

// Log returns what joind wrote to stdout and stderr so far.
func (j *Joind) Log() string { return j.log.String() }

// Exited reports whether the process has exited (e.g. crashed).
func (j *Joind) Exited() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// Binary builds ./cmd/joind once per test binary and returns its path.
func Binary(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() {
		root, err := ModuleRoot()
		if err != nil {
			build.err = err
			return
		}
		build.dir, err = os.MkdirTemp("", "joindtest-bin-")
		if err != nil {
			build.err = err
			return
		}
		build.bin = filepath.Join(build.dir, "joind")
		cmd := exec.Command("go", "build", "-o", build.bin, "./cmd/joind")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build ./cmd/joind: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		tb.Fatalf("joindtest: %v", build.err)
	}
	return build.bin
}

// ModuleRoot is the directory of the main module's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// Main is a TestMain for packages using this package and oracle: one
// oracle cluster and one joind build are shared by the whole test binary
// and removed at the end.
//
//	func TestMain(m *testing.M) { joindtest.Main(m) }
func Main(m *testing.M) {
	oracle.Share()
	code := m.Run()
	oracle.StopShared()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// StartJoind starts joind on a free port with a fresh --data-dir, waits
// until it answers a startup handshake, and kills it in tb.Cleanup. Its
// log goes to the test log if the test failed. extraArgs are appended to
// the command line (e.g. "--partitions", "4").
func StartJoind(tb testing.TB, extraArgs ...string) *Joind {
	tb.Helper()
	return startBinary(tb, Binary(tb), tb.TempDir(), extraArgs)
}

// StartJoindWithDataDir is StartJoind on a given --data-dir, e.g. to
// restart a server (after Stop) on the data an earlier one wrote.
func StartJoindWithDataDir(tb testing.TB, dataDir string, extraArgs ...string) *Joind {
	tb.Helper()
	return startBinary(tb, Binary(tb), dataDir, extraArgs)
}

// startBinary is StartJoind for a given server binary (tests of this
// package use a fake server).
func startBinary(tb testing.TB, bin, dataDir string, extraArgs []string) *Joind {
	tb.Helper()
	var lastErr error
	// A port probed free may be taken before joind binds it: retry.
	for attempt := 0; attempt < 3; attempt++ {
		j, err := launch(bin, dataDir, extraArgs)
		if err == nil {
			tb.Cleanup(func() {
				if j.Exited() && !j.stopped.Load() {
					// A server that dies mid-test is a bug even when
					// the test itself did not notice.
					tb.Errorf("joind exited before the test ended: %v", j.exitErr)
				}
				j.Stop()
				if tb.Failed() {
					tb.Logf("joind log (port %d):\n%s", j.port, j.Log())
				}
			})
			return j
		}
		lastErr = err
	}
	tb.Fatalf("joindtest: %v", lastErr)
	return nil
}

func launch(bin, dataDir string, extraArgs []string) (*Joind, error) {
	port, err := oracle.FreePort()
	if err != nil {
		return nil, err
	}
	j := &Joind{port: port, dataDir: dataDir, log: &oracle.SyncBuffer{}, done: make(chan struct{})}
	args := append([]string{"--listen", "127.0.0.1:" + strconv.Itoa(port), "--data-dir", j.dataDir}, extraArgs...)
	j.cmd = exec.Command(bin, args...)
	j.cmd.Stdout = j.log
	j.cmd.Stderr = j.log
	// Pdeathsig: no orphaned server if the test binary dies mid-test.
	j.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := j.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start joind: %v", err)
	}
	go func() { j.exitErr = j.cmd.Wait(); close(j.done) }()

	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := pgconn.Connect(ctx, j.DSN())
		cancel()
		if err == nil {
			c.Close(context.Background())
			return j, nil
		}
		if j.Exited() {
			return nil, fmt.Errorf("joind %s exited during startup (%v); last connect error: %v\nlog:\n%s",
				strings.Join(args, " "), j.exitErr, err, j.Log())
		}
		if time.Now().After(deadline) {
			j.Stop()
			return nil, fmt.Errorf("joind %s did not accept connections within 30s: %v\nlog:\n%s",
				strings.Join(args, " "), err, j.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop asks joind to shut down (SIGTERM), kills it after 10s, and waits
// for it to exit. It is safe to call more than once.
func (j *Joind) Stop() {
	j.stopped.Store(true)
	if j.cmd == nil || j.cmd.Process == nil || j.Exited() {
		return
	}
	j.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-j.done:
	case <-time.After(10 * time.Second):
		j.cmd.Process.Kill()
		<-j.done
	}
}

// SharedDir finds shared material beside the project (../shared/<name>,
// not copied into it): $envVar if set, else ../shared/<name> from the
// checkout, else /work/shared/<name> for a clone elsewhere. probe is a
// path inside the directory that must exist. A missing directory fails
// the test under CI=true (a skipped check counts as not run) and skips it
// otherwise.
func SharedDir(tb testing.TB, name, envVar, probe string) string {
	tb.Helper()
	if d := os.Getenv(envVar); d != "" {
		return d
	}
	root, err := ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range []string{filepath.Join(root, "..", "shared", name), filepath.Join("/work/shared", name)} {
		if _, err := os.Stat(filepath.Join(d, probe)); err == nil {
			return d
		}
	}
	msg := fmt.Sprintf("no ../shared/%s (set %s)", name, envVar)
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + "; CI=true: it must run")
	}
	tb.Skip(msg)
	return ""
}

// ProcStatus reads a memory figure (kB in the file, e.g. VmRSS or VmHWM)
// of /proc/PID/status, in bytes.
func ProcStatus(tb testing.TB, pid int, field string) int64 {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, rest, ok := strings.Cut(line, ":"); ok && name == field {
			fs := strings.Fields(rest)
			kb, err := strconv.ParseInt(fs[0], 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
