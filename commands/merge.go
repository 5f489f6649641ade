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
	var ids []storage.RowID
	seen := map[int64]bool{}
	var rows []arrow.Record
	var n int64
	for _, r := range recs {
		act := r.Column(0).(*array.Int32)
		rid := r.Column(1).(*array.Int64)
		keep := make([]bool, act.Len())
		for i := range keep {
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
				ids = append(ids, storage.RowID(id))
			}
			keep[i] = kind == sql.MergeUpdate || kind == sql.MergeInsert
		}
		for _, part := range keepRows(r, keep) {
			rows = append(rows, columnRange(part, 2, 2+ncols))
		}
	}
	if len(ids) > 0 {
		if err := s.Catalog().Delete(ctx, x.Table, ids); err != nil {
			return "", err
		}
	}
	if _, err := AddRows(ctx, s, x.Table, rows); err != nil { // the constraints: constraint.go
		return "", err
	}
	return fmt.Sprintf("MERGE %d", n), nil
}
