package storage

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
)

// Deletion-vector files. A commit group that deletes rows writes one file
// del-<id>.dv holding, for each segment it deleted rows of, the offsets it
// added (a delta, not the whole vector), fsync'd before the manifest that
// names it, like a segment. The manifest lists, for each segment with
// deleted rows, how many and the delta files that hold them
// (tableState.delFiles); start-up reads those files and rebuilds the
// vectors. So a DELETE never rewrites a segment or re-encodes its whole
// vector in the commit path; compaction later folds a long list of deltas
// into one file, or rewrites a much-deleted segment live-only.
//
// File layout: "JDV1", then per entry the uvarints table id, segment id,
// count and the ascending offsets as gaps (encodeOffsets), then the
// CRC-32C of everything before it (4 bytes, little-endian). The manifest
// keeps each file's size and CRC too.

const dvMagic = "JDV1"

func deleteFile(id uint64) string { return fmt.Sprintf("del-%016x.dv", id) }

// delFileRef names one delta file from the manifest.
type delFileRef struct {
	ID   uint64 `json:"id"`
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32c"`
}

// delEntry is the rows one delta file deletes in one segment.
type delEntry struct {
	table, seg uint64
	offs       []int64
}

func encodeDeleteFile(entries []delEntry) []byte {
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		return a.table < b.table || a.table == b.table && a.seg < b.seg
	})
	out := []byte(dvMagic)
	for _, e := range entries {
		out = binary.AppendUvarint(out, e.table)
		out = binary.AppendUvarint(out, e.seg)
		out = binary.AppendUvarint(out, uint64(len(e.offs)))
		out = append(out, encodeOffsets(e.offs)...)
	}
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// writeDeleteFile writes a delta file and fsyncs it (not the directory:
// the committer syncs it once for the group).
func writeDeleteFile(dir string, id uint64, entries []delEntry, sync bool) (delFileRef, error) {
	data := encodeDeleteFile(entries)
	path := filepath.Join(dir, deleteFile(id))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return delFileRef{}, ioError("create", path, err)
	}
	w := bufio.NewWriter(f)
	_, err = w.Write(data)
	if err == nil {
		err = w.Flush()
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return delFileRef{}, ioError("write", path, err)
	}
	return delFileRef{ID: id, Size: int64(len(data)), CRC: crc32.Checksum(data, castagnoli)}, nil
}

// readDeleteFile reads and verifies a delta file against its reference:
// its entries by table and segment.
func readDeleteFile(dir string, ref delFileRef) (map[[2]uint64][]int64, error) {
	path := filepath.Join(dir, deleteFile(ref.ID))
	bad := func(format string, args ...any) error {
		return corrupt(path, format, args...)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, bad("%v", err)
	}
	if int64(len(data)) != ref.Size {
		return nil, bad("size is %d bytes, the manifest says %d", len(data), ref.Size)
	}
	if c := crc32.Checksum(data, castagnoli); c != ref.CRC {
		return nil, bad("checksum mismatch (file %08x, manifest %08x)", c, ref.CRC)
	}
	if len(data) < len(dvMagic)+4 || string(data[:len(dvMagic)]) != dvMagic {
		return nil, bad("not a deletion-vector file")
	}
	body := data[:len(data)-4]
	if binary.LittleEndian.Uint32(data[len(data)-4:]) != crc32.Checksum(body, castagnoli) {
		return nil, bad("trailer checksum mismatch")
	}
	b := body[len(dvMagic):]
	out := map[[2]uint64][]int64{}
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	for len(b) > 0 {
		table, ok1 := uv()
		seg, ok2 := uv()
		n, ok3 := uv()
		if !ok1 || !ok2 || !ok3 || n > uint64(len(b)) {
			return nil, bad("truncated entry")
		}
		offs := make([]int64, 0, n)
		prev := int64(0)
		for i := uint64(0); i < n; i++ {
			g, ok := uv()
			if !ok {
				return nil, bad("truncated offsets")
			}
			prev += int64(g)
			offs = append(offs, prev)
		}
		out[[2]uint64{table, seg}] = offs
	}
	return out, nil
}

func cloneDelFiles(m map[uint64][]delFileRef) map[uint64][]delFileRef {
	if len(m) == 0 {
		return nil
	}
	n := make(map[uint64][]delFileRef, len(m))
	for k, v := range m {
		n[k] = v
	}
	return n
}

// unreferencedDeletes lists the delta files old names and new does not.
func unreferencedDeletes(old, new *version) []uint64 {
	names := func(v *version) map[uint64]bool {
		out := map[uint64]bool{}
		for _, t := range v.byID {
			for _, refs := range t.delFiles {
				for _, r := range refs {
					out[r.ID] = true
				}
			}
		}
		return out
	}
	o := names(old)
	if len(o) == 0 {
		return nil
	}
	n := names(new)
	var out []uint64
	for id := range o {
		if !n[id] {
			out = append(out, id)
		}
	}
	return out
}
