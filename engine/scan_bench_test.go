//go:build unix

package engine

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/wire"
)

// The Scan benchmarks time peerbench's scan_full and scan_filter workloads
// (issue 7) inside one engine over a DURABLE table: lt(id bigint, n int,
// s text) with id = 0..N-1, n = id % 1000, s = 'row-' || id, loaded as one
// COPY-like transaction, then the engine is closed and reopened so the
// segments are read back from their files (memory-mapped Arrow IPC), as a
// server restart would. Run them with
//
//	go test ./engine -run '^$' -bench 'Scan(Full|Filter)' -benchtime 10x
//
// JOIND_SCAN_ROWS overrides N (default 10M). Each benchmark checks its answer.

var (
	scanOnce sync.Once
	scanSess wire.Session
	scanErr  error
	scanRows int64
)

func scanSession(b *testing.B) wire.Session {
	scanOnce.Do(func() {
		scanRows = benchRows("JOIND_SCAN_ROWS", 10_000_000)
		scanSess, scanErr = newScanSession(scanRows)
	})
	if scanErr != nil {
		b.Fatal(scanErr)
	}
	return scanSess
}

func newScanSession(n int64) (wire.Session, error) {
	var buf []byte
	return newStoredBenchSession("joind-scanbench-", "CREATE TABLE lt (id bigint, n int, s text)", n,
		func(lo, hi int64) []arrow.Array {
			ib := array.NewInt64Builder(memory.DefaultAllocator)
			nb := array.NewInt32Builder(memory.DefaultAllocator)
			sb := array.NewStringBuilder(memory.DefaultAllocator)
			for id := lo; id < hi; id++ {
				ib.Append(id)
				nb.Append(int32(id % 1000))
				buf = strconv.AppendInt(append(buf[:0], "row-"...), id, 10)
				sb.BinaryBuilder.Append(buf)
			}
			return []arrow.Array{ib.NewArray(), nb.NewArray(), sb.NewArray()}
		})
}

func benchScan(b *testing.B, q string, want func(n int64) string) {
	s := scanSession(b)
	w := &discardWriter{keep: 2}
	if _, err := execAll(s, q, w); err != nil { // warm-up: reads the segments
		b.Fatal(err)
	}
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		w := &discardWriter{keep: 2}
		if _, err := execAll(s, q, w); err != nil {
			b.Fatal(err)
		}
		if got, exp := render(w.rows), want(scanRows); got != exp {
			b.Fatalf("%s: got %s, want %s", q, got, exp)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func sumMod1000(lo, hi int64) (count, sum int64) {
	for id := lo; id <= hi; id++ {
		count++
		sum += id % 1000
	}
	return
}

func BenchmarkScanFull(b *testing.B) {
	benchScan(b, "SELECT count(*), sum(n) FROM lt", func(n int64) string {
		c, s := sumMod1000(0, n-1)
		return "(" + strconv.FormatInt(c, 10) + "," + strconv.FormatInt(s, 10) + ")"
	})
}

func BenchmarkScanFilter(b *testing.B) {
	// peerbench's range: the second tenth of the ids.
	lo := func(n int64) int64 { return n / 10 }
	hi := func(n int64) int64 { return n/10 + max(n/10, 1) - 1 }
	q := func() string {
		n := scanRows
		if n == 0 {
			n = 10_000_000
			if v, err := strconv.ParseInt(os.Getenv("JOIND_SCAN_ROWS"), 10, 64); err == nil && v > 0 {
				n = v
			}
		}
		return "SELECT count(*), sum(n) FROM lt WHERE id BETWEEN " + strconv.FormatInt(lo(n), 10) + " AND " + strconv.FormatInt(hi(n), 10)
	}()
	benchScan(b, q, func(n int64) string {
		c, s := sumMod1000(lo(n), min(hi(n), n-1))
		return "(" + strconv.FormatInt(c, 10) + "," + strconv.FormatInt(s, 10) + ")"
	})
}
