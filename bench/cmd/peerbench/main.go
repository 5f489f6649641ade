package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

type options struct {
	scale       float64
	runs        int
	only        string
	peers       string
	joindDSN    string
	pgDSN       string
	joindSrc    string
	partitions  int
	pgBin       string
	pgPort      int
	duckThreads int
	timeout     time.Duration
	loadTimeout time.Duration
	pgSlow      bool
	jsonPath    string
	load        string
	valuesBatch int
	keepTemp    bool

	// TPC-H (tpch.go)
	sf           float64
	tpchDir      string
	tpchQueryDir string
	tpchSchema   string
	tpchTimeout  time.Duration
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("peerbench", flag.ContinueOnError)
	fs.Float64Var(&o.scale, "scale", 1, "row-count multiplier for probe, build, t1/t2, s1/s2 (0.1 or 0.01 for a quick run)")
	fs.IntVar(&o.runs, "runs", 3, "timed runs per query and peer, after one warm-up; the median is reported")
	fs.StringVar(&o.only, "only", "", "comma-separated workloads to run (default all): "+workloadNames())
	fs.StringVar(&o.peers, "peers", "joind,postgres,duckdb", "comma-separated peers to run")
	fs.StringVar(&o.joindDSN, "joind-dsn", "", "connect to this running joind instead of building and starting one")
	fs.StringVar(&o.pgDSN, "pg-dsn", "", "connect to this running PostgreSQL instead of starting a scratch cluster")
	fs.StringVar(&o.joindSrc, "joind-src", "..", "joind's module root, where `go build ./cmd/joind` runs")
	fs.IntVar(&o.partitions, "joind-partitions", 2, "joind --partitions")
	fs.StringVar(&o.pgBin, "pg-bin", "/usr/lib/postgresql/15/bin", "PostgreSQL server binaries (initdb, pg_ctl)")
	fs.IntVar(&o.pgPort, "pg-port", 0, "port of the scratch PostgreSQL cluster (0 = any free port)")
	fs.IntVar(&o.duckThreads, "duckdb-threads", 2, "DuckDB SET threads")
	fs.DurationVar(&o.timeout, "timeout", 60*time.Second, "per-query timeout")
	fs.DurationVar(&o.loadTimeout, "load-timeout", 10*time.Minute, "per-statement timeout while loading tables")
	fs.BoolVar(&o.pgSlow, "pg-slow", false, "run PostgreSQL on corr_not_in_100k at full size too (one run, ~4 minutes)")
	fs.StringVar(&o.load, "load", "auto", "how to fill tables: series (server-side generate_series), values (client-built INSERT ... VALUES batches) or auto (series, falling back to values per peer and table)")
	fs.IntVar(&o.valuesBatch, "values-batch", 10000, "rows per INSERT ... VALUES statement")
	fs.StringVar(&o.jsonPath, "json", "", "also write the results as JSON to this file")
	fs.BoolVar(&o.keepTemp, "keep-temp", false, "keep the temporary directory (PostgreSQL cluster, joind data and log)")
	fs.Float64Var(&o.sf, "sf", 1, "TPC-H scale factor (tpch workloads)")
	fs.StringVar(&o.tpchDir, "tpch-dir", "", "directory of the TPC-H .tbl files; generated there by `joind tpch generate` when absent (default: in the temporary directory)")
	fs.StringVar(&o.tpchQueryDir, "tpch-queries", "", "directory of the TPC-H query files q01.sql ... q22.sql (default <joind-src>/tpch/queries)")
	fs.StringVar(&o.tpchSchema, "tpch-schema", "", "TPC-H CREATE TABLE script (default <joind-src>/tpch/schema.sql)")
	fs.DurationVar(&o.tpchTimeout, "tpch-timeout", 120*time.Second, "per-query timeout of the TPC-H queries")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.scale <= 0 || o.runs < 1 || o.valuesBatch < 1 || o.sf <= 0 {
		return nil, errors.New("--scale and --sf must be > 0, --runs and --values-batch >= 1")
	}
	if o.tpchQueryDir == "" {
		o.tpchQueryDir = filepath.Join(o.joindSrc, "tpch", "queries")
	}
	if o.tpchSchema == "" {
		o.tpchSchema = filepath.Join(o.joindSrc, "tpch", "schema.sql")
	}
	if !slices.Contains([]string{"auto", "series", "values"}, o.load) {
		return nil, fmt.Errorf("--load must be auto, series or values, not %q", o.load)
	}
	for _, p := range o.peerList() {
		if !slices.Contains([]string{"joind", "postgres", "duckdb"}, p) {
			return nil, fmt.Errorf("unknown peer %q (have: joind, postgres, duckdb)", p)
		}
	}
	return o, nil
}

func (o *options) peerList() []string {
	var out []string
	for _, p := range strings.Split(o.peers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func workloadNames() string {
	var n []string
	for _, w := range workloads {
		if !onRequest[w.Group] {
			n = append(n, w.Name)
		}
	}
	n = append(n, tpchName(1)+" ... "+tpchName(tpchQueries))
	return strings.Join(n, ", ") + "; or the groups load, keys, dml, window, groupingsets, orderedagg, functions (only when named), tpch (only when named)"
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(2)
	}
	code, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// bench holds the live peers of one run.
type bench struct {
	o       *options
	sz      sizes
	peers   []peer
	down    map[string]string // peer -> why it is unavailable
	joind   *joindServer
	rep     *report
	loadErr map[string]map[string]string // peer -> table -> error
	// loadFile is the bulk-load CSV (load.go), "" when no load workload runs.
	loadFile string
	// joindBin is the joind binary this run built ("" if none yet).
	joindBin string
	// tpch is set when a TPC-H workload runs (tpch.go).
	tpch *tpchState
}

func run(o *options) (int, error) {
	ws, err := selectWorkloads(o.only)
	if err != nil {
		return 0, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	tmp, err := os.MkdirTemp("", "peerbench-")
	if err != nil {
		return 0, err
	}
	// PostgreSQL runs as user postgres and must be able to enter tmp.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return 0, err
	}
	if o.keepTemp {
		fmt.Fprintln(os.Stderr, "peerbench: temporary directories", tmp, joindDataDir(tmp))
	} else {
		defer os.RemoveAll(tmp)
		defer os.RemoveAll(joindDataDir(tmp))
	}

	b := &bench{o: o, sz: sizesFor(o.scale), down: map[string]string{}, loadErr: map[string]map[string]string{}}
	b.rep = &report{Started: time.Now().UTC(), Scale: o.scale, Sizes: b.sz, Runs: o.runs, Versions: map[string]string{}}
	var copyDirs []string // for joind's --copy-dirs, besides tmp
	if hasGroup(ws, "tpch") {
		dir, err := o.tpchDataDir(tmp)
		if err != nil {
			return 0, err
		}
		if b.tpch, err = readTPCH(o, dir); err != nil {
			return 0, err
		}
		qdir, _ := filepath.Abs(o.tpchQueryDir)
		b.rep.TPCH = &tpchInfo{SF: o.sf, Dir: dir, Queries: qdir, TimeoutMS: ms(o.tpchTimeout)}
		copyDirs = append(copyDirs, dir)
		for i := range ws {
			if ws[i].Group == "tpch" {
				ws[i].Timeout = o.tpchTimeout
			}
		}
	}
	cleanup := b.start(ctx, tmp, copyDirs)
	defer cleanup()

	for i := range ws {
		if ws[i].Name == "scan_filter" {
			ws[i].SQL = scanFilterSQL(b.sz.Load)
		}
	}
	b.load(ctx, ws)
	if b.tpch != nil {
		if err := b.ensureTPCHData(ctx, tmp); err != nil {
			return 0, err
		}
		b.loadTPCH(ctx)
	}
	for _, w := range ws {
		if w.Group == "load" && b.loadFile == "" {
			fmt.Fprintf(os.Stderr, "peerbench: writing %d-row load CSV\n", b.sz.Load)
			if b.loadFile, err = writeLoadCSV(tmp, b.sz.Load); err != nil {
				return 0, err
			}
		}
	}
	scansReady := false
	for _, w := range ws {
		if ctx.Err() != nil {
			break
		}
		if slices.Contains(w.Tables, loadTable) && !scansReady {
			b.prepareScans(ctx)
			scansReady = true
		}
		wr := b.runWorkload(ctx, w)
		b.rep.Workloads = append(b.rep.Workloads, wr)
		if len(wr.Mismatch) > 0 {
			b.rep.Mismatches++
		}
	}
	b.rep.writeText(os.Stdout)
	if o.jsonPath != "" {
		if err := b.rep.writeJSON(o.jsonPath); err != nil {
			return 0, err
		}
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if b.rep.Mismatches > 0 {
		return 1, nil
	}
	return 0, nil
}

// start brings up every requested peer; one that cannot start is recorded
// as down and the others still run. The returned func stops what it started.
func (b *bench) start(ctx context.Context, tmp string, copyDirs []string) func() {
	var stops []func()
	fail := func(name string, err error) {
		b.down[name] = err.Error()
		b.rep.Setup = append(b.rep.Setup, name+": "+err.Error())
		fmt.Fprintf(os.Stderr, "peerbench: %s unavailable: %v\n", name, err)
	}
	for _, name := range b.o.peerList() {
		fmt.Fprintf(os.Stderr, "peerbench: starting %s\n", name)
		var p peer
		var err error
		switch name {
		case "joind":
			dsn := b.o.joindDSN
			if dsn == "" {
				var bin string
				src, _ := filepath.Abs(b.o.joindSrc)
				if bin, err = buildJoind(src, tmp); err == nil {
					b.joindBin = bin
					var port int
					if port, err = freePort(); err == nil {
						if b.joind, err = startJoind(ctx, bin, tmp, port, b.o.partitions, copyDirs); err == nil {
							stops = append(stops, b.joind.stop)
							dsn = b.joind.dsn()
						}
					}
				}
			}
			if err == nil {
				p, err = dialPG(ctx, "joind", dsn)
			}
		case "postgres":
			dsn := b.o.pgDSN
			if dsn == "" {
				port := b.o.pgPort
				if port == 0 {
					port, err = freePort()
				}
				var c *pgCluster
				if err == nil {
					if c, err = startPG(ctx, b.o.pgBin, tmp, port); err == nil {
						stops = append(stops, c.stop)
						dsn = c.dsn()
					}
				}
			}
			if err == nil {
				p, err = dialPG(ctx, "postgres", dsn)
			}
		case "duckdb":
			p, err = openDuck(ctx, b.o.duckThreads)
		}
		if err != nil {
			fail(name, err)
			continue
		}
		b.peers = append(b.peers, p)
		b.rep.Versions[name] = p.Version(ctx)
		stops = append(stops, p.Close)
	}
	return func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
}

// load creates and fills the tables the workloads need, on every peer.
func (b *bench) load(ctx context.Context, ws []workload) {
	ts := neededTables(b.sz, ws)
	for _, p := range b.peers {
		b.loadErr[p.Name()] = map[string]string{}
		for _, t := range ts {
			if ctx.Err() != nil {
				return
			}
			fmt.Fprintf(os.Stderr, "peerbench: loading %s.%s\n", p.Name(), t.Name)
			start := time.Now()
			method, err := b.loadTable(ctx, p, t)
			lr := loadResult{Peer: p.Name(), Table: t.Name, Method: method, MS: ms(time.Since(start))}
			if err != nil {
				lr.Error = b.describe(p, err)
				b.loadErr[p.Name()][t.Name] = lr.Error
			}
			b.rep.Loads = append(b.rep.Loads, lr)
		}
		if p.Name() == "postgres" {
			// Fresh tables have no statistics and no hint bits: settle both
			// before timing, as any real deployment would have.
			lctx, cancel := context.WithTimeout(ctx, b.o.loadTimeout)
			if err := p.Exec(lctx, "VACUUM ANALYZE"); err != nil {
				b.rep.Setup = append(b.rep.Setup, "postgres: VACUUM ANALYZE: "+err.Error())
			}
			cancel()
		}
	}
}

// loadTable creates and fills t on p: server-side from generate_series, or
// with client-built INSERT ... VALUES batches (--load values, or --load auto
// when generate_series fails). It returns how the table was loaded.
func (b *bench) loadTable(ctx context.Context, p peer, t table) (string, error) {
	exec := func(stmt string) error {
		sctx, cancel := context.WithTimeout(ctx, b.o.loadTimeout)
		defer cancel()
		if err := p.Exec(sctx, stmt); err != nil {
			if errors.Is(sctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("timeout after %s (--load-timeout): %w", b.o.loadTimeout, err)
			}
			return fmt.Errorf("%s: %w", abbrev(stmt), err)
		}
		return nil
	}
	// Tables may exist from an earlier attempt or an earlier run against a
	// --*-dsn server. A DROP failure is not fatal: the table may not exist.
	drop := func() {
		dctx, cancel := context.WithTimeout(ctx, b.o.timeout)
		_ = p.Exec(dctx, "DROP TABLE IF EXISTS "+t.Name)
		cancel()
	}
	values := func() error {
		drop()
		return t.forEachValues(b.o.valuesBatch, exec)
	}
	if b.o.load == "values" {
		return "values", values()
	}
	drop()
	var err error
	for _, stmt := range t.seriesSQL() {
		if err = exec(stmt); err != nil {
			break
		}
	}
	if err == nil || b.o.load == "series" {
		return "series", err
	}
	if verr := values(); verr != nil {
		return "values", fmt.Errorf("generate_series: %v; then VALUES: %w", err, verr)
	}
	cause := err
	if u := errors.Unwrap(err); u != nil {
		cause = u // drop the statement text: the load table names it
	}
	return "values (generate_series: " + firstLine(cause.Error()) + ")", nil
}

// abbrev shortens a statement for an error message (VALUES batches are long).
func abbrev(stmt string) string {
	if len(stmt) > 120 {
		return stmt[:117] + "..."
	}
	return stmt
}

// describe words an error, noting a timeout or a joind that died.
func (b *bench) describe(p peer, err error) string {
	msg := err.Error()
	if errors.Is(err, context.DeadlineExceeded) && !strings.Contains(msg, "timeout") {
		msg = "timeout: " + msg
	}
	if p.Name() == "joind" && b.joind != nil {
		if xerr := b.joind.exitedEarly(); xerr != nil {
			msg += fmt.Sprintf(" (joind exited: %v; log tail:\n%s)", xerr, tail(b.joind.log, 15))
			b.down["joind"] = "joind exited: " + xerr.Error()
		}
	}
	return msg
}

// runWorkload runs w on every peer: one warm-up round, then o.runs timed
// rounds, interleaving peers so that machine noise hits them alike.
func (b *bench) runWorkload(ctx context.Context, w workload) workloadResult {
	wr := workloadResult{Name: w.Name, SQL: w.SQL, Group: w.Group, Tolerant: w.Tolerant}
	if w.Expected != nil {
		wr.Expected = w.Expected(b.sz)
	}
	timeout := cmp.Or(w.Timeout, b.o.timeout)
	wr.TimeoutMS = ms(timeout)
	fmt.Fprintf(os.Stderr, "peerbench: workload %s\n", w.Name)

	type slot struct {
		p       peer
		res     *peerResult
		runs    int
		timeout time.Duration
		warm    bool
	}
	var slots []*slot
	for _, name := range b.o.peerList() {
		wr.Peers = append(wr.Peers, peerResult{Peer: name})
	}
	for i := range wr.Peers {
		res := &wr.Peers[i]
		if why, ok := b.down[res.Peer]; ok {
			res.Error = "unavailable: " + why
			continue
		}
		var p peer
		for _, q := range b.peers {
			if q.Name() == res.Peer {
				p = q
			}
		}
		if p == nil {
			res.Error = "unavailable"
			continue
		}
		if missing := b.missingTables(res.Peer, w); missing != "" {
			res.Error = missing
			continue
		}
		if w.OnlyPeers != nil && !slices.Contains(w.OnlyPeers, res.Peer) {
			res.Skipped = "not applicable"
			continue
		}
		s := &slot{p: p, res: res, runs: b.o.runs, timeout: timeout, warm: !w.NoWarmup}
		if w.SlowOnPG && res.Peer == "postgres" {
			switch {
			case b.sz.T <= fullS:
				res.Note = fmt.Sprintf("t1/t2 at %d rows (≤ the s1/s2 size PostgreSQL runs by default)", b.sz.T)
			case b.o.pgSlow:
				s.runs, s.warm = 1, false
				s.timeout = max(timeout, 15*time.Minute)
				res.Note = "--pg-slow: one cold run, no warm-up (PostgreSQL re-runs the subquery per outer row)"
			default:
				res.Skipped = fmt.Sprintf("PostgreSQL cannot decorrelate NOT IN (~4 min at %d rows); "+
					"see corr_not_in_10k for it at %d rows, or pass --pg-slow", b.sz.T, fullS)
				continue
			}
		}
		slots = append(slots, s)
	}

	// Round 0 is the warm-up; its answer is the one compared.
	for round := 0; round <= b.o.runs; round++ {
		for _, s := range slots {
			if s.res.Error != "" || ctx.Err() != nil {
				continue
			}
			if round == 0 && !s.warm {
				continue
			}
			if len(s.res.RunsMS) >= s.runs {
				continue
			}
			qctx, cancel := context.WithTimeout(ctx, s.timeout)
			var ans []string
			var err error
			var elapsed time.Duration
			if w.Run != nil {
				ans, err = w.Run(qctx, b, s.p, func(f func() error) error {
					start := time.Now()
					err := f()
					elapsed = time.Since(start)
					return err
				})
			} else {
				start := time.Now()
				ans, err = s.p.Query(qctx, w.sqlFor(s.p.Name()))
				elapsed = time.Since(start)
			}
			cancel()
			if err != nil {
				if errors.Is(qctx.Err(), context.DeadlineExceeded) {
					err = fmt.Errorf("timeout after %s: %w", s.timeout, err)
					s.res.TimedOut = true
				}
				s.res.Error = b.describe(s.p, err)
				continue
			}
			if s.res.Answer == nil {
				s.res.Answer, s.res.Rows = ans, len(ans)
			} else if wr.answerDiff(s.p.Name(), s.p.Name(), s.res.Answer, ans) != "" {
				s.res.Error = fmt.Sprintf("answer changed between runs: %s, then %s", short(s.res.Answer), short(ans))
				continue
			}
			if round > 0 || !s.warm {
				s.res.RunsMS = append(s.res.RunsMS, ms(elapsed))
			}
		}
	}
	for _, s := range slots {
		if len(s.res.RunsMS) > 0 {
			s.res.MedianMS = median(s.res.RunsMS)
			s.res.MinMS = slices.Min(s.res.RunsMS)
		}
	}
	wr.finish()
	return wr
}

func (b *bench) missingTables(peer string, w workload) string {
	for _, t := range w.Tables {
		if e, ok := b.loadErr[peer][t]; ok {
			return fmt.Sprintf("table %s failed to load (see load): %s", t, e)
		}
	}
	return ""
}
