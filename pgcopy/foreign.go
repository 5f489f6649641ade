package pgcopy

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/external"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// A text, CSV or binary (COPY's binary format) file as a foreign table
// (file_fdw's way): every scan reads the file with COPY FROM's parser, its
// chunks parsed on the worker pool as a COPY's are, a big file cut into
// units at line feeds where that is safe (splitFile) so the scan's
// partitions read them in parallel, and its errors COPY's, with the foreign table's name in
// the CONTEXT line. As file_fdw (convert_selectively), only the columns a
// scan keeps are converted: the others are read as text and dropped, so
// a bad value in a column the query does not read is no error. NOT NULL
// is not checked (PostgreSQL does not check a foreign table's
// constraints).

func init() { sql.OpenCopyFile = openCopyFile }

// fileTable is one text/CSV file as a storage.External: one unit, or
// several byte ranges of it (splitFile) read by the scan's partitions in
// parallel.
type fileTable struct {
	x    *sql.Copy // the COPY FROM a scan is; x.Table is the foreign table
	path string
	f    *types.Format
	now  time.Time
	size int64

	split func() []filePart // the units, found on first use
}

// filePart is a unit: bytes [start, end) of the file, after lines lines.
type filePart struct {
	start, end int64
	lines      int
}

func openCopyFile(x *sql.Copy, path string, f *types.Format, now time.Time) (storage.External, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, external.FileError(err, path, "stat")
	}
	t := &fileTable{x: x, path: path, f: f, now: now, size: st.Size()}
	t.split = sync.OnceValue(func() []filePart { return splitFile(path, x, t.size, splitUnitBytes) })
	return t, nil
}

func (t *fileTable) Name() string                 { return storage.BareName(t.x.Table.Name()) }
func (t *fileTable) Columns() []storage.ColumnDef { return t.x.Table.Columns() }
func (t *fileTable) Source() string               { return t.path }

// estRows guesses the rows of n bytes of the file, as file_fdw's
// estimate_size does without statistics.
func estRows(n int64) int64 { return max(1, n/32) }

func (t *fileTable) Stats() storage.Stats { return storage.Stats{Rows: estRows(t.size)} }

// Units are the file's parts, without statistics.
func (t *fileTable) Units() []storage.Segment {
	parts := t.split()
	out := make([]storage.Segment, len(parts))
	for i, p := range parts {
		out[i] = storage.Segment{ID: uint64(i), Rows: estRows(p.end - p.start)}
	}
	return out
}

func (t *fileTable) Snapshot() []arrow.Record {
	ords := make([]int, len(t.Columns()))
	for i := range ords {
		ords[i] = i
	}
	var out []arrow.Record
	for i := range t.split() {
		recs, err := t.ReadUnit(context.Background(), i, ords)
		if err != nil {
			panic(err) // Snapshot cannot fail; scans use ReadUnit
		}
		out = append(out, recs...)
	}
	return out
}

// splitUnitBytes is the least size of a unit: a smaller file is one.
var splitUnitBytes int64 = 16 << 20

// maxFileUnits bounds the units of a file.
const maxFileUnits = 64

// splitFile cuts the file into units of at least unit bytes, each
// starting just after a line feed, where cutting is safe: every line feed
// ends a record and a record's lines are the file's, so each part parses
// alone (LoadFrom) with PostgreSQL's line numbers. It is not for binary
// COPY, data with a carriage return (its line ends are known only from
// the first record), an end-of-data marker \. (rows after it are not
// data), quotes in CSV (a quoted field may hold a line feed) or a
// backslash before a line feed in text. Otherwise, and for a file that
// cannot be read, the file is one unit.
func splitFile(path string, x *sql.Copy, size, unit int64) []filePart {
	whole := []filePart{{start: 0, end: size}}
	if x.Format == "binary" || size < 2*unit {
		return whole
	}
	unit = max(unit, size/maxFileUnits+1)
	fh, err := os.Open(path)
	if err != nil {
		return whole
	}
	defer fh.Close()
	csv := x.Format == "csv"
	unsafe := func(b []byte) bool {
		return bytes.IndexByte(b, '\r') >= 0 || (csv && bytes.IndexByte(b, x.Quote[0]) >= 0) ||
			bytes.Contains(b, []byte("\n\\.")) || // an end-of-data marker, perhaps
			(!csv && bytes.Contains(b, []byte("\\\n"))) // a line feed a backslash escapes
	}
	var parts []filePart
	var off, start, next int64 = 0, 0, unit
	lines, startLines := 0, 0
	tail := []byte{'\n'} // the last bytes before buf: the file starts a line
	buf := make([]byte, 1<<20)
	for {
		n, err := io.ReadFull(fh, buf)
		b := buf[:n]
		if unsafe(b) || unsafe(append(tail, b[:min(n, 2)]...)) {
			return whole
		}
		for i := 0; i < n; {
			if t := next - off; t > int64(i) { // not at the next cut yet
				j := int(min(t, int64(n)))
				lines += bytes.Count(b[i:j], []byte{'\n'})
				i = j
				continue
			}
			k := bytes.IndexByte(b[i:], '\n')
			if k < 0 {
				break
			}
			lines++
			i += k + 1
			if cut := off + int64(i); cut < size {
				parts = append(parts, filePart{start: start, end: cut, lines: startLines})
				start, startLines, next = cut, lines, cut+unit
			}
		}
		tail = append(tail[:0], b[max(n-2, 0):]...)
		off += int64(n)
		if err != nil {
			break
		}
	}
	if off != size {
		return whole // the file changed since it was opened
	}
	return append(parts, filePart{start: start, end: size, lines: startLines})
}

// shapeTable is the foreign table as the loader sees it: the columns a
// scan does not keep typed text, none NOT NULL.
type shapeTable struct {
	storage.Table
	cols []storage.ColumnDef
}

func (s shapeTable) Columns() []storage.ColumnDef { return s.cols }

// ReadUnit parses unit i of the file and returns columns ordinals of its
// rows. A bad row's error is PostgreSQL's only if no earlier unit has
// one: PostgreSQL reports the file's first, so the earlier units are
// checked first (on the error path only).
func (t *fileTable) ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	recs, err := t.readPart(ctx, t.split()[i], ordinals)
	if err == nil || i == 0 || ctx.Err() != nil {
		return recs, err
	}
	for k := range i {
		if _, e := t.readPart(ctx, t.split()[k], ordinals); e != nil {
			return nil, e
		}
	}
	return nil, err
}

// readPart parses part of the file and returns columns ordinals of its
// rows.
func (t *fileTable) readPart(ctx context.Context, part filePart, ordinals []int) ([]arrow.Record, error) {
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
	} else if _, err = fh.Seek(part.start, io.SeekStart); err == nil {
		l := NewLoader(&x, NewDefaults(ctx, &x), t.f, t.now, 0, runtime.GOMAXPROCS(0))
		r := io.LimitReader(fh, part.end-part.start)
		recs, _, err = l.LoadFrom(ctx, bufio.NewReaderSize(r, 1<<20), part.lines)
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
