//go:build unix

package engine

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// The Peer benchmarks time the peerbench join workloads (issues 4 and 5)
// inside one engine, without the wire protocol, so a CPU profile shows only
// the executor. Run them with
//
//	go test ./engine -run '^$' -bench 'Peer' -benchtime 5x
//
// Each benchmark checks its answer, so a fast wrong plan fails.

// peerTable is one benchmark table: row g (0 <= g < n) holds row(g), then
// the extra rows. It is the data of bench/cmd/peerbench.
type peerTable struct {
	create string
	n      int64
	row    func(g int64) []types.Value
	extra  [][]types.Value
}

func ints(vs ...int64) []types.Value {
	out := make([]types.Value, len(vs))
	for i, v := range vs {
		out[i] = types.Value{I: v}
	}
	return out
}

var peerTables = []peerTable{
	{"CREATE TABLE probe (k bigint)", 10_000_000, func(g int64) []types.Value { return ints(g) }, nil},
	{"CREATE TABLE build (k bigint, g int)", 1_000_000, func(g int64) []types.Value { return ints(g*10, g%100) }, nil},
	// sbuild is build's keys plus one far outlier, so that its key range is
	// too wide for the dense index: the Swiss table's path.
	{"CREATE TABLE sbuild (k bigint)", 1_000_000, func(g int64) []types.Value { return ints(g * 10) },
		[][]types.Value{{{I: 1 << 40}}}},
	{"CREATE TABLE dim (g int, name text)", 100, func(g int64) []types.Value {
		return []types.Value{{I: g}, {S: "dim" + strconv.FormatInt(g, 10)}}
	}, nil},
	{"CREATE TABLE t1 (x bigint, z int)", 100_000, func(g int64) []types.Value { return ints(g, g%1000) }, nil},
	{"CREATE TABLE t2 (y bigint, z int)", 100_000, func(g int64) []types.Value { return ints(3*g, g%1000) },
		[][]types.Value{{{Null: true}, {I: 7}}}},
}

// peerChunk is the rows per stored batch: peerbench loads joind with
// INSERT ... VALUES statements of 10000 rows, each of which is one batch.
// (generate_series(int, int) is not resolved by types yet, so the tables
// are filled through the catalog rather than with INSERT ... SELECT.)
const peerChunk = 10_000

var (
	peerOnce sync.Once
	peerSess wire.Session
	peerErr  error
)

// peerSession returns a session of an engine with default options (so the
// default partition count) holding the benchmark tables.
func peerSession(b *testing.B) wire.Session {
	peerOnce.Do(func() { peerSess, peerErr = newPeerSession() })
	if peerErr != nil {
		b.Fatal(peerErr)
	}
	return peerSess
}

func newPeerSession() (wire.Session, error) {
	e, err := New(Options{})
	if err != nil {
		return nil, err
	}
	s, err := e.NewSession(context.Background(), map[string]string{"user": "bench"})
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	for _, pt := range peerTables {
		if _, err := execAll(s, pt.create, &discardWriter{}); err != nil {
			return nil, err
		}
		name := strings.Fields(pt.create)[2]
		t, _ := e.catalog.Lookup(name)
		defs := t.Columns()
		rows := pt.n + int64(len(pt.extra))
		for lo := int64(0); lo < rows; lo += peerChunk {
			hi := min(lo+peerChunk, rows)
			bs := make([]array.Builder, len(defs))
			fields := make([]arrow.Field, len(defs))
			for c, d := range defs {
				bs[c] = array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
				fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
			}
			for g := lo; g < hi; g++ {
				vals := pt.row(g)
				if g >= pt.n {
					vals = pt.extra[g-pt.n]
				}
				for c, d := range defs {
					types.AppendValue(bs[c], d.Type, vals[c])
				}
			}
			arrs := make([]arrow.Array, len(defs))
			for c := range bs {
				arrs[c] = bs[c].NewArray()
			}
			rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, hi-lo)
			if err := e.catalog.Append(ctx, t, rec); err != nil {
				return nil, err
			}
		}
	}
	settle(e)
	return s, nil
}

// settle waits until background storage work (compaction of the many small
// loaded batches) stops changing the tables' batch layout, so the timed
// queries neither compete with it nor see the layout change between runs.
func settle(e *Engine) {
	layout := func() string {
		var sb strings.Builder
		for _, pt := range peerTables {
			t, _ := e.catalog.Lookup(strings.Fields(pt.create)[2])
			sb.WriteString(strconv.Itoa(len(t.Snapshot())) + ",")
		}
		return sb.String()
	}
	prev, stable := layout(), 0
	for deadline := time.Now().Add(30 * time.Second); stable < 3 && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		cur := layout()
		if cur == prev {
			stable++
		} else {
			prev, stable = cur, 0
		}
	}
}

// discardWriter drops rows but keeps a copy of the last ones (at most keep).
type discardWriter struct {
	keep int
	rows [][]string
	n    int
}

func (w *discardWriter) Describe([]wire.ColumnDesc) error { return nil }
func (w *discardWriter) Notice(*pgerr.Error) error        { return nil }
func (w *discardWriter) Row(vals [][]byte) error {
	w.n++
	if len(w.rows) < w.keep {
		row := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				row[i] = "NULL"
			} else {
				row[i] = string(v)
			}
		}
		w.rows = append(w.rows, row)
	}
	return nil
}

func execAll(s wire.Session, q string, w wire.ResultWriter) (string, error) {
	sts, err := s.Parse(q)
	if err != nil {
		return "", err
	}
	var tag string
	for _, st := range sts {
		if tag, err = s.Execute(context.Background(), st, w); err != nil {
			return tag, err
		}
	}
	return tag, nil
}

// benchPeer runs q b.N times, checks each answer with check and reports
// ms/op.
func benchPeer(b *testing.B, q string, check func(rows [][]string) string) {
	s := peerSession(b)
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		w := &discardWriter{keep: 10}
		if _, err := execAll(s, q, w); err != nil {
			b.Fatal(err)
		}
		if msg := check(w.rows); msg != "" {
			b.Fatalf("%s: %s", q, msg)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	// CPU time of the whole process (all cores): on a shared machine it is
	// steadier than wall time, and wall ≈ cpu/cores when the work spreads.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func wantCount(n int64) func([][]string) string {
	want := strconv.FormatInt(n, 10)
	return func(rows [][]string) string {
		if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0] != want {
			return "got " + render(rows) + ", want " + want
		}
		return ""
	}
}

func render(rows [][]string) string {
	s := ""
	for _, r := range rows {
		s += "("
		for i, v := range r {
			if i > 0 {
				s += ","
			}
			s += v
		}
		s += ")"
	}
	return s
}

func BenchmarkPeerQ1InnerJoinCount(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM probe JOIN build ON probe.k = build.k", wantCount(1000000))
}

// Q1 with a key range the dense index does not cover (the Swiss table).
func BenchmarkPeerQ1SparseKeys(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM probe JOIN sbuild ON probe.k = sbuild.k", wantCount(1000000))
}

// Q3 over the same sparse keys.
func BenchmarkPeerQ3SparseKeys(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM probe WHERE k NOT IN (SELECT k FROM sbuild)", wantCount(9000000))
}

func BenchmarkPeerQ2JoinJoinGroup(b *testing.B) {
	// Every g of 0..99 gets 10000 matches; ties sort by name.
	benchPeer(b, "SELECT dim.name, count(*) FROM probe JOIN build ON probe.k = build.k JOIN dim ON build.g = dim.g GROUP BY dim.name ORDER BY 2 DESC, 1 LIMIT 3",
		func(rows [][]string) string {
			want := "(dim0,10000)(dim1,10000)(dim10,10000)"
			if got := render(rows); got != want {
				return "got " + got + ", want " + want
			}
			return ""
		})
}

func BenchmarkPeerQ3NotIn(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM probe WHERE k NOT IN (SELECT k FROM build)", wantCount(9000000))
}

func BenchmarkPeerQ4NotExists(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM probe WHERE NOT EXISTS (SELECT 1 FROM build WHERE build.k = probe.k)", wantCount(9000000))
}

func BenchmarkPeerQ5CorrelatedNotIn(b *testing.B) {
	benchPeer(b, "SELECT count(*) FROM t1 WHERE x NOT IN (SELECT y FROM t2 WHERE t2.z = t1.z)", wantCount(99833))
}
