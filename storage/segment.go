package storage

import (
	"bufio"
	"bytes"
	"container/list"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// segment is one immutable Arrow IPC file of a table. Its metadata lives in
// the manifest; its batches are read on first use and then kept (decoded
// to the plain Arrow columns: encoding.go).
type segment struct {
	id    uint64
	rows  int64
	size  int64  // file size in bytes
	crc   uint32 // CRC-32C of the whole file
	stats []colStats
	enc   []byte // committer only: cached manifest entry
	// numText: the file holds numeric columns as PostgreSQL's text, as
	// joind wrote them before manifest format 2; they are converted to
	// numeric's column forms (types/decimal.go) when read.
	numText bool
	// layout is the columns the file holds, by attnum (alter.go).
	layout []ColumnDef
	// wal: the rows are only in the write-ahead log, no file yet
	// (wal.go); committer only once published.
	wal bool
	// logBytes is a wal segment's Arrow IPC bytes in its log record.
	logBytes int64

	mu     segLock
	recs   []arrow.Record // nil until loaded
	loaded bool
	// onDisk: the segment's file is written and stays until the segment
	// is retired, so the cache may drop its batches (segcache.go).
	onDisk atomic.Bool
	// lruElem and charged are the segment's place in the DB's segCache
	// and the bytes counted for it there; guarded by the cache's mu.
	lruElem *list.Element
	charged int64

	runs runCache // index runs by key (index.go)
	// conformed caches the batches laid out as a later definition
	// (conformKey) of the table.
	conformed  []arrow.Record
	conformKey string
}

func segmentFile(id uint64) string { return fmt.Sprintf("seg-%016x.arrow", id) }

// records returns the segment's batches laid out as cols (the table's
// columns: alter.go), reading the file the first time.
func (s *segment) records(db *DB, cols []ColumnDef) ([]arrow.Record, error) {
	recs, err := s.recordsLocked(db, cols)
	if err == nil {
		db.cache.touch(s, recs)
	}
	return recs, err
}

func (s *segment) recordsLocked(db *DB, cols []ColumnDef) ([]arrow.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		recs, err := readSegment(filepath.Join(db.dir, segmentFile(s.id)), s, s.layout)
		if err != nil {
			return nil, err
		}
		s.recs, s.loaded = recs, true
	}
	if sameLayout(s.layout, cols) {
		return s.recs, nil
	}
	if key := layoutKey(cols); key != s.conformKey || s.conformed == nil {
		out := make([]arrow.Record, len(s.recs))
		for i, r := range s.recs {
			out[i] = conform(r, s.layout, cols)
		}
		s.conformed, s.conformKey = out, key
	}
	return s.conformed, nil
}

// pin keeps the segment's batches, if loaded, from now on (its file is
// about to be deleted while readers of older versions may still scan it)
// and reports whether they are loaded.
func (s *segment) pin(c *segCache) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		return false
	}
	s.onDisk.Store(false)
	c.forget(s)
	return true
}

// cached returns the batches if they are in memory.
func (s *segment) cached() ([]arrow.Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recs, s.loaded
}

func corrupt(path, format string, args ...any) error {
	return pgerr.New(codeDataCorrupted, "could not read segment file \"%s\": %s", path, fmt.Sprintf(format, args...))
}

// readSegment reads and verifies a segment file against its manifest entry.
func readSegment(path string, s *segment, cols []ColumnDef) ([]arrow.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, corrupt(path, "%v", err)
	}
	if int64(len(data)) != s.size {
		return nil, corrupt(path, "size is %d bytes, the manifest says %d", len(data), s.size)
	}
	if c := crc32.Checksum(data, castagnoli); c != s.crc {
		return nil, corrupt(path, "checksum mismatch (file %08x, manifest %08x)", c, s.crc)
	}
	r, err := openSegmentFile(data)
	if err != nil {
		return nil, corrupt(path, "%v", err)
	}
	defer r.Close()
	if err := checkSchema(r.Schema(), cols, s.numText); err != nil {
		return nil, corrupt(path, "%v", err)
	}
	var recs []arrow.Record
	var rows int64
	enc, nanos := encoded(r.Schema()), intervalsInNanos(r.Schema())
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return nil, corrupt(path, "batch %d: %v", i, err)
		}
		rows += rec.NumRows()
		if enc {
			rec = newLazyRecord(rec, r.Schema(), cols)
		}
		if s.numText {
			rec = numericFromText(rec, cols)
		}
		if nanos {
			rec = intervalsFromNanos(rec, cols)
		}
		recs = append(recs, rec)
	}
	if rows != s.rows {
		return nil, corrupt(path, "holds %d rows, the manifest says %d", rows, s.rows)
	}
	return recs, nil
}

// openSegmentFile opens a segment file's bytes. A file without dictionary
// columns is read with ipc.NewMappedFileReader, whose uncompressed buffers
// are the file's bytes (no copy); one with them needs ipc.NewFileReader, as
// arrow-go's mapped reader has no dictionary memo and panics on them.
func openSegmentFile(data []byte) (*ipc.FileReader, error) {
	r, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for _, f := range r.Schema().Fields() {
		if f.Type.ID() == arrow.DICTIONARY {
			return r, nil
		}
	}
	r.Close()
	return ipc.NewMappedFileReader(data)
}

func checkSchema(sc *arrow.Schema, cols []ColumnDef, numText bool) error {
	if sc.NumFields() != len(cols) {
		return fmt.Errorf("has %d columns, the table has %d", sc.NumFields(), len(cols))
	}
	for i, c := range cols {
		if numText && c.Type.ID == types.Numeric && arrow.TypeEqual(sc.Field(i).Type, arrow.BinaryTypes.String) {
			continue
		}
		if err := checkEncodedField(sc.Field(i), c.Type.ArrowType()); err != nil {
			return fmt.Errorf("column %d: %v", i+1, err)
		}
	}
	return nil
}

// numericFromText converts the text numeric columns of a format-1 batch.
func numericFromText(rec arrow.Record, cols []ColumnDef) arrow.Record {
	arrs := rec.Columns()
	out := make([]arrow.Array, len(arrs))
	for i, c := range cols {
		out[i] = arrs[i]
		if c.Type.ID == types.Numeric {
			out[i] = types.ConformNumeric(arrs[i], c.Type)
		}
	}
	return array.NewRecord(arrowSchema(cols), out, rec.NumRows())
}

func arrowSchema(cols []ColumnDef) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.NotNull}
	}
	return arrow.NewSchema(fields, &segmentMetadata)
}

// intervalUnitKey, in the schema metadata of every segment (file or log
// record) joind writes, says that its interval columns hold microseconds
// in Arrow's nanoseconds field (types.Type.ArrowType). Segments written
// before lack it: they hold nanoseconds (a time part of at most ±2562047
// hours), converted as they are read (intervalsFromNanos).
const intervalUnitKey = "joind.interval_unit"

var segmentMetadata = arrow.NewMetadata([]string{intervalUnitKey}, []string{"us"})

// intervalsInNanos reports whether a segment of schema sc predates
// intervalUnitKey.
func intervalsInNanos(sc *arrow.Schema) bool {
	return sc.Metadata().FindKey(intervalUnitKey) < 0
}

// intervalsFromNanos converts the interval columns of an old segment's
// batch to microseconds (exact: the nanoseconds were whole microseconds).
func intervalsFromNanos(rec arrow.Record, cols []ColumnDef) arrow.Record {
	var out []arrow.Array
	for i, c := range cols {
		if c.Type.ID != types.Interval {
			continue
		}
		if out == nil {
			out = slices.Clone(rec.Columns())
		}
		old := rec.Column(i).(*array.MonthDayNanoInterval)
		b := array.NewMonthDayNanoIntervalBuilder(memory.DefaultAllocator)
		b.Reserve(old.Len())
		for k := 0; k < old.Len(); k++ {
			if old.IsNull(k) {
				b.AppendNull()
				continue
			}
			v := old.Value(k)
			v.Nanoseconds /= 1000
			b.Append(v)
		}
		out[i] = b.NewArray()
		b.Release()
	}
	if out == nil {
		return rec
	}
	return array.NewRecord(arrowSchema(cols), out, rec.NumRows())
}

// crcWriter counts and checksums what passes through it.
type crcWriter struct {
	w   io.Writer
	crc uint32
	n   int64
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.crc = crc32.Update(c.crc, castagnoli, p[:n])
	c.n += int64(n)
	return n, err
}

// writeSegment writes recs as segment id in dir and fsyncs the file (not the
// directory: the committer syncs it once for the whole group). The records
// are kept as the segment's cache. With compress, each column is written in
// the lightweight encoding its data favours (encoding.go) and each Arrow
// buffer is zstd-compressed where that saves at least a tenth of it (Arrow
// IPC's body compression, read back by the same reader); a loaded segment is
// then decoded once, into the cache.
func writeSegment(dir string, id uint64, cols []ColumnDef, recs []arrow.Record, sync, compress bool) (*segment, error) {
	path := filepath.Join(dir, segmentFile(id))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, ioError("create", path, err)
	}
	fail := func(err error) (*segment, error) {
		f.Close()
		os.Remove(path)
		return nil, ioError("write", path, err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := &crcWriter{w: bw}
	sc, out := arrowSchema(cols), recs
	if compress {
		if out, err = rebatch(recs); err != nil {
			return fail(err)
		}
		sc, out = encodeSegment(out, cols)
	}
	opts := []ipc.Option{ipc.WithSchema(sc)}
	if compress {
		opts = append(opts, ipc.WithZstd(), ipc.WithMinSpaceSavings(0.1))
	}
	w, err := ipc.NewFileWriter(cw, opts...)
	if err != nil {
		return fail(err)
	}
	seg := &segment{id: id, stats: make([]colStats, len(cols)), layout: cols}
	for i := range seg.stats {
		seg.stats[i] = newColStats()
	}
	// Statistics are computed while the file is written (addStats: in
	// parallel per column for large segments).
	statsDone := make(chan struct{})
	var statsErr error
	go func() {
		defer close(statsDone)
		statsErr = addStats(seg.stats, recs, cols)
	}()
	for _, r := range out {
		if err := w.Write(r); err != nil {
			<-statsDone
			return fail(err)
		}
		seg.rows += r.NumRows()
	}
	<-statsDone
	if statsErr != nil {
		f.Close()
		os.Remove(path)
		return nil, statsErr
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	for c, def := range cols {
		seg.stats[c].finish(def.Type)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, ioError("close", path, err)
	}
	seg.size, seg.crc = cw.n, cw.crc
	seg.recs, seg.loaded = recs, true
	seg.onDisk.Store(true)
	return seg, nil
}

func ioError(op, path string, err error) error {
	return pgerr.Wrap(err, codeIOError, "could not %s file \"%s\": %v", op, path, err)
}

func arrowRecordWithSchema(sc *arrow.Schema, r arrow.Record) arrow.Record {
	return array.NewRecord(sc, r.Columns(), r.NumRows())
}
