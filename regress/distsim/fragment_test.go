package distsim

import (
	"strings"
	"testing"

	"github.com/joind/joind/optimizer"
)

// The optimizer's plan of each simulated shape, at 1, 2 and 4
// partitions, cuts into fragments at its exchanges, and its one hash
// join is the join the simulation's workers run: the same kind, key and
// scope columns. Forced Partitioned, the join's fragment reads two
// Repartition fragments below the root's Gather, except a null-aware
// join's, which the optimizer keeps CollectLeft (one build, shared: a
// broadcast on a cluster); chosen by size, every join reads its inputs in
// place.
func TestShapesAreTheOptimizersJoins(t *testing.T) {
	for _, sh := range shapes {
		for _, n := range []int{1, 2, 4} {
			for _, mode := range []string{"", "partitioned"} {
				phys, frags, fr, err := PlanShape(sh.sql, n, mode)
				if err != nil {
					t.Errorf("%s, %d partitions: %v", sh.name, n, err)
					continue
				}
				plan := strings.Join(optimizer.Explain(phys, nil), "\n")
				if fr != sh.frag {
					t.Errorf("%s, %d partitions, mode %q: the optimizer's join is %+v, the simulation's %+v\n%s", sh.name, n, mode, fr, sh.frag, plan)
				}
				if n == 1 {
					continue
				}
				if len(frags.Inputs) != 1 || frags.Inputs[0].Below != optimizer.OpGather {
					t.Errorf("%s, %d partitions, mode %q: the top fragment is not a Gather of one fragment\n%s", sh.name, n, mode, plan)
					continue
				}
				below := 0
				for _, f := range frags.Inputs[0].Inputs {
					if f.Below == optimizer.OpRepartition {
						below++
					}
				}
				want := 0
				if mode == "partitioned" && sh.frag.Op != "anti" {
					want = 2 // a null-aware join stays CollectLeft
				}
				if below != want {
					t.Errorf("%s, %d partitions, mode %q: %d Repartition fragments below the join's, want %d\n%s", sh.name, n, mode, below, want, plan)
				}
			}
		}
	}
}
