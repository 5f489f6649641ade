package join

import (
	"github.com/joind/joind/operators/hashtable"
)

// index finds build rows for probe rows. Everything that looks up build rows
// goes through it, so the table behind a join is a one-file choice: the
// Swiss table of package hashtable or a dense index for a single int64-like
// key, the key layouts of layout.go (packed or hashed) for the rest, a
// chained index (chainIndex) for the NULL-aware side indexes, or every row
// (no keys).
type index interface {
	// probe appends (probe row, build row) pairs for the probe rows sel of
	// kb to pb, at most pb.cap per call. It returns true when sel is
	// exhausted; otherwise it is called again with the same arguments and
	// resumes where it stopped. sel never holds a row with a NULL key.
	probe(kb *keyBatch, sel []int32, pb *pairBuf) bool
	kernelName() string
	bytes() int64
}

// pairBuf receives pairs and keeps the resume state of one prober.
type pairBuf struct {
	cap          int
	probe, build []int32
	// resume state of the chained and all-rows indexes
	pos int   // next index into sel
	cur int32 // next build row of the current chain, -1 = start a new one
	// scratch of the Swiss table
	ht  *hashtable.Matches
	hit []bool
	// chainIndex: the current batch's key hashes (valid while hvalid)
	hbuf   []uint64
	hvalid bool
	// packedIndex: the current batch's packed keys (valid while pvalid);
	// hashIndex: its confirmation scratch
	pkb    *keyBatch
	pvalid bool
	keep   []bool
	// key filter (filter.go): the current batch's filtered rows, and this
	// prober's pass statistics
	fsel, fbatch []int32
	fvalid       bool
	fseen, fpass int64
	filterOff    bool
}

func newPairBuf(capacity int) *pairBuf {
	return &pairBuf{cap: capacity, cur: -1}
}

// reset empties the pairs (not the resume state).
func (pb *pairBuf) reset() { pb.probe, pb.build = pb.probe[:0], pb.build[:0] }

// restart abandons the resume state: the next probe starts a new batch.
func (pb *pairBuf) restart() {
	pb.pos, pb.cur = 0, -1
	pb.fvalid, pb.hvalid, pb.pvalid = false, false, false
	if pb.ht != nil {
		pb.ht.Reset()
	}
}

// swissIndex adapts hashtable.Int64Table (single int-like key).
type swissIndex struct {
	t      *hashtable.Int64Table
	col    int
	filter *keyFilter // nil for small tables
}

func newSwissIndex(kb *keyBatch, col int) (*swissIndex, error) {
	k := &kb.cols[col]
	t := hashtable.NewInt64(kb.n)
	var valid []bool
	if k.Nulls != nil {
		valid = make([]bool, kb.n)
		for i := range valid {
			valid[i] = !k.Nulls[i]
		}
	}
	if err := t.AppendSlice(k.Ints, valid); err != nil {
		return nil, err
	}
	t.Finish()
	si := &swissIndex{t: t, col: col}
	if t.Distinct() >= filterMinKeys {
		si.filter = newKeyFilter(k.Ints, k.Nulls, int(t.Distinct()))
	}
	return si, nil
}

func (s *swissIndex) probe(kb *keyBatch, sel []int32, pb *pairBuf) bool {
	if pb.ht == nil {
		pb.ht = hashtable.NewMatches(pb.cap)
	}
	if sel == nil {
		sel = []int32{} // nil would mean "every row" to the table
	}
	keys := kb.cols[s.col].Ints
	if !pb.fvalid {
		// Once per batch: the calls that resume it pass the same rows.
		pb.fbatch, pb.fvalid = s.filterSel(keys, sel, pb), true
	}
	done := s.t.Probe(keys, pb.fbatch, pb.ht)
	if done {
		pb.fvalid = false
	}
	pb.probe = append(pb.probe, pb.ht.ProbeRows...)
	for _, b := range pb.ht.BuildRows {
		pb.build = append(pb.build, int32(b))
	}
	return done
}

func (s *swissIndex) kernelName() string { return "swiss-int64/" + s.t.Kernel() }
func (s *swissIndex) bytes() int64 {
	n := s.t.Groups() * 128
	if s.filter != nil {
		n += int64(len(s.filter.words)) * 8
	}
	return n
}

// listIndex matches every probe row with every row of a fixed list of build
// rows (no keys: nested loops, or a NULL-aware side index without scope
// keys). rows nil means all n build rows.
type listIndex struct {
	rows []int32
	n    int
}

func (ix *listIndex) row(i int) int32 {
	if ix.rows != nil {
		return ix.rows[i]
	}
	return int32(i)
}

func (ix *listIndex) len() int {
	if ix.rows != nil {
		return len(ix.rows)
	}
	return ix.n
}

func (ix *listIndex) probe(_ *keyBatch, sel []int32, pb *pairBuf) bool {
	n := ix.len()
	for pb.pos < len(sel) {
		p := sel[pb.pos]
		if pb.cur < 0 {
			pb.cur = 0
		}
		for int(pb.cur) < n {
			if len(pb.probe) >= pb.cap {
				return false
			}
			pb.probe = append(pb.probe, p)
			pb.build = append(pb.build, ix.row(int(pb.cur)))
			pb.cur++
		}
		pb.pos++
		pb.cur = -1
	}
	pb.pos, pb.cur = 0, -1
	return true
}

func (ix *listIndex) kernelName() string { return "nested-loop" }
func (ix *listIndex) bytes() int64       { return int64(len(ix.rows)) * 4 }
