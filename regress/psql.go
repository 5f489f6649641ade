package regress

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// PsqlBinary is the psql used to run suites. The versioned path avoids
// Debian's pg_wrapper, which picks whichever client version is newest.
func PsqlBinary() string {
	const p = "/usr/lib/postgresql/15/bin/psql"
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "psql"
}

// PsqlEnv is the environment every suite runs under, against joind and
// against PostgreSQL alike (make-expected.sh sets the same; README.md
// documents it). Every PG* and locale variable of the caller is dropped so
// a developer's settings cannot change the output.
func PsqlEnv(host string, port int, db string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PG") || strings.HasPrefix(k, "LC_") || k == "LANG" || k == "LANGUAGE" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PGHOST="+host,
		"PGPORT="+strconv.Itoa(port),
		"PGUSER=postgres",
		"PGDATABASE="+db,
		"PGTZ=UTC",
		"PGDATESTYLE=ISO, MDY",
		"PGOPTIONS=-c intervalstyle=postgres",
		"PGAPPNAME=joind_regress",
		"LC_ALL=C",
	)
}

// RunSuite runs sql/<name>.sql (under dir) through `psql -X -a -q`, the
// file on stdin as pg_regress does (so errors carry no "psql:file:line:"
// prefix), and returns stdout and stderr combined. A non-zero psql exit is
// not an error: the output (e.g. a lost connection) is what gets diffed.
func RunSuite(ctx context.Context, dir, name, host string, port int, db string) ([]byte, error) {
	in, err := os.Open(filepath.Join(dir, "sql", name+".sql"))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var out bytes.Buffer
	// PG_ABS_SRCDIR is what pg_regress sets: suites name their data files
	// as PostgreSQL 15's own do (\getenv abs_srcdir PG_ABS_SRCDIR, then
	// :'abs_srcdir' '/data/...').
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, PsqlBinary(), "-X", "-a", "-q", "-d", db)
	cmd.Env = append(PsqlEnv(host, port, db), "PG_ABS_SRCDIR="+abs)
	cmd.Stdin = in
	cmd.Stdout = &out
	cmd.Stderr = &out
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.Bytes(), fmt.Errorf("psql on %s: %v", name, ctx.Err())
	}
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	return out.Bytes(), err
}

// ReadSchedule returns the suite names of a schedule file: one per line,
// blank lines and #-comments ignored.
func ReadSchedule(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line != "" {
			names = append(names, line)
		}
	}
	return names, sc.Err()
}

// UnifiedDiff returns `diff -u` of want and got, cut to maxLines lines.
// The labels name the files so the message says which side is which.
func UnifiedDiff(wantLabel string, want []byte, gotLabel string, got []byte, maxLines int) string {
	tmp, err := os.MkdirTemp("", "regress-diff-")
	if err != nil {
		return "cannot diff: " + err.Error()
	}
	defer os.RemoveAll(tmp)
	a, b := filepath.Join(tmp, "want"), filepath.Join(tmp, "got")
	if err := os.WriteFile(a, want, 0o644); err != nil {
		return "cannot diff: " + err.Error()
	}
	if err := os.WriteFile(b, got, 0o644); err != nil {
		return "cannot diff: " + err.Error()
	}
	out, _ := exec.Command("diff", "-u", "--label", wantLabel, "--label", gotLabel, a, b).CombinedOutput()
	if len(out) == 0 {
		return firstDifference(want, got)
	}
	lines := strings.SplitAfter(string(out), "\n")
	if len(lines) > maxLines {
		return strings.Join(lines[:maxLines], "") + fmt.Sprintf("... (%d more diff lines)\n", len(lines)-maxLines)
	}
	return string(out)
}

// firstDifference is the fallback when the diff tool is missing.
func firstDifference(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return fmt.Sprintf("first difference at line %d:\n-%s\n+%s\n", i+1, w, g)
		}
	}
	return "outputs differ\n"
}
