package main

import (
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
	"syscall"
	"time"
)

// freePort asks the kernel for a port that is free right now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitPort polls until addr accepts TCP connections or the deadline passes.
func waitPort(ctx context.Context, addr string, d time.Duration, alive func() error) error {
	deadline := time.Now().Add(d)
	for {
		c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if alive != nil {
			if aerr := alive(); aerr != nil {
				return aerr
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing listens on %s after %s: %w", addr, d, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// pgCluster is a scratch PostgreSQL 15 cluster owned by this run.
type pgCluster struct {
	bin, dir string
	port     int
	asRoot   bool // commands run through `su postgres -c`
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// run executes a PostgreSQL binary, as user postgres when we are root
// (PostgreSQL refuses to run as root).
func (c *pgCluster) run(args ...string) error {
	var cmd *exec.Cmd
	if c.asRoot {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = shellQuote(a)
		}
		cmd = exec.Command("su", "postgres", "-c", strings.Join(q, " "))
	} else {
		cmd = exec.Command(args[0], args[1:]...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", filepath.Base(args[0]), err, out)
	}
	return nil
}

func startPG(ctx context.Context, bin, tmp string, port int) (*pgCluster, error) {
	c := &pgCluster{bin: bin, dir: filepath.Join(tmp, "pg"), port: port, asRoot: os.Geteuid() == 0}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	if c.asRoot {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return nil, err
		}
	}
	if err := c.run(filepath.Join(bin, "initdb"), "-D", filepath.Join(c.dir, "data"), "-A", "trust",
		"-U", "postgres", "--locale=C.UTF-8", "--encoding=UTF8", "--no-sync"); err != nil {
		return nil, err
	}
	// work_mem large enough to hash the NOT IN subquery, or PostgreSQL falls
	// back to rescanning it per row (performance.md).
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c work_mem=256MB -c TimeZone=UTC -c fsync=off", port, c.dir)
	if err := c.run(filepath.Join(bin, "pg_ctl"), "-D", filepath.Join(c.dir, "data"), "-o", opts,
		"-l", filepath.Join(c.dir, "log"), "-w", "start"); err != nil {
		return nil, err
	}
	if err := waitPort(ctx, fmt.Sprintf("127.0.0.1:%d", port), 30*time.Second, nil); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

func (c *pgCluster) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

func (c *pgCluster) stop() {
	if err := c.run(filepath.Join(c.bin, "pg_ctl"), "-D", filepath.Join(c.dir, "data"), "-m", "fast", "-w", "stop"); err != nil {
		fmt.Fprintf(os.Stderr, "peerbench: stopping PostgreSQL: %v\n", err)
	}
}

// joindServer is a joind process built from the parent module.
type joindServer struct {
	cmd  *exec.Cmd
	port int
	log  string
	done chan error
}

// buildJoind compiles ./cmd/joind of the module in src into tmp.
func buildJoind(src, tmp string) (string, error) {
	bin := filepath.Join(tmp, "joind")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/joind")
	cmd.Dir = src
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/joind in %s: %v\n%s", src, err, out)
	}
	return bin, nil
}

// joindDataDir is joind's data directory for a run in tmp: beside tmp, not
// in it, since joind refuses a --copy-dirs entry (tmp) that holds its data
// directory.
func joindDataDir(tmp string) string { return tmp + "-joind-data" }

func startJoind(ctx context.Context, bin, tmp string, port, partitions int, copyDirs []string) (*joindServer, error) {
	data := joindDataDir(tmp)
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	logPath := filepath.Join(tmp, "joind.log")
	lf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--listen", fmt.Sprintf("127.0.0.1:%d", port),
		"--data-dir", data, "--partitions", strconv.Itoa(partitions), "--copy-dirs", strings.Join(append([]string{tmp}, copyDirs...), ","))
	cmd.Stdout, cmd.Stderr = lf, lf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return nil, err
	}
	s := &joindServer{cmd: cmd, port: port, log: logPath, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait(); lf.Close() }()
	alive := func() error {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("joind exited during startup (%v); log:\n%s", err, tail(logPath, 20))
		default:
			return nil
		}
	}
	if err := waitPort(ctx, fmt.Sprintf("127.0.0.1:%d", port), 30*time.Second, alive); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func (s *joindServer) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// stop asks joind to shut down and kills it if it has not after 5 s.
func (s *joindServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// exitedEarly reports whether joind has died (e.g. crashed on a query).
func (s *joindServer) exitedEarly() error {
	select {
	case err := <-s.done:
		s.done <- err
		if err == nil {
			err = errors.New("exit status 0")
		}
		return err
	default:
		return nil
	}
}

// tail returns the last n lines of a file, for error messages.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
