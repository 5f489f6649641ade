//go:build unix

package engine

import (
	"math/big"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/wire"
)

// The Agg benchmarks time grouped and ungrouped aggregation inside one
// engine over a DURABLE table (reopened, so segments are mapped from their
// files as after a restart):
//
//	lt(id bigint, n int, s text, amount numeric(10,2), g int, k bigint)
//
// with id = 0..N-1, n = id % 1000, s = 'row-' || id, amount = (id % 1000003)
// / 100 (two decimals), g = id % 100, k = id % 100000. Run them with
//
//	go test ./engine -run '^$' -bench 'Agg' -benchtime 5x
//
// JOIND_AGG_ROWS overrides N (default 10M). Each benchmark checks the number
// of groups and one group's (or the only row's) exact text.

var (
	aggOnce sync.Once
	aggSess wire.Session
	aggErr  error
	aggRows int64
)

func aggSession(b *testing.B) wire.Session {
	aggOnce.Do(func() {
		aggRows = benchRows("JOIND_AGG_ROWS", 10_000_000)
		aggSess, aggErr = newAggSession(aggRows)
	})
	if aggErr != nil {
		b.Fatal(aggErr)
	}
	return aggSess
}

func aggAmount(id int64) int64 { return id % 1000003 } // cents

func newAggSession(n int64) (wire.Session, error) {
	var buf []byte
	return newStoredBenchSession("joind-aggbench-",
		"CREATE TABLE lt (id bigint, n int, s text, amount numeric(10,2), g int, k bigint)", n,
		func(lo, hi int64) []arrow.Array {
			ib := array.NewInt64Builder(memory.DefaultAllocator)
			nb := array.NewInt32Builder(memory.DefaultAllocator)
			sb := array.NewStringBuilder(memory.DefaultAllocator)
			ab := array.NewStringBuilder(memory.DefaultAllocator)
			gb := array.NewInt32Builder(memory.DefaultAllocator)
			kb := array.NewInt64Builder(memory.DefaultAllocator)
			for id := lo; id < hi; id++ {
				ib.Append(id)
				nb.Append(int32(id % 1000))
				buf = strconv.AppendInt(append(buf[:0], "row-"...), id, 10)
				sb.BinaryBuilder.Append(buf)
				c := aggAmount(id)
				buf = strconv.AppendInt(buf[:0], c/100, 10)
				buf = append(buf, '.', byte('0'+c%100/10), byte('0'+c%10))
				ab.BinaryBuilder.Append(buf)
				gb.Append(int32(id % 100))
				kb.Append(id % 100000)
			}
			return []arrow.Array{ib.NewArray(), nb.NewArray(), sb.NewArray(), ab.NewArray(), gb.NewArray(), kb.NewArray()}
		})
}

// keyWriter counts rows and keeps the first whose first column is key
// (key "": the first row).
type keyWriter struct {
	discardWriter
	key string
	hit []string
}

func (w *keyWriter) Row(vals [][]byte) error {
	w.n++
	if w.hit == nil && (w.key == "" || len(vals) > 0 && string(vals[0]) == w.key) {
		w.hit = make([]string, len(vals))
		for i, v := range vals {
			w.hit[i] = string(v)
		}
	}
	return nil
}

// benchAgg runs q b.N times; each run must produce groups rows, and the row
// whose first column is key must render as want(n) (computed in Go from the
// data's definition).
func benchAgg(b *testing.B, q string, groups func(n int64) int, key string, want func(n int64) string) {
	s := aggSession(b)
	run := func() {
		w := &keyWriter{key: key}
		if _, err := execAll(s, q, w); err != nil {
			b.Fatal(err)
		}
		if w.n != groups(aggRows) {
			b.Fatalf("%s: %d rows, want %d", q, w.n, groups(aggRows))
		}
		if got, exp := render([][]string{w.hit}), want(aggRows); got != exp {
			b.Fatalf("%s: got %s, want %s", q, got, exp)
		}
	}
	run() // warm-up: reads the segments
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		run()
	}
	b.StopTimer()
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// avgText renders sum/cnt as PostgreSQL's avg does for these inputs: the
// quotient rounded to scale decimals (all values here are non-negative).
func avgText(sum, cnt int64, scale int) string {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	// q = round(sum * 10^scale / cnt), half up
	q := new(big.Int).Mul(big.NewInt(sum), p)
	q.Mul(q, big.NewInt(2)).Add(q, big.NewInt(cnt)).Quo(q, big.NewInt(2*cnt))
	ip, fp := new(big.Int).QuoRem(q, p, new(big.Int))
	f := fp.String()
	for len(f) < scale {
		f = "0" + f
	}
	return ip.String() + "." + f
}

func centsText(c int64) string {
	f := strconv.FormatInt(c%100, 10)
	if len(f) < 2 {
		f = "0" + f
	}
	return strconv.FormatInt(c/100, 10) + "." + f
}

func BenchmarkAggGroupSmallInt(b *testing.B) {
	benchAgg(b, "SELECT g, count(*), sum(n), avg(n), min(id), max(id) FROM lt GROUP BY g",
		func(n int64) int { return int(min(n, 100)) }, "7", func(n int64) string {
			var cnt, sum, lo, hi int64 = 0, 0, -1, -1
			for id := int64(7); id < n; id += 100 {
				cnt++
				sum += id % 1000
				if lo < 0 {
					lo = id
				}
				hi = id
			}
			return "(7," + strconv.FormatInt(cnt, 10) + "," + strconv.FormatInt(sum, 10) + "," + avgText(sum, cnt, 16) + "," +
				strconv.FormatInt(lo, 10) + "," + strconv.FormatInt(hi, 10) + ")"
		})
}

func BenchmarkAggGroupNumeric100k(b *testing.B) {
	benchAgg(b, "SELECT k, sum(amount), avg(amount) FROM lt GROUP BY k",
		func(n int64) int { return int(min(n, 100000)) }, "12345", func(n int64) string {
			var cnt, sum int64
			for id := int64(12345); id < n; id += 100000 {
				cnt++
				sum += aggAmount(id)
			}
			// avg of numeric(10,2) here: 16 decimals (the quotient's weight is 3 digits).
			return "(12345," + centsText(sum) + "," + avgText(sum, cnt*100, 16) + ")"
		})
}

func BenchmarkAggGroupText1M(b *testing.B) {
	rows := func(n int64) int64 { return min(n, 1_000_000) }
	benchAgg(b, "SELECT s, count(*) FROM lt WHERE id < 1000000 GROUP BY s",
		func(n int64) int { return int(rows(n)) }, "row-4321", func(int64) string { return "(row-4321,1)" })
}

// The many-group benchmarks of issue 12: 1M groups on two integer columns
// and on (int, text).
func BenchmarkAggGroupTwoInts1M(b *testing.B) {
	rows := func(n int64) int64 { return min(n, 1_000_000) }
	benchAgg(b, "SELECT id / 1000 * 1000 + n, count(*) FROM lt WHERE id < 1000000 GROUP BY id / 1000, n",
		func(n int64) int { return int(rows(n)) }, "4321", func(int64) string { return "(4321,1)" })
}

func BenchmarkAggGroupIntText1M(b *testing.B) {
	rows := func(n int64) int64 { return min(n, 1_000_000) }
	benchAgg(b, "SELECT s, g, count(*) FROM lt WHERE id < 1000000 GROUP BY g, s",
		func(n int64) int { return int(rows(n)) }, "row-4321", func(int64) string { return "(row-4321,21,1)" })
}

func BenchmarkAggAvgUngrouped(b *testing.B) {
	benchAgg(b, "SELECT avg(n), avg(amount) FROM lt",
		func(int64) int { return 1 }, "", func(n int64) string {
			var sn, sa int64
			for id := int64(0); id < n; id++ {
				sn += id % 1000
				sa += aggAmount(id)
			}
			return "(" + avgText(sn, n, 16) + "," + avgText(sa, n*100, 16) + ")"
		})
}
