package commands

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// IcebergAppend appends rows (INSERT's, COPY FROM's) to Iceberg foreign
// table t as a new snapshot (external.AppendIceberg) and points the
// table's metadata_file option at it in the statement's transaction:
// the snapshot is the table's once, and only if, the transaction commits.
func IcebergAppend(ctx context.Context, s Session, t storage.Table, a *sql.IcebergAppend, rows []arrow.Record) (int64, error) {
	cat := s.Catalog()
	tb, ok := cat.Txn.Lookup(t.Name())
	if !ok || storage.ForeignDefOf(tb) == nil {
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(t.Name()))
	}
	holder, def, err := sql.IcebergHolder(cat.Txn, a.Dirs, tb)
	if err != nil {
		return 0, err
	}
	if id, _ := sql.IcebergSnapshotID(def.Options); id != 0 {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot append to foreign table \"%s\": it reads Iceberg snapshot %d", storage.BareName(t.Name()), id).
			WithHint("Append through a foreign table without the snapshot_id option.")
	}
	var total int64
	for _, r := range rows {
		total += r.NumRows()
		for c, d := range tb.Columns() {
			if d.NotNull && r.Column(c).NullN() > 0 {
				return 0, NotNullViolation(tb, r, c, s.Format())
			}
		}
	}
	if total == 0 {
		return 0, nil
	}
	path, err := sql.IcebergMetadataPath(a.Dirs, def.Options)
	if err != nil {
		return 0, err
	}
	meta, err := external.AppendIceberg(ctx, a.Dirs, path, tb.Columns(), rows)
	if err != nil {
		return 0, err
	}
	return total, publishIceberg(ctx, cat, holder, def, meta)
}

// publishIceberg points holder's metadata_file option (def its
// definition) at meta in the statement's transaction.
func publishIceberg(ctx context.Context, cat *Catalog, holder storage.Table, def *storage.ForeignTableDef, meta string) error {
	nd := &storage.ForeignTableDef{Server: def.Server, ColumnOptions: def.ColumnOptions}
	set := false
	for _, o := range def.Options {
		if o.Name == sql.IcebergMetadataOption {
			o.Value, set = meta, true
		}
		nd.Options = append(nd.Options, o)
	}
	if !set {
		nd.Options = append(nd.Options, storage.ForeignOption{Name: sql.IcebergMetadataOption, Value: meta})
	}
	return cat.Txn.SetForeign(ctx, holder, nd)
}

// icebergChange is a DELETE's or UPDATE's change to Iceberg foreign table
// t: the rows whose RowIDs column 0 of recs holds are deleted and rows
// (an UPDATE's new rows, nil for DELETE) appended, as one snapshot
// (external.ChangeIceberg) the transaction's commit publishes. It returns
// the rows changed.
func icebergChange(ctx context.Context, s Session, t storage.Table, c *sql.IcebergChange, recs, rows []arrow.Record) (int64, error) {
	cat := s.Catalog()
	tb, ok := cat.Txn.Lookup(t.Name())
	if !ok || storage.ForeignDefOf(tb) == nil {
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(t.Name()))
	}
	ids, err := rowIDs(recs) // update.go
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	for _, r := range rows {
		for k, d := range tb.Columns() {
			if d.NotNull && r.Column(k).NullN() > 0 {
				return 0, NotNullViolation(tb, r, k, s.Format())
			}
		}
	}
	holder, def, err := sql.IcebergHolder(cat.Txn, c.Dirs, tb)
	if err != nil {
		return 0, err
	}
	path, err := sql.IcebergMetadataPath(c.Dirs, def.Options)
	if err != nil {
		return 0, err
	}
	meta, err := external.ChangeIceberg(ctx, c.Dirs, path, c.Scanned, ids, tb.Columns(), rows)
	if err != nil {
		return 0, err
	}
	return int64(len(ids)), publishIceberg(ctx, cat, holder, def, meta)
}
