package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// startServer runs joind in-process on dir until the test ends; it returns
// the listening address.
func startServer(t *testing.T, dir string) (addr string, stop func()) {
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	args := []string{"--listen", "127.0.0.1:0", "--data-dir", dir, "--log-format", "json"}
	go func() { done <- run(ctx, args, []string{}, &bytes.Buffer{}, logs) }()
	deadline := time.Now().Add(30 * time.Second)
	for addr == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no listening log line:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
		for _, line := range strings.Split(logs.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "joind listening" {
				addr, _ = rec["address"].(string)
			}
		}
	}
	stop = func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("server exited %d:\n%s", code, logs.String())
		}
	}
	return addr, stop
}

func TestLoadThenCheck(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startServer(t, dir)
	host, port, _ := strings.Cut(addr, ":")
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, fmt.Sprintf("postgres://u@%s/d", addr))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE ld (id int, name text)").ReadAll(); err != nil {
		t.Fatal(err)
	}
	var files []string
	const perFile = 30000
	for f := 0; f < 2; f++ {
		var b strings.Builder
		b.WriteString("id,name\n")
		for i := 1; i <= perFile; i++ {
			fmt.Fprintf(&b, "%d,name %d\n", f*perFile+i, i)
		}
		path := filepath.Join(t.TempDir(), "part"+strconv.Itoa(f)+".csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	var out, errOut bytes.Buffer
	code := run(ctx, append([]string{"load", "--host", host, "--port", port, "--user", "u", "--database", "d",
		"--table", "ld", "--format", "csv", "--header"}, files...), nil, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "loaded 60000 rows into ld from 2 files") {
		t.Fatalf("load: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	// Not a terminal: plain lines, ending with the summary.
	if !strings.Contains(errOut.String(), "load ld: done, ") || strings.Contains(errOut.String(), "\r") {
		t.Errorf("load's progress: %q", errOut.String())
	}
	res := conn.ExecParams(ctx, "SELECT count(*) FROM ld", nil, nil, nil, nil).Read()
	if res.Err != nil || len(res.Rows) != 1 || string(res.Rows[0][0]) != "60000" {
		t.Errorf("count after load: %v %v", res.Rows, res.Err)
	}
	conn.Close(ctx)

	// The server holds the directory's lock: check refuses.
	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"check", "--data-dir", dir}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "in use by another joind") {
		t.Errorf("check of a running server's directory: exit %d, %s", code, errOut.String())
	}
	stop()

	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"check", "--data-dir", dir}, nil, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), ": 1 tables, 60000 rows, ") || !strings.Contains(errOut.String(), "check "+dir+": done, ") {
		t.Fatalf("check: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	// Damage a segment file: check says which and exits 1.
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.arrow"))
	if len(segs) == 0 {
		t.Fatalf("no segment files in %s (check said %s)", dir, out.String())
	}
	data, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(segs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"check", "--data-dir", dir}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "checksum mismatch") {
		t.Errorf("check of a damaged directory: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if code := run(ctx, []string{"check", "--data-dir", t.TempDir()}, nil, &out, &errOut); code != 1 {
		t.Errorf("check of an empty directory: exit %d", code)
	}
}
