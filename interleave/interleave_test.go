package interleave

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// Two threads of two steps each have C(4,2) = 6 schedules.
func TestCountsSchedules(t *testing.T) {
	res := Explore(func(r *Run) {
		for i := 0; i < 2; i++ {
			r.Go(fmt.Sprint("T", i), func() { r.Park("a"); r.Park("b") })
		}
	}, Options{})
	if res.Failure != "" || res.Schedules != 6 || res.Abandoned != 0 {
		t.Fatalf("got %+v, want 6 schedules", res)
	}
}

// A lost update (read, park, write) is found, and the shrunk trace has the
// one switch the bug needs.
func TestFindsLostUpdate(t *testing.T) {
	res := Explore(func(r *Run) {
		x := 0
		for i := 0; i < 2; i++ {
			r.Go(fmt.Sprint("T", i), func() {
				r.Park("read")
				v := x
				r.Park("write")
				x = v + 1
			})
		}
		r.AtEnd(func() {
			if x != 2 {
				r.Failf("x = %d", x)
			}
		})
	}, Options{})
	if res.Failure != "x = 1" {
		t.Fatalf("got %+v", res)
	}
	t.Logf("%s\n%s", res.Failure, res.TraceString())
}

// Two threads taking two "locks" in opposite orders deadlock in some
// schedule; Block's condition is re-evaluated between steps.
func TestFindsDeadlock(t *testing.T) {
	res := Explore(func(r *Run) {
		held := [2]int{-1, -1}
		lock := func(me, l int) {
			r.Block(fmt.Sprint("lock", l), func() bool { return held[l] < 0 })
			held[l] = me
		}
		for i := 0; i < 2; i++ {
			r.Go(fmt.Sprint("T", i), func() {
				lock(i, i)
				lock(i, 1-i)
				held[0], held[1] = -1, -1
			})
		}
	}, Options{})
	if !strings.HasPrefix(res.Failure, "deadlock") {
		t.Fatalf("got %+v", res)
	}
	t.Logf("%s\n%s", res.Failure, res.TraceString())
}

// Threads started by a thread are scheduled like the others, and a Check
// runs after every step.
func TestSpawnAndCheck(t *testing.T) {
	steps := 0
	res := Explore(func(r *Run) {
		n := 0
		r.Go("parent", func() {
			r.Park("spawn")
			r.Go("child", func() { r.Park("child"); n++ })
			r.Park("after")
			n++
		})
		r.Check(func() string {
			steps++
			if n > 2 {
				return "n > 2"
			}
			return ""
		})
		r.AtEnd(func() {
			if n != 2 {
				r.Failf("n = %d", n)
			}
		})
	}, Options{})
	// After the parent's spawn step, its step "after" interleaves with the
	// child's two ("start", "child"): 3 schedules.
	if res.Failure != "" || res.Schedules != 3 || steps == 0 {
		t.Fatalf("got %+v (%d checks)", res, steps)
	}
}

// The reduction keeps every outcome and runs fewer schedules: three
// threads, two touching x and one touching only y.
func TestReductionKeepsOutcomes(t *testing.T) {
	program := func(seen map[string]bool) func(r *Run) {
		return func(r *Run) {
			var log []string
			x, y := 0, 0
			r.Go("A", func() { r.Park("x"); x = x*10 + 1; log = append(log, "A") })
			r.Go("B", func() { r.Park("x"); x = x*10 + 2; log = append(log, "B") })
			r.Go("C", func() { r.Park("y"); y++; r.Park("y"); y++ })
			r.AtEnd(func() { seen[fmt.Sprint(x, y)] = true })
		}
	}
	dep := func(a, b Step) bool { return a.Label == b.Label }
	full, red := map[string]bool{}, map[string]bool{}
	rf := Explore(program(full), Options{})
	rr := Explore(program(red), Options{Dependent: dep})
	if fmt.Sprint(full) != fmt.Sprint(red) || rr.Schedules >= rf.Schedules {
		t.Fatalf("without reduction %d schedules %v, with %d %v", rf.Schedules, keys(full), rr.Schedules, keys(red))
	}
	t.Logf("%d schedules, %d with the reduction (%d abandoned), outcomes %v", rf.Schedules, rr.Schedules, rr.Abandoned, keys(full))
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Bounded preemptions: with none to spare after one, two threads of three
// parks each run fewer schedules, and the lost update (one preemption) is
// still found.
func TestPreemptionBound(t *testing.T) {
	prog := func(r *Run) {
		for i := 0; i < 2; i++ {
			r.Go(fmt.Sprint("T", i), func() { r.Park("a"); r.Park("b"); r.Park("c") })
		}
	}
	full, bounded := Explore(prog, Options{}), Explore(prog, Options{MaxPreemptions: 1})
	if full.Schedules != 20 || bounded.Schedules >= full.Schedules || bounded.Schedules < 2 {
		t.Fatalf("full %d, bounded %d schedules", full.Schedules, bounded.Schedules)
	}
	res := Explore(func(r *Run) {
		x := 0
		for i := 0; i < 2; i++ {
			r.Go(fmt.Sprint("T", i), func() { r.Park("read"); v := x; r.Park("write"); x = v + 1 })
		}
		r.AtEnd(func() {
			if x != 2 {
				r.Failf("x = %d", x)
			}
		})
	}, Options{MaxPreemptions: 1})
	if res.Failure != "x = 1" {
		t.Fatalf("bounded explorer missed the lost update: %+v", res)
	}
}
