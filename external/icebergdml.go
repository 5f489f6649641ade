package external

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// DELETE and UPDATE on an Iceberg table, merge-on-read as Iceberg v2
// writes them: a scan for the statement reads each row with its RowID
// (data file, position in the file), and the change is one snapshot of
// file-scoped position delete files (one per data file touched) plus, for
// UPDATE, the data files of the new rows, committed through the staging
// catalog as an append is (icebergwrite.go), so joind's commit publishes
// it.

// codeSerializationFailure is serialization_failure.
const codeSerializationFailure = "40001"

// ReadUnitRowIDs is ReadUnit with one more column, last: each row's
// storage.RowID, unit i and the row's position in its data file. The data
// file is read whole and its position deletes applied here, so the
// positions are the file's; a file with equality deletes is 0A000 (their
// rows have no position to name).
func (t *IcebergTable) ReadUnitRowIDs(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	task := t.tasks[i]
	if len(task.EqualityDeleteFiles) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot update or delete rows of Iceberg data file \"%s\": it has equality deletes", task.File.FilePath())
	}
	if task.File.Count() >= 1<<32 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot update or delete rows of Iceberg data file \"%s\": it has more than 2^32 rows", task.File.FilePath())
	}
	deleted, err := deletedPositions(ctx, task)
	if err != nil {
		return nil, err
	}
	whole := task
	whole.DeleteFiles = nil
	recs, err := t.readTask(ctx, whole, task.File.Count(), ordinals)
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, 0, len(ordinals)+1)
	for _, o := range ordinals {
		fields = append(fields, arrow.Field{Name: t.cols[o].Name, Type: t.cols[o].Type.ArrowType(), Nullable: true})
	}
	schema := arrow.NewSchema(append(fields, arrow.Field{Name: "ctid", Type: arrow.PrimitiveTypes.Int64}), nil)
	// Each run of rows no delete removes is a slice of its batch.
	var out []arrow.Record
	var pos int64
	for _, r := range recs {
		n := r.NumRows()
		for lo := int64(0); lo < n; {
			if _, gone := deleted[pos+lo]; gone {
				lo++
				continue
			}
			hi := lo + 1
			for hi < n {
				if _, gone := deleted[pos+hi]; gone {
					break
				}
				hi++
			}
			ids := array.NewInt64Builder(memory.DefaultAllocator)
			for k := lo; k < hi; k++ {
				ids.Append(int64(storage.MakeRowID(uint64(i), pos+k)))
			}
			idArr := ids.NewArray()
			ids.Release()
			part := r.NewSlice(lo, hi)
			out = append(out, array.NewRecord(schema, append(slices.Clone(part.Columns()), idArr), hi-lo))
			idArr.Release()
			lo = hi
		}
		pos += n
	}
	return out, nil
}

// deletedPositions is the positions task's position delete files delete
// from its data file (iceberg-go's planning chose the files that apply).
func deletedPositions(ctx context.Context, task table.FileScanTask) (map[int64]struct{}, error) {
	out := map[int64]struct{}{}
	want := task.File.FilePath()
	for _, df := range task.DeleteFiles {
		p := strings.TrimPrefix(df.FilePath(), "file://")
		b, err := readLocation(ctx, p) // delete files are small
		if err != nil {
			return nil, err
		}
		pr, err := file.NewParquetReader(bytes.NewReader(b))
		if err != nil {
			return nil, icebergError(p, err)
		}
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			pr.Close()
			return nil, icebergError(p, err)
		}
		tb, err := fr.ReadTable(ctx)
		pr.Close()
		if err != nil {
			return nil, icebergError(p, err)
		}
		pc, qc := tb.Schema().FieldIndices("file_path"), tb.Schema().FieldIndices("pos")
		if len(pc) != 1 || len(qc) != 1 {
			tb.Release()
			return nil, pgerr.New(codeBadFile, "Iceberg position delete file \"%s\" lacks file_path or pos", p)
		}
		paths, poss := tb.Column(pc[0]).Data().Chunks(), tb.Column(qc[0]).Data().Chunks()
		for c := range paths {
			ps, ok1 := paths[c].(*array.String)
			qs, ok2 := poss[c].(*array.Int64)
			if !ok1 || !ok2 {
				tb.Release()
				return nil, pgerr.New(codeBadFile, "Iceberg position delete file \"%s\" has columns of types %s, %s", p, paths[c].DataType(), poss[c].DataType())
			}
			for k := 0; k < ps.Len(); k++ {
				if ps.Value(k) == want {
					out[qs.Value(k)] = struct{}{}
				}
			}
		}
		tb.Release()
	}
	return out, nil
}

// ChangeIceberg deletes the rows deleted (RowIDs from scanned's
// ReadUnitRowIDs) from the Iceberg table whose current metadata file is
// path and appends added (rows of the foreign table's columns cols: an
// UPDATE's new rows), as one snapshot, and returns the metadata file
// that describes it. scanned must have read path's snapshot: if the
// table moved on since, the change is 40001.
func ChangeIceberg(ctx context.Context, dirs []string, path string, scanned *IcebergTable, deleted []storage.RowID, cols []storage.ColumnDef, added []arrow.Record) (string, error) {
	if scanned.metadata != path {
		return "", pgerr.New(codeSerializationFailure, "could not serialize access due to concurrent update").
			WithDetail("The Iceberg table \"%s\" changed since the statement read it.", scanned.name)
	}
	tbl, cat, err := openIcebergWrite(ctx, dirs, path)
	if err != nil {
		return "", err
	}
	if v := tbl.Metadata().Version(); v != 2 {
		return "", pgerr.New(pgerr.FeatureNotSupported, "cannot update or delete rows of the Iceberg table \"%s\": it is format version %d", scanned.name, v).
			WithHint("joind writes position deletes, which need format version 2.")
	}
	byUnit := map[int][]int64{}
	for _, id := range deleted {
		u := int(id.Segment())
		byUnit[u] = append(byUnit[u], id.Offset())
	}
	units := make([]int, 0, len(byUnit))
	for u := range byUnit {
		units = append(units, u)
	}
	slices.Sort(units)
	txn := tbl.NewTransaction()
	rd := txn.NewRowDelta(nil)
	write := uuid.New()
	for k, u := range units {
		pos := byUnit[u]
		slices.Sort(pos)
		pos = slices.Compact(pos)
		df, err := writePositionDeletes(ctx, tbl, scanned.tasks[u].File, pos, fmt.Sprintf("%s-deletes-%05d.parquet", write, k))
		if err != nil {
			return "", err
		}
		rd.AddDeletes(df)
	}
	if len(added) > 0 {
		rec, err := icebergRows(ctx, tbl, true, cols, added)
		if err != nil {
			return "", err
		}
		recs := func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) } // WriteRecords releases it
		for df, err := range table.WriteRecords(ctx, tbl, rec.Schema(), recs) {
			if err != nil {
				return "", icebergError(path, err)
			}
			rd.AddRows(df)
		}
	}
	if err := rd.Commit(ctx); err != nil {
		return "", icebergError(path, err)
	}
	return commitIceberg(ctx, path, txn, cat)
}

// writePositionDeletes writes a file-scoped position delete file, name in
// data file df's directory, deleting positions pos (ascending) of df.
func writePositionDeletes(ctx context.Context, tbl *table.Table, df iceberg.DataFile, pos []int64, name string) (iceberg.DataFile, error) {
	target := df.FilePath()
	scheme := ""
	if strings.HasPrefix(target, "file://") {
		scheme = "file://"
	}
	loc := JoinLocation(LocationDir(strings.TrimPrefix(target, "file://")), name)
	paths := array.NewStringBuilder(memory.DefaultAllocator)
	defer paths.Release()
	ps := array.NewInt64Builder(memory.DefaultAllocator)
	defer ps.Release()
	for _, p := range pos {
		paths.Append(target)
		ps.Append(p)
	}
	pa, pp := paths.NewArray(), ps.NewArray()
	defer pa.Release()
	defer pp.Release()
	rec := array.NewRecord(table.PositionalDeleteArrowSchema, []arrow.Array{pa, pp}, int64(len(pos)))
	defer rec.Release()
	// A delete file is small: written whole to memory, then to its
	// location in one durable write (an fsynced file or one object PUT).
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(table.PositionalDeleteArrowSchema, &buf, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd)), pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, icebergError(loc, err)
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, icebergError(loc, err)
	}
	if err := w.Close(); err != nil {
		return nil, icebergError(loc, err)
	}
	meta, err := w.FileMetadata()
	if err != nil {
		return nil, icebergError(loc, err)
	}
	if err := writeLocation(ctx, loc, buf.Bytes()); err != nil {
		return nil, err
	}
	spec := tbl.Metadata().PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return nil, pgerr.New(codeBadFile, "Iceberg data file \"%s\" has unknown partition spec %d", target, df.SpecID())
	}
	out, err := table.DataFileFromMetadata(table.DataFileArgs{
		Schema:             iceberg.PositionalDeleteSchema,
		Spec:               *spec,
		Format:             iceberg.ParquetFile,
		Metadata:           meta,
		FilePath:           scheme + loc,
		FileSize:           int64(buf.Len()),
		Content:            iceberg.EntryContentPosDeletes,
		PartitionValues:    df.Partition(),
		Properties:         tbl.Properties(),
		FormatVersion:      tbl.Metadata().Version(),
		ReferencedDataFile: &target,
	})
	if err != nil {
		return nil, icebergError(loc, err)
	}
	return out, nil
}
