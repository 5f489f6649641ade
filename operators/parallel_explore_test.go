package operators

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/interleave"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// This file checks the parallel-execution toolkit's contract (doc.go,
// "Parallel execution") with the interleaving explorer: the shipped
// Gather, Repartition, RunPartitions and Ordered run with explorer hooks in
// their context, so their goroutines are explorer threads and every lock,
// wait and cancellation is a park point. Under every schedule: queues stay
// within their bounds (Repartition's overflow only when its rule allows),
// partitions read in any order do not deadlock, the real error beats the
// cancellation it caused, cancellation is 57014, and Close (or the fan-out's
// return) comes after every goroutine the toolkit started has returned.

type runHooks struct{ r *interleave.Run }

func (h runHooks) Go(name string, f func())              { h.r.Go(name, f) }
func (h runHooks) Park(label string)                     { h.r.Park(label) }
func (h runHooks) Block(label string, ready func() bool) { h.r.Block(label, ready) }

// resource is what a step's label says it touches: "lock gather" and
// "push gather" touch the gather; "start" (a thread's first step, which runs
// only its own code up to its first park) and "input" (a test stream's own
// batch) touch nothing shared.
func resource(label string) string {
	if label == "start" || label == "input" {
		return ""
	}
	_, r, _ := strings.Cut(label, " ")
	return r
}

// dependent: steps on the same monitor do not commute, nor does a
// cancellation with anything (every step may read a context).
func dependent(a, b interleave.Step) bool {
	if strings.HasPrefix(a.Label, "cancel") || strings.HasPrefix(b.Label, "cancel") {
		return true
	}
	ra, rb := resource(a.Label), resource(b.Label)
	return ra != "" && ra == rb
}

var errBoom = pgerr.New(pgerr.DivisionByZero, "division by zero")

// simInput is an input operator whose partitions yield the given batches of
// one int8 column (nil: NULL); the batch at fail fails instead. Next
// honours cancellation; it does not park, since it touches only the
// stream's own state and the context, and every cancellation is a step
// dependent with all others.
type simInput struct {
	parts [][][]*int64
	fail  [2]int // partition, batch that fails with errBoom; {-1, -1}: none
}

var simCols = cols(i8)

func (s *simInput) Columns() []plan.Column { return simCols }
func (s *simInput) Partitions() int        { return len(s.parts) }
func (s *simInput) Open(ctx context.Context, p int) (Stream, error) {
	return &simStream{in: s, p: p, ctx: ctx}, nil
}

type simStream struct {
	in  *simInput
	p   int
	at  int
	ctx context.Context
}

func (s *simStream) Next() (arrow.Record, error) {
	if err := checkCtx(s.ctx); err != nil {
		return nil, err
	}
	if s.in.fail == [2]int{s.p, s.at} {
		return nil, errBoom
	}
	if s.at >= len(s.in.parts[s.p]) {
		return nil, io.EOF
	}
	vals := s.in.parts[s.p][s.at]
	s.at++
	rows := make([][]types.Value, len(vals))
	for i, v := range vals {
		if v == nil {
			rows[i] = []types.Value{N}
		} else {
			rows[i] = []types.Value{I(*v)}
		}
	}
	return mkRecord(simCols, rows), nil
}

func (s *simStream) Close() error { return nil }

func iv(v int64) *int64 { return &v }

func batchVals(rec arrow.Record) []string {
	a := rec.Column(0).(*array.Int64)
	var out []string
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			out = append(out, "NULL")
		} else {
			out = append(out, fmt.Sprint(a.Value(i)))
		}
	}
	return out
}

func inputVals(in *simInput) []string {
	var out []string
	for _, p := range in.parts {
		for _, b := range p {
			for _, v := range b {
				if v == nil {
					out = append(out, "NULL")
				} else {
					out = append(out, fmt.Sprint(*v))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// toolkitDone reports a toolkit thread (not one of the test's, named C…)
// still running.
func toolkitDone(r *interleave.Run) string {
	for i := 0; i < r.Threads(); i++ {
		if n := r.Name(i); !strings.HasPrefix(n, "C") && !r.Done(i) {
			return n + " still runs"
		}
	}
	return ""
}

// readAll reads s to its end; it returns the values and the final error
// (nil at io.EOF).
func readAll(s Stream) ([]string, error) {
	var got []string
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, batchVals(rec)...)
	}
}

// exhaustive explores every schedule (with the reduction); bounded, the
// schedules of at most 2 preemptions, for the exchange, whose every step is
// on one monitor (its full space is beyond reach even for 4 threads).
var (
	exhaustive = interleave.Options{Dependent: dependent}
	bounded    = interleave.Options{MaxPreemptions: 2}
	// The pool's threads block often, and every block is a free switch.
	boundedPool = interleave.Options{MaxPreemptions: 1}
)

func explore(t *testing.T, name string, setup func(*interleave.Run), wantFail bool, opts ...interleave.Options) interleave.Result {
	t.Helper()
	opt := exhaustive
	if len(opts) > 0 {
		opt = opts[0]
	}
	res := interleave.Explore(setup, opt)
	switch {
	case res.Failure != "" && !wantFail:
		t.Fatalf("%s: %s\nschedule:\n%s", name, res.Failure, res.TraceString())
	case res.Failure == "" && wantFail:
		t.Fatalf("%s: no failing schedule in %d", name, res.Schedules)
	case res.Failure == "" && res.Schedules < 2:
		t.Fatalf("%s: only %d schedule explored", name, res.Schedules)
	}
	t.Logf("%s: %d schedules (%d abandoned as equivalent) %s", name, res.Schedules, res.Abandoned, res.Failure)
	return res
}

func twoByTwo() *simInput {
	return &simInput{parts: [][][]*int64{{{iv(1)}, {iv(2)}}, {{iv(3)}, {iv(4)}}}, fail: [2]int{-1, -1}}
}

// ---- Gather ----

// gatherProgram: one consumer reads a gather of in; after `cancelAfter`
// batches (≥0) it cancels its context, after `closeAfter` (≥0) it closes.
func gatherProgram(in *simInput, cancelAfter, closeAfter int, check func(r *interleave.Run, got []string, err error)) func(*interleave.Run) {
	return func(r *interleave.Run) {
		ctx, cancel := context.WithCancel(withHooks(context.Background(), runHooks{r}))
		var gs *gatherStream
		r.Check(func() string {
			if gs != nil && len(gs.q) > gs.bound {
				return fmt.Sprintf("gather queue holds %d batches, bound %d", len(gs.q), gs.bound)
			}
			return ""
		})
		r.Go("C", func() {
			s, _ := NewGather(in).Open(ctx, 0)
			gs = s.(*gatherStream)
			var got []string
			var err error
			for n := 0; ; n++ {
				if n == cancelAfter {
					r.Park("cancel consumer")
					cancel()
				}
				if n == closeAfter {
					break
				}
				var rec arrow.Record
				rec, err = s.Next()
				if err != nil {
					break
				}
				got = append(got, batchVals(rec)...)
			}
			if err == io.EOF {
				err = nil
			}
			s.Close()
			if msg := toolkitDone(r); msg != "" {
				r.Failf("after Close: %s", msg)
			}
			check(r, got, err)
		})
	}
}

func TestExploreGather(t *testing.T) {
	all := twoByTwo()
	explore(t, "gather reads everything", gatherProgram(all, -1, -1, func(r *interleave.Run, got []string, err error) {
		sort.Strings(got)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(inputVals(all)) {
			r.Failf("got %v, %v; want %v", got, err, inputVals(all))
		}
	}), false)

	failing := twoByTwo()
	failing.fail = [2]int{1, 0}
	explore(t, "gather: the real error beats the cancellation it caused", gatherProgram(failing, -1, -1, func(r *interleave.Run, got []string, err error) {
		if !errors.Is(err, errBoom) {
			r.Failf("got %v, want %v", err, errBoom)
		}
	}), false)

	one := &simInput{parts: [][][]*int64{{{iv(1)}}, {{iv(2)}}}, fail: [2]int{-1, -1}}
	explore(t, "gather: a cancelled consumer gets 57014", gatherProgram(one, 1, -1, func(r *interleave.Run, got []string, err error) {
		if pgerr.Code(err) != pgerr.QueryCanceled {
			r.Failf("got %v, want 57014", err)
		}
	}), false)

	explore(t, "gather: Close before the end waits for the producers", gatherProgram(twoByTwo(), -1, 1, func(r *interleave.Run, got []string, err error) {
		if err != nil || len(got) != 1 {
			r.Failf("got %v, %v", got, err)
		}
	}), false)
}

// ---- Repartition ----

// repartProgram: consumers read the n output partitions of a repartition of
// in; order[c] lists the partitions consumer c reads, one after the other,
// each to its end.
func repartProgram(in *simInput, n int, order [][]int, broken bool, check func(r *interleave.Run, got [][]string, errs []error)) func(*interleave.Run) {
	return func(r *interleave.Run) {
		ctx := withHooks(context.Background(), runHooks{r})
		op, err := NewRepartition(in, []plan.Expr{col(1, i8)}, n, &Env{})
		if err != nil {
			panic(err)
		}
		rp := op.(*repartOp)
		rp.noRelease = broken
		// A queue may grow beyond its bound only by a push of a producer
		// when, before that step, every other live producer waited for room
		// and some consumer waited on an empty partition.
		var pending []string
		var stalled []bool
		lens := make([]int, n)
		r.Check(func() string {
			defer func() {
				pending, stalled = pending[:0], stalled[:0]
				for i := 0; i < r.Threads(); i++ {
					p := r.Pending(i)
					if r.Done(i) {
						p = "done"
					}
					pending = append(pending, p)
					stalled = append(stalled, r.Blocked(i))
				}
			}()
			x := rp.x
			if x == nil {
				return ""
			}
			for d, q := range x.q {
				grew := len(q) > repartBound && len(q) > lens[d]
				lens[d] = len(q)
				if !grew {
					continue
				}
				stepper := r.Last()
				ok := strings.HasPrefix(r.Name(stepper), "repartition")
				consumerStalled := false
				for i := range pending {
					switch name := r.Name(i); {
					case i == stepper || pending[i] == "done":
					case strings.HasPrefix(name, "repartition"):
						ok = ok && pending[i] == "push repartition"
					case strings.HasPrefix(name, "C") && pending[i] == "next repartition" && stalled[i]:
						consumerStalled = true
					}
				}
				if !ok || !consumerStalled {
					return fmt.Sprintf("partition %d's queue grew to %d batches (bound %d) by %s while producers or consumers could go on",
						d, len(q), repartBound, r.Name(stepper))
				}
			}
			return ""
		})
		got := make([][]string, n)
		errs := make([]error, n)
		finished := 0
		for c, parts := range order {
			r.Go(fmt.Sprintf("C%d", c), func() {
				for _, p := range parts {
					s, _ := op.Open(ctx, p)
					got[p], errs[p] = readAll(s)
					s.Close()
					finished++
				}
				if finished == n {
					if msg := toolkitDone(r); msg != "" {
						r.Failf("after the last Close: %s", msg)
					}
				}
			})
		}
		r.AtEnd(func() { check(r, got, errs) })
	}
}

// wantRouted: every input row arrives once, equal keys in one partition
// (the hash's), NULL keys in partition 0.
func wantRouted(in *simInput, n int) func(r *interleave.Run, got [][]string, errs []error) {
	return func(r *interleave.Run, got [][]string, errs []error) {
		var all []string
		where := map[string]int{}
		for p, vals := range got {
			if errs[p] != nil {
				r.Failf("partition %d: %v", p, errs[p])
				return
			}
			for _, v := range vals {
				all = append(all, v)
				if q, ok := where[v]; ok && q != p {
					r.Failf("key %s in partitions %d and %d", v, q, p)
				}
				where[v] = p
				if v == "NULL" && p != 0 {
					r.Failf("NULL key in partition %d", p)
				}
			}
		}
		sort.Strings(all)
		if fmt.Sprint(all) != fmt.Sprint(inputVals(in)) {
			r.Failf("got %v, want %v", all, inputVals(in))
		}
	}
}

// spread is one input partition for a 2-way repartition (keys 1 and 2
// hash apart, NULL goes to partition 0): one of the outputs gets three
// batches, so reading the other to its end first needs them queued beyond
// the bound. Each scenario stays small: every step of the exchange is on
// one monitor, so the schedules are close to all interleavings.
func spread() *simInput {
	return &simInput{parts: [][][]*int64{{{iv(1), iv(2), nil}, {iv(2)}, {iv(2)}}}, fail: [2]int{-1, -1}}
}

func TestExploreRepartition(t *testing.T) {
	in := spread()
	// The two keys must land in different partitions for the scenarios
	// below to exercise the bound.
	h, _ := hashKeys(context.Background(), mustCompile(t, col(1, i8)), []types.Type{i8}, mkRecord(simCols, [][]types.Value{{I(1)}, {I(2)}}))
	if h[0]%2 == h[1]%2 {
		t.Fatalf("keys 1 and 2 hash to one partition of 2")
	}
	two := &simInput{parts: [][][]*int64{{{iv(1), iv(2)}}, {{iv(2), nil}}}, fail: [2]int{-1, -1}}
	explore(t, "repartition: a consumer per partition", repartProgram(two, 2, [][]int{{0}, {1}}, false, wantRouted(two, 2)), false, bounded)
	explore(t, "repartition: one consumer, partition 0 then 1", repartProgram(in, 2, [][]int{{0, 1}}, false, wantRouted(in, 2)), false, bounded)
	explore(t, "repartition: one consumer, partition 1 then 0", repartProgram(in, 2, [][]int{{1, 0}}, false, wantRouted(in, 2)), false, bounded)

	failing := &simInput{parts: [][][]*int64{{{iv(1), iv(2)}}, {{iv(2)}}}, fail: [2]int{1, 0}}
	explore(t, "repartition: the real error reaches every partition", repartProgram(failing, 2, [][]int{{0}, {1}}, false, func(r *interleave.Run, got [][]string, errs []error) {
		for p, err := range errs {
			if !errors.Is(err, errBoom) {
				r.Failf("partition %d: got %v, want %v", p, err, errBoom)
			}
		}
	}), false, bounded)

	// Without the release rule, reading one partition to its end before
	// the other deadlocks in one of the two orders: the explorer finds it.
	deadlocks := 0
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		res := interleave.Explore(repartProgram(spread(), 2, [][]int{order}, true, wantRouted(in, 2)), bounded)
		if strings.HasPrefix(res.Failure, "deadlock") {
			deadlocks++
			t.Logf("broken variant, order %v: %s after %d schedules\n%s", order, res.Failure, res.Schedules, res.TraceString())
		} else if res.Failure != "" {
			t.Fatalf("broken variant, order %v: %s", order, res.Failure)
		}
	}
	if deadlocks != 1 {
		t.Fatalf("broken variant: %d of the two orders deadlock, want 1", deadlocks)
	}
}

func mustCompile(t *testing.T, e plan.Expr) []*Compiled {
	c, err := Compile(e, simCols, &Env{})
	if err != nil {
		t.Fatal(err)
	}
	return []*Compiled{c}
}

// ---- RunPartitions ----

func TestExploreRunPartitions(t *testing.T) {
	// Partition 0's f fails after its first batch while partition 1 is
	// still reading: the result is the real error, and every goroutine has
	// returned when RunPartitions does.
	explore(t, "RunPartitions: first cause and wait", func(r *interleave.Run) {
		ctx := withHooks(context.Background(), runHooks{r})
		in := twoByTwo()
		r.Go("C", func() {
			err := RunPartitions(ctx, in, func(ctx context.Context, p int, s Stream) error {
				if _, err := s.Next(); err != nil {
					return err
				}
				if p == 0 {
					return errBoom
				}
				_, err := readAll(s)
				return err
			})
			if msg := toolkitDone(r); msg != "" {
				r.Failf("after RunPartitions: %s", msg)
			}
			if !errors.Is(err, errBoom) {
				r.Failf("got %v, want %v", err, errBoom)
			}
		})
	}, false)

	// The caller's context is cancelled while the partitions run: 57014.
	explore(t, "RunPartitions: cancellation is 57014", func(r *interleave.Run) {
		ctx, cancel := context.WithCancel(withHooks(context.Background(), runHooks{r}))
		in := twoByTwo()
		r.Go("C", func() {
			err := RunPartitions(ctx, in, func(ctx context.Context, p int, s Stream) error {
				if p == 0 {
					r.Park("cancel caller")
					cancel()
				}
				_, err := readAll(s)
				return err
			})
			if msg := toolkitDone(r); msg != "" {
				r.Failf("after RunPartitions: %s", msg)
			}
			if pgerr.Code(err) != pgerr.QueryCanceled {
				r.Failf("got %v, want 57014", err)
			}
		})
	}, false)
}

// ---- Ordered ----

// orderedProgram runs a pool of 2 workers over items 0..n-1; item failAt's
// work fails (-1: none), and done stops after stopAfter results (-1:
// never).
func orderedProgram(n, failAt, stopAfter int, check func(r *interleave.Run, got []int, err error)) func(*interleave.Run) {
	return func(r *interleave.Run) {
		ctx := withHooks(context.Background(), runHooks{r})
		const workers = 2
		taken, delivered := 0, 0
		r.Check(func() string {
			if taken-delivered > 2*workers {
				return fmt.Sprintf("%d items in flight, bound %d", taken-delivered, 2*workers)
			}
			return ""
		})
		r.Go("C", func() {
			var got []int
			err := Ordered(ctx, workers,
				func(ctx context.Context) (int, bool, error) {
					if taken == n {
						return 0, false, nil
					}
					taken++
					return taken - 1, true, nil
				},
				func(ctx context.Context, w int, item int) (int, error) {
					r.Park("input") // the work itself
					if item == failAt {
						return 0, errBoom
					}
					return item * 10, nil
				},
				func(v int) (bool, error) {
					delivered++
					got = append(got, v)
					return len(got) == stopAfter, nil
				})
			if msg := toolkitDone(r); msg != "" {
				r.Failf("after Ordered: %s", msg)
			}
			check(r, got, err)
		})
	}
}

func TestExploreOrdered(t *testing.T) {
	// 5 items for 2 workers: the window of 4 fills.
	explore(t, "Ordered: results in input order", orderedProgram(5, -1, -1, func(r *interleave.Run, got []int, err error) {
		if err != nil || fmt.Sprint(got) != "[0 10 20 30 40]" {
			r.Failf("got %v, %v", got, err)
		}
	}), false, boundedPool)
	explore(t, "Ordered: a failing item stops the pool after the items before it", orderedProgram(4, 1, -1, func(r *interleave.Run, got []int, err error) {
		if !errors.Is(err, errBoom) || fmt.Sprint(got) != "[0]" {
			r.Failf("got %v, %v", got, err)
		}
	}), false, boundedPool)
	explore(t, "Ordered: done stops the pool", orderedProgram(4, -1, 2, func(r *interleave.Run, got []int, err error) {
		if err != nil || fmt.Sprint(got) != "[0 10]" {
			r.Failf("got %v, %v", got, err)
		}
	}), false, boundedPool)
}
