package joindtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/joind/joind/regress/oracle"
)

// ObjectStore is a running S3-compatible object store: Versity's S3
// gateway (versitygw) over a local directory, one bucket per
// subdirectory of Root. .ci/run installs it (go install).
type ObjectStore struct {
	Endpoint          string // http://127.0.0.1:port
	Root              string // the directory behind the buckets
	AccessKey, Secret string
}

// versitygwBinary finds versitygw on PATH or in the Go bin directory.
func versitygwBinary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	for _, d := range []string{os.Getenv("GOBIN"), filepath.Join(os.Getenv("HOME"), "go", "bin")} {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, "versitygw"); fileExists(p) {
			return p
		}
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		if p := filepath.Join(string(trimNL(out)), "bin", "versitygw"); fileExists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// StartObjectStore starts an object store with the given buckets, stopped
// when the test ends. Without versitygw the test fails under CI=true (a
// skipped check counts as not run) and is skipped otherwise.
func StartObjectStore(tb testing.TB, buckets ...string) *ObjectStore {
	tb.Helper()
	bin := versitygwBinary()
	if bin == "" {
		msg := "versitygw is not installed (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg + "; CI=true: it must run")
		}
		tb.Skip(msg)
	}
	s := &ObjectStore{Root: tb.TempDir(), AccessKey: "joindtest", Secret: "joindtest-secret"}
	for _, b := range buckets {
		if err := os.Mkdir(filepath.Join(s.Root, b), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	port, err := oracle.FreePort()
	if err != nil {
		tb.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	s.Endpoint = "http://" + addr
	log := &oracle.SyncBuffer{}
	cmd := exec.Command(bin, "--port", addr, "posix", s.Root)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.Secret)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start versitygw: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	tb.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return s
		}
		select {
		case <-done:
			tb.Fatalf("versitygw exited during startup:\n%s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("versitygw did not listen on %s within 20s:\n%s", addr, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Env is the environment a client of the store (joind, iceberg-go) reads
// its endpoint and credentials from: the AWS SDK's variables.
func (s *ObjectStore) Env() map[string]string {
	return map[string]string{
		"AWS_S3_ENDPOINT":       s.Endpoint,
		"AWS_ACCESS_KEY_ID":     s.AccessKey,
		"AWS_SECRET_ACCESS_KEY": s.Secret,
		"AWS_REGION":            "us-east-1",
	}
}

func (s *ObjectStore) String() string {
	return fmt.Sprintf("object store %s over %s", s.Endpoint, s.Root)
}
