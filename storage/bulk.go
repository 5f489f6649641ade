package storage

import (
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Statistics for large writes (COPY loads millions of rows into one
// segment): the columns are summarised in parallel, and the common column
// types skip the per-value types.Value path. The results are exactly those
// of colStats.add (same hash, same bounds).

// addStats folds every record into stats, one goroutine per column (at
// most GOMAXPROCS at a time). It runs on goroutines of its own, so a panic
// in it is recovered here and reported as the write's error.
func addStats(stats []colStats, recs []arrow.Record, cols []ColumnDef) error {
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if rows < 1<<16 || len(cols) < 2 {
		return pgerr.Safely("segment statistics", func() error {
			for _, r := range recs {
				for c, def := range cols {
					stats[c].add(r.Column(c), def.Type)
				}
			}
			return nil
		})
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	errs := make([]error, len(cols))
	for c, def := range cols {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[c] = pgerr.Safely("segment statistics", func() error {
				for _, r := range recs {
					stats[c].add(r.Column(c), def.Type)
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// addTyped is colStats.add for integer-like and plain string columns; it
// reports false for the other types.
func (c *colStats) addTyped(arr arrow.Array, t types.Type) bool {
	switch a := arr.(type) {
	case *array.Int64:
		addInts(c, a, a.Int64Values(), t)
	case *array.Int32:
		addInts(c, a, a.Int32Values(), t)
	case *array.Int16:
		addInts(c, a, a.Int16Values(), t)
	case *array.Date32:
		addInts(c, a, a.Date32Values(), t)
	case *array.Timestamp:
		addInts(c, a, a.TimestampValues(), t)
	case *array.String:
		if t.ID == types.Numeric || t.ID == types.Char {
			return false
		}
		c.nulls += int64(a.NullN())
		var min, max string
		has := c.has
		if has {
			min, max = c.min.S, c.max.S
		}
		lo, hi := -1, -1
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				continue
			}
			s := a.Value(i)
			c.sketch.add(types.Hash(types.Value{S: s}, t))
			switch {
			case !has:
				min, max, has, lo, hi = s, s, true, i, i
			case s < min:
				min, lo = s, i
			case s > max:
				max, hi = s, i
			}
		}
		// Only new bounds are copied out of the array's buffer.
		if lo >= 0 {
			c.min = types.Value{S: string([]byte(a.Value(lo)))}
		}
		if hi >= 0 {
			c.max = types.Value{S: string([]byte(a.Value(hi)))}
		}
		c.has = has
	default:
		return false
	}
	return true
}

// addInts folds integer-like values (all compared and hashed as Value.I).
func addInts[T int16 | int32 | int64 | arrow.Date32 | arrow.Timestamp](c *colStats, arr arrow.Array, vals []T, t types.Type) {
	c.nulls += int64(arr.NullN())
	var min, max int64
	has := c.has
	if has {
		min, max = c.min.I, c.max.I
	}
	nulls := arr.NullN() > 0
	for i, x := range vals {
		if nulls && arr.IsNull(i) {
			continue
		}
		v := int64(x)
		c.sketch.add(types.Hash(types.Value{I: v}, t))
		if !has {
			min, max, has = v, v, true
		} else if v < min {
			min = v
		} else if v > max {
			max = v
		}
	}
	if has {
		c.min, c.max, c.has = types.Value{I: min}, types.Value{I: max}, true
	}
}
