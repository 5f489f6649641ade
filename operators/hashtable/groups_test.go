package hashtable

import (
	"math/rand"
	"testing"
)

// FindOrAdd as a map: every key gets the id it was first given, through
// many growths, for keys placed densely, sparsely and negative.
func TestFindOrAddAgainstMap(t *testing.T) {
	for _, spread := range []int64{1, 1 << 40, -7} {
		tab := NewInt64(4)
		model := map[int64]uint32{}
		rng := rand.New(rand.NewSource(spread))
		for i := 0; i < 200000; i++ {
			k := rng.Int63n(50000) * spread
			next := uint32(len(model))
			got, added := tab.FindOrAdd(k, next)
			want, old := model[k]
			if !old {
				want = next
				model[k] = next
			}
			if got != want || added == old {
				t.Fatalf("spread %d, key %d: id %d added %v, want %d added %v", spread, k, got, added, want, !old)
			}
		}
		if tab.Distinct() != int64(len(model)) {
			t.Fatalf("Distinct %d, want %d", tab.Distinct(), len(model))
		}
	}
}

// collide is a Matcher whose keys all hash alike: the table must keep them
// apart by Match alone.
type collide struct {
	keys  []string
	probe string
}

func (c *collide) Match(id uint32) bool { return c.keys[id] == c.probe }

func TestFindOrAddHashCollisions(t *testing.T) {
	tab := NewInt64(2)
	c := &collide{}
	words := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q"}
	for round := 0; round < 3; round++ {
		for i, w := range words {
			c.probe = w
			h := uint64(42) // every key collides on all 64 bits
			if i%2 == 0 {
				h = uint64(i) // some do not
			}
			id, added := tab.FindOrAddHash(h, uint32(len(c.keys)), c)
			if round == 0 {
				if !added || id != uint32(i) {
					t.Fatalf("round 0, %q: id %d added %v", w, id, added)
				}
				c.keys = append(c.keys, w)
			} else if added || id != uint32(i) {
				t.Fatalf("round %d, %q: id %d added %v, want %d", round, w, id, added, i)
			}
		}
	}
}

// Lookup (the probe kernel over a map) finds exactly the keys FindOrAdd
// stored, with and without a selection, for every kernel.
func TestLookupAfterFindOrAdd(t *testing.T) {
	for _, portable := range []bool{false, true} {
		ForcePortable(portable)
		tab := NewInt64(8)
		for k := int64(0); k < 3000; k += 3 {
			tab.FindOrAdd(k, uint32(k/3))
		}
		keys := make([]int64, 2500)
		for i := range keys {
			keys[i] = int64(i)
		}
		res := make([]uint32, len(keys))
		tab.Lookup(keys, nil, res)
		for i, r := range res {
			if want := uint32(i / 3); i%3 != 0 && r != NotFound || i%3 == 0 && r != want {
				t.Fatalf("portable %v: key %d: %d", portable, i, r)
			}
		}
		sel := []int32{2498, 3, 4, 0}
		res = res[:len(sel)]
		tab.Lookup(keys, sel, res)
		if res[0] != NotFound || res[1] != 1 || res[2] != NotFound || res[3] != 0 {
			t.Fatalf("portable %v: with a selection: %v", portable, res)
		}
	}
	ForcePortable(false)
}

// Reserve sizes the table once: the keys it made room for are added
// without growing, and every key stays found across the regrowth.
func TestReserve(t *testing.T) {
	tab := NewInt64(16)
	for i := range 100 {
		tab.FindOrAdd(int64(i*7919), uint32(i))
	}
	if err := tab.Reserve(100_000); err != nil {
		t.Fatal(err)
	}
	groups := tab.Groups()
	for i := 100; i < 100_100; i++ {
		if id, added := tab.FindOrAdd(int64(i*7919), uint32(i)); !added || id != uint32(i) {
			t.Fatalf("key %d: id %d added %v", i, id, added)
		}
	}
	if tab.Groups() != groups {
		t.Fatalf("grew from %d to %d groups after Reserve", groups, tab.Groups())
	}
	for i := range 100_100 {
		if id, added := tab.FindOrAdd(int64(i*7919), 0); added || id != uint32(i) {
			t.Fatalf("key %d: id %d added %v", i, id, added)
		}
	}
	if err := tab.Reserve(10); err != nil || tab.Groups() != groups {
		t.Fatalf("a reserve that fits changed the table (%v, %d groups)", err, tab.Groups())
	}
}
