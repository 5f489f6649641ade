package storage

import (
	"io/fs"
	"path/filepath"
)

// Sizes in the data directory, for pg_relation_size and its kin.

// TableSizer is implemented by tables whose rows are the data directory's
// files (a DB transaction's tables).
type TableSizer interface {
	// DiskBytes is the bytes of the committed segments the caller sees:
	// each segment's file, or for a segment only in the write-ahead log
	// its record's Arrow IPC bytes. The transaction's own uncommitted rows
	// are in no file and count nothing.
	DiskBytes() int64
}

// DirSizer is implemented by catalogs over a data directory (a DB's
// transactions and what embeds them).
type DirSizer interface {
	// DirBytes is the bytes of every file of the data directory but the
	// spill files of tmp/ (0 for an in-memory DB).
	DirBytes() int64
}

var (
	_ TableSizer = (*txnTable)(nil)
	_ DirSizer   = (*Txn)(nil)
)

// bytes is the segment's footprint: its file, or its log record's data.
func (s *segment) bytes() int64 {
	if s.wal {
		return s.logBytes
	}
	return s.size
}

// DiskBytes implements TableSizer.
func (tt *txnTable) DiskBytes() int64 {
	var n int64
	if cs := tt.committed(); cs != nil {
		for _, s := range cs.segs {
			n += s.bytes()
		}
	}
	return n
}

// DirBytes implements DirSizer.
func (t *Txn) DirBytes() int64 {
	dir := t.db.dir
	if dir == "" {
		return 0
	}
	var n int64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a file removed meanwhile (a retired segment)
		}
		if d.IsDir() {
			if path != dir && d.Name() == "tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}
