package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// rankColumn computes row_number, rank, dense_rank, percent_rank and
// cume_dist straight into a typed column from the partition and peer
// structure (no boxed value per row); nil for any other function.
func rankColumn(f *windowFn, w *windowRows) arrow.Array {
	switch f.Name {
	case "row_number", "rank", "dense_rank":
		if f.result.ID != types.Int8 {
			return nil
		}
		v := make([]int64, w.n)
		for i := range v {
			switch f.Name {
			case "row_number":
				v[i] = int64(i - w.partLo[i] + 1)
			case "rank":
				v[i] = int64(w.peerLo[i] - w.partLo[i] + 1)
			default:
				v[i] = int64(w.group[i] + 1)
			}
		}
		b := array.NewInt64Builder(mem)
		b.AppendValues(v, nil)
		return b.NewArray()
	case "percent_rank", "cume_dist":
		if f.result.ID != types.Float8 {
			return nil
		}
		v := make([]float64, w.n)
		for i := range v {
			lo, hi := w.partLo[i], w.partHi[i]
			switch {
			case f.Name == "cume_dist":
				v[i] = float64(w.peerHi[i]-lo) / float64(hi-lo)
			case hi-lo > 1:
				v[i] = float64(w.peerLo[i]-lo) / float64(hi-lo-1)
			}
		}
		b := array.NewFloat64Builder(mem)
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	return nil
}
