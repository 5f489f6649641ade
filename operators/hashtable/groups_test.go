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
