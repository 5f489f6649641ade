package commands

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// INSERT ... ON CONFLICT DO NOTHING: a proposed row whose key on an arbiter
// index equals a row's of the table, or of a row proposed before it in the
// same statement, is not inserted. As in PostgreSQL, NOT NULL and CHECK
// constraints are checked on every proposed row first.

// skipConflicts returns the rows of recs (rows of t) that conflict with
// nothing on the arbiters, in order.
func skipConflicts(t storage.Table, oc *sql.OnConflict, recs []arrow.Record) ([]arrow.Record, error) {
	arbiters := oc.Arbiters
	if len(arbiters) == 0 {
		for _, d := range storage.IndexesOf(t) {
			if d.Unique {
				arbiters = append(arbiters, d)
			}
		}
	}
	ix, ok := t.(storage.Indexed)
	if len(arbiters) == 0 || len(recs) == 0 {
		return recs, nil
	}
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "table %q keeps no indexes", storage.BareName(t.Name()))
	}
	defs := t.Columns()
	batch, err := concat(defs, recs)
	if err != nil {
		return nil, err
	}
	n := int(batch.NumRows())
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	for _, d := range arbiters {
		ords, err := storage.ColumnOrdinals(defs, d.Cols)
		if err != nil {
			return nil, err
		}
	rows:
		for i := 0; i < n; i++ {
			if !keep[i] {
				continue
			}
			key := make([]types.Value, len(ords))
			for k, o := range ords {
				if batch.Column(o).IsNull(i) {
					continue rows
				}
				key[k] = types.GetValue(batch.Column(o), defs[o].Type, i)
			}
			m, err := ix.IndexLookup(d, storage.EqualRange(key))
			if err != nil {
				return nil, err
			}
			if len(m) > 0 {
				keep[i] = false
			}
		}
	}
	// Conflicts among the proposed rows: the later of two is skipped.
	for {
		kept := selectRows(defs, batch, keep)
		if kept == nil {
			return nil, nil
		}
		pos := keptPositions(keep)
		again := false
		for _, d := range arbiters {
			row, dup, err := ix.FindDuplicate(d, kept)
			if err != nil {
				return nil, err
			}
			if dup {
				keep[pos[row]] = false
				again = true
				break
			}
		}
		if !again {
			return []arrow.Record{kept}, nil
		}
	}
}

func keptPositions(keep []bool) []int {
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// selectRows is the rows of batch marked in keep, in order (nil: none).
func selectRows(defs []storage.ColumnDef, batch arrow.Record, keep []bool) arrow.Record {
	var parts []arrow.Record
	for i := 0; i < len(keep); {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j < len(keep) && keep[j] {
			j++
		}
		parts = append(parts, batch.NewSlice(int64(i), int64(j)))
		i = j
	}
	if len(parts) == 0 {
		return nil
	}
	if len(parts) == 1 {
		return parts[0]
	}
	out, err := concat(defs, parts)
	if err != nil {
		panic(err) // the parts share batch's schema
	}
	return out
}

// insertOnConflict is INSERT ... ON CONFLICT DO NOTHING.
// Rows are taken in order: a NOT NULL or CHECK failure is the error unless
// a row before it is kept and duplicates a key of a unique index that is
// no arbiter, which is then (Append reports it).
func insertOnConflict(ctx context.Context, s Session, x *sql.Insert, recs []arrow.Record) ([]arrow.Record, error) {
	first, err := checkRows(ctx, s, x.Table, recs, false)
	if err != nil {
		return nil, err
	}
	if first == nil {
		return skipConflicts(x.Table, x.OnConflict, recs)
	}
	before := append([]arrow.Record(nil), recs[:first.rec]...)
	before = append(before, recs[first.rec].NewSlice(0, int64(first.row)))
	kept, err := skipConflicts(x.Table, x.OnConflict, before)
	if err != nil {
		return nil, err
	}
	for _, r := range kept {
		if err := s.Catalog().txnOf(x.Table).CheckUnique(x.Table, r); err != nil {
			return nil, err
		}
	}
	return nil, first.err
}
