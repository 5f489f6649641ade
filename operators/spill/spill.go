package spill

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/joind/joind/pgerr"
)

// codeIOError is io_error, PostgreSQL's SQLSTATE for a failed temporary
// file write or read.
const codeIOError = "58030"

// writeBuffer is a spill file's write buffer: held from Create to Finish,
// counted in the account that created the file (a hash aggregation or
// join writes many files at once).
const writeBuffer = 64 << 10

// filePrefix names spill files inside a Space's directory.
const filePrefix = "spill-"

// Space is one query's memory budget and spill directory. A nil *Space has
// no limit and cannot spill. Its methods are safe for concurrent use.
type Space struct {
	dir   string
	limit int64
	used  atomic.Int64
	live  atomic.Int64 // files created and not yet removed
	made  atomic.Int64 // files created
	// stmt are the accounts the statement holds until it ends (Close).
	mu     sync.Mutex
	stmt   []*Account
	closed atomic.Bool
	// started: Start counted the query in openSpaces.
	started atomic.Bool
	peak    atomic.Int64 // the most bytes counted at once
}

// NewSpace returns a query's Space: limit bytes (0 = unlimited), spill
// files in dir ("" = the query cannot spill).
func NewSpace(dir string, limit int64) *Space {
	return &Space{dir: dir, limit: limit}
}

// Start marks the query as running (its operators opened); Close ends
// it. A Space made for a statement that never runs is never counted, so
// the server sees itself idle when every running query has closed.
func (s *Space) Start() {
	if s != nil && !s.closed.Load() && !s.started.Swap(true) {
		openSpaces.Add(1)
	}
}

// Limit is the query's memory limit in bytes (0 = none).
func (s *Space) Limit() int64 {
	if s == nil {
		return 0
	}
	return s.limit
}

// Bounded reports whether the query's bytes count against a limit (its
// own or the server's).
func (s *Space) Bounded() bool { return s != nil && (s.limit > 0 || serverLimit.Load() > 0) }

// CanSpill reports whether the query has a limit (its own or the
// server's) and somewhere to spill: operators keep everything in memory
// otherwise.
func (s *Space) CanSpill() bool {
	return s.Bounded() && s.dir != ""
}

// Reserve counts n more bytes against the query's limit and the server's.
// It returns false, and counts nothing, when they would exceed either.
func (s *Space) Reserve(n int64) bool {
	if s == nil {
		return true
	}
	for {
		cur := s.used.Load()
		if n > 0 && s.limit > 0 && cur+n > s.limit {
			return false
		}
		if s.used.CompareAndSwap(cur, cur+n) {
			s.notePeak(cur + n)
			break
		}
	}
	if s.closed.Load() {
		return true
	}
	if !serverReserve(n) {
		s.used.Add(-n)
		return false
	}
	return true
}

// Close ends the query: the accounts held until the statement ends are
// closed, and whatever the query still counts goes back to the
// server-wide limit. Later counting on s touches the query's figure only.
// It may be called more than once.
func (s *Space) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	stmt := s.stmt
	s.stmt = nil
	s.mu.Unlock()
	for _, a := range stmt {
		a.Close()
	}
	if !s.closed.Swap(true) {
		serverInUse.Add(-s.used.Load())
		if s.started.Load() {
			openSpaces.Add(-1)
		}
		returnToOS(s.peak.Load())
	}
}

func (s *Space) notePeak(now int64) {
	for {
		p := s.peak.Load()
		if now <= p || s.peak.CompareAndSwap(p, now) {
			return
		}
	}
}

// Force counts n bytes even beyond the limits: memory an operator cannot
// do without (one batch, a merge's cursors).
func (s *Space) Force(n int64) {
	if s != nil {
		s.notePeak(s.used.Add(n))
		if !s.closed.Load() {
			serverInUse.Add(n)
		}
	}
}

// Release returns n reserved bytes.
func (s *Space) Release(n int64) {
	if s != nil {
		s.used.Add(-n)
		if !s.closed.Load() {
			serverInUse.Add(-n)
		}
	}
}

// Used is the number of bytes reserved now.
func (s *Space) Used() int64 {
	if s == nil {
		return 0
	}
	return s.used.Load()
}

// LiveFiles is the number of spill files created and not yet removed.
func (s *Space) LiveFiles() int64 {
	if s == nil {
		return 0
	}
	return s.live.Load()
}

// Created is the number of spill files the query created.
func (s *Space) Created() int64 {
	if s == nil {
		return 0
	}
	return s.made.Load()
}

// OutOfMemory is the error of an operator that needs request more bytes
// past the limit and cannot spill, worded as PostgreSQL's failed
// allocation ("out of memory", DETAIL naming the request and the memory
// context: PostgreSQL's HashTableContext for a hash table, else
// ExecutorState); the HINT says what hit which limit.
func (s *Space) OutOfMemory(context, what string, request int64) error {
	if s.serverFull(request) {
		return outOfMemory(context, what, "the server's memory limit", request, ServerLimit(), ServerUsed())
	}
	return OutOfMemory(context, what, request, s.Limit(), s.Used())
}

// OutOfMemory is the 53200 error of a request past a limit of limit
// bytes with used in use (Space.OutOfMemory's wording for a limit of the
// operator's own).
func OutOfMemory(context, what string, request, limit, used int64) error {
	return outOfMemory(context, what, "the memory limit", request, limit, used)
}

func outOfMemory(context, what, which string, request, limit, used int64) error {
	e := pgerr.New(pgerr.OutOfMemory, "out of memory")
	e.Detail = fmt.Sprintf("Failed on request of size %d in memory context \"%s\".", request, context)
	e.Hint = fmt.Sprintf("%s needs more than %s of %d bytes (%d in use).", what, which, limit, used)
	return e
}

// File is one spill file: written once (Write, Finish), then read any
// number of times (Open), then removed.
type File struct {
	s      *Space
	path   string
	f      *os.File
	bw     *bufio.Writer
	w      *ipc.Writer
	schema *arrow.Schema
	rows   int64
	bytes  int64
	disk   int64 // the finished file's size
	mu     sync.Mutex
	gone   bool
	acct   *Account // counts the write buffer until Finish
}

// Create makes a new spill file for batches of schema.
func (s *Space) Create(schema *arrow.Schema) (*File, error) {
	if s == nil || s.dir == "" {
		return nil, pgerr.New(pgerr.InternalError, "spill: the query has no spill directory")
	}
	f, err := os.CreateTemp(s.dir, filePrefix+"*")
	if err != nil {
		return nil, ioErr("create temporary", filepath.Join(s.dir, filePrefix+"*"), err)
	}
	s.live.Add(1)
	s.made.Add(1)
	bw := bufio.NewWriterSize(f, writeBuffer)
	return &File{s: s, path: f.Name(), f: f, bw: bw, w: ipc.NewWriter(bw, ipc.WithSchema(schema)), schema: schema}, nil
}

// Write appends a batch.
func (f *File) Write(rec arrow.Record) error {
	if rec.NumRows() == 0 {
		return nil
	}
	if err := f.w.Write(rec); err != nil {
		return ioErr("write to", f.path, err)
	}
	f.rows += rec.NumRows()
	f.bytes += RecordBytes(rec)
	return nil
}

// Rows and Bytes are what was written (Bytes as held in memory);
// DiskBytes is the finished file's size.
func (f *File) Rows() int64      { return f.rows }
func (f *File) Bytes() int64     { return f.bytes }
func (f *File) DiskBytes() int64 { return f.disk }

// Finish ends writing; the file can then be opened.
func (f *File) Finish() error {
	if f.w == nil {
		return nil
	}
	err := f.w.Close()
	if err == nil {
		err = f.bw.Flush()
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.f.Stat(); err == nil {
			f.disk = fi.Size()
		}
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	f.w, f.f, f.bw = nil, nil, nil
	if f.acct != nil {
		f.acct.Release(writeBuffer)
		f.acct = nil
	}
	if err != nil {
		return ioErr("write to", f.path, err)
	}
	return nil
}

// Reader reads a finished file's batches back in order.
type Reader struct {
	file *File
	f    *os.File
	r    *ipc.Reader
}

// Open starts reading a finished file.
func (f *File) Open() (*Reader, error) {
	fd, err := os.Open(f.path)
	if err != nil {
		return nil, ioErr("open", f.path, err)
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(fd, 256<<10), ipc.WithSchema(f.schema))
	if err != nil {
		fd.Close()
		return nil, ioErr("read from", f.path, err)
	}
	return &Reader{file: f, f: fd, r: r}, nil
}

// Next returns the next batch, or nil, io.EOF at the end.
func (r *Reader) Next() (arrow.Record, error) {
	if r.r.Next() {
		rec := r.r.RecordBatch()
		rec.Retain() // batches are kept past the next Next (the batch contract)
		return rec, nil
	}
	if err := r.r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, ioErr("read from", r.file.path, err)
	}
	return nil, io.EOF
}

// Close ends reading.
func (r *Reader) Close() error {
	if r.f == nil {
		return nil
	}
	r.r.Release()
	err := r.f.Close()
	r.f = nil
	return err
}

// Remove deletes the file (idempotent; also while still being written).
func (f *File) Remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gone {
		return
	}
	f.gone = true
	f.acct = nil // the account's Close returns the buffer
	if f.f != nil {
		f.f.Close()
		f.f = nil
	}
	os.Remove(f.path)
	f.s.live.Add(-1)
}

// RemoveAll removes files (nil entries skipped).
func RemoveAll(files []*File) {
	for _, f := range files {
		if f != nil {
			f.Remove()
		}
	}
}

// Clean removes every spill file in dir, creating dir if it is missing:
// the engine calls it at startup, so files of a crashed run do not stay.
func Clean(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ioErr("create directory", dir, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ioErr("read directory", dir, err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), filePrefix) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return ioErr("remove", filepath.Join(dir, e.Name()), err)
			}
		}
	}
	return nil
}

// Files lists the spill files in dir (for tests and diagnostics).
func Files(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), filePrefix) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

func ioErr(op, path string, err error) error {
	return pgerr.Wrap(err, codeIOError, "could not %s file \"%s\": %v", op, path, err)
}

// RecordBytes is the memory a batch's rows take: of a slice (a scan's
// batches are slices of stored ones) only its rows' part of the buffers.
func RecordBytes(r arrow.Record) int64 {
	var n int64
	for _, c := range r.Columns() {
		n += arrayBytes(c.Data())
	}
	return n
}

// ArrayBytes is the memory an array's rows take.
func ArrayBytes(a arrow.Array) int64 { return arrayBytes(a.Data()) }

func arrayBytes(d arrow.ArrayData) int64 {
	n := int64(d.Len())
	bufs := d.Buffers()
	var b int64
	if len(bufs) > 0 && bufs[0] != nil {
		b += (n + 7) / 8 // validity
	}
	switch dt := d.DataType().(type) {
	case arrow.FixedWidthDataType:
		return b + (n*int64(dt.BitWidth())+7)/8
	case *arrow.StringType, *arrow.BinaryType:
		b += (n + 1) * 4
		if len(bufs) > 2 && bufs[1] != nil && bufs[2] != nil {
			offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
			if lo, hi := d.Offset(), d.Offset()+int(n); hi < len(offs) {
				b += int64(offs[hi] - offs[lo])
			}
		}
		return b
	}
	for _, buf := range bufs {
		if buf != nil {
			b += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		b += arrayBytes(c)
	}
	return b
}
