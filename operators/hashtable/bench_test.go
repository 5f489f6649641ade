package hashtable

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// Benchmarks: build and probe at 1K, 1M, 16M (and 100M when
// JOIND_BENCH_100M=1) distinct int64 keys, hit rates 0/50/100%, each
// against Go's built-in map on the same keys in the same run. The metric
// to read is ns/probe (ns/key for builds). See testdata/README.md.

// benchKey is the i-th build key (distinct for distinct i: a bijection
// unrelated to the table's hash). Keys i >= n are guaranteed misses.
func benchKey(i uint64) int64 {
	x := i + 0x5851F42D4C957F2D
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return int64(x)
}

const benchProbeKeys = 1 << 20
const benchBatch = 1024

type benchData struct {
	n      int
	build  []int64
	tables map[string]*Int64Table
	gomap  map[int64]uint32
	probes map[int][]int64 // hit% -> probe keys
}

var benchCache = map[int]*benchData{}

func benchSizes() []int {
	s := []int{1 << 10, 1 << 20, 16 << 20}
	if v, _ := strconv.ParseBool(os.Getenv("JOIND_BENCH_100M")); v {
		s = append(s, 100_000_000)
	}
	return s
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1<<20:
		return fmt.Sprintf("%dM", n>>20)
	}
	return fmt.Sprintf("%dK", n>>10)
}

func getBench(b *testing.B, n int) *benchData {
	if d := benchCache[n]; d != nil {
		return d
	}
	// Free the previous size first: 16M and 100M do not fit together.
	for k, d := range benchCache {
		for _, t := range d.tables {
			t.Release()
		}
		delete(benchCache, k)
	}
	d := &benchData{n: n, tables: map[string]*Int64Table{}, probes: map[int][]int64{}}
	d.build = make([]int64, n)
	for i := range d.build {
		d.build[i] = benchKey(uint64(i))
	}
	for _, kc := range kernels() {
		t := newTableWithKernel(n, kc)
		if err := t.AppendSlice(d.build, nil); err != nil {
			b.Fatal(err)
		}
		t.Finish()
		d.tables[kc.name] = t
	}
	d.gomap = make(map[int64]uint32, n)
	for i, k := range d.build {
		d.gomap[k] = uint32(i)
	}
	for _, hit := range []int{0, 50, 100} {
		p := make([]int64, benchProbeKeys)
		x := uint64(12345)
		for i := range p {
			x = x*6364136223846793005 + 1442695040888963407
			r := x >> 11
			if int(r%100) < hit {
				p[i] = d.build[(r>>8)%uint64(n)]
			} else {
				p[i] = benchKey(uint64(n) + (r>>8)%uint64(n))
			}
		}
		d.probes[hit] = p
	}
	benchCache[n] = d
	return d
}

var benchSink uint64

func BenchmarkProbe(b *testing.B) {
	for _, n := range benchSizes() {
		for _, hit := range []int{0, 50, 100} {
			for _, impl := range append(kernelNames(), "gomap") {
				b.Run(fmt.Sprintf("keys=%s/hit=%d/%s", sizeName(n), hit, impl), func(b *testing.B) {
					d := getBench(b, n)
					probes := d.probes[hit]
					var matches uint64
					off := 0
					next := func() []int64 {
						if off+benchBatch > len(probes) {
							off = 0
						}
						s := probes[off : off+benchBatch]
						off += benchBatch
						return s
					}
					if impl == "gomap" {
						m := d.gomap
						for b.Loop() {
							for _, k := range next() {
								if v, ok := m[k]; ok {
									matches += uint64(v) | 1
								}
							}
						}
					} else {
						t := d.tables[impl]
						out := NewMatches(benchBatch)
						for b.Loop() {
							keys := next()
							for !t.Probe(keys, nil, out) {
								matches += uint64(out.Len())
							}
							matches += uint64(out.Len())
						}
					}
					benchSink += matches
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch), "ns/probe")
				})
			}
		}
	}
}

func kernelNames() []string {
	var s []string
	for _, k := range kernels() {
		s = append(s, k.name)
	}
	return s
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes() {
		for _, impl := range []string{"swiss", "gomap"} {
			b.Run(fmt.Sprintf("keys=%s/%s", sizeName(n), impl), func(b *testing.B) {
				keys := make([]int64, n)
				for i := range keys {
					keys[i] = benchKey(uint64(i))
				}
				for b.Loop() {
					if impl == "gomap" {
						m := make(map[int64]uint32, n)
						for i, k := range keys {
							m[k] = uint32(i)
						}
						benchSink += uint64(len(m))
					} else {
						t := NewInt64(n)
						if err := t.AppendSlice(keys, nil); err != nil {
							b.Fatal(err)
						}
						t.Finish()
						benchSink += uint64(t.Distinct())
						t.Release()
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
			})
		}
	}
}
