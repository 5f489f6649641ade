package commands

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// MERGE: the bound query yields, per source row joined to its target row
// (if any), the WHEN clause that acts, the target row's RowID and the row
// to append. The target rows of UPDATE and DELETE actions are deleted,
// the rows of UPDATE and INSERT actions appended, in the statement's
// transaction; a target row acted on twice is PostgreSQL's 21000.

func merge(ctx context.Context, s Session, x *sql.Merge) (string, error) {
	recs, err := s.Collect(ctx, x.Source)
	if err != nil {
		return "", err
	}
	ncols := len(x.Table.Columns())
	var updIDs, delIDs []storage.RowID
	seen := map[int64]bool{}
	var upd, ins []arrow.Record
	var n int64
	for _, r := range recs {
		act := r.Column(0).(*array.Int32)
		rid := r.Column(1).(*array.Int64)
		isUpd := make([]bool, act.Len())
		isIns := make([]bool, act.Len())
		for i := range isUpd {
			k := act.Value(i)
			if k == 0 {
				continue
			}
			kind := x.Actions[k-1]
			if kind == sql.MergeNothing {
				continue
			}
			n++
			if kind == sql.MergeUpdate || kind == sql.MergeDelete {
				id := rid.Value(i)
				if seen[id] {
					return "", pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
						WithHint("Ensure that not more than one source row matches any one target row.")
				}
				seen[id] = true
				if kind == sql.MergeUpdate {
					updIDs = append(updIDs, storage.RowID(id))
				} else {
					delIDs = append(delIDs, storage.RowID(id))
				}
			}
			isUpd[i] = kind == sql.MergeUpdate
			isIns[i] = kind == sql.MergeInsert
		}
		for _, part := range keepRows(r, isUpd) {
			upd = append(upd, columnRange(part, 2, 2+ncols))
		}
		for _, part := range keepRows(r, isIns) {
			ins = append(ins, columnRange(part, 2, 2+ncols))
		}
	}
	cat := s.Catalog()
	var updOld, delOld []arrow.Record
	if keyed(cat, x.Table) { // update.go
		if updOld, err = rowsByID(x.Table, updIDs); err != nil {
			return "", err
		}
		if delOld, err = rowsByID(x.Table, delIDs); err != nil {
			return "", err
		}
	}
	if ids := append(append([]storage.RowID(nil), updIDs...), delIDs...); len(ids) > 0 {
		if err := cat.Delete(ctx, x.Table, ids); err != nil {
			return "", err
		}
	}
	if len(upd) > 0 {
		if _, err := addRows(ctx, s, x.Table, upd, updOld, updIDs); err != nil { // constraint.go
			return "", err
		}
	}
	if len(ins) > 0 {
		if _, err := AddRows(ctx, s, x.Table, ins); err != nil {
			return "", err
		}
	}
	if err := CheckReferenced(ctx, s, x.Table, delOld, nil); err != nil { // fkaction.go
		return "", err
	}
	if err := CheckReferenced(ctx, s, x.Table, updOld, upd); err != nil {
		return "", err
	}
	return fmt.Sprintf("MERGE %d", n), nil
}
