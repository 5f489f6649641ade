package distsim

import (
	"strings"
	"testing"

	"github.com/joind/joind/optimizer"
)

// The optimizer's plan of each simulated shape, at 1, 2 and 4
// partitions, cuts into fragments at its exchanges, and its one hash
// join is the join the simulation's workers run: the same kind, key and
// scope columns.
func TestShapesAreTheOptimizersJoins(t *testing.T) {
	for _, sh := range shapes {
		for _, n := range []int{1, 2, 4} {
			phys, frags, fr, err := PlanShape(sh.sql, n)
			if err != nil {
				t.Errorf("%s, %d partitions: %v", sh.name, n, err)
				continue
			}
			plan := strings.Join(optimizer.Explain(phys, nil), "\n")
			if fr != sh.frag {
				t.Errorf("%s, %d partitions: the optimizer's join is %+v, the simulation's %+v\n%s", sh.name, n, fr, sh.frag, plan)
			}
			if frags.Root != phys || (n > 1 && len(frags.Inputs) == 0) {
				t.Errorf("%s, %d partitions: %d fragments below the top\n%s", sh.name, n, len(frags.Inputs), plan)
			}
			t.Logf("%s, %d partitions:\n%s", sh.name, n, plan)
		}
	}
}
