package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"

	"github.com/joind/joind/types"
)

// The manifest is the single source of truth of a data directory: the
// tables, their schemas and their segments in order. It is replaced
// atomically (write MANIFEST.tmp, fsync, rename, fsync the directory), so a
// crash leaves either the old or the new one; segment files it does not
// name are leftovers of an interrupted commit.
const (
	manifestName = "MANIFEST"
	manifestTemp = "MANIFEST.tmp"
	// manifestFormat 2: numeric columns in their Decimal64/Decimal128/
	// Binary forms (types/decimal.go). Format 1 (read, never written) held
	// them as text; its segments keep numeric_text in a format-2 manifest
	// until compaction rewrites them.
	//
	// manifestFormat 3: tables list their segments' deleted rows
	// (deletes; delete.go). Formats 1 and 2 have none.
	manifestFormat = 3
	manifestMagic  = "joind-manifest"
)

type manifestJSON struct {
	Format int         `json:"format"`
	NextID uint64      `json:"next_id"`
	Tables []tableJSON `json:"tables"`
	Views  []viewJSON  `json:"views,omitempty"`
	Seqs   []seqJSON   `json:"sequences,omitempty"`
	// Schemas other than public (schema.go); absent in older manifests.
	Schemas []schemaJSON `json:"schemas,omitempty"`
	// Types are the user-defined types (usertype.go); absent in older manifests.
	Types []typeJSON `json:"types,omitempty"`
	// Auth is the role catalog and access lists (roles.go); absent in older manifests.
	Auth json.RawMessage `json:"auth,omitempty"`
	// Foreign are the extensions and foreign servers (foreign.go).
	Foreign []foreignJSON `json:"foreign,omitempty"`
	// Functions are the user-defined functions (function.go).
	Functions []funcJSON `json:"functions,omitempty"`
	// WALGen is the write-ahead log generation to replay (wal.go).
	WALGen uint64 `json:"wal_gen,omitempty"`
}

type tableJSON struct {
	ID      uint64       `json:"id"`
	Name    string       `json:"name"`
	Columns []columnJSON `json:"columns"`
	// Constraints are the table's PRIMARY KEY, UNIQUE, CHECK and FOREIGN
	// KEY constraints (constraint.go).
	Constraints []Constraint `json:"constraints,omitempty"`
	// Indexes are the table's own indexes (indexdef.go).
	Indexes  []IndexDef        `json:"indexes,omitempty"`
	Segments []json.RawMessage `json:"segments"`
	Deletes  []deleteJSON      `json:"deletes,omitempty"`
	Comment  string            `json:"comment,omitempty"` // COMMENT ON TABLE
	Foreign  *ForeignTableDef  `json:"foreign,omitempty"` // a foreign table's server and options
}

// deleteJSON is the deleted rows of one segment: how many, and the
// deletion-vector files (dvfile.go) that hold them.
type deleteJSON struct {
	Seg   uint64       `json:"seg"`
	Rows  int64        `json:"rows"`
	Files []delFileRef `json:"files,omitempty"`
	// Inline are more deleted offsets, ascending, as uvarint gaps
	// (encodeOffsets): a segment's few recent deletes, kept here.
	Inline []byte `json:"inline,omitempty"`
}

type columnJSON struct {
	Name    string `json:"name"`
	OID     uint32 `json:"oid"` // PostgreSQL's type OID: stable across joind versions
	Typmod  int32  `json:"typmod"`
	NotNull bool   `json:"not_null,omitempty"`
	Default string `json:"default,omitempty"`
	// Identity: 'a' (ALWAYS) or 'd' (BY DEFAULT) AS IDENTITY.
	Identity byte `json:"identity,omitempty"`
	// Attnum (0 in manifests before ALTER TABLE: the position from 1),
	// Dropped, Missing: alter.go.
	Attnum     int16  `json:"attnum,omitempty"`
	Dropped    bool   `json:"dropped,omitempty"`
	HasMissing bool   `json:"has_missing,omitempty"`
	Missing    []byte `json:"missing,omitempty"`
	Comment    string `json:"comment,omitempty"`
}

type segmentJSON struct {
	ID    uint64     `json:"id"`
	Rows  int64      `json:"rows"`
	Size  int64      `json:"size"`
	CRC   uint32     `json:"crc32c"`
	Stats []statJSON `json:"stats"`
	// NumericText: a segment written under format 1 (numeric as text).
	NumericText bool `json:"numeric_text,omitempty"`
	// Attnums are the columns the file holds (nil: 1..len(stats)).
	Attnums []int16 `json:"attnums,omitempty"`
}

type statJSON struct {
	Nulls  int64  `json:"nulls,omitempty"`
	Min    []byte `json:"min,omitempty"`
	Max    []byte `json:"max,omitempty"`
	Has    bool   `json:"has,omitempty"`
	Sketch []byte `json:"sketch,omitempty"`
}

// typeByOID maps a stored OID back to its type.
var typeByOID = func() map[uint32]types.ID {
	m := map[uint32]types.ID{}
	for _, id := range types.ConcreteIDs() {
		m[types.Type{ID: id, Typmod: -1}.OID()] = id
	}
	return m
}()

func encodeManifest(v *version, nextID uint64) ([]byte, error) {
	var body bytes.Buffer
	fmt.Fprintf(&body, `{"format":%d,"next_id":%d,"tables":[`, manifestFormat, nextID)
	for i, t := range v.sorted() {
		if i > 0 {
			body.WriteByte(',')
		}
		enc, err := t.encoded()
		if err != nil {
			return nil, err
		}
		body.Write(enc)
	}
	body.WriteString("]")
	if views := sortedViews(v); len(views) > 0 {
		enc, err := json.Marshal(views)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"views":`)
		body.Write(enc)
	}
	if seqs := sortedSeqs(v); len(seqs) > 0 {
		enc, err := json.Marshal(seqs)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"sequences":`)
		body.Write(enc)
	}
	if schemas := sortedSchemas(v); len(schemas) > 0 {
		enc, err := json.Marshal(schemas)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"schemas":`)
		body.Write(enc)
	}
	if ts := sortedTypes(v); len(ts) > 0 {
		enc, err := json.Marshal(ts)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"types":`)
		body.Write(enc)
	}
	if enc, err := encodeAuth(v); err != nil {
		return nil, err
	} else if enc != nil {
		body.WriteString(`,"auth":`)
		body.Write(enc)
	}
	if fs := sortedForeign(v); len(fs) > 0 {
		enc, err := json.Marshal(fs)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"foreign":`)
		body.Write(enc)
	}
	if fs := sortedFuncs(v); len(fs) > 0 {
		enc, err := json.Marshal(fs)
		if err != nil {
			return nil, err
		}
		body.WriteString(`,"functions":`)
		body.Write(enc)
	}
	if v.walGen > 0 {
		fmt.Fprintf(&body, `,"wal_gen":%d`, v.walGen)
	}
	body.WriteString("}")
	head := fmt.Sprintf("%s %d %08x %d\n", manifestMagic, manifestFormat, crc32.Checksum(body.Bytes(), castagnoli), body.Len())
	return append([]byte(head), body.Bytes()...), nil
}

// encoded is the table's manifest entry, computed once per tableState
// (immutable once published), so a commit re-encodes only the tables it
// changed.
func (t *tableState) encoded() ([]byte, error) {
	if t.enc != nil {
		return t.enc, nil
	}
	tj := tableJSON{ID: t.id, Name: t.name, Columns: t.attrsJSON(), Constraints: t.cons, Indexes: t.indexes, Segments: []json.RawMessage{}, Comment: t.comment, Foreign: t.foreign}
	var segs [][]byte
	for _, s := range t.segs {
		if s.enc == nil {
			sj := segmentJSON{ID: s.id, Rows: s.rows, Size: s.size, CRC: s.crc, NumericText: s.numText, Attnums: segmentAttnums(s.layout)}
			for c, st := range s.stats {
				j := statJSON{Nulls: st.nulls, Has: st.has, Sketch: encodeSketch(mergeSketches(st.sketch.h))}
				if st.has {
					j.Min, j.Max = encodeValue(st.min, s.layout[c].Type), encodeValue(st.max, s.layout[c].Type)
				}
				sj.Stats = append(sj.Stats, j)
			}
			b, err := json.Marshal(&sj)
			if err != nil {
				return nil, err
			}
			s.enc = b
		}
		segs = append(segs, s.enc)
		if dv := t.dels[s.id]; dv.Count() > 0 {
			tj.Deletes = append(tj.Deletes, deleteJSON{Seg: s.id, Rows: dv.Count(), Files: t.delFiles[s.id],
				Inline: encodeOffsets(t.delInline[s.id])})
		}
	}
	b, err := json.Marshal(&tj)
	if err != nil {
		return nil, err
	}
	// The segments' entries are spliced in as encoded once: json.Marshal
	// would re-validate and compact every json.RawMessage, which made each
	// commit cost O(all segments of the table) in the committer. The key
	// cannot occur elsewhere: strings escape their quotes.
	const empty = `"segments":[]`
	at := bytes.Index(b, []byte(empty))
	if at < 0 {
		return nil, fmt.Errorf("manifest entry of table %d has no segment list", t.id)
	}
	n := len(b)
	for _, e := range segs {
		n += len(e) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, b[:at+len(empty)-1]...)
	for i, e := range segs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	out = append(out, b[at+len(empty)-1:]...)
	t.enc = out
	return out, nil
}

// decodeManifest parses and verifies a manifest file's content.
func decodeManifest(path string, data []byte) (*version, uint64, error) {
	bad := func(format string, args ...any) (*version, uint64, error) {
		return nil, 0, fmt.Errorf("manifest \"%s\" is corrupt: %s", path, fmt.Sprintf(format, args...))
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return bad("no header line (truncated?)")
	}
	var magic string
	var format int
	var crcHex string
	var n int
	if _, err := fmt.Sscanf(string(data[:nl]), "%s %d %s %d", &magic, &format, &crcHex, &n); err != nil || magic != manifestMagic {
		return bad("bad header %q", data[:nl])
	}
	if format < 1 || format > manifestFormat {
		return bad("format %d, this joind reads formats 1 to %d", format, manifestFormat)
	}
	body := data[nl+1:]
	if len(body) != n {
		return bad("body has %d bytes, the header says %d (truncated?)", len(body), n)
	}
	want, err := strconv.ParseUint(crcHex, 16, 32)
	if err != nil || uint32(want) != crc32.Checksum(body, castagnoli) {
		return bad("checksum mismatch")
	}
	var m manifestJSON
	if err := json.Unmarshal(body, &m); err != nil {
		return bad("%v", err)
	}
	v := newVersion()
	// Types first: columns name them by OID.
	if err := decodeTypes(v, m.Types); err != nil {
		return bad("%v", err)
	}
	dvFiles := map[uint64]map[[2]uint64][]int64{} // delta files read, by id
	for _, tj := range m.Tables {
		t := &tableState{id: tj.ID, name: tj.Name, cons: tj.Constraints, indexes: tj.Indexes, comment: tj.Comment, foreign: tj.Foreign}
		byAttnum := map[int16]ColumnDef{}
		for i, c := range tj.Columns {
			ct, ok := storedType(c.OID, c.Typmod)
			if !ok && c.Dropped {
				// DROP TYPE ... CASCADE dropped the column with its type;
				// the dropped column's data is never read again but its
				// segments' layout still names it.
				ct, ok = types.TextType, true
			}
			if !ok {
				return bad("table %q column %q has unknown type OID %d", tj.Name, c.Name, c.OID)
			}
			def := ColumnDef{Name: c.Name, Type: ct, NotNull: c.NotNull, Default: c.Default, Attnum: c.Attnum, Comment: c.Comment, Identity: c.Identity}
			if def.Attnum == 0 {
				def.Attnum = int16(i + 1)
			}
			if _, dup := byAttnum[def.Attnum]; dup {
				return bad("table %q has two columns numbered %d", tj.Name, def.Attnum)
			}
			if c.HasMissing {
				v, err := decodeValue(c.Missing, def.Type)
				if err != nil {
					return bad("table %q column %q: %v", tj.Name, c.Name, err)
				}
				def.Missing = &v
			}
			byAttnum[def.Attnum] = def
			if c.Dropped {
				t.dropped = append(t.dropped, def)
			} else {
				t.cols = append(t.cols, def)
			}
		}
		for _, raw := range tj.Segments {
			var sj segmentJSON
			if err := json.Unmarshal(raw, &sj); err != nil {
				return bad("table %q: %v", tj.Name, err)
			}
			layout, err := segmentLayout(sj.Attnums, len(sj.Stats), byAttnum)
			if err != nil {
				return bad("segment %d of table %q %v", sj.ID, tj.Name, err)
			}
			if len(sj.Stats) != len(layout) {
				return bad("segment %d of table %q has %d column statistics, want %d", sj.ID, tj.Name, len(sj.Stats), len(layout))
			}
			s := &segment{id: sj.ID, rows: sj.Rows, size: sj.Size, crc: sj.CRC, numText: format == 1 || sj.NumericText, layout: layout}
			s.onDisk.Store(true)
			for c, st := range sj.Stats {
				cs := colStats{nulls: st.Nulls, has: st.Has}
				if cs.has {
					if cs.min, err = decodeValue(st.Min, layout[c].Type); err != nil {
						return bad("segment %d: %v", sj.ID, err)
					}
					if cs.max, err = decodeValue(st.Max, layout[c].Type); err != nil {
						return bad("segment %d: %v", sj.ID, err)
					}
				}
				if cs.sketch.h, err = decodeSketch(st.Sketch); err != nil {
					return bad("segment %d: %v", sj.ID, err)
				}
				s.stats = append(s.stats, cs)
			}
			t.segs = append(t.segs, s)
			t.rows += s.rows
		}
		for _, dj := range tj.Deletes {
			s := t.segment(dj.Seg)
			if s == nil {
				return bad("table %q: deleted rows of segment %d, which it does not have", tj.Name, dj.Seg)
			}
			var dv *DeleteVector
			for _, ref := range dj.Files {
				f, ok := dvFiles[ref.ID]
				if !ok {
					if f, err = readDeleteFile(filepath.Dir(path), ref); err != nil {
						return nil, 0, err
					}
					dvFiles[ref.ID] = f
				}
				offs := f[[2]uint64{t.id, s.id}]
				if len(offs) == 0 || offs[len(offs)-1] >= s.rows {
					return bad("table %q: deletion-vector file %s has no valid entry for segment %d", tj.Name, deleteFile(ref.ID), s.id)
				}
				var dup int64
				if dv, dup = dv.with(offs); dup >= 0 {
					return bad("table %q: row %d of segment %d deleted twice", tj.Name, dup, dj.Seg)
				}
			}
			var inline []int64
			if len(dj.Inline) > 0 {
				if inline, err = decodeOffsets(dj.Inline, s.rows); err != nil {
					return bad("table %q: inline deleted rows of segment %d: %v", tj.Name, s.id, err)
				}
				var dup int64
				if dv, dup = dv.with(inline); dup >= 0 {
					return bad("table %q: row %d of segment %d deleted twice", tj.Name, dup, dj.Seg)
				}
			}
			if dv.Count() != dj.Rows {
				return bad("table %q: segment %d has %d deleted rows in its files, the manifest says %d", tj.Name, s.id, dv.Count(), dj.Rows)
			}
			if t.dels == nil {
				t.dels, t.delFiles, t.delInline = map[uint64]*DeleteVector{}, map[uint64][]delFileRef{}, map[uint64][]int64{}
			}
			t.dels[dj.Seg] = dv
			if len(dj.Files) > 0 {
				t.delFiles[dj.Seg] = dj.Files
			}
			if len(inline) > 0 {
				t.delInline[dj.Seg] = inline
			}
		}
		if _, dup := v.tables[t.name]; dup {
			return bad("table %q listed twice", t.name)
		}
		v.put(t)
	}
	if err := decodeViews(v, m.Views); err != nil {
		return bad("%v", err)
	}
	if err := decodeSeqs(v, m.Seqs); err != nil {
		return bad("%v", err)
	}
	if err := decodeAuth(v, m.Auth); err != nil {
		return nil, 0, err
	}
	if err := decodeSchemas(v, m.Schemas); err != nil {
		return bad("%v", err)
	}
	if err := decodeForeign(v, m.Foreign); err != nil {
		return bad("%v", err)
	}
	if err := decodeFuncs(v, m.Functions); err != nil {
		return bad("%v", err)
	}
	v.walGen = m.WALGen
	return v, m.NextID, nil
}

// writeManifest replaces the manifest atomically.
func writeManifest(dir string, data []byte, sync bool) error {
	tmp := filepath.Join(dir, manifestTemp)
	// Until the rename the old MANIFEST stands untouched: a failure there
	// (ENOSPC, EMFILE) changes nothing durable.
	unchanged := func(op string, err error) error {
		os.Remove(tmp)
		return &manifestUnchanged{ioError(op, tmp, err)}
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return unchanged("create", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return unchanged("write", err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			f.Close()
			return unchanged("fsync", err)
		}
	}
	if err := f.Close(); err != nil {
		return unchanged("close", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, manifestName)); err != nil {
		return ioError("rename", tmp, err)
	}
	if sync {
		return syncDir(dir)
	}
	return nil
}

// manifestUnchanged is a manifest write that failed before its rename: the
// durable MANIFEST is the previous one, so the store is as it was.
type manifestUnchanged struct{ err error }

func (e *manifestUnchanged) Error() string { return e.err.Error() }
func (e *manifestUnchanged) Unwrap() error { return e.err }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return ioError("open", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return ioError("fsync", dir, err)
	}
	return nil
}
