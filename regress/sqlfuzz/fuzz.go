package sqlfuzz

import (
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Config bounds and seeds a run.
type Config struct {
	Seed      int64
	Queries   int           // stop after this many generated queries (0: no bound)
	Duration  time.Duration // stop after this long (0: no bound)
	PerSchema int           // queries per generated schema
	MetaRate  int           // percent of iterations that also run a metamorphic check
	// MaxFailures stops the run after this many failures (each is shrunk,
	// which takes time).
	MaxFailures int
	Knobs       Knobs
	Logf        func(format string, args ...any)
	Progress    time.Duration // progress line interval (0: none)
	Prefix      string        // table name prefix (default fz_)
}

// Stats counts a run's outcomes.
type Stats struct {
	Queries     int
	Verdicts    [vInternal + 1]int
	MetaChecks  int
	MetaSkipped int
	MetaFail    int
	Schemas     int
	RoleCases   int // role scripts run (roles.go)
	Elapsed     time.Duration
	JoindTime   time.Duration // spent waiting for joind (differential and metamorphic)
	PGTime      time.Duration
	// BothErrors counts both-error outcomes by PostgreSQL's SQLSTATE and
	// message head: what the generator wastes queries on.
	BothErrors map[string]int
	sample     map[string]string // one query per BothErrors key
}

// Add folds another worker's counts into s (Elapsed: the longest).
func (s *Stats) Add(o *Stats) {
	s.Queries += o.Queries
	for i := range s.Verdicts {
		s.Verdicts[i] += o.Verdicts[i]
	}
	s.MetaChecks += o.MetaChecks
	s.MetaSkipped += o.MetaSkipped
	s.MetaFail += o.MetaFail
	s.Schemas += o.Schemas
	s.RoleCases += o.RoleCases
	s.JoindTime += o.JoindTime
	s.PGTime += o.PGTime
	if o.Elapsed > s.Elapsed {
		s.Elapsed = o.Elapsed
	}
	if s.BothErrors == nil {
		s.BothErrors, s.sample = map[string]int{}, map[string]string{}
	}
	for k, n := range o.BothErrors {
		s.BothErrors[k] += n
		if _, ok := s.sample[k]; !ok {
			s.sample[k] = o.sample[k]
		}
	}
}

// TopErrors is the n most frequent both-error kinds.
func (s *Stats) TopErrors(n int, verbose bool) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, c := range s.BothErrors {
		all = append(all, kv{k, c})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || (all[i].n == all[j].n && all[i].k < all[j].k) })
	var b strings.Builder
	for i, e := range all {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "  %6d %s\n", e.n, e.k)
		if verbose {
			fmt.Fprintf(&b, "         e.g. %s\n", s.sample[e.k])
		}
	}
	return b.String()
}

func (s *Stats) String() string {
	var parts []string
	for v, n := range s.Verdicts {
		parts = append(parts, fmt.Sprintf("%s=%d", verdict(v), n))
	}
	qps := float64(s.Queries) / s.Elapsed.Seconds()
	return fmt.Sprintf("queries=%d (%.0f/s, %d schemas; time in joind %.1fs, postgres %.1fs) %s; metamorphic checks=%d skipped=%d failed=%d; role scripts=%d",
		s.Queries, qps, s.Schemas, s.JoindTime.Seconds(), s.PGTime.Seconds(), strings.Join(parts, " "), s.MetaChecks, s.MetaSkipped, s.MetaFail, s.RoleCases)
}

// Failure is one shrunk, printable failure.
type Failure struct {
	Kind   string // DISAGREE, XX000, TLP count, ...
	Seed   int64  // the round's seed: JOIND_FUZZ_SEED replays it first
	Schema string // DDL and data after shrinking
	Query  string // minimal query (or the metamorphic pair)
	Detail string
	// Original is the query as generated, before shrinking
	Original string
}

func (f *Failure) String() string {
	orig := ""
	if f.Original != "" {
		orig = "-- as generated (before shrinking, on the full data):\n-- " + f.Original + "\n"
	}
	return fmt.Sprintf("=== sqlfuzz %s (JOIND_FUZZ_SEED=%d)\n-- schema and data:\n%s-- query:\n%s;\n-- %s\n%s",
		f.Kind, f.Seed, f.Schema, f.Query, strings.ReplaceAll(f.Detail, "\n", "\n-- "), orig)
}

// Fuzzer runs generated queries on joind and PostgreSQL.
type Fuzzer struct {
	cfg      Config
	j, pg    *peer
	cat      *catalog
	Stats    Stats
	Failures []*Failure
	// shown limits how many samples of each non-failing verdict are logged
	shown map[verdict]int
}

// NewFuzzer connects to both servers.
func NewFuzzer(cfg Config, joindDSN, pgDSN string) (*Fuzzer, error) {
	if cfg.PerSchema == 0 {
		cfg.PerSchema = 150
	}
	if cfg.Prefix == "" {
		cfg.Prefix = defaultPrefix
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	f := &Fuzzer{cfg: cfg, j: &peer{name: "joind", dsn: joindDSN}, pg: &peer{name: "postgres", dsn: pgDSN, pg: true},
		cat: newCatalog(&cfg.Knobs), shown: map[verdict]int{}}
	f.Stats.BothErrors = map[string]int{}
	f.Stats.sample = map[string]string{}
	for _, p := range []*peer{f.j, f.pg} {
		if err := p.connect(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// load installs a schema on both servers.
func (f *Fuzzer) load(s *schema) error {
	stmts := s.setup()
	if err := f.pg.exec(stmts); err != nil {
		return err
	}
	if err := f.j.exec(stmts); err != nil {
		f.cfg.Logf("joind failed to load a schema: %v", err)
		return err
	}
	return f.verifyLoad(s)
}

// verifyLoad checks that joind holds exactly the rows just loaded (a
// schema that silently diverged would make every later answer differ).
func (f *Fuzzer) verifyLoad(s *schema) error {
	for _, t := range s.tables {
		jr, pr := both(f.j, f.pg, "SELECT * FROM "+t.name)
		d := ""
		switch {
		case !jr.ok() || !pr.ok():
			d = fmt.Sprintf("joind: %v; postgres: %v", jr.err, pr.err)
		default:
			d = diffRows(multiset, jr, pr, false)
		}
		if d != "" {
			err := fmt.Errorf("%s differs after loading: %s", t.name, d)
			f.fail(&Failure{Kind: "LOAD", Schema: s.script(), Query: "SELECT * FROM " + t.name, Detail: err.Error()})
			return err
		}
	}
	return nil
}

// reconnect reopens a broken connection (after a timeout) and reloads.
func (f *Fuzzer) reconnect(s *schema) error {
	for _, p := range []*peer{f.j, f.pg} {
		if err := p.connect(); err != nil {
			return err
		}
	}
	return f.load(s)
}

func (f *Fuzzer) done(start time.Time) bool {
	if f.cfg.Queries > 0 && f.Stats.Queries >= f.cfg.Queries {
		return true
	}
	if f.cfg.Duration > 0 && time.Since(start) >= f.cfg.Duration {
		return true
	}
	return f.cfg.MaxFailures > 0 && len(f.Failures) >= f.cfg.MaxFailures
}

// Run generates schemas and queries until the bound. It returns an error
// only when the harness itself cannot go on (a server refuses the schema,
// a connection cannot be reopened); wrong answers are Failures.
func (f *Fuzzer) Run() error {
	start := time.Now()
	lastProgress := start
	defer func() {
		f.Stats.Elapsed = time.Since(start)
		f.Stats.JoindTime, f.Stats.PGTime = f.j.busy, f.pg.busy
	}()
	for round := int64(0); !f.done(start); round++ {
		seed := f.cfg.Seed + round
		r := rand.New(rand.NewSource(seed))
		sch := genSchema(r, &f.cfg.Knobs, f.cfg.Prefix)
		if err := f.pg.exec(sch.setup()); err != nil {
			return fmt.Errorf("seed %d: PostgreSQL rejected the generated schema: %v", seed, err)
		}
		if err := f.j.exec(sch.setup()); err != nil {
			// the statement in err is the repro; the next round drops the tables
			f.fail(&Failure{Kind: "LOAD", Seed: seed, Schema: sch.script(), Detail: err.Error()})
			continue
		}
		if f.verifyLoad(sch) != nil {
			continue // recorded by verifyLoad
		}
		f.Stats.Schemas++
		g := &gen{r: r, cat: f.cat, k: f.cfg.Knobs, s: sch}
		for i := 0; i < f.cfg.PerSchema && !f.done(start); i++ {
			q := g.query()
			q.analyze(sch)
			q.strictPrecedence = !f.cfg.Knobs.AllowErrorPrecedence
			q.lenientData = f.cfg.Knobs.AllowOneSidedDataErrors
			f.Stats.Queries++
			jr, pr := both(f.j, f.pg, q.sel.SQL())
			v, sig, detail := compare(q, jr, pr)
			f.Stats.Verdicts[v]++
			if v == vBothError {
				k := pr.state + " " + errHead(pr.err)
				f.Stats.BothErrors[k]++
				if _, ok := f.Stats.sample[k]; !ok {
					f.Stats.sample[k] = errContext(q.sel.SQL(), pr.err)
				}
			}
			if jr.broken() || pr.broken() {
				if err := f.reconnect(sch); err != nil {
					return err
				}
			}
			if v.failure() {
				f.shrinkDiff(seed, sch, q, sig, detail)
			} else if v == vOrderError || v == vAgreeRepr || v == vPGUnsupported || v == vTimeout {
				if f.shown[v] < 3 {
					f.shown[v]++
					f.cfg.Logf("sample %s: %s\n  %s", v, q.sel.SQL(), detail)
				}
			}
			if r.Intn(100) < f.cfg.MetaRate {
				m := g.metaCase()
				f.Stats.MetaChecks++
				mv, detail := m.check(f.j)
				switch mv {
				case mSkipped:
					f.Stats.MetaSkipped++
				case mFail, mInternal:
					f.Stats.MetaFail++
					f.shrinkMeta(seed, sch, m, mv, detail)
					if mv == mInternal {
						if err := f.reconnect(sch); err != nil {
							return err
						}
					}
				}
			}
			if f.cfg.Progress > 0 && time.Since(lastProgress) >= f.cfg.Progress {
				lastProgress = time.Now()
				f.Stats.Elapsed = time.Since(start)
				f.Stats.JoindTime, f.Stats.PGTime = f.j.busy, f.pg.busy
				f.cfg.Logf("progress: %s", &f.Stats)
			}
		}
		// The round ends with a role script over its tables (roles.go).
		prefix := f.cfg.Prefix
		if prefix == "" {
			prefix = defaultPrefix
		}
		if err := f.runRoles(seed, sch, g.roleCase(prefix)); err != nil {
			return err
		}
	}
	return nil
}

func (f *Fuzzer) fail(fl *Failure) {
	f.Failures = append(f.Failures, fl)
	f.cfg.Logf("%s", fl)
}

// shrinkDiff minimizes a differential failure and records it.
func (f *Fuzzer) shrinkDiff(seed int64, sch *schema, q *query, sig, detail string) {
	deadline := time.Now().Add(shrinkBudget)
	cur := sch
	fails := func(s *Select) bool {
		c := &query{sel: s, mode: q.mode, strictPrecedence: q.strictPrecedence, lenientData: q.lenientData}
		c.analyze(cur)
		jr, pr := both(f.j, f.pg, s.SQL())
		if jr.broken() || pr.broken() {
			f.reconnect(cur)
		}
		_, csig, _ := compare(c, jr, pr)
		return csig == sig
	}
	min := shrinkSelect(q.sel.clone(), fails, deadline)
	small := shrinkRows(sch, func() bool { return fails(min) }, func(s *schema) error { cur = s; return f.load(s) }, deadline)
	min = shrinkSelect(min, fails, deadline)
	final := &query{sel: min, mode: q.mode, strictPrecedence: q.strictPrecedence, lenientData: q.lenientData}
	final.analyze(cur)
	jr, pr := both(f.j, f.pg, min.SQL())
	v, _, d := compare(final, jr, pr)
	fl := &Failure{Kind: v.String(), Seed: seed, Schema: small.script(), Query: min.SQL(), Detail: d}
	if d == "" || min.SQL() == q.sel.SQL() {
		// not reproduced after shrinking (flaky?): keep the original
		fl.Detail = detail
	}
	if fl.Query != q.sel.SQL() {
		fl.Original = q.sel.SQL()
	}
	f.fail(fl)
	if err := f.load(sch); err != nil {
		f.reconnect(sch)
	}
}

// shrinkMeta minimizes a metamorphic failure and records it.
func (f *Fuzzer) shrinkMeta(seed int64, sch *schema, m *metaCase, v metaVerdict, detail string) {
	deadline := time.Now().Add(shrinkBudget)
	fails := func(s *Select) bool {
		if s.Where == nil || s.From == nil || (m.kind == tlpAgg && len(s.Items) == 0) {
			return false
		}
		c := m.clone()
		c.base = s
		cv, _ := c.check(f.j)
		if cv == mInternal {
			f.reconnect(sch)
		}
		return cv == v
	}
	min := shrinkSelect(m.base.clone(), fails, deadline)
	small := shrinkRows(sch, func() bool { return fails(min) }, f.load, deadline)
	min = shrinkSelect(min, fails, deadline)
	c := m.clone()
	c.base = min
	_, d := c.check(f.j)
	if d == "" {
		d = detail
	}
	whole, parts := c.queries()
	kind := metaNames[m.kind]
	if v == mInternal {
		kind += " XX000"
	}
	f.fail(&Failure{Kind: kind, Seed: seed, Schema: small.script(), Query: whole + ";\n" + parts, Detail: d})
	if err := f.load(sch); err != nil {
		f.reconnect(sch)
	}
}

var quoted = regexp.MustCompile(`"[^"]*"|[0-9]+`)

// errHead is an error message with quoted parts and numbers elided.
func errHead(err error) string {
	var pe *pgconn.PgError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = pe.Message
	}
	return quoted.ReplaceAllString(msg, "_")
}

// errContext is the part of sql around the error's position.
func errContext(sql string, err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Position == 0 {
		return sql
	}
	r := []rune(sql)
	at := int(pe.Position) - 1
	lo, hi := at-80, at+40
	if lo < 0 {
		lo = 0
	}
	if hi > len(r) {
		hi = len(r)
	}
	if at > len(r) {
		at = len(r)
	}
	return string(r[lo:at]) + " <HERE> " + string(r[at:hi])
}
