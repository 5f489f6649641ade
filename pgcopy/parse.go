package pgcopy

import (
	"bytes"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// The record parser of the text/CSV loader (load.go says how the parts
// fit): one chunkParser per worker.

// chunkParser parses chunks; one per worker, reused.
type chunkParser struct {
	l     *Loader
	cols  []*colAcc // by table column
	rows  int       // rows in the current batch
	res   *chunkResult
	first bool // the chunk is the data's first
	// batchAt counts the chunk's records before the batch's first row.
	batchAt lineCount

	// The record splitRecord split last (from the chunk split): each
	// field's value, in split or in attr, which holds de-escaped and
	// unquoted values as PostgreSQL's attribute_buf; offsets, not slices,
	// so that storing them costs no write barrier.
	fields []fieldRef
	split  []byte
	attr   []byte
	// breaks counts the line breaks inside its quoted fields (lf, cr).
	breaks lineCount
	// rowFails is set when an omitted column fails every row (its
	// per-statement default errs or is NULL under NOT NULL).
	rowFails bool

	// The fast path (fastRecord): fast says it may be tried; special
	// marks the bytes it leaves to record (delimiter, line ends, the
	// quote in CSV, the backslash in text); ints and bounds hold one
	// record's parsed integers and field offsets, by field.
	fast     bool
	special  [256]bool
	fastCols []fastCol // by field
	delim    byte
	null     string
	bounds   []int // generic fields' start and end offsets, by field

	// With volatile defaults, starts holds where each row of the batch
	// starts in buf, so that a failing batch can be re-read row by row.
	track  bool
	starts []int
	buf    []byte
}

// fastCol is one input field's column for fastRecord.
type fastCol struct {
	acc *colAcc
}

func newChunkParser(l *Loader) *chunkParser {
	p := &chunkParser{l: l, cols: make([]*colAcc, len(l.defs))}
	for c, d := range l.defs {
		p.cols[c] = newColAcc(d.Type)
	}
	x := l.x
	p.fast = !l.noFast && len(x.Columns) > 0 && len(x.Delimiter) == 1
	for c, d := range l.defs {
		if l.dflt.rowFails(c, d.NotNull) {
			p.rowFails = true
			p.fast = false // every row fails: let record say how
		}
	}
	p.track = len(l.dflt.vol) > 0
	p.special[x.Delimiter[0]] = true
	p.special['\n'] = true
	p.special['\r'] = true
	if l.csv {
		p.special[x.Quote[0]] = true
	} else {
		p.special['\\'] = true
	}
	for _, c := range x.Columns {
		p.fastCols = append(p.fastCols, fastCol{acc: p.cols[c]})
	}
	p.delim, p.null = x.Delimiter[0], x.Null
	p.bounds = make([]int, 2*len(x.Columns))
	return p
}

// flush closes the current batch, whose last row ends at offset end. Volatile defaults are evaluated over
// the whole batch; when that fails (an error, or NULL in a NOT NULL column)
// the batch's rows are re-read one by one for the first failing row.
func (p *chunkParser) flush(end int) error {
	if p.rows == 0 {
		return nil
	}
	l := p.l
	var vol []arrow.Array
	if len(l.dflt.vol) > 0 {
		var err error
		if l.dflt.ordered {
			err = errOrderedDefaults // each row once, by rowByRow
		} else if vol, err = l.dflt.batch(p.rows); err == nil {
			for i, v := range l.dflt.vol {
				if l.defs[v.col].NotNull && vol[i].NullN() > 0 {
					err = errNullDefault
				}
			}
		}
		if err != nil {
			if vol, err = p.rowByRow(end); err != nil {
				return err
			}
		}
	}
	arrs := make([]arrow.Array, len(p.cols))
	for c, a := range p.cols {
		if !l.given[c] {
			if k := l.dflt.volAt[c]; k >= 0 {
				arrs[c] = vol[k]
				continue
			}
			for r := 0; r < p.rows; r++ {
				a.appendValue(r, l.fill[c])
			}
		}
		arrs[c] = a.finish(p.rows)
	}
	p.res.recs = append(p.res.recs, array.NewRecord(l.schema, arrs, int64(p.rows)))
	p.res.rows += int64(p.rows)
	p.rows = 0
	p.starts = p.starts[:0]
	p.batchAt = p.res.at
	return nil
}

// errNullDefault marks a batch whose volatile default gave a NOT NULL
// column a NULL.
var errNullDefault = errors.New("NULL default in a NOT NULL column")

// errOrderedDefaults sends a batch with side-effecting defaults straight
// to rowByRow.
var errOrderedDefaults = errors.New("defaults with side effects")

// rowByRow evaluates the batch's volatile defaults one row at a time,
// splitting each row again and checking it whole (rowValues): the first
// row that fails gives the error, on its own line; if none does, its
// values are the batch's.
func (p *chunkParser) rowByRow(end int) ([]arrow.Array, error) {
	l := p.l
	bs := make([]array.Builder, len(l.dflt.vol))
	for i, v := range l.dflt.vol {
		bs[i] = array.NewBuilder(memory.DefaultAllocator, l.defs[v.col].Type.ArrowType())
	}
	at := p.batchAt
	for r := 0; r < p.rows; r++ {
		e := end
		if r+1 < p.rows {
			e = p.starts[r+1]
		}
		if _, err := p.splitRecord(p.buf[:e], p.starts[r]); err != nil {
			return nil, err // the row split before
		}
		at.recs++
		at = at.add(p.recordBreaks(at.recs))
		row, re := p.rowValues(trimEOL(p.buf[p.starts[r]:e]))
		if re != nil {
			re.at = at
			return nil, re
		}
		for i, v := range l.dflt.vol {
			types.AppendValue(bs[i], l.defs[v.col].Type, row[v.col])
		}
	}
	out := make([]arrow.Array, len(bs))
	for i, b := range bs {
		out[i] = b.NewArray()
	}
	return out, nil
}

// parse parses one chunk of whole records. Text must be valid UTF-8:
// PostgreSQL checks the encoding as it reads, so the records before a bad
// byte load (or fail) first, then the record holding it fails with 22021
// and a CONTEXT line without its text.
func (p *chunkParser) parse(buf []byte, first bool) *chunkResult {
	bad := pgerr.InvalidUTF8At(buf)
	if bad < 0 {
		return p.parseRecords(buf, first)
	}
	start, _ := p.l.cutPoint(buf[:bad], 0, false)
	res := p.parseRecords(buf[:max(start, 0)], first)
	if res.err != nil || res.ended {
		return res
	}
	// The bad record's line: PostgreSQL stops reading at the bad byte.
	_, p.breaks = p.l.lineEnd(buf[:bad], max(start, 0))
	res.at.recs++
	return &chunkResult{at: res.at, errAt: res.at.add(p.recordBreaks(res.at.recs)), crlf: res.crlf, err: &rowError{err: pgerr.InvalidEncoding(buf[bad:])}}
}

// parseRecords parses one chunk of whole records of valid text.
func (p *chunkParser) parseRecords(buf []byte, first bool) *chunkResult {
	p.res = &chunkResult{}
	p.rows, p.buf, p.starts = 0, buf, p.starts[:0]
	p.first, p.batchAt = first, lineCount{}
	for _, a := range p.cols {
		a.reset()
	}
	x, l := p.l.x, p.l
	pos := 0
	for pos < len(buf) {
		if !first || !x.Header || p.res.at.recs > 0 {
			var err error
			if pos, err = p.fastRecords(buf, pos); err != nil {
				return p.failAfter(err, nil, pos, lineCount{})
			}
			if pos >= len(buf) {
				break
			}
		}
		start := pos
		p.res.at.recs++
		if isEndMarker(buf[pos:]) {
			p.res.ended = true
			break
		}
		if first && x.Header && p.res.at.recs == 1 {
			// PostgreSQL reads the header as a line and ignores it.
			pos = p.skipLine(buf, pos)
			p.res.crlf = pos >= 2 && buf[pos-2] == '\r' && buf[pos-1] == '\n'
			p.batchAt = p.res.at
			continue
		}
		next, err := p.record(buf, pos)
		if first && p.res.at.recs == 1 {
			p.res.crlf = next >= 2 && buf[next-2] == '\r' && buf[next-1] == '\n'
		}
		if err != nil {
			return p.failAfter(err, nil, start, p.recordBreaks(p.res.at.recs))
		}
		p.res.at = p.res.at.add(p.recordBreaks(p.res.at.recs))
		if p.track {
			p.starts = append(p.starts, start)
		}
		pos = next
		p.rows++
		if p.rows == l.batch {
			if err := p.flush(pos); err != nil {
				return p.fail(err, nil)
			}
		}
	}
	if err := p.flush(pos); err != nil {
		return p.fail(err, nil)
	}
	// A short last batch joins the one before it, so batches average at
	// least the batch size (storage would otherwise re-concatenate them).
	if n := len(p.res.recs); n >= 2 && p.res.recs[n-1].NumRows() < int64(l.batch) {
		a, b := p.res.recs[n-2], p.res.recs[n-1]
		arrs := make([]arrow.Array, a.NumCols())
		for c := range arrs {
			m, err := array.Concatenate([]arrow.Array{a.Column(c), b.Column(c)}, memory.DefaultAllocator)
			if err != nil {
				return &chunkResult{err: err}
			}
			arrs[c] = m
		}
		p.res.recs = append(p.res.recs[:n-2], array.NewRecord(l.schema, arrs, a.NumRows()+b.NumRows()))
	}
	return p.res
}

// fail records the chunk's error at its current line (or the line a
// batch's error names). A bad row's error (a *rowError from rowValues)
// carries its own context; other errors get the record as context.
func (p *chunkParser) fail(err error, raw []byte) *chunkResult {
	return p.failAt(err, raw, lineCount{})
}

// failAt is fail for a record whose quoted fields hold the line breaks
// breaks.
func (p *chunkParser) failAt(err error, raw []byte, breaks lineCount) *chunkResult {
	res := &chunkResult{at: p.res.at, errAt: p.res.at.add(breaks), crlf: p.res.crlf}
	var re *rowError
	if errors.As(err, &re) {
		if re.at.recs > 0 {
			res.errAt = re.at
		}
		res.err = re
		return res
	}
	res.err = &rowError{err: err, raw: string(raw)}
	return res
}

// failAfter is failAt for the record being parsed, which starts at
// offset start, once the rows before it in the batch have their volatile
// defaults: a failing one is on an earlier line, so its error comes first.
func (p *chunkParser) failAfter(err error, raw []byte, start int, breaks lineCount) *chunkResult {
	var re *rowError
	if p.track && p.rows > 0 && !(errors.As(err, &re) && re.at.recs > 0) {
		if ferr := p.flush(start); ferr != nil {
			return p.fail(ferr, nil)
		}
	}
	return p.failAt(err, raw, breaks)
}

// recordBreaks is the line breaks inside the quoted fields of the record
// splitRecord split last, record number rec of the chunk.
func (p *chunkParser) recordBreaks(rec int) lineCount {
	b := p.breaks
	if p.first && rec == 1 {
		b.lf = b.cr // the data's first record counts CRs
	}
	return b
}

// skipLine returns the offset after the line at pos, as PostgreSQL's line
// reader finds its end (in CSV, no line break inside quotes ends it), and
// counts the breaks inside quotes.
func (p *chunkParser) skipLine(buf []byte, pos int) int {
	end, b := p.l.lineEnd(buf, pos)
	p.breaks = b
	p.res.at = p.res.at.add(p.recordBreaks(p.res.at.recs))
	return end
}

func isEndMarker(b []byte) bool {
	return len(b) >= 2 && b[0] == '\\' && b[1] == '.' &&
		(len(b) == 2 || b[2] == '\n' || (b[2] == '\r' && (len(b) == 3 || b[3] == '\n')))
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// record parses the record at pos into the columns and returns the offset
// of the next record. A record that does not split returns that error; a
// bad row returns its error as rowValues finds it, in PostgreSQL's order.
func (p *chunkParser) record(buf []byte, pos int) (int, error) {
	next, err := p.splitRecord(buf, pos)
	if err != nil {
		raw := buf[pos:next]
		if !p.l.csv {
			raw = trimEOL(raw)
		} // else an unterminated quote, whose line break is the field's
		return next, &rowError{err: err, raw: string(raw)}
	}
	if !p.appendRow() {
		return next, p.rowError(trimEOL(buf[pos:next]))
	}
	return next, nil
}

// appendRow appends the split record to the batch's columns (as row
// p.rows) and reports whether it is a good row. On a bad one some columns
// may hold a value of it: the chunk fails, so they are never used.
func (p *chunkParser) appendRow() bool {
	l := p.l
	if len(p.fields) != len(l.x.Columns) || p.rowFails {
		return false
	}
	for i, c := range l.x.Columns {
		a := p.cols[c]
		if p.fields[i].null {
			if l.defs[c].NotNull {
				return false
			}
			a.appendNull(p.rows)
		} else if err := a.appendField(p.rows, p.val(i), l); err != nil {
			return false
		}
	}
	return true
}

// fastRecords parses common records from pos on, each a row and a line,
// and returns where it stopped: at the end of buf, or at a record that is
// not common or starts with a backslash (it may be the end marker), which
// parse's general path then reads. A common record has every field plain
// (no quotes, escapes or carriage returns) and not NULL, integers as at
// most 18 digits with an optional minus sign. Integer and text fields are
// appended as they are scanned; on an uncommon record declineFast
// truncates them back to the batch's p.rows rows. err is a bad value of a
// type without a fast path, as record reports it (splitRecord and
// rowValues; its line counted).
func (p *chunkParser) fastRecords(buf []byte, pos int) (int, error) {
	if !p.fast {
		return pos, nil
	}
	batch := p.l.batch
	fc := p.fastCols
	last := len(fc) - 1
	delim, null := p.delim, p.null
	sp := &p.special
records:
	for pos < len(buf) && buf[pos] != '\\' {
		i := pos
		for f := range fc {
			start := i
			a := fc[f].acc
			switch kind := a.kind; kind {
			case kindInt64, kindInt32, kindInt16:
				neg := i < len(buf) && buf[i] == '-'
				if neg {
					i++
				}
				digits := i
				var v int64
				for i < len(buf) {
					d := buf[i] - '0'
					if d > 9 {
						break
					}
					v = v*10 + int64(d)
					i++
				}
				if n := i - digits; n == 0 || n > 18 || i-start == len(null) && string(buf[start:i]) == null {
					p.declineFast(f)
					break records
				}
				if neg {
					v = -v
				}
				switch kind {
				case kindInt64:
					a.i64 = append(a.i64, v)
				case kindInt32:
					if int64(int32(v)) != v {
						p.declineFast(f)
						break records
					}
					a.i32 = append(a.i32, int32(v))
				default:
					if int64(int16(v)) != v {
						p.declineFast(f)
						break records
					}
					a.i16 = append(a.i16, int16(v))
				}
			default:
				for i < len(buf) && !sp[buf[i]] {
					i++
				}
				if i-start == len(null) && string(buf[start:i]) == null {
					p.declineFast(f)
					break records
				}
				if kind == kindText {
					a.data = append(a.data, buf[start:i]...)
					a.offs = append(a.offs, int32(len(a.data)))
				} else {
					p.bounds[2*f], p.bounds[2*f+1] = start, i
				}
			}
			if f < last {
				if i >= len(buf) || buf[i] != delim {
					p.declineFast(f + 1)
					break records
				}
			} else if i < len(buf) && buf[i] != '\n' {
				p.declineFast(f + 1)
				break records
			}
			i++
		}
		n := p.rows
		for f := range fc {
			a := fc[f].acc
			if a.kind != kindGeneric {
				if a.nulls != 0 {
					a.setValid(n, true)
				}
				continue
			}
			if err := a.appendField(n, buf[p.bounds[2*f]:p.bounds[2*f+1]], p.l); err != nil {
				// A plain record splits without error; rowValues then
				// finds its first error in PostgreSQL's order.
				p.res.at.recs++
				end, _ := p.splitRecord(buf, pos)
				return pos, p.rowError(trimEOL(buf[pos:end]))
			}
		}
		if p.track {
			p.starts = append(p.starts, pos)
		}
		pos = min(i, len(buf))
		p.res.at.recs++
		p.rows++
		if p.rows == batch {
			if err := p.flush(pos); err != nil {
				return pos, err
			}
		}
	}
	return pos, nil
}

// declineFast undoes the integer and text values fastRecord appended to
// its first k fields (they hold p.rows rows again).
func (p *chunkParser) declineFast(k int) {
	n := p.rows
	for f := 0; f < k; f++ {
		a := p.fastCols[f].acc
		switch a.kind {
		case kindInt64:
			a.i64 = a.i64[:n]
		case kindInt32:
			a.i32 = a.i32[:n]
		case kindInt16:
			a.i16 = a.i16[:n]
		case kindText:
			a.offs = a.offs[:n+1]
			a.data = a.data[:a.offs[n]]
		}
	}
}

// rowError is the error of the split record, a bad row (rowValues).
func (p *chunkParser) rowError(raw []byte) error {
	if _, re := p.rowValues(raw); re != nil {
		return re
	}
	return &rowError{err: pgerr.New(pgerr.InternalError, "COPY row rejected without an error"), raw: string(raw)}
}

// rowValues converts the record splitRecord split (raw is its text, for
// CONTEXT) into a row, checking in PostgreSQL's order (NextCopyFrom, then
// ExecConstraints): extra data after the last column, then column by
// column missing data or bad input, then the omitted columns' defaults in
// table order, then NOT NULL.
func (p *chunkParser) rowValues(raw []byte) ([]types.Value, *rowError) {
	l := p.l
	defs := l.defs
	if len(p.fields) > len(l.x.Columns) {
		return nil, &rowError{err: pgerr.New(CodeBadCopyFormat, "extra data after last expected column"), raw: string(raw)}
	}
	row := append([]types.Value(nil), l.fill...)
	for i, c := range l.x.Columns {
		if i >= len(p.fields) {
			return nil, &rowError{err: pgerr.New(CodeBadCopyFormat, "missing data for column \"%s\"", defs[c].Name), raw: string(raw)}
		}
		if p.fields[i].null {
			row[c] = types.NullValue
			continue
		}
		v, err := types.ParseTextFormat(string(p.val(i)), defs[c].Type, l.f, l.now)
		if err != nil {
			return nil, &rowError{err: err, col: defs[c].Name, raw: string(p.val(i))}
		}
		row[c] = v
	}
	if err := l.dflt.row(row); err != nil {
		return nil, &rowError{err: err, raw: string(raw)}
	}
	if err := checkNotNull(l.x, row, l.f); err != nil {
		return nil, &rowError{err: err, raw: string(raw)}
	}
	return row, nil
}

// fieldRef is one field of the split record: its value is split[lo:hi],
// or attr[lo:hi] when inAttr.
type fieldRef struct {
	lo, hi       int
	inAttr, null bool
}

// val is field i's value.
func (p *chunkParser) val(i int) []byte {
	f := p.fields[i]
	if f.inAttr {
		return p.attr[f.lo:f.hi]
	}
	return p.split[f.lo:f.hi]
}

// splitRecord splits the record at pos into p.fields, as
// PostgreSQL's CopyReadAttributesText / CopyReadAttributesCSV split a line,
// and returns where the next record starts. Its errors, with the end of
// the record: a CSV quote left open at the end of the chunk (the end of the
// data: chunks end at record boundaries; the record ends there), and text
// that escapes made invalid.
func (p *chunkParser) splitRecord(buf []byte, pos int) (int, error) {
	p.fields, p.split, p.attr = p.fields[:0], buf, p.attr[:0]
	p.breaks = lineCount{}
	start := pos
	for nf := 0; ; nf++ {
		f, next, eol, err := p.field(buf, pos, nf)
		if err != nil {
			end, _ := p.l.lineEnd(buf, start)
			return end, err
		}
		p.fields = append(p.fields, f)
		pos = next
		if eol {
			return pos, nil
		}
	}
}

// field reads field number nf at pos: its value (in buf, or appended to
// p.attr) and whether it is NULL, where the next field or record starts,
// and whether it ended the record.
func (p *chunkParser) field(buf []byte, pos, nf int) (f fieldRef, next int, eol bool, err error) {
	if p.l.csv {
		return p.csvField(buf, pos, nf)
	}
	return p.textField(buf, pos)
}

func (p *chunkParser) textField(buf []byte, pos int) (fieldRef, int, bool, error) {
	delim := p.l.x.Delimiter[0]
	i := pos
	for i < len(buf) {
		c := buf[i]
		if c == delim || c == '\n' || c == '\\' {
			break
		}
		i++
	}
	if i == len(buf) || buf[i] != '\\' {
		val := buf[pos:i]
		eol := i == len(buf) || buf[i] == '\n'
		if eol && len(val) > 0 && val[len(val)-1] == '\r' {
			val = val[:len(val)-1]
		}
		next := i + 1
		if i == len(buf) {
			next = i
		}
		return fieldRef{lo: pos, hi: pos + len(val), null: string(val) == p.l.x.Null}, next, eol, nil
	}
	// Escapes: find the field's end, then de-escape it.
	j := i
	for j < len(buf) && buf[j] != delim && buf[j] != '\n' {
		if buf[j] == '\\' && j+1 < len(buf) && buf[j+1] != '\n' {
			j++
		}
		j++
	}
	raw := buf[pos:j]
	eol := j == len(buf) || buf[j] == '\n'
	if eol && len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	next := j + 1
	if j == len(buf) {
		next = j
	}
	if string(raw) == p.l.x.Null {
		return fieldRef{lo: pos, hi: pos + len(raw), null: true}, next, eol, nil
	}
	at := len(p.attr)
	p.attr = unescapeText(p.attr, raw)
	// PostgreSQL checks the encoding of a field whose escapes gave a NUL
	// or a non-ASCII byte as it splits the line (CopyReadAttributesText).
	if err := pgerr.CheckUTF8(p.attr[at:]); err != nil {
		return fieldRef{}, next, eol, err
	}
	return fieldRef{lo: at, hi: len(p.attr), inAttr: true}, next, eol, nil
}

// unescapeText resolves the text format's backslash escapes.
func unescapeText(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch != '\\' || i+1 >= len(s) {
			dst = append(dst, ch)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'v':
			dst = append(dst, '\v')
		case 'x':
			j, v := i+1, byte(0)
			for j < len(s) && j < i+3 && isHex(s[j]) {
				v = v<<4 | hexVal(s[j])
				j++
			}
			if j == i+1 {
				dst = append(dst, 'x')
				continue
			}
			dst = append(dst, v)
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j, v := i, 0
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				v = v<<3 | int(s[j]-'0')
				j++
			}
			dst = append(dst, byte(v))
			i = j - 1
		default:
			dst = append(dst, e)
		}
	}
	return dst
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func (p *chunkParser) csvField(buf []byte, pos, nf int) (fieldRef, int, bool, error) {
	x := p.l.x
	delim, q, e := x.Delimiter[0], x.Quote[0], x.Escape[0]
	i := pos
	for i < len(buf) {
		c := buf[i]
		if c == delim || c == '\n' || c == q {
			break
		}
		i++
	}
	var val []byte
	quoted := false
	at := pos
	if i < len(buf) && buf[i] == q {
		// Quoted section(s): unquote into attr.
		quoted = true
		at = len(p.attr)
		s := append(p.attr, buf[pos:i]...)
		for i < len(buf) && buf[i] != delim && buf[i] != '\n' {
			c := buf[i]
			if c != q {
				s = append(s, c)
				i++
				continue
			}
			i++ // opening quote
			for {
				if i >= len(buf) {
					p.attr = s
					return fieldRef{}, 0, false, pgerr.New(CodeBadCopyFormat, "unterminated CSV quoted field")
				}
				c := buf[i]
				if c == e && i+1 < len(buf) && (buf[i+1] == q || buf[i+1] == e) && !(e == q && buf[i+1] != q) {
					s = append(s, buf[i+1])
					i += 2
					continue
				}
				if c == q {
					i++
					break
				}
				if c <= '\r' { // a line break inside quotes counts as a line
					if c == '\n' {
						p.breaks.lf++
					} else if c == '\r' {
						p.breaks.cr++
					}
				}
				s = append(s, c)
				i++
			}
		}
		p.attr = s
		val = s[at:]
	} else {
		val = buf[pos:i]
	}
	eol := i == len(buf) || buf[i] == '\n'
	if eol && len(val) > 0 && val[len(val)-1] == '\r' && (!quoted || i > 0 && buf[i-1] == '\r') {
		val = val[:len(val)-1]
	}
	next := i + 1
	if i == len(buf) {
		next = i
	}
	isNull := !quoted && string(val) == x.Null
	if nf < len(x.ForceNotNull) && x.ForceNotNull[nf] {
		isNull = false
	}
	if quoted && nf < len(x.ForceNull) && x.ForceNull[nf] && string(val) == x.Null {
		isNull = true
	}
	return fieldRef{lo: at, hi: at + len(val), inAttr: quoted, null: isNull}, next, eol, nil
}
