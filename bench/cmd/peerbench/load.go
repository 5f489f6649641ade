package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The bulk-load workloads (issue 7): one CSV of sz.Load rows
// (id bigint = 0..N-1, n int = id % 1000, s text = 'row-' || id) loaded
// by psql's \copy (joind and PostgreSQL), by server-side COPY FROM 'file'
// (all three), and the stored table scanned whole and filtered. Every
// timed load starts from an empty table; its answer is count(*), sum(n)
// of the loaded table.

const fullLoad = 10_000_000

const loadTable = "lt"

// loadSumN is sum(id % 1000) over id < n.
func loadSumN(n int64) int64 {
	full, rest := n/1000, n%1000
	return full*(999*1000/2) + rest*(rest-1)/2
}

// loadFilterRange is the BETWEEN range of scan_filter: the second tenth.
func loadFilterRange(n int64) (lo, hi int64) {
	lo = n / 10
	return lo, lo + max(n/10, 1) - 1
}

func loadAnswer(count, sum int64) []string {
	return []string{itoa(count) + "|" + itoa(sum)}
}

func filteredAnswer(n int64) []string {
	lo, hi := loadFilterRange(n)
	hi = min(hi, n-1)
	var c, s int64
	for id := lo; id <= hi; id++ {
		c++
		s += id % 1000
	}
	return loadAnswer(c, s)
}

var loadWorkloads = []workload{
	{
		Name:      "load_psql_copy",
		SQL:       `psql -c "\copy lt FROM 'lt.csv' (FORMAT csv)"`,
		Group:     "load",
		OnlyPeers: []string{"joind", "postgres"},
		NoWarmup:  true,
		Run:       runPsqlCopy,
		Expected:  func(sz sizes) []string { return loadAnswer(sz.Load, loadSumN(sz.Load)) },
	},
	{
		Name:     "load_server_copy",
		SQL:      "COPY lt FROM '<tmp>/lt.csv' (FORMAT csv)",
		Group:    "load",
		NoWarmup: true,
		Run:      runServerCopy,
		Expected: func(sz sizes) []string { return loadAnswer(sz.Load, loadSumN(sz.Load)) },
	},
	{
		Name:     "scan_full",
		SQL:      "SELECT count(*), sum(n) FROM lt",
		Group:    "load",
		Tables:   []string{loadTable},
		Expected: func(sz sizes) []string { return loadAnswer(sz.Load, loadSumN(sz.Load)) },
	},
	{
		Name:     "scan_filter",
		SQL:      "", // set by loadSQL: the range depends on the size
		Group:    "load",
		Tables:   []string{loadTable},
		Expected: func(sz sizes) []string { return filteredAnswer(sz.Load) },
	},
}

// scanFilterSQL is scan_filter's query for n rows.
func scanFilterSQL(n int64) string {
	lo, hi := loadFilterRange(n)
	return fmt.Sprintf("SELECT count(*), sum(n) FROM lt WHERE id BETWEEN %d AND %d", lo, hi)
}

// writeLoadCSV writes the load file into dir (readable by user postgres).
func writeLoadCSV(dir string, n int64) (string, error) {
	path := filepath.Join(dir, "lt.csv")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b []byte
	for i := int64(0); i < n; i++ {
		b = strconv.AppendInt(b[:0], i, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, i%1000, 10)
		b = append(b, ",row-"...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, '\n')
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// freshLoadTable drops and creates lt on p (untimed).
func freshLoadTable(ctx context.Context, p peer) error {
	if err := p.Exec(ctx, "DROP TABLE IF EXISTS "+loadTable); err != nil {
		return err
	}
	return p.Exec(ctx, "CREATE TABLE "+loadTable+" (id bigint, n int, s text)")
}

func loadedAnswer(ctx context.Context, p peer) ([]string, error) {
	return p.Query(ctx, "SELECT count(*), sum(n) FROM "+loadTable)
}

// runServerCopy times COPY lt FROM '<file>' on p. The returned answer is
// the loaded table's count and sum; load runs report the COPY's time only
// (see timedRun).
func runServerCopy(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error) {
	if err := freshLoadTable(ctx, p); err != nil {
		return nil, err
	}
	stmt := fmt.Sprintf("COPY %s FROM '%s' (FORMAT csv)", loadTable, b.loadFile)
	if err := timed(func() error { return p.Exec(ctx, stmt) }); err != nil {
		return nil, err
	}
	return loadedAnswer(ctx, p)
}

// runPsqlCopy times psql's \copy (client-side file, COPY FROM STDIN).
func runPsqlCopy(ctx context.Context, b *bench, p peer, timed func(func() error) error) ([]string, error) {
	pp, ok := p.(*pgPeer)
	if !ok {
		return nil, errors.New("psql runs against PostgreSQL-protocol peers only")
	}
	if err := freshLoadTable(ctx, p); err != nil {
		return nil, err
	}
	psql := b.psqlPath()
	cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", pp.dsn,
		"-c", fmt.Sprintf(`\copy %s FROM '%s' (FORMAT csv)`, loadTable, b.loadFile))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := timed(cmd.Run); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", psql, err, strings.TrimSpace(out.String()))
	}
	return loadedAnswer(ctx, p)
}

// psqlPath is psql of --pg-bin if there is one, else psql on PATH.
func (b *bench) psqlPath() string {
	if p := filepath.Join(b.o.pgBin, "psql"); fileExists(p) {
		return p
	}
	return "psql"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// prepareLoad writes the CSV once and makes sure lt exists on every peer
// for the scans (loading it with server-side COPY when no load workload
// ran), then lets PostgreSQL set hint bits and statistics.
func (b *bench) prepareScans(ctx context.Context) {
	for _, p := range b.peers {
		lctx, cancel := context.WithTimeout(ctx, b.o.loadTimeout)
		ans, err := loadedAnswer(lctx, p)
		want := loadAnswer(b.sz.Load, loadSumN(b.sz.Load))
		if err != nil || len(ans) != 1 || ans[0] != want[0] {
			_, err = runServerCopy(lctx, b, p, func(f func() error) error { return f() })
		}
		if err == nil && p.Name() == "postgres" {
			err = p.Exec(lctx, "VACUUM ANALYZE "+loadTable)
		}
		cancel()
		if err != nil {
			if b.loadErr[p.Name()] == nil {
				b.loadErr[p.Name()] = map[string]string{}
			}
			b.loadErr[p.Name()][loadTable] = b.describe(p, err)
		}
	}
}
