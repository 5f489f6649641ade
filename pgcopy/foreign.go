package pgcopy

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/external"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// A text, CSV or binary (COPY's binary format) file as a foreign table (file_fdw's way): every scan reads
// the file with COPY FROM's parser, its chunks parsed on the worker pool
// as a COPY's are, and its errors COPY's, with the foreign table's name in
// the CONTEXT line. As file_fdw (convert_selectively), only the columns a
// scan keeps are converted: the others are read as text and dropped, so
// a bad value in a column the query does not read is no error. NOT NULL
// is not checked (PostgreSQL does not check a foreign table's
// constraints).

func init() { sql.OpenCopyFile = openCopyFile }

// fileTable is one text/CSV file as a storage.External of one unit.
type fileTable struct {
	x    *sql.Copy // the COPY FROM a scan is; x.Table is the foreign table
	path string
	f    *types.Format
	now  time.Time
	size int64
}

func openCopyFile(x *sql.Copy, path string, f *types.Format, now time.Time) (storage.External, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, external.FileError(err, path, "stat")
	}
	return &fileTable{x: x, path: path, f: f, now: now, size: st.Size()}, nil
}

func (t *fileTable) Name() string                 { return storage.BareName(t.x.Table.Name()) }
func (t *fileTable) Columns() []storage.ColumnDef { return t.x.Table.Columns() }
func (t *fileTable) Source() string               { return t.path }

// estRows guesses the rows from the file's size, as file_fdw's
// estimate_size does without statistics.
func (t *fileTable) estRows() int64 { return max(1, t.size/32) }

func (t *fileTable) Stats() storage.Stats { return storage.Stats{Rows: t.estRows()} }

// Units is the file, one unit without statistics.
func (t *fileTable) Units() []storage.Segment {
	return []storage.Segment{{ID: 0, Rows: t.estRows()}}
}

func (t *fileTable) Snapshot() []arrow.Record {
	ords := make([]int, len(t.Columns()))
	for i := range ords {
		ords[i] = i
	}
	recs, err := t.ReadUnit(context.Background(), 0, ords)
	if err != nil {
		panic(err) // Snapshot cannot fail; scans use ReadUnit
	}
	return recs
}

// shapeTable is the foreign table as the loader sees it: the columns a
// scan does not keep typed text, none NOT NULL.
type shapeTable struct {
	storage.Table
	cols []storage.ColumnDef
}

func (s shapeTable) Columns() []storage.ColumnDef { return s.cols }

// ReadUnit parses the file and returns columns ordinals of its rows.
func (t *fileTable) ReadUnit(ctx context.Context, _ int, ordinals []int) ([]arrow.Record, error) {
	defs := t.x.Table.Columns()
	keep := make([]bool, len(defs))
	for _, o := range ordinals {
		keep[o] = true
	}
	if len(ordinals) == 0 {
		// count(*): file_fdw converts every column then.
		for i := range keep {
			keep[i] = true
		}
	}
	binary := t.x.Format == "binary"
	cols := make([]storage.ColumnDef, len(defs))
	for i, d := range defs {
		d.NotNull = false
		if !keep[i] && !binary { // binary fields are only read as their type
			d.Type = types.TextType
		}
		cols[i] = d
	}
	x := *t.x
	x.Table = shapeTable{Table: t.x.Table, cols: cols}
	fh, err := os.Open(t.path)
	if err != nil {
		return nil, external.FileError(err, t.path, "open")
	}
	defer fh.Close()
	var recs []arrow.Record
	if binary {
		recs, _, err = LoadBinary(ctx, &x, fh, NewDefaults(ctx, &x), t.f)
	} else {
		l := NewLoader(&x, NewDefaults(ctx, &x), t.f, t.now, 0, runtime.GOMAXPROCS(0))
		recs, _, err = l.Load(ctx, bufio.NewReaderSize(fh, 1<<20))
	}
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(ordinals))
	for k, o := range ordinals {
		fields[k] = arrow.Field{Name: defs[o].Name, Type: defs[o].Type.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	out := make([]arrow.Record, len(recs))
	for i, r := range recs {
		arrs := make([]arrow.Array, len(ordinals))
		for k, o := range ordinals {
			arrs[k] = r.Column(o)
		}
		out[i] = array.NewRecord(schema, arrs, r.NumRows())
	}
	return out, nil
}
