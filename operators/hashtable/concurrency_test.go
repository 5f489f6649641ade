package hashtable

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrentProbersShareMatchedBits: after Finish, several goroutines
// probe one table and mark one MatchedBits (run with -race).
func TestConcurrentProbersShareMatchedBits(t *testing.T) {
	tab := NewInt64(1000)
	keys := make([]int64, 3000)
	for i := range keys {
		keys[i] = int64(i % 1500) // each key twice
	}
	if err := tab.AppendSlice(keys, nil); err != nil {
		t.Fatal(err)
	}
	tab.Finish()
	bits := NewMatchedBits(tab.Rows())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			out := NewMatches(100)
			probe := make([]int64, 0, 500)
			for k := w * 250; k < w*250+250; k++ { // workers cover keys 0..999
				probe = append(probe, int64(k), int64(k))
			}
			for {
				done := tab.Probe(probe, nil, out)
				bits.Set(out.BuildRows)
				if done {
					break
				}
			}
		})
	}
	wg.Wait()
	// Keys 0..999 matched: rows k and k+1500 for each.
	if bits.Count() != 2000 {
		t.Fatalf("%d rows marked", bits.Count())
	}
	un := bits.AppendUnset(nil, 0, tab.Rows())
	if len(un) != 1000 || un[0] != 1000 || un[len(un)-1] != 2999 {
		t.Fatalf("unmatched rows %d (%v..)", len(un), un[:3])
	}
}

func TestForcePortable(t *testing.T) {
	defer ForcePortable(forcePortable.Load())
	ForcePortable(true)
	if KernelName() != "portable" || NewInt64(1).Kernel() != "portable" {
		t.Fatal("ForcePortable ignored")
	}
	if !strings.Contains(Describe(), "portable") {
		t.Fatal(Describe())
	}
	ForcePortable(false)
	want := "portable"
	if AcceleratedAvailable() {
		want = accelName
	}
	if KernelName() != want || NewInt64(1).Kernel() != want {
		t.Fatalf("kernel %q, want %q", KernelName(), want)
	}
	t.Log(Describe())
}
