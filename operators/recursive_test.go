package operators

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// mapOp is a test recursive term: the rows f makes of each row of its
// input (a WorkTable Scan).
type mapOp struct {
	in Operator
	f  func(types.Value) []types.Value
}

func (m *mapOp) Columns() []plan.Column { return m.in.Columns() }
func (m *mapOp) Partitions() int        { return 1 }
func (m *mapOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := m.in.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &mapStream{m: m, in: s}, nil
}

type mapStream struct {
	m  *mapOp
	in Stream
}

func (s *mapStream) Next() (arrow.Record, error) {
	cs := s.m.in.Columns()
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		var out [][]types.Value
		for _, row := range recRows(rec, cs) {
			for _, v := range s.m.f(row[0]) {
				out = append(out, []types.Value{v})
			}
		}
		if len(out) > 0 {
			return mkRecord(cs, out), nil
		}
	}
}

func (s *mapStream) Close() error { return s.in.Close() }

// recursiveOf is the recursive union of rows and f applied per iteration,
// with a count of the recursive term's builds.
func recursiveOf(t *testing.T, rows [][]types.Value, all bool, env *Env, f func(types.Value) []types.Value) (Operator, *int) {
	t.Helper()
	cs := cols(types.Int8Type)
	wt := &WorkTable{}
	builds := 0
	term := func() (Operator, error) {
		builds++
		return &mapOp{in: NewWorkTableScan(wt, cs), f: f}, nil
	}
	op, err := NewRecursiveUnion(NewRecordsScan([]arrow.Record{mkRecord(cs, rows)}, cs), term, wt, all, cs, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	return op, &builds
}

// UNION ALL iterates until the term yields nothing: one build of the term
// per iteration over the previous iteration's rows only.
func TestRecursiveUnionAllCounts(t *testing.T) {
	op, builds := recursiveOf(t, [][]types.Value{{I(1)}}, true, &Env{}, func(v types.Value) []types.Value {
		if v.I < 10000 {
			return []types.Value{I(v.I + 1)}
		}
		return nil
	})
	got := collectRows(t, op)
	if len(got) != 10000 || got[0] != "1" || got[9999] != "10000" {
		t.Fatalf("got %d rows (%v ... %v), want 1..10000 in order", len(got), got[:1], got[len(got)-1:])
	}
	if *builds != 10000 {
		t.Errorf("recursive term built %d times, want 10000 (one per iteration)", *builds)
	}
}

// UNION drops rows seen in any earlier iteration (and duplicates of the
// non-recursive term), which ends a cycle.
func TestRecursiveUnionDedupAcrossIterations(t *testing.T) {
	op, _ := recursiveOf(t, [][]types.Value{{I(1)}, {I(1)}, {I(3)}}, false, &Env{}, func(v types.Value) []types.Value {
		return []types.Value{I(v.I%5 + 1)}
	})
	got := strings.Join(collectRows(t, op), ",")
	if got != "1,3,2,4,5" {
		t.Fatalf("got %s, want 1,3,2,4,5", got)
	}
}

// A consumer may stop reading an unbounded recursion (LIMIT) and close it.
func TestRecursiveUnionClosesEarly(t *testing.T) {
	op, _ := recursiveOf(t, [][]types.Value{{I(1)}}, true, &Env{}, func(v types.Value) []types.Value {
		return []types.Value{I(v.I + 1)}
	})
	st, err := op.Open(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if _, err := st.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// The working table and the seen rows count against the memory limit:
// past it the query fails with 53200 and gives the memory back.
func TestRecursiveUnionMemoryLimit(t *testing.T) {
	for _, all := range []bool{true, false} {
		sp := spill.NewSpace("", 64<<10)
		// UNION ALL holds one iteration at a time: a term that doubles
		// the rows every iteration is what outgrows the limit there.
		op, _ := recursiveOf(t, [][]types.Value{{I(1)}}, all, &Env{Spill: sp}, func(v types.Value) []types.Value {
			if all {
				return []types.Value{I(v.I + 1), I(v.I + 1)}
			}
			return []types.Value{I(v.I + 1)}
		})
		st, err := op.Open(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		for err == nil {
			_, err = st.Next()
		}
		if err == io.EOF {
			t.Fatalf("all=%v: recursion ended, want 53200", all)
		}
		if pgerr.Code(err) != pgerr.OutOfMemory {
			t.Fatalf("all=%v: got %v, want 53200", all, err)
		}
		st.Close()
		if sp.Used() != 0 {
			t.Errorf("all=%v: %d bytes still reserved after Close", all, sp.Used())
		}
	}
}
