package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"golang.org/x/sys/unix"
)

// The write-ahead log: how a small commit becomes durable with one
// fdatasync instead of a segment file per table plus a manifest.
//
// A data directory's manifest names a log generation (version.walGen);
// its log is the file wal-<gen>.log. A group of commits that only add rows
// to, delete rows of and compact existing tables (loggable) is made
// durable by appending one record to the log and fdatasync'ing it: the
// group's new segments (their Arrow IPC bytes), the rows it deleted by
// segment, and the compactions it applied. Its segments live in memory
// only (segment.wal) and its deletes in tableState.walDels. Every other
// group — DDL, TRUNCATE, sequence marks, large loads, a compaction that
// wrote a file, or any group once the log outgrew walMax — is a
// checkpoint: it writes a file for every in-memory segment and the
// pending deletes (inline or delta files), then the manifest naming
// generation gen+1, then starts that generation's (empty) log and removes
// the old one.
//
// INVARIANTS (with the commit protocol's, commit.go):
//
//   - Durability: a logged group is published only after its record is
//     fdatasync'd into the log the durable manifest names, and a log file
//     receives its first record only after its directory entry is durable.
//   - Replay is the history: start-up applies the records of the manifest's
//     generation in order to the manifest's version; each record is whole
//     (length + CRC-32C) or, at the tail, a torn append of a group never
//     acknowledged, which is cut off. So the recovered state is the state
//     after some prefix of the acknowledged groups plus nothing partial.
//   - No double apply: a checkpoint's manifest names the next generation,
//     so the records it folded in are never replayed on top of it; segment
//     files a checkpoint wrote before a crash that kept the old manifest are
//     unnamed and removed at start-up, their rows replayed from the log.
//   - Definitions are stable within a generation: any change of a table's
//     columns, constraints or existence is a checkpoint, so a record's
//     segments are laid out as the manifest's columns of their table.
const (
	walMax = 64 << 20 // log bytes after which the next group checkpoints
	// walRows: a group adding more rows than this writes segment files
	// (logging a bulk load would write it twice).
	walRows = smallRows
)

// Log record operations.
const (
	walSegment = 1 // table, segment id, Arrow IPC file bytes: appended
	walDeletes = 2 // table, segment id, offsets: rows deleted
	walReplace = 3 // table, replaced segment ids, new id (0: none) [+ bytes]: compaction
)

func walFile(gen uint64) string { return fmt.Sprintf("wal-%016x.log", gen) }

// walLog is the open log of a data directory; committer only (and load).
// The file is extended with zeros a walChunk at a time ahead of the
// records (alloc), as PostgreSQL fills a WAL segment: an fdatasync of a
// record then writes no file-size metadata. Replay stops at the first
// zero length.
type walLog struct {
	gen   uint64
	f     *os.File
	size  int64 // bytes of records
	alloc int64 // bytes of file
}

const walChunk = 4 << 20

// openLog opens generation gen's log for appending after its first valid
// bytes (creating it, durably, if missing).
func openLog(dir string, gen uint64, valid int64, sync bool) (*walLog, error) {
	path := filepath.Join(dir, walFile(gen))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, ioError("open", path, err)
	}
	if err := f.Truncate(valid); err != nil {
		f.Close()
		return nil, ioError("truncate", path, err)
	}
	if sync {
		// The truncation and a new file's directory entry must be durable
		// before a record is acknowledged from it.
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, ioError("fsync", path, err)
		}
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, err
		}
	}
	return &walLog{gen: gen, f: f, size: valid, alloc: valid}, nil
}

// append writes one record and makes it durable.
func (l *walLog) append(payload []byte, sync bool) error {
	rec := make([]byte, 8, 8+len(payload))
	binary.LittleEndian.PutUint32(rec[0:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(payload, castagnoli))
	rec = append(rec, payload...)
	if end := l.size + int64(len(rec)); end > l.alloc {
		grow := max(walChunk, end-l.alloc)
		if _, err := l.f.WriteAt(make([]byte, grow), l.alloc); err != nil {
			return ioError("extend", l.f.Name(), err)
		}
		if sync {
			if err := l.f.Sync(); err != nil {
				return ioError("fsync", l.f.Name(), err)
			}
		}
		l.alloc += grow
	}
	if _, err := l.f.WriteAt(rec, l.size); err != nil {
		return ioError("write", l.f.Name(), err)
	}
	l.size += int64(len(rec))
	if sync {
		if err := unix.Fdatasync(int(l.f.Fd())); err != nil {
			return ioError("fdatasync", l.f.Name(), err)
		}
	}
	return nil
}

func (l *walLog) close() {
	if l != nil && l.f != nil {
		l.f.Close()
	}
}

// walRecord builds one group's log record.
type walRecord struct{ b []byte }

func (r *walRecord) uv(v uint64) { r.b = binary.AppendUvarint(r.b, v) }

func (r *walRecord) bytes(p []byte) { r.uv(uint64(len(p))); r.b = append(r.b, p...) }

func (r *walRecord) segment(table uint64, s *segment) error {
	enc, err := encodeIPC(s.layout, s.recs)
	if err != nil {
		return err
	}
	r.b = append(r.b, walSegment)
	r.uv(table)
	r.uv(s.id)
	r.bytes(enc)
	s.logBytes = int64(len(enc))
	return nil
}

func (r *walRecord) deletes(table, seg uint64, offs []int64) {
	r.b = append(r.b, walDeletes)
	r.uv(table)
	r.uv(seg)
	r.uv(uint64(len(offs)))
	r.b = append(r.b, encodeOffsets(offs)...)
}

func (r *walRecord) replace(c *compaction) error {
	r.b = append(r.b, walReplace)
	r.uv(c.table)
	r.uv(uint64(len(c.old)))
	for _, s := range c.old {
		r.uv(s.id)
	}
	if c.seg == nil {
		r.uv(0)
		return nil
	}
	r.uv(c.seg.id)
	enc := c.walBytes
	if enc == nil {
		var err error
		if enc, err = encodeIPC(c.seg.layout, c.seg.recs); err != nil {
			return err
		}
	}
	c.seg.logBytes = int64(len(enc))
	r.bytes(enc)
	return nil
}

// encodeIPC is recs as an Arrow IPC file's bytes.
func encodeIPC(cols []ColumnDef, recs []arrow.Record) ([]byte, error) {
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(arrowSchema(cols)))
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// walSegmentOf is an in-memory segment whose rows only the log holds
// until a checkpoint writes its file.
func walSegmentOf(id uint64, cols []ColumnDef, recs []arrow.Record) *segment {
	s, _ := memSegment(id, cols, recs)
	s.wal = true
	return s
}

// loggable reports whether r can be made durable by a log record.
func loggable(r *commitReq) bool {
	if c := r.compact; c != nil {
		return c.refile == nil && (c.seg == nil || c.seg.wal)
	}
	p := r.p
	return len(p.created) == 0 && len(p.dropped) == 0 && len(p.truncated) == 0 && len(p.views) == 0 &&
		(p.cons == nil || len(p.cons.set) == 0) && p.idx.empty() && len(p.seqs) == 0 && len(p.seqMarks) == 0 &&
		len(p.altered) == 0 && len(p.rewrite) == 0 && len(p.schemas) == 0 && len(p.types) == 0 && len(p.authOps) == 0 && len(p.foreign) == 0 && len(p.funcs) == 0
}

// onlyCompactions: the group changes no row's content, so its record
// need not be synced on its own — a crash that loses it loses only
// records after it, none acknowledged (the next synced record syncs it).
func (g *groupCommit) onlyCompactions() bool {
	for _, r := range g.ok {
		if r.compact == nil {
			return false
		}
	}
	return true
}

// logs decides whether the group goes to the log (else it checkpoints).
func (g *groupCommit) logs() bool {
	w := g.db.wal
	if w == nil || w.size >= walMax || g.db.opts.NoWAL {
		return false
	}
	var rows int64
	for _, r := range g.ok {
		if !loggable(r) {
			return false
		}
		if r.p != nil {
			for _, recs := range r.p.appends {
				rows += pendingRows(recs)
			}
		}
	}
	return rows <= walRows
}

// logSegments is writeSegments for a logged group: the group's rows become
// in-memory segments, its deletes move to walDels, and all of it, with the
// group's compactions, goes into the record persist appends.
func (g *groupCommit) logSegments() error {
	db := g.db
	rec := &walRecord{}
	rec.b = make([]byte, 8, 256) // the id counter, set by persist
	for _, r := range g.ok {
		if r.compact != nil {
			if err := rec.replace(r.compact); err != nil {
				return err
			}
		}
	}
	for _, id := range sortedIDs(g.touched) {
		t, live := g.work.byID[id]
		if !live {
			continue
		}
		for _, seg := range sortedIDs(t.freshDels) {
			offs := slices.Sorted(slices.Values(t.freshDels[seg]))
			rec.deletes(id, seg, offs)
			if t.walDels == nil {
				t.walDels = map[uint64][]int64{}
			}
			t.walDels[seg] = append(slices.Clip(t.walDels[seg]), offs...)
		}
		t.freshDels = nil
		if len(t.fresh) == 0 {
			continue
		}
		seg := walSegmentOf(db.nextID.Add(1)-1, t.cols, coalesce(t.fresh))
		if err := rec.segment(id, seg); err != nil {
			return err
		}
		t.segs = append(t.segs, seg)
		t.rows += seg.rows
		t.fresh = nil
		g.written = append(g.written, seg)
	}
	g.record = rec.b
	return nil
}

// checkpoint is the first step of a group that is not logged: every
// in-memory segment of work gets its file and every logged delete goes
// back to freshDels, for writeDeletes and the manifest, which then names
// the next log generation.
func (g *groupCommit) checkpoint() error {
	db := g.db
	if db.wal == nil {
		return nil
	}
	for _, id := range sortedIDs(g.work.byID) {
		t := g.work.byID[id]
		if !t.hasWAL() {
			continue
		}
		t = mutable(g.work, g.touched, id)
		for _, s := range t.segs {
			if !s.wal {
				continue
			}
			if err := db.store.flushSegment(s); err != nil {
				return err
			}
		}
		for seg, offs := range t.walDels {
			if t.freshDels == nil {
				t.freshDels = map[uint64][]int64{}
			}
			t.freshDels[seg] = append(slices.Clip(offs), t.freshDels[seg]...)
		}
		t.walDels = nil
	}
	g.work.walGen = g.old.walGen + 1
	// The manifest may name files written since the last directory sync.
	g.newFiles = true
	return nil
}

// hasWAL: some of t's rows or deletes are only in the log.
func (t *tableState) hasWAL() bool {
	if len(t.walDels) > 0 {
		return true
	}
	for _, s := range t.segs {
		if s.wal {
			return true
		}
	}
	return false
}

// rotateLog starts the log of the generation the durable manifest now
// names and removes the previous one.
func (db *DB) rotateLog(gen uint64) error {
	old := db.wal
	l, err := openLog(db.dir, gen, 0, db.sync())
	if err != nil {
		return err
	}
	db.wal = l
	old.close()
	if old.gen != gen {
		os.Remove(filepath.Join(db.dir, walFile(old.gen)))
	}
	return nil
}

// noteWALPos publishes the log's write position; committer only.
func (db *DB) noteWALPos() {
	if db.wal != nil {
		db.walPos.Store(db.wal.gen<<40 | uint64(min(db.wal.size, 1<<40-1)))
	}
}

// WALPosition is the write-ahead log's write position as a pg_lsn
// (pg_current_wal_lsn): the log generation in the top 24 bits, the bytes
// of records written to that generation's file below. It only grows.
func (t *Txn) WALPosition() uint64 { return t.db.walPos.Load() }

// WALFile is one file of the write-ahead log (pg_ls_waldir).
type WALFile struct {
	Name     string
	Size     int64
	Modified time.Time
}

// WALFiles lists the write-ahead log's files in the data directory.
func (t *Txn) WALFiles() []WALFile {
	if t.db.dir == "" {
		return nil
	}
	ents, _ := os.ReadDir(t.db.dir)
	var out []WALFile
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "wal-") || !strings.HasSuffix(e.Name(), ".log") {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out = append(out, WALFile{Name: e.Name(), Size: fi.Size(), Modified: fi.ModTime()})
		}
	}
	return out
}

func sortedIDs[V any](m map[uint64]V) []uint64 {
	out := make([]uint64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// replayLog applies v's log generation to a copy of v (start-up, before
// anything is published) and returns it, the next id and the length of the
// log's valid prefix; a torn or damaged tail is left for openLog to cut.
func replayLog(dir string, v *version, next uint64) (*version, uint64, int64, error) {
	path := filepath.Join(dir, walFile(v.walGen))
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return v, next, 0, nil
	}
	if err != nil {
		return nil, 0, 0, ioError("read", path, err)
	}
	work, touched := v.clone(), map[uint64]bool{}
	var off int64
	for int64(len(data))-off >= 8 {
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		sum := binary.LittleEndian.Uint32(data[off+4:])
		if n == 0 || off+8+n > int64(len(data)) || crc32.Checksum(data[off+8:off+8+n], castagnoli) != sum {
			break
		}
		rn, err := applyRecord(work, touched, data[off+8:off+8+n])
		if err != nil {
			return nil, 0, 0, fmt.Errorf("log \"%s\" at offset %d: %w", path, off, err)
		}
		next = max(next, rn)
		off += 8 + n
	}
	for id := range touched {
		t := work.byID[id]
		t.rows = 0
		for _, s := range t.segs {
			t.rows += s.rows
		}
	}
	return work, next, off, nil
}

// applyRecord applies one log record to work (tables copied on first
// change, as the committer does).
func applyRecord(work *version, touched map[uint64]bool, b []byte) (uint64, error) {
	errShort := errors.New("truncated record")
	uv := func() uint64 {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			panic(errShort)
		}
		b = b[n:]
		return x
	}
	raw := func() []byte {
		n := uv()
		if n > uint64(len(b)) {
			panic(errShort)
		}
		p := b[:n]
		b = b[n:]
		return p
	}
	table := func() (*tableState, error) {
		id := uv()
		if t := mutable(work, touched, id); t != nil {
			return t, nil
		}
		return nil, fmt.Errorf("record names table %d, which the manifest does not hold", id)
	}
	var next uint64
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r != errShort {
					panic(r)
				}
				err = errShort
			}
		}()
		if len(b) < 8 {
			panic(errShort)
		}
		next, b = binary.LittleEndian.Uint64(b), b[8:]
		for len(b) > 0 {
			op := b[0]
			b = b[1:]
			t, err := table()
			if err != nil {
				return err
			}
			switch op {
			case walSegment:
				id := uv()
				s, err := decodeWALSegment(id, t.cols, raw())
				if err != nil {
					return err
				}
				t.segs = append(t.segs, s)
			case walDeletes:
				seg := uv()
				n := uv()
				offs := make([]int64, 0, n)
				var prev int64
				for i := uint64(0); i < n; i++ {
					prev += int64(uv())
					offs = append(offs, prev)
				}
				dv, dup := t.dels[seg].with(offs)
				if dup >= 0 {
					return fmt.Errorf("row %d of segment %d deleted twice", dup, seg)
				}
				if t.dels == nil {
					t.dels = map[uint64]*DeleteVector{}
				}
				if t.walDels == nil {
					t.walDels = map[uint64][]int64{}
				}
				t.dels[seg] = dv
				t.walDels[seg] = append(t.walDels[seg], offs...)
			case walReplace:
				old := make([]uint64, uv())
				for i := range old {
					old[i] = uv()
				}
				var s *segment
				if id := uv(); id != 0 {
					if s, err = decodeWALSegment(id, t.cols, raw()); err != nil {
						return err
					}
				}
				if err := replaceRun(t, old, s); err != nil {
					return err
				}
			default:
				return fmt.Errorf("unknown operation %d", op)
			}
		}
		return nil
	}()
	return next, err
}

// replaceRun is a replayed compaction: t's run of segments old replaced
// by s (nil: none), their deletes folded away.
func replaceRun(t *tableState, old []uint64, s *segment) error {
	at := slices.IndexFunc(t.segs, func(x *segment) bool { return x.id == old[0] })
	if at < 0 || at+len(old) > len(t.segs) {
		return fmt.Errorf("compaction of segment %d, which the table does not hold", old[0])
	}
	for i, id := range old {
		if t.segs[at+i].id != id {
			return fmt.Errorf("compaction of a run of segments the table does not hold in order")
		}
		delete(t.dels, id)
		delete(t.delFiles, id)
		delete(t.delInline, id)
		delete(t.walDels, id)
	}
	segs := append([]*segment(nil), t.segs[:at]...)
	if s != nil {
		segs = append(segs, s)
	}
	t.segs = append(segs, t.segs[at+len(old):]...)
	return nil
}

// decodeWALSegment is a logged segment's rows, read back.
func decodeWALSegment(id uint64, cols []ColumnDef, data []byte) (*segment, error) {
	r, err := ipc.NewMappedFileReader(data)
	if err != nil {
		return nil, fmt.Errorf("segment %d: %v", id, err)
	}
	defer r.Close()
	if err := checkSchema(r.Schema(), cols, false); err != nil {
		return nil, fmt.Errorf("segment %d: %v", id, err)
	}
	var recs []arrow.Record
	nanos := intervalsInNanos(r.Schema())
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return nil, fmt.Errorf("segment %d batch %d: %v", id, i, err)
		}
		if nanos {
			rec = intervalsFromNanos(rec, cols)
		}
		recs = append(recs, rec)
	}
	s := walSegmentOf(id, cols, recs)
	s.logBytes = int64(len(data))
	return s, nil
}

// shutdownCheckpoint folds the log into the manifest at Close (after the
// committer stopped), as PostgreSQL's shutdown checkpoint: a clean restart
// replays nothing and the data directory is segment files and a manifest.
func (db *DB) shutdownCheckpoint() {
	if db.wal == nil || db.failed != nil || db.wal.size == 0 {
		return
	}
	old := db.cs.load()
	g := &groupCommit{db: db, old: old, work: old.clone(), touched: map[uint64]bool{}}
	if err := g.writeSegments(); err != nil {
		db.log.Warn("storage: shutdown checkpoint failed; the log is replayed at start-up", "err", err)
		return
	}
	if err := g.persist(); err != nil {
		db.log.Warn("storage: shutdown checkpoint failed; the log is replayed at start-up", "err", err)
		return
	}
	g.publish()
}

// WALReader is implemented by catalogs over a DB (a Txn): the log's write
// position and its files, for pg_current_wal_lsn and pg_ls_waldir.
type WALReader interface {
	WALPosition() uint64
	WALFiles() []WALFile
}

var _ WALReader = (*Txn)(nil)
