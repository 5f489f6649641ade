package commands

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

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

// upsert is INSERT ... ON CONFLICT DO UPDATE over the proposed rows recs
// (the table's columns, then the RETURNING columns over them). Taken in
// order, a proposed row whose key on an arbiter equals an existing row's
// updates that row (if the WHERE clause keeps it), else it is inserted; a
// row the statement inserted or updated met again is PostgreSQL's 21000.
// NOT NULL and CHECK constraints are checked on every proposed row first.
// It returns the number of rows inserted or updated.
func upsert(ctx context.Context, s Session, x *sql.Insert, recs []arrow.Record) (int64, error) {
	t, oc := x.Table, x.OnConflict
	defs := t.Columns()
	ncols := len(defs)
	rows := make([]arrow.Record, len(recs))
	for i, r := range recs {
		rows[i] = columnRange(r, 0, ncols)
	}
	if err := checkRowsOnly(ctx, s, t, rows); err != nil {
		return 0, err
	}
	ix, ok := t.(storage.Indexed)
	if !ok {
		return 0, pgerr.New(pgerr.InternalError, "table %q keeps no indexes", t.Name())
	}
	batch, err := concat(defs, rows)
	if err != nil {
		return 0, err
	}
	all, err := concatAll(recs)
	if err != nil {
		return 0, err
	}
	n := int(batch.NumRows())
	ords := make([][]int, len(oc.Arbiters))
	for a, d := range oc.Arbiters {
		if ords[a], err = storage.ColumnOrdinals(defs, d.Cols); err != nil {
			return 0, err
		}
	}
	// Keys of the rows the statement inserts, per arbiter: meeting one
	// again is 21000. A row it updates keeps its key (the SET list
	// normally leaves the arbiter's columns alone), so a later proposed
	// row finds it through the index again.
	inserted := make([]map[string]bool, len(oc.Arbiters))
	for a := range inserted {
		inserted[a] = map[string]bool{}
	}
	insert := make([]bool, n)
	var conflictRows []int
	var conflictIDs []storage.RowID
	for i := 0; i < n; i++ {
		var hit storage.RowID
		found := false
		keys := make([]string, len(oc.Arbiters))
		for a, d := range oc.Arbiters {
			k, ok := keyString(batch, i, ords[a], defs)
			if !ok {
				continue
			}
			keys[a] = k
			if inserted[a][k] {
				return 0, errAffectTwice()
			}
			if found {
				continue
			}
			key := make([]types.Value, len(ords[a]))
			for j, o := range ords[a] {
				key[j] = types.GetValue(batch.Column(o), defs[o].Type, i)
			}
			m, err := ix.IndexLookup(d, storage.EqualRange(key))
			if err != nil {
				return 0, err
			}
			for _, mm := range m {
				if len(mm.IDs) > 0 {
					hit, found = mm.IDs[0], true
					break
				}
			}
		}
		if found {
			conflictRows = append(conflictRows, i)
			conflictIDs = append(conflictIDs, hit)
			continue
		}
		insert[i] = true
		for a, k := range keys {
			if k != "" {
				inserted[a][k] = true
			}
		}
	}
	// The updates: the Set query over (conflict number, existing row,
	// EXCLUDED), every conflict against the existing row as the statement
	// found it — a row is updated once at most (21000 after), so a later
	// conflict with the same row sees it changed only to fail.
	var newRows, oldRows, upRet []arrow.Record
	var ids []storage.RowID
	var upAt []int // the proposed row of each updated row
	if len(conflictIDs) > 0 {
		old, err := rowsByID(t, conflictIDs) // fkaction.go
		if err != nil {
			return 0, err
		}
		ob, err := concat(defs, old)
		if err != nil {
			return 0, err
		}
		// The EXCLUDED rows, one per conflict in order.
		var exParts []arrow.Record
		for _, i := range conflictRows {
			exParts = append(exParts, batch.NewSlice(int64(i), int64(i+1)))
		}
		ex, err := concat(defs, exParts)
		if err != nil {
			return 0, err
		}
		nb := array.NewInt64Builder(memory.DefaultAllocator)
		for k := range conflictIDs {
			nb.Append(int64(k))
		}
		cols := []arrow.Array{nb.NewArray()}
		cols = append(cols, ob.Columns()...)
		cols = append(cols, ex.Columns()...)
		fields := make([]arrow.Field, len(cols))
		for c, a := range cols {
			fields[c] = arrow.Field{Name: fmt.Sprintf("c%d", c), Type: a.DataType(), Nullable: true}
		}
		oc.Rows.SetRows([]arrow.Record{array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(len(conflictIDs)))})
		out, err := s.Collect(ctx, oc.Set)
		oc.Rows.SetRows(nil)
		if err != nil {
			return 0, err
		}
		// The conflicts the WHERE clause kept: their Set row.
		kept := map[int]arrow.Record{}
		for _, o := range out {
			kc := o.Column(0).(*array.Int64)
			for r := 0; r < kc.Len(); r++ {
				kept[int(kc.Value(r))] = o.NewSlice(int64(r), int64(r+1))
			}
		}
		updated := map[storage.RowID]bool{}
		for k, id := range conflictIDs {
			if updated[id] {
				return 0, errAffectTwice()
			}
			o, ok := kept[k]
			if !ok {
				continue
			}
			updated[id] = true
			ids = append(ids, id)
			upAt = append(upAt, conflictRows[k])
			oldRows = append(oldRows, ob.NewSlice(int64(k), int64(k+1)))
			newRows = append(newRows, columnRange(o, 1, 1+ncols))
			if x.Returning != nil {
				upRet = append(upRet, columnRange(o, 1+ncols, 1+ncols+len(x.Returning)))
			}
		}
		if len(ids) > 0 {
			if err := s.Catalog().Delete(ctx, t, ids); err != nil {
				return 0, err
			}
			if _, err := addRows(ctx, s, t, newRows, oldRows, ids); err != nil { // constraint.go
				return 0, err
			}
		}
	}
	ins := selectRows(defs, batch, insert)
	var total int64
	if ins != nil {
		m, err := AddRows(ctx, s, t, []arrow.Record{ins})
		if err != nil {
			return 0, err
		}
		total += m
	}
	if len(newRows) > 0 {
		if err := CheckReferenced(ctx, s, t, oldRows, newRows); err != nil { // fkaction.go
			return 0, err
		}
	}
	total += int64(len(newRows))
	if x.Returning == nil {
		return total, nil
	}
	// RETURNING in the proposed rows' order: inserted rows over the
	// proposed row, updated ones over the new row.
	byRow := map[int]arrow.Record{}
	for k, i := range upAt {
		byRow[i] = upRet[k]
	}
	var ret []arrow.Record
	for i := 0; i < n; i++ {
		if insert[i] {
			ret = append(ret, columnRange(all.NewSlice(int64(i), int64(i+1)), ncols, ncols+len(x.Returning)))
		} else if r, ok := byRow[i]; ok {
			ret = append(ret, r)
		}
	}
	return total, s.SendRows(x.Returning, ret)
}

func errAffectTwice() error {
	return pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
		WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
}

// checkRowsOnly is CheckRows without the unique keys.
func checkRowsOnly(ctx context.Context, s Session, t storage.Table, recs []arrow.Record) error {
	first, err := checkRows(ctx, s, t, recs, false)
	if err == nil && first != nil {
		err = first.err
	}
	return err
}

// concatAll concatenates batches of one schema.
func concatAll(recs []arrow.Record) (arrow.Record, error) {
	switch len(recs) {
	case 0:
		return nil, nil
	case 1:
		return recs[0], nil
	}
	return concatColumns(recs[0].Schema(), recs)
}
