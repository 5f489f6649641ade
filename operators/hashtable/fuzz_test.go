package hashtable

import (
	"encoding/binary"
	"slices"
	"testing"
)

// FuzzInt64Table builds a table from fuzzer-chosen keys (a small key space
// so duplicates and full groups are common, some aimed at chosen groups),
// then probes fuzzer-chosen batches with and without selection vectors,
// with a fuzzer-chosen output capacity. Every kernel must agree with a Go
// map model, pair for pair.
func FuzzInt64Table(f *testing.F) {
	f.Add([]byte{2, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 200, 3, 3, 3})
	f.Add([]byte{0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0})
	f.Add(make([]byte, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		lg := 1 + int(data[0]%5) // 2..32 groups: collisions, wrap-around
		capacity := 1 + int(data[1]%17)
		data = data[2:]
		seed := uint64(0x9E37_79B9)
		for _, kc := range kernels() {
			tab := newInt64WithGroups(make([]group, 1<<lg), seed, kc.find, kc.name)
			ref := reference{}
			var valid []bool
			var build []int64
			// Build: 2 bytes per row. High bit of the first: NULL. Low bits
			// choose either a small key or a key aimed at a group.
			for i := 0; i+1 < len(data)/2; i += 2 {
				a, b := data[i], data[i+1]
				var k int64
				if a&0x40 != 0 {
					k = keyInGroup(uint64(b)&(1<<lg-1), lg, seed, uint64(a&0x3))
				} else {
					k = int64(int8(b))
				}
				build = append(build, k)
				valid = append(valid, a&0x80 == 0)
			}
			if err := tab.AppendSlice(build, valid); err != nil {
				t.Fatal(err)
			}
			tab.Finish()
			for i, k := range build {
				if valid[i] {
					ref[k] = append(ref[k], uint32(i))
				}
			}
			// Probe: the second half of data, 1 byte per key, with the
			// same two key spaces; every 3rd row is left out of sel.
			rest := data[len(data)/2:]
			probe := make([]int64, 0, len(rest))
			for j, b := range rest {
				if j%2 == 0 && len(build) > 0 {
					probe = append(probe, build[int(b)%len(build)])
				} else {
					probe = append(probe, int64(int8(b)))
				}
			}
			var sel []int32
			for i := range probe {
				if i%3 != 0 {
					sel = append(sel, int32(i))
				}
			}
			if len(rest) >= 8 {
				probe = append(probe, int64(binary.LittleEndian.Uint64(rest)))
			}
			for _, s := range [][]int32{nil, sel} {
				got := pairsOf(t, tab, probe, s, capacity)
				want := expectedPairs(ref, probe, s, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("%s lg=%d cap=%d sel=%v: got %v want %v", kc.name, lg, capacity, s != nil, got, want)
				}
			}
		}
	})
}
