package joindtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

var fake struct {
	once sync.Once
	bin  string
	err  error
}

// fakeBinary builds testdata/fakejoind, a protocol-speaking stand-in with
// joind's command line.
func fakeBinary(t *testing.T) string {
	t.Helper()
	fake.once.Do(func() {
		dir, err := os.MkdirTemp("", "fakejoind-")
		if err != nil {
			fake.err = err
			return
		}
		fake.bin = filepath.Join(dir, "fakejoind")
		out, err := exec.Command("go", "build", "-o", fake.bin, "./testdata/fakejoind").CombinedOutput()
		if err != nil {
			fake.err = err
			t.Logf("%s", out)
		}
	})
	if fake.err != nil {
		t.Fatalf("build fakejoind: %v", fake.err)
	}
	return fake.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fake.bin != "" {
		os.RemoveAll(filepath.Dir(fake.bin))
	}
	os.Exit(code)
}

func TestStartServesAndStops(t *testing.T) {
	j := startBinary(t, fakeBinary(t), t.TempDir(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, j.DSN())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Exec(ctx, "SELECT 42").ReadAll()
	c.Close(ctx)
	if err != nil || len(res) != 1 || len(res[0].Rows) != 1 || string(res[0].Rows[0][0]) != "SELECT 42" {
		t.Fatalf("query through the started server: %v %+v", err, res)
	}
	if !strings.Contains(j.Log(), "listening on 127.0.0.1:") {
		t.Errorf("server log not captured: %q", j.Log())
	}
	if st, err := os.Stat(j.DataDir()); err != nil || !st.IsDir() {
		t.Errorf("data dir %s: %v", j.DataDir(), err)
	}
	j.Stop()
	j.Stop() // twice is fine
	if !j.Exited() {
		t.Error("server still running after stop")
	}
}

func TestStartupFailureShowsLog(t *testing.T) {
	_, err := launch(fakeBinary(t), t.TempDir(), []string{"--fail"})
	if err == nil || !strings.Contains(err.Error(), "exited during startup") || !strings.Contains(err.Error(), "boom: cannot start") {
		t.Fatalf("launch error = %v; want the exit and the server's log", err)
	}
}

// recordingTB captures what StartJoind's cleanup reports.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, format)
}
func (r *recordingTB) Cleanup(f func())    { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Failed() bool        { return len(r.errs) > 0 }
func (r *recordingTB) Logf(string, ...any) {}
func (r *recordingTB) runCleanups() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestCrashDuringTestIsAnError(t *testing.T) {
	rec := &recordingTB{TB: t}
	j := startBinary(rec, fakeBinary(t), t.TempDir(), []string{"--die-after", "300ms"})
	deadline := time.Now().Add(10 * time.Second)
	for !j.Exited() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	rec.runCleanups()
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "exited before the test ended") {
		t.Fatalf("cleanup errors = %q; want the crash reported", rec.errs)
	}
}
