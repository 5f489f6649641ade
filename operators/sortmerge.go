package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators/spill"
	"github.com/joind/joind/types"
)

// mergeInMemory merges sorted in-memory runs (one per input partition,
// each sorted on its partition's goroutine) into one run: their records
// concatenated and one permutation over them, merged pairwise with ties to
// the earlier run (the stable order of the partitions' concatenation). The
// output is then read by takes from the run, like a single sorted
// partition, instead of the k-way heap copying row by row. nil when the
// concatenated copy does not fit the memory limit (the heap merge runs).
func (x *sortExec) mergeInMemory(ctx context.Context, runs []*sortRun) (*sortRun, error) {
	recs := make([]arrow.Record, len(runs))
	var bytes int64
	for i, r := range runs {
		recs[i] = r.rec
		bytes += spill.RecordBytes(r.rec)
	}
	if !x.reserve(bytes) {
		return nil, nil
	}
	all, err := concatRecords(x.o.runSchema, recs)
	if err != nil {
		return nil, err
	}
	nin := len(x.o.in.Columns())
	cmp := rowOrder(x.o, all.Columns()[nin:])
	// Each run's permutation, rebased into the concatenation.
	perms := make([][]int, len(runs))
	base := 0
	for i, r := range runs {
		p := make([]int, len(r.perm))
		for j, v := range r.perm {
			p[j] = v + base
		}
		perms[i] = p
		base += int(r.rec.NumRows())
	}
	for len(perms) > 1 {
		if err := checkCtx(ctx); err != nil {
			return nil, err
		}
		var next [][]int
		for i := 0; i < len(perms); i += 2 {
			if i+1 == len(perms) {
				next = append(next, perms[i])
				continue
			}
			next = append(next, mergePerms(perms[i], perms[i+1], cmp))
		}
		perms = next
	}
	return &sortRun{rec: all, perm: perms[0]}, nil
}

// mergePerms merges two sorted row lists, a's rows first among ties.
func mergePerms(a, b []int, cmp func(i, j int) int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// rowOrder compares two rows of the sort keys' columns: over int64s when
// every key is integer-like, else over boxed values by the sort's rules.
func rowOrder(o *sortOp, keyCols []arrow.Array) func(a, b int) int {
	ints := make([]intColumn, len(keyCols))
	typed := true
	for k, a := range keyCols {
		c, ok := newIntColumn(a)
		if !ok {
			typed = false
			break
		}
		ints[k] = c
	}
	if typed {
		return func(a, b int) int {
			for k := range ints {
				c := &ints[k]
				na, nb := c.arr.IsNull(a), c.arr.IsNull(b)
				switch {
				case na && nb:
					continue
				case na != nb:
					if na == o.spec[k].NullsFirst {
						return -1
					}
					return 1
				}
				x, y := c.at(a), c.at(b)
				if x == y {
					continue
				}
				if (x < y) != o.spec[k].Desc {
					return -1
				}
				return 1
			}
			return 0
		}
	}
	keys := make([][]types.Value, len(keyCols))
	for k, a := range keyCols {
		vals := make([]types.Value, a.Len())
		for i := range vals {
			vals[i] = types.GetValue(a, o.keyT[k], i)
		}
		keys[k] = vals
	}
	return func(a, b int) int { return o.compare(keys, a, keys, b) }
}

func allInMemory(runs []*sortRun) bool {
	for _, r := range runs {
		if r.file != nil {
			return false
		}
	}
	return true
}
