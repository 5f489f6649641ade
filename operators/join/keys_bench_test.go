//go:build unix

package join

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// BenchmarkJoinKeys times hash joins on general keys (issue 12): a build
// side of JOIN_BENCH_BUILD rows (default 1M) against a probe side of
// JOIN_BENCH_PROBE rows (default 4M), half of whose rows match one build
// row, in batches of 1024 rows over 2 partitions. Each run checks the
// number of output rows. Compare branches with
//
//	go test -c -o /tmp/join.test ./operators/join
//	/tmp/join.test -test.run '^$' -test.bench JoinKeys -test.benchtime 3x
func BenchmarkJoinKeys(b *testing.B) {
	nb, np := benchEnv("JOIN_BENCH_BUILD", 1<<20), benchEnv("JOIN_BENCH_PROBE", 4<<20)
	for _, w := range joinWorkloads {
		b.Run(w.name, func(b *testing.B) {
			build, probe := w.data(nb, np)
			spec := Spec{Type: w.typ, Mode: CollectLeft, Cols: append(append([]plan.Column{}, build.cols...), probe.cols...)}
			for i := range w.keys {
				spec.LeftKeys = append(spec.LeftKeys, colRef(build.cols[i]))
				spec.RightKeys = append(spec.RightKeys, colRef(probe.cols[i]))
			}
			want := int64(np / 2)
			if w.typ == plan.RightJoin {
				want = int64(np)
			}
			b.ResetTimer()
			cpu0 := cpuNanos()
			for i := 0; i < b.N; i++ {
				op, err := NewHashJoin(build, probe, spec, &operators.Env{BatchSize: 1024})
				if err != nil {
					b.Fatal(err)
				}
				if got := drainCount(b, op); got != want {
					b.Fatalf("%d rows, want %d", got, want)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(np), "ns/probe-row")
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/float64(np), "cpu-ns/probe-row")
		})
	}
}

func benchEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// cpuNanos is the process's user+system CPU time: on a shared machine it
// varies less than wall time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// drainCount drains every partition of op concurrently.
func drainCount(b *testing.B, op operators.Operator) int64 {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64
		first error
	)
	for p := 0; p < op.Partitions(); p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			var n int64
			err := func() error {
				s, err := op.Open(context.Background(), p)
				if err != nil {
					return err
				}
				defer s.Close()
				for {
					r, err := s.Next()
					if err != nil {
						return err
					}
					n += r.NumRows()
				}
			}()
			mu.Lock()
			defer mu.Unlock()
			total += n
			if err != nil && err.Error() != "EOF" && first == nil {
				first = err
			}
		}(p)
	}
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
	return total
}

// scramble is a bijection on uint64 spreading consecutive ids over the
// whole range.
func scramble(i uint64) uint64 {
	i ^= i >> 31
	i *= 0x9E3779B97F4A7C15
	i ^= i >> 29
	return i
}

// keyGen makes the key values of id (build rows have ids 0..nb-1; a probe
// row matches when its id is below nb).
type keyGen struct {
	t   types.Type
	val func(id uint64) types.Value
}

var (
	genBigint = keyGen{types.Int8Type, func(id uint64) types.Value { return types.Value{I: int64(scramble(id) >> 1)} }}
	genText   = keyGen{types.TextType, func(id uint64) types.Value {
		h := scramble(id)
		return types.Value{S: "k" + strconv.FormatUint(h, 16) + strconv.FormatUint(h>>(h&31), 36)}
	}}
	genIntHi = keyGen{types.Int4Type, func(id uint64) types.Value { return types.Value{I: int64(id / 1000)} }}
	genIntLo = keyGen{types.Int4Type, func(id uint64) types.Value { return types.Value{I: int64(id % 1000)} }}
	// wide pair: both halves of a scrambled id, so no packing fits
	genWideHi = keyGen{types.Int8Type, func(id uint64) types.Value { return types.Value{I: int64(scramble(id) >> 32)} }}
	genWideLo = keyGen{types.Int8Type, func(id uint64) types.Value { return types.Value{I: int64(scramble(id) & 0xffffffff)} }}
	genPay    = keyGen{types.TextType, func(id uint64) types.Value { return types.Value{S: "payload-" + strconv.FormatUint(id, 10)} }}
	genPayInt = keyGen{types.Int8Type, func(id uint64) types.Value { return types.Value{I: int64(id)} }}
)

type joinWorkload struct {
	name    string
	typ     plan.JoinType
	keys    []keyGen
	payload []keyGen // build columns after the keys
	once    sync.Once
	b, p    *memOp
}

var joinWorkloads = []*joinWorkload{
	{name: "bigint", typ: plan.InnerJoin, keys: []keyGen{genBigint}},
	{name: "text", typ: plan.InnerJoin, keys: []keyGen{genText}},
	{name: "int4+int4", typ: plan.InnerJoin, keys: []keyGen{genIntHi, genIntLo}},
	{name: "wide-int8+int8", typ: plan.InnerJoin, keys: []keyGen{genWideHi, genWideLo}},
	{name: "int4+text", typ: plan.InnerJoin, keys: []keyGen{genIntLo, genText}},
	{name: "left-payload-text", typ: plan.RightJoin, keys: []keyGen{genText}, payload: []keyGen{genPay, genPayInt}},
}

// data makes (once) the build side of nb rows and the probe side of np rows:
// probe row j has id scramble-ordered j/2 for even j (a match when below nb)
// and nb+j for odd j (never a match).
func (w *joinWorkload) data(nb, np int) (*memOp, *memOp) {
	w.once.Do(func() {
		gens := append(append([]keyGen{}, w.keys...), w.payload...)
		var bcols, pcols []plan.Column
		for i, g := range gens {
			bcols = append(bcols, plan.Column{ID: plan.ColumnID(100 + i), Name: fmt.Sprintf("b%d", i), Type: g.t})
		}
		for i, g := range w.keys {
			pcols = append(pcols, plan.Column{ID: plan.ColumnID(200 + i), Name: fmt.Sprintf("p%d", i), Type: g.t})
		}
		// rows in a scrambled order of ids
		perm := func(r int) uint64 { return uint64(r) * 1_000_003 % uint64(nb) }
		w.b = genMem(bcols, gens, nb, perm)
		w.p = genMem(pcols, w.keys, np, func(r int) uint64 {
			if r%2 == 0 {
				return perm(r / 2)
			}
			return uint64(nb + r)
		})
	})
	return w.b, w.p
}

// genMem makes n rows (row r of id(r)) in batches of 1024 over 2 partitions.
func genMem(cols []plan.Column, gens []keyGen, n int, id func(r int) uint64) *memOp {
	const size = 1024
	m := &memOp{cols: cols, parts: make([][]arrow.Record, 2)}
	for start, p := 0, 0; start < n; start, p = start+size, (p+1)%2 {
		end := min(start+size, n)
		arrs := make([]arrow.Array, len(cols))
		for c, col := range cols {
			bld := array.NewBuilder(memory.DefaultAllocator, col.Type.ArrowType())
			for r := start; r < end; r++ {
				types.AppendValue(bld, col.Type, gens[c].val(id(r)))
			}
			arrs[c] = bld.NewArray()
		}
		m.parts[p] = append(m.parts[p], array.NewRecordBatch(schemaOf(cols), arrs, int64(end-start)))
	}
	return m
}
