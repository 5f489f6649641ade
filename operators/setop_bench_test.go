package operators

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// benchKeyTable is a one-column table of n rows in batches of 1024, row i
// holding key(i), and each key's copies.
func benchKeyTable(t types.Type, n int, key func(i int) int64) (*memTable, map[int64]int) {
	copies := map[int64]int{}
	cs := cols(t)
	m := &memTable{name: "t", defs: []storage.ColumnDef{{Name: cs[0].Name, Type: t}}}
	for lo := 0; lo < n; lo += 1024 {
		hi := min(lo+1024, n)
		b := newBuilder(t, hi-lo)
		for i := lo; i < hi; i++ {
			v := key(i)
			copies[v]++
			if t.ID == types.Text {
				b.(*array.StringBuilder).Append(fmt.Sprintf("key-%d", v))
			} else {
				b.(*array.Int64Builder).Append(v)
			}
		}
		m.recs = append(m.recs, array.NewRecord(schemaOf(cs), []arrow.Array{b.NewArray()}, int64(hi-lo)))
	}
	return m, copies
}

func benchRows(b *testing.B, op Operator, err error, want int) {
	if err != nil {
		b.Fatal(err)
	}
	recs, err := Collect(context.Background(), op)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
	}
	if n != want {
		b.Fatalf("%d rows, want %d", n, want)
	}
}

// BenchmarkDistinctRows times DISTINCT over 1M rows with 250k distinct
// keys (one partition, as the plan gives it).
func BenchmarkDistinctRows(b *testing.B) {
	for _, t := range []types.Type{types.Int8Type, types.TextType} {
		b.Run(benchTypeName(t), func(b *testing.B) {
			tab, _ := benchKeyTable(t, 1<<20, func(i int) int64 { return int64(i*7919) % 250_000 })
			cs := cols(t)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				op, err := NewDistinct(NewScanBatch(tab, []int{0}, cs, 1, 1024), &Env{})
				benchRows(b, op, err, 250_000)
			}
		})
	}
}

// BenchmarkIntersect times INTERSECT ALL and EXCEPT of 1M rows (250k
// distinct keys) with 1M rows sharing half of those keys, through 2
// partitions.
func BenchmarkIntersect(b *testing.B) {
	for _, t := range []types.Type{types.Int8Type, types.TextType} {
		left, nl := benchKeyTable(t, 1<<20, func(i int) int64 { return int64(i*7919) % 250_000 })
		right, nr := benchKeyTable(t, 1<<20, func(i int) int64 { return 125_000 + int64(i*104729)%250_000 })
		inter, except := 0, 0
		for k, l := range nl {
			inter += min(l, nr[k])
			if nr[k] == 0 {
				except++
			}
		}
		cs := cols(t)
		for _, c := range []struct {
			name string
			op   plan.SetOpKind
			all  bool
			want int
		}{{"intersect_all", plan.Intersect, true, inter}, {"except", plan.Except, false, except}} {
			b.Run(benchTypeName(t)+"/"+c.name, func(b *testing.B) {
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					op, err := NewSetOp(c.op, c.all, NewScanBatch(left, []int{0}, cs, 2, 1024), NewScanBatch(right, []int{0}, cs, 2, 1024), cs, &Env{})
					benchRows(b, op, err, c.want)
				}
			})
		}
	}
}

func benchTypeName(t types.Type) string {
	if t.ID == types.Text {
		return "text"
	}
	return "int8"
}
