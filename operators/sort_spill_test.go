package operators

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// spillRows are rows with duplicate and NULL keys: (k int8, s text, id int8).
func spillRows(n int, seed int64) [][]types.Value {
	rng := rand.New(rand.NewSource(seed))
	rows := make([][]types.Value, n)
	for i := range rows {
		k := I(int64(rng.Intn(n / 8)))
		if rng.Intn(20) == 0 {
			k = N
		}
		rows[i] = []types.Value{k, S(fmt.Sprintf("s%03d", rng.Intn(300))), I(int64(i))}
	}
	return rows
}

// checkNoFiles fails when the query's space or its directory holds files.
func checkNoFiles(t *testing.T, sp *spill.Space, dir string) {
	t.Helper()
	if n := sp.LiveFiles(); n != 0 {
		t.Fatalf("%d spill files still live", n)
	}
	if fs, err := spill.Files(dir); err != nil || len(fs) != 0 {
		t.Fatalf("spill directory holds %v (%v)", fs, err)
	}
	if u := sp.Used(); u != 0 {
		t.Fatalf("%d bytes still reserved", u)
	}
}

func TestSortSpillsAndMatchesInMemory(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, spillRows(3000, 1), 2)
	keys := []plan.SortKey{{Expr: col(1, cs[0].Type), Desc: true, NullsFirst: false}, {Expr: col(2, cs[1].Type)}}
	run := func(env *Env, parts int) []string {
		s, err := NewSort(scanOf(tab, cs, parts), keys, env)
		if err != nil {
			t.Fatal(err)
		}
		return collectRows(t, s)
	}
	// The sort is stable over the input partitions' concatenation, so the
	// in-memory sort of the same partitioning is the exact reference.
	want := map[int]string{}
	for _, parts := range []int{1, 4} {
		want[parts] = strings.Join(run(&Env{BatchSize: 7}, parts), "\n")
	}
	// Parallel (4 partitions: sorted each, merged) and serial agree up to
	// the order of ties: the same rows, the same key sequence.
	w1, w4 := strings.Split(want[1], "\n"), strings.Split(want[4], "\n")
	sameMultiset(t, w4, w1)
	for i := range w1 {
		if k1, k4 := strings.Split(w1[i], "|")[:2], strings.Split(w4[i], "|")[:2]; strings.Join(k1, "|") != strings.Join(k4, "|") {
			t.Fatalf("row %d: keys %v (serial) vs %v (parallel)", i, k1, k4)
		}
	}
	for _, limit := range []int64{1, 4 << 10, 64 << 10} {
		for _, parts := range []int{1, 4} {
			dir := t.TempDir()
			sp := spill.NewSpace(dir, limit)
			got := strings.Join(run(&Env{BatchSize: 7, Spill: sp}, parts), "\n")
			if got != want[parts] {
				t.Fatalf("limit %d, %d partitions: order differs from the in-memory sort", limit, parts)
			}
			if sp.Created() == 0 {
				t.Fatalf("limit %d: nothing spilled", limit)
			}
			checkNoFiles(t, sp, dir)
		}
	}
}

// cancelAfter cancels a context after its input produced n batches.
type cancelAfter struct {
	Operator
	n      int64
	seen   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Open(ctx context.Context, p int) (Stream, error) {
	s, err := c.Operator.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &cancelStream{Stream: s, c: c}, nil
}

type cancelStream struct {
	Stream
	c *cancelAfter
}

func (s *cancelStream) Next() (arrow.Record, error) {
	if s.c.seen.Add(1) == s.c.n {
		s.c.cancel()
	}
	return s.Stream.Next()
}

func TestSortCancelMidSpillRemovesFiles(t *testing.T) {
	cs := cols(types.Int8Type, types.TextType, types.Int8Type)
	tab := newMemTable(cs, spillRows(3000, 3), 4)
	dir := t.TempDir()
	sp := spill.NewSpace(dir, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &cancelAfter{Operator: scanOf(tab, cs, 4), n: 200, cancel: cancel}
	s, err := NewSort(in, []plan.SortKey{{Expr: col(1, cs[0].Type)}}, &Env{BatchSize: 7, Spill: sp})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Open(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = drain(st)
	wantCode(t, err, pgerr.QueryCanceled)
	if sp.Created() == 0 {
		t.Fatal("nothing spilled before the cancel")
	}
	st.Close()
	checkNoFiles(t, sp, dir)
}
