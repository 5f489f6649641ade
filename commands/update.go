package commands

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// UPDATE: one query yields each target row's RowID and its new row; the
// old rows are deleted and the new ones appended, in the statement's
// transaction, so the statement lands whole or not at all. A row is
// deleted through Catalog.Delete, which takes its row lock: a concurrent
// writer of the same row makes it wait, and fail with 40001 if that
// writer committed (the engine retries the statement under READ
// COMMITTED).

func update(ctx context.Context, s Session, x *sql.Update) (string, error) {
	recs, err := s.Collect(ctx, x.Source)
	if err != nil {
		return "", err
	}
	if x.Repeats {
		if recs, err = firstPerRowID(recs); err != nil {
			return "", err
		}
	}
	ncols := len(x.Table.Columns())
	if x.Iceberg != nil {
		rows := make([]arrow.Record, len(recs))
		for i, r := range recs {
			rows[i] = columnRange(r, 1, 1+ncols)
		}
		n, err := icebergChange(ctx, s, x.Table, x.Iceberg, recs, rows) // iceberg.go
		if err != nil {
			return "", err
		}
		if err := sendReturning(s, x.Returning, recs, 1+ncols); err != nil {
			return "", err
		}
		return fmt.Sprintf("UPDATE %d", n), nil
	}
	old, ids, err := oldRows(s.Catalog(), x.Table, recs)
	if err != nil {
		return "", err
	}
	n, err := deleteRows(ctx, s.Catalog(), x.Table, recs)
	if err != nil {
		return "", err
	}
	rows := make([]arrow.Record, len(recs))
	for i, r := range recs {
		rows[i] = columnRange(r, 1, 1+ncols)
	}
	moved := s.RowMoves(x.Table)
	var from []storage.RowID
	var seg uint64
	var before int64
	if moved != nil {
		if from, err = rowIDs(recs); err != nil {
			return "", err
		}
		seg, before, _ = s.Catalog().AppendedRows(x.Table)
	}
	if _, err := addRows(ctx, s, x.Table, rows, old, ids); err != nil { // constraint.go
		return "", err
	}
	if moved != nil && len(from) > 0 {
		// The new versions are the appended rows, in the order of recs.
		seg, _, _ = s.Catalog().AppendedRows(x.Table)
		to := make([]storage.RowID, len(from))
		for i := range to {
			to[i] = storage.MakeRowID(seg, before+int64(i))
		}
		moved(from, to)
	}
	if err := CheckReferenced(ctx, s, x.Table, old, rows); err != nil { // fkaction.go
		return "", err
	}
	if err := sendReturning(s, x.Returning, recs, 1+ncols); err != nil {
		return "", err
	}
	return fmt.Sprintf("UPDATE %d", n), nil
}

func deleteStmt(ctx context.Context, s Session, x *sql.Delete) (string, error) {
	recs, err := s.Collect(ctx, x.Source)
	if err != nil {
		return "", err
	}
	if x.Repeats {
		if recs, err = firstPerRowID(recs); err != nil {
			return "", err
		}
	}
	if x.Iceberg != nil {
		n, err := icebergChange(ctx, s, x.Table, x.Iceberg, recs, nil) // iceberg.go
		if err != nil {
			return "", err
		}
		if err := sendReturning(s, x.Returning, recs, 1); err != nil {
			return "", err
		}
		return fmt.Sprintf("DELETE %d", n), nil
	}
	old, _, err := oldRows(s.Catalog(), x.Table, recs)
	if err != nil {
		return "", err
	}
	n, err := deleteRows(ctx, s.Catalog(), x.Table, recs)
	if err != nil {
		return "", err
	}
	if err := CheckReferenced(ctx, s, x.Table, old, nil); err != nil { // fkaction.go
		return "", err
	}
	if err := sendReturning(s, x.Returning, recs, 1); err != nil {
		return "", err
	}
	return fmt.Sprintf("DELETE %d", n), nil
}

// rowIDs is the RowIDs column 0 of recs holds.
func rowIDs(recs []arrow.Record) ([]storage.RowID, error) {
	var ids []storage.RowID
	for _, r := range recs {
		col, ok := r.Column(0).(*array.Int64)
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "row ids are of type %s", r.Column(0).DataType())
		}
		for i := 0; i < col.Len(); i++ {
			ids = append(ids, storage.RowID(col.Value(i)))
		}
	}
	return ids, nil
}

// oldRows is the rows of t whose RowIDs column 0 of recs holds, and
// those RowIDs, before the statement deletes them, when a unique key or a
// FOREIGN KEY referencing t needs them (else nil).
func oldRows(cat *Catalog, t storage.Table, recs []arrow.Record) ([]arrow.Record, []storage.RowID, error) {
	if !keyed(cat, t) {
		return nil, nil, nil
	}
	ids, err := rowIDs(recs)
	if err != nil {
		return nil, nil, err
	}
	old, err := rowsByID(t, ids)
	return old, ids, err
}

// keyed reports whether t has a unique index or is referenced by a
// FOREIGN KEY (its own, or another table's).
func keyed(cat *Catalog, t storage.Table) bool {
	for _, d := range storage.IndexesOf(t) {
		if d.Unique {
			return true
		}
	}
	for _, c := range storage.ConstraintsOf(t) {
		if c.Kind == storage.ConForeign && c.RefTable == t.Name() {
			return true
		}
	}
	return len(referencing(cat, map[string]bool{t.Name(): true}, cat.IsTemp(t))) > 0
}

// deleteRows deletes the rows whose RowIDs column 0 of recs holds.
func deleteRows(ctx context.Context, cat *Catalog, t storage.Table, recs []arrow.Record) (int64, error) {
	ids, err := rowIDs(recs)
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	if err := cat.Delete(ctx, t, ids); err != nil {
		return 0, err
	}
	return int64(len(ids)), nil
}

// sendReturning sends the RETURNING rows: the columns of recs from first on.
func sendReturning(s Session, cols []plan.Column, recs []arrow.Record, first int) error {
	if cols == nil {
		return nil
	}
	out := make([]arrow.Record, len(recs))
	for i, r := range recs {
		out[i] = columnRange(r, first, first+len(cols))
	}
	return s.SendRows(cols, out)
}

// columnRange is the record of r's columns [from, to).
func columnRange(r arrow.Record, from, to int) arrow.Record {
	fields := r.Schema().Fields()[from:to]
	return array.NewRecord(arrow.NewSchema(fields, nil), r.Columns()[from:to], r.NumRows())
}

// firstPerRowID keeps the first row of each RowID (column 0): a target row
// an UPDATE ... FROM or DELETE ... USING joins to several rows is written
// once, as PostgreSQL does.
func firstPerRowID(recs []arrow.Record) ([]arrow.Record, error) {
	seen := map[int64]bool{}
	var out []arrow.Record
	for _, r := range recs {
		col := r.Column(0).(*array.Int64)
		keep := make([]bool, col.Len())
		for i := range keep {
			id := col.Value(i)
			keep[i] = !seen[id]
			seen[id] = true
		}
		out = append(out, keepRows(r, keep)...)
	}
	return out, nil
}

// keepRows is the rows i of r with keep[i], as slices of r (one per run).
func keepRows(r arrow.Record, keep []bool) []arrow.Record {
	var out []arrow.Record
	start := -1
	for i, k := range keep {
		switch {
		case k && start < 0:
			start = i
		case !k && start >= 0:
			out = append(out, r.NewSlice(int64(start), int64(i)))
			start = -1
		}
	}
	switch {
	case start == 0:
		return []arrow.Record{r}
	case start > 0:
		out = append(out, r.NewSlice(int64(start), int64(len(keep))))
	}
	return out
}
