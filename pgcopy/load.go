package pgcopy

import (
	"bytes"
	"context"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The text/CSV loader of COPY FROM. The input is cut into chunks at record
// boundaries by one reader (for CSV it tracks quotes as PostgreSQL's line
// reader does, so a quoted newline never ends a chunk); workers (pool.go)
// parse chunks in parallel straight into Arrow buffers (integers and text
// without a types.Value per field); the chunks' batches are kept in input
// order. The first bad record in input order fails the whole load.
//
// There is one record parser. Its fast scan (fastRecords) takes plain
// records (no quotes, escapes, NULLs or carriage returns) field by field
// into the columns; any other record, and any record whose value a type
// refuses, goes through splitRecord (PostgreSQL's CopyReadAttributesText
// and CopyReadAttributesCSV) and then appendRow; a bad row's error is
// found by rowValues over the same split fields, in PostgreSQL's order
// (NextCopyFrom, then the defaults, then NOT NULL).
//
// Line numbers are PostgreSQL's: a line per record, plus the line breaks
// inside quoted CSV fields (lineCount says which). Every chunk counts its
// own, and the line of an error is known once the chunks before it are
// counted.

// copyChunkSize is the bytes per parse task: big enough that per-chunk
// overhead vanishes, small enough that both cores get work early.
const copyChunkSize = 2 << 20

// Loader holds what every worker needs to parse rows of one COPY.
type Loader struct {
	x       *sql.Copy
	defs    []storage.ColumnDef
	dflt    *Defaults     // the omitted columns' values
	fill    []types.Value // dflt.fill
	given   []bool
	f       *types.Format
	now     time.Time
	csv     bool
	batch   int
	workers int
	schema  *arrow.Schema
	// free holds parsed chunks' buffers for reuse: nothing a worker makes
	// aliases its chunk, and a fresh 2 MiB buffer would be zeroed and
	// collected each time.
	free chan []byte
	// noFast turns fastRecord off (tests compare both paths).
	noFast bool
}

// NewLoader prepares to load x's rows in text or CSV format: f is the
// session's format, now the time input 'now' means (the transaction's
// start), batch the rows per batch, workers the goroutines that parse.
func NewLoader(x *sql.Copy, dflt *Defaults, f *types.Format, now time.Time, batch, workers int) *Loader {
	defs := x.Table.Columns()
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: !d.NotNull}
	}
	if workers < 1 || dflt.ordered {
		workers = 1 // rows in input order
	}
	if batch < 1 {
		batch = 4096
	}
	return &Loader{x: x, defs: defs, dflt: dflt, fill: dflt.fill, given: dflt.given, f: f, now: now,
		csv: x.Format == "csv", batch: batch, workers: workers, schema: arrow.NewSchema(fields, nil),
		free: make(chan []byte, 2*workers+1)}
}

// chunkResult is what a worker made of one chunk.
type chunkResult struct {
	recs  []arrow.Record
	rows  int64
	at    lineCount // the records seen (including a header and the end marker)
	ended bool      // the chunk held the end-of-data marker \.
	// crlf is set in the first chunk when the data's first record ends
	// with CR LF.
	crlf bool
	err  error
	// errAt is the line of err within the chunk (recs 0: err is not about
	// a record, as a cancel).
	errAt lineCount
}

// lineCount is a stretch of records in PostgreSQL's line numbers
// (CopyReadLineText's cur_lineno): a line per record, plus each line break
// inside a quoted CSV field of the kind the data's line ends are, LF, or
// CR for CR LF data. The data's first record, read before that kind is
// known, counts its CRs: it adds them to both lf and cr.
type lineCount struct{ recs, lf, cr int }

func (a lineCount) add(b lineCount) lineCount {
	return lineCount{a.recs + b.recs, a.lf + b.lf, a.cr + b.cr}
}

// line is the line number of the stretch's end.
func (a lineCount) line(crlf bool) int {
	if crlf {
		return a.recs + a.cr
	}
	return a.recs + a.lf
}

type copyChunk struct {
	idx  int
	data []byte
}

// Load parses all of r. It returns the batches in input order and the row
// count, or the first error in input order with PostgreSQL's CONTEXT line.
// The chunks are parsed on the toolkit's worker pool (operators.Ordered):
// one splitter reads, l.workers parsers work, results come back in chunk
// order, and nothing is read past `\.` or the first failing chunk.
func (l *Loader) Load(ctx context.Context, r io.Reader) ([]arrow.Record, int64, error) {
	return l.LoadFrom(ctx, r, 0)
}

// LoadFrom is Load of a part of the data that starts after its first
// lines lines (lines > 0: not the data's start, so it has no header and
// its line numbers go on from lines). Such a part must start at a line
// feed of LF-only data with no line break inside a record (a file_fdw
// unit, foreign.go), so that its lines are the data's lines.
func (l *Loader) LoadFrom(ctx context.Context, r io.Reader, lines int) ([]arrow.Record, int64, error) {
	parsers := make([]*chunkParser, max(l.workers, 1))
	for i := range parsers {
		parsers[i] = newChunkParser(l)
	}
	sp := &splitter{l: l, r: r}
	var recs []arrow.Record
	var rows int64
	at := lineCount{recs: lines}
	crlf, first := false, true
	err := operators.Ordered(ctx, len(parsers), sp.next,
		func(_ context.Context, w int, t copyChunk) (*chunkResult, error) {
			res := parsers[w].parse(t.data, t.idx == 0 && lines == 0)
			l.putBuf(t.data)
			return res, nil
		},
		func(res *chunkResult) (bool, error) {
			if first {
				crlf, first = res.crlf, false
			}
			if res.err != nil {
				if res.errAt.recs == 0 {
					return true, res.err // cancelled, or not about a row
				}
				return true, res.err.(*rowError).withLine(storage.BareName(l.x.Table.Name()), at.add(res.errAt).line(crlf))
			}
			recs = append(recs, res.recs...)
			rows += res.rows
			at = at.add(res.at)
			return res.ended, nil
		})
	if err != nil {
		return nil, 0, err
	}
	return recs, rows, nil
}

// splitter reads r and hands out chunks that end at record boundaries, one
// per call of next (the pool's feeder).
type splitter struct {
	l       *Loader
	r       io.Reader
	carry   []byte
	inQuote bool // CSV: the quote state after the first scanned carried bytes
	scanned int
	idx     int
	eof     bool
}

func (sp *splitter) next(ctx context.Context) (copyChunk, bool, error) {
	l := sp.l
	for !sp.eof {
		if err := ctx.Err(); err != nil {
			return copyChunk{}, false, err
		}
		buf := l.getBuf(len(sp.carry) + copyChunkSize)[:len(sp.carry)]
		copy(buf, sp.carry)
		for len(buf) < cap(buf) {
			n, err := sp.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				sp.eof = true
				break
			}
			if err != nil {
				return copyChunk{}, false, err
			}
		}
		cut := len(buf)
		if !sp.eof {
			var q bool
			cut, q = l.cutPoint(buf, sp.scanned, sp.inQuote)
			if cut < 0 {
				// No record ends in this buffer: keep it all and read more
				// (its quote state is known, so it is not scanned again).
				sp.carry, sp.inQuote, sp.scanned = buf, q, len(buf)
				continue
			}
		}
		// The bytes after the cut start a record: scan them afresh.
		sp.carry = append([]byte(nil), buf[cut:]...)
		sp.inQuote, sp.scanned = false, 0
		if cut > 0 {
			t := copyChunk{idx: sp.idx, data: buf[:cut]}
			sp.idx++
			return t, true, nil
		}
	}
	return copyChunk{}, false, nil
}

// copyBufSlack lets a reused chunk buffer also hold the start of a record
// carried over from the previous chunk.
const copyBufSlack = 64 << 10

// getBuf returns an empty buffer with room for at least n bytes.
func (l *Loader) getBuf(n int) []byte {
	select {
	case b := <-l.free:
		if cap(b) >= n {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, max(n, copyChunkSize+copyBufSlack))
}

// putBuf offers a parsed chunk's buffer for reuse.
func (l *Loader) putBuf(b []byte) {
	select {
	case l.free <- b[:0]:
	default:
	}
}

// cutPoint returns the offset just past the last record end in buf (-1 if
// none) and, when there is none, the quote state at the end of buf. Bytes
// before from were scanned already and ended in state inQuote.
func (l *Loader) cutPoint(buf []byte, from int, inQuote bool) (int, bool) {
	if !l.csv {
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return i + 1, false
		}
		return -1, false
	}
	if !inQuote && bytes.IndexByte(buf[from:], l.x.Quote[0]) < 0 {
		// No quote at all: the common case.
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return i + 1, false
		}
		return -1, false
	}
	last := -1
	for i := from; ; {
		lf, q, _ := l.scanCSVLine(buf, i, inQuote)
		if lf < 0 {
			if last < 0 {
				return -1, q
			}
			return last + 1, false
		}
		last, i, inQuote = lf, lf+1, false
	}
}

// scanCSVLine scans CSV from buf[i], in quote state inQuote, as
// PostgreSQL's line reader does (CopyReadLineText: a quote toggles the
// state wherever it is; inside quotes an escape protects a following quote
// or escape) up to the first line feed outside quotes. It returns its
// offset (-1 if none), the quote state there or at the end of buf, and the
// line breaks it passed inside quotes.
func (l *Loader) scanCSVLine(buf []byte, i int, inQuote bool) (int, bool, lineCount) {
	q, e := l.x.Quote[0], l.x.Escape[0]
	var b lineCount
	for ; i < len(buf); i++ {
		c := buf[i]
		switch {
		case inQuote && c == e && e != q && i+1 < len(buf) && (buf[i+1] == q || buf[i+1] == e):
			i++
		case c == q:
			inQuote = !inQuote
		case c == '\n':
			if !inQuote {
				return i, false, b
			}
			b.lf++
		case c == '\r' && inQuote:
			b.cr++
		}
	}
	return -1, inQuote, b
}

// lineEnd returns the offset after the line at pos (or the end of buf) as
// PostgreSQL's line reader finds it, and in CSV the line breaks inside its
// quotes.
func (l *Loader) lineEnd(buf []byte, pos int) (int, lineCount) {
	if !l.csv {
		if i := bytes.IndexByte(buf[pos:], '\n'); i >= 0 {
			return pos + i + 1, lineCount{}
		}
		return len(buf), lineCount{}
	}
	lf, _, b := l.scanCSVLine(buf, pos, false)
	if lf < 0 {
		return len(buf), b
	}
	return lf + 1, b
}

// rowError is a bad record before its absolute line number is known.
type rowError struct {
	err error
	col string
	raw string // the field (col != "") or the whole record
	// at is the record's line in its chunk when it is not the record
	// being parsed (a batch's volatile default); recs 0 otherwise.
	at lineCount
}

func (e *rowError) Error() string { return e.err.Error() }

func (e *rowError) withLine(table string, line int) error {
	return copyLoadError(e.err, table, line, e.col, e.raw)
}
