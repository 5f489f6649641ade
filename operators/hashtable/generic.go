package hashtable

import (
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// GenericTable is the hash table for multi-column and variable-width keys.
// It is an Int64Table keyed by the rows' 64-bit HashColumns value: rows
// with equal keys share a hash and so a slot (with duplicate lists). The
// probe emits candidate pairs from that table and keeps only those whose
// keys are equal (KeysEqual, batch-wise per column), which also removes
// the rare rows whose different keys collide on all 64 hash bits.
//
// Concurrency as for Int64Table: Append/Finish single-writer, then
// read-only; one GenericProber per goroutine.
type GenericTable struct {
	hashes *Int64Table
	chunks [][]arrow.Array // build key columns per Append, until Finish
	cols   []arrow.Array   // after Finish: build key columns, concatenated
	nulls  int64
	rows   int64

	hbuf []uint64
	nbuf []bool
	vbuf []bool
}

// NewGeneric returns an empty table sized for capacityHint distinct keys.
func NewGeneric(capacityHint int) *GenericTable {
	return &GenericTable{hashes: NewInt64(capacityHint)}
}

// Kernel names the probe kernel in use.
func (t *GenericTable) Kernel() string { return t.hashes.Kernel() }

// SawNull reports whether a build row had a NULL in any key column.
func (t *GenericTable) SawNull() bool { return t.nulls > 0 }

// NullCount is the number of build rows skipped for NULL keys.
func (t *GenericTable) NullCount() int64 { return t.nulls }

// Rows is the number of build rows appended, NULL-key rows included.
func (t *GenericTable) Rows() int64 { return t.rows }

// BuildColumns returns the (concatenated) build key columns after Finish;
// build row ids index them.
func (t *GenericTable) BuildColumns() []arrow.Array { return t.cols }

// Append adds the next build rows: one array per key column, equal lengths.
// Rows with a NULL in any key column are skipped and counted.
func (t *GenericTable) Append(cols []arrow.Array) error {
	if len(cols) == 0 {
		panic("hashtable: no key columns")
	}
	n := cols[0].Len()
	if len(t.chunks) > 0 && len(t.chunks[0]) != len(cols) {
		panic("hashtable: key column count changed between Append calls")
	}
	h, err := HashColumns(cols, nil, t.hbuf)
	if err != nil {
		return err
	}
	t.hbuf = h
	var valid []bool
	if cap(t.nbuf) < n {
		t.nbuf = make([]bool, n)
	}
	null := t.nbuf[:n]
	if AnyNull(cols, nil, null) {
		if cap(t.vbuf) < n {
			t.vbuf = make([]bool, n)
		}
		valid = t.vbuf[:n]
		for i, isNull := range null {
			valid[i] = !isNull
			if isNull {
				t.nulls++
			}
		}
	}
	keys := make([]int64, n)
	for i, x := range h {
		keys[i] = int64(x)
	}
	if err := t.hashes.AppendSlice(keys, valid); err != nil {
		return err
	}
	t.rows += int64(n)
	for _, c := range cols {
		c.Retain()
	}
	t.chunks = append(t.chunks, cols)
	return nil
}

// Finish ends the build; the table is read-only afterwards.
func (t *GenericTable) Finish() error {
	if t.cols != nil || t.hashes.finished {
		return nil
	}
	t.hashes.Finish()
	t.hbuf, t.nbuf, t.vbuf = nil, nil, nil
	if len(t.chunks) == 0 {
		return nil
	}
	if len(t.chunks) == 1 {
		t.cols = t.chunks[0]
		t.chunks = nil
		return nil
	}
	t.cols = make([]arrow.Array, len(t.chunks[0]))
	for c := range t.cols {
		parts := make([]arrow.Array, len(t.chunks))
		for i, ch := range t.chunks {
			parts[i] = ch[c]
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return err
		}
		t.cols[c] = col
		for _, p := range parts {
			p.Release()
		}
	}
	t.chunks = nil
	return nil
}

// Release drops the build columns and the hash table's memory. The table
// must not be used afterwards.
func (t *GenericTable) Release() {
	for _, c := range t.cols {
		c.Release()
	}
	for _, ch := range t.chunks {
		for _, c := range ch {
			c.Release()
		}
	}
	t.cols, t.chunks = nil, nil
	t.hashes.Release()
}

// GenericProber is one goroutine's probe state for a GenericTable.
type GenericProber struct {
	t     *GenericTable
	inner *Matches
	// ProbeRows/BuildRows: the verified pairs of the last Probe call.
	ProbeRows []int32
	BuildRows []uint32

	hkeys []int64
	null  []bool
	sel   []int32 // the batch's selection: the caller's, or own
	own   []int32 // buffer for a selection with NULL-key rows removed
	eq    []bool
	cols  []arrow.Array
}

// NewProber returns a prober emitting at most capacity pairs per call.
func (t *GenericTable) NewProber(capacity int) *GenericProber {
	return &GenericProber{t: t, inner: NewMatches(capacity)}
}

// Probe matches the probe batch's key columns (rows sel, nil = all) against
// the build side. Pairs are in p.ProbeRows/p.BuildRows; it returns true
// when the batch is done, false if it must be called again with the same
// arguments. Probe rows with a NULL key never match.
func (p *GenericProber) Probe(cols []arrow.Array, sel []int32) (bool, error) {
	t := p.t
	if !t.hashes.finished {
		panic("hashtable: Probe before Finish")
	}
	if !p.inner.active {
		// New batch: hash once, drop NULL-key rows from the selection.
		n := cols[0].Len()
		h, err := HashColumns(cols, nil, nil)
		if err != nil {
			return true, err
		}
		if cap(p.hkeys) < n {
			p.hkeys = make([]int64, n)
		}
		p.hkeys = p.hkeys[:n]
		for i, x := range h {
			p.hkeys[i] = int64(x)
		}
		p.cols = cols
		if cap(p.null) < n {
			p.null = make([]bool, n)
		}
		null := p.null[:n]
		if AnyNull(cols, nil, null) {
			own := p.own[:0]
			if own == nil {
				own = make([]int32, 0, n)
			}
			if sel == nil {
				for i := range n {
					if !null[i] {
						own = append(own, int32(i))
					}
				}
			} else {
				for _, r := range sel {
					if !null[r] {
						own = append(own, r)
					}
				}
			}
			p.own = own
			sel = own
		}
		p.sel = sel
	}
	done := t.hashes.Probe(p.hkeys, p.sel, p.inner)
	m := p.inner
	n := m.Len()
	if cap(p.eq) < n {
		p.eq = make([]bool, n)
	}
	eq := p.eq[:n]
	for i := range eq {
		eq[i] = true
	}
	if err := KeysEqual(p.cols, m.ProbeRows, t.cols, m.BuildRows, eq); err != nil {
		m.Reset()
		return true, err
	}
	p.ProbeRows, p.BuildRows = p.ProbeRows[:0], p.BuildRows[:0]
	for i, ok := range eq {
		if ok {
			p.ProbeRows = append(p.ProbeRows, m.ProbeRows[i])
			p.BuildRows = append(p.BuildRows, m.BuildRows[i])
		}
	}
	runtime.KeepAlive(t)
	return done, nil
}

// Reset abandons the current batch.
func (p *GenericProber) Reset() { p.inner.Reset() }
