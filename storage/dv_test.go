package storage

import (
	"math/rand"
	"slices"
	"testing"
)

// DeleteVector against a plain set, over random offsets across chunk and
// word boundaries.
func TestDeleteVectorOps(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const rows = 3*chunkBits + 100
	for round := 0; round < 50; round++ {
		set := map[int64]bool{}
		var a, b *DeleteVector
		var offsA, offsB []int64
		for i := 0; i < rng.Intn(400); i++ {
			o := rng.Int63n(rows)
			if set[o] {
				continue
			}
			set[o] = true
			if rng.Intn(2) == 0 {
				offsA = append(offsA, o)
			} else {
				offsB = append(offsB, o)
			}
		}
		var dup int64
		if a, dup = a.with(offsA); dup >= 0 {
			t.Fatalf("false duplicate %d", dup)
		}
		b, _ = b.with(offsB)
		if len(offsA) > 0 {
			if _, dup := a.with(offsA[:1]); dup != offsA[0] {
				t.Fatalf("duplicate %d not reported (%d)", offsA[0], dup)
			}
			if firstOverlap(a, b) != -1 || firstOverlap(a, a) < 0 {
				t.Fatal("firstOverlap wrong")
			}
		}
		u := union(a, b)
		if u.Count() != int64(len(set)) {
			t.Fatalf("union counts %d, want %d", u.Count(), len(set))
		}
		var want []int64
		for o := int64(0); o < rows; o++ {
			if u.Deleted(o) != set[o] {
				t.Fatalf("Deleted(%d) = %v", o, u.Deleted(o))
			}
			if set[o] {
				want = append(want, o)
			}
		}
		if !slices.Equal(u.offsets(), want) {
			t.Fatal("offsets differ")
		}
		for i := 0; i < 50; i++ {
			lo := rng.Int63n(rows)
			hi := lo + rng.Int63n(rows-lo+1)
			hit := false
			var live []int
			for o := lo; o < hi; o++ {
				hit = hit || set[o]
				if !set[o] {
					live = append(live, int(o-lo))
				}
			}
			if u.Any(lo, hi) != hit {
				t.Fatalf("Any(%d,%d) = %v", lo, hi, !hit)
			}
			if got := u.Live(lo, hi, lo, nil); !slices.Equal(got, live) {
				t.Fatalf("Live(%d,%d) differs", lo, hi)
			}
			var dead []int64
			for o := lo; o < hi; o++ {
				if set[o] {
					dead = append(dead, o)
				}
			}
			got, ok := u.DeletedIn(lo, hi, 5, nil)
			if ok != (len(dead) <= 5) || ok && !slices.Equal(got, dead) {
				t.Fatalf("DeletedIn(%d,%d) = %v %v, want %v", lo, hi, got, ok, dead)
			}
		}
		offs, err := decodeOffsets(encodeOffsets(want), rows)
		if err != nil || !slices.Equal(offs, want) {
			t.Fatalf("offsets round trip: %v", err)
		}
	}
}
