//go:build unix

package operators

import (
	"fmt"
	"math/rand"
	"strconv"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// BenchmarkGroupKeys times the group lookup alone (groupKeys.assign) for
// each key shape, over batches of random keys from a given number of
// distinct values (no runs, so every row reaches the table).
func BenchmarkGroupKeys(b *testing.B) {
	const n = 8192
	for _, groups := range []int{100, 100_000, 1_000_000} {
		rng := rand.New(rand.NewSource(1))
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		hb, lb := array.NewInt32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator)
		for i := 0; i < n*16; i++ {
			k := rng.Intn(groups)
			ib.Append(int64(k))
			sb.Append("row-" + strconv.Itoa(k))
			hb.Append(int32(k / 1000))
			lb.Append(int32(k % 1000))
		}
		ints, strs := ib.NewArray(), sb.NewArray()
		his, los := hb.NewArray(), lb.NewArray()
		for _, sh := range []struct {
			name string
			ts   []types.Type
			arrs []arrow.Array
		}{
			{"int8", []types.Type{types.Int8Type}, []arrow.Array{ints}},
			{"text", []types.Type{types.TextType}, []arrow.Array{strs}},
			{"int8+text", []types.Type{types.Int8Type, types.TextType}, []arrow.Array{ints, strs}},
			{"int4+int4", []types.Type{types.Int4Type, types.Int4Type}, []arrow.Array{his, los}},
			{"text+text", []types.Type{types.TextType, types.TextType}, []arrow.Array{strs, strs}},
		} {
			b.Run(fmt.Sprintf("%s/groups=%d", sh.name, groups), func(b *testing.B) {
				slices := make([][]arrow.Array, 16)
				for s := range slices {
					for _, a := range sh.arrs {
						slices[s] = append(slices[s], array.NewSlice(a, int64(s*n), int64((s+1)*n)))
					}
				}
				gids := make([]int32, n)
				k := newGroupKeys(sh.ts)
				b.ResetTimer()
				cpu0 := cpuNanos()
				for i := 0; i < b.N; i++ {
					k.assign(slices[i%16], n, gids)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
				b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/n, "cpu-ns/row")
			})
		}
	}
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
