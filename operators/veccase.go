package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// Typed assembly of CASE's and COALESCE's results. Their branches are
// evaluated column at a time on the rows that reach them (expr.go); the
// pieces are put back together here by slice copies per type instead of a
// builder call per row.

// scatterTyped is scatter for integer-like, float8, boolean and text
// results; ok=false leaves other types (and unexpected layouts) to scatter.
func scatterTyped(t types.Type, n int, pieces []piece) (arrow.Array, bool) {
	for _, p := range pieces {
		if p.rows == nil {
			return nil, false
		}
	}
	switch t.ID {
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ, types.Bool:
		out := make([]int64, n)
		valid := make([]byte, bitutil.BytesForBits(int64(n)))
		for _, p := range pieces {
			if p.v.isConst() {
				if p.v.c.Null {
					continue
				}
				for _, r := range p.rows {
					out[r] = p.v.c.I
					bitutil.SetBit(valid, r)
				}
				continue
			}
			var vals []int64
			if bl, ok := p.v.arr.(*array.Boolean); ok {
				vals = make([]int64, bl.Len())
				for i := range vals {
					if bl.Value(i) {
						vals[i] = 1
					}
				}
			} else {
				c, ok := asInt64s(p.v)
				if !ok {
					return nil, false
				}
				vals = c.vals
			}
			nulls := p.v.arr.NullN() > 0
			for k, r := range p.rows {
				if nulls && p.v.arr.IsNull(k) {
					continue
				}
				out[r] = vals[k]
				bitutil.SetBit(valid, r)
			}
		}
		nulls := n - bitutil.CountSetBits(valid, 0, n)
		var vb *memory.Buffer
		if nulls > 0 {
			vb = memory.NewBufferBytes(valid)
		}
		if t.ID == types.Bool {
			bits := make([]byte, len(valid))
			for i, x := range out {
				if x != 0 {
					bitutil.SetBit(bits, i)
				}
			}
			data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{vb, memory.NewBufferBytes(bits)}, nil, nulls, 0)
			return array.NewBooleanData(data), true
		}
		return fixedArray(t, out, vb, nulls), true
	case types.Float8:
		out := make([]float64, n)
		valid := make([]byte, bitutil.BytesForBits(int64(n)))
		for _, p := range pieces {
			if p.v.isConst() {
				if p.v.c.Null {
					continue
				}
				for _, r := range p.rows {
					out[r] = p.v.c.F
					bitutil.SetBit(valid, r)
				}
				continue
			}
			a, ok := p.v.arr.(*array.Float64)
			if !ok {
				return nil, false
			}
			vals := a.Float64Values()
			nulls := a.NullN() > 0
			for k, r := range p.rows {
				if nulls && a.IsNull(k) {
					continue
				}
				out[r] = vals[k]
				bitutil.SetBit(valid, r)
			}
		}
		nulls := n - bitutil.CountSetBits(valid, 0, n)
		var vb *memory.Buffer
		if nulls > 0 {
			vb = memory.NewBufferBytes(valid)
		}
		data := array.NewData(arrow.PrimitiveTypes.Float64, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(out))}, nil, nulls, 0)
		return array.MakeFromData(data), true
	case types.Text, types.Varchar, types.Char, types.Name:
		which := make([]int32, n) // piece index + 1; 0 = NULL
		at := make([]int32, n)
		strs := make([]*array.String, len(pieces))
		for p, pc := range pieces {
			if !pc.v.isConst() {
				a, ok := pc.v.arr.(*array.String)
				if !ok {
					return nil, false
				}
				strs[p] = a
			}
			for k, r := range pc.rows {
				which[r] = int32(p + 1)
				at[r] = int32(k)
			}
		}
		b := array.NewStringBuilder(mem)
		b.Reserve(n)
		for i := 0; i < n; i++ {
			w := which[i]
			if w == 0 {
				b.AppendNull()
				continue
			}
			pc := pieces[w-1]
			if pc.v.isConst() {
				if pc.v.c.Null {
					b.AppendNull()
				} else {
					b.Append(pc.v.c.S)
				}
				continue
			}
			a, k := strs[w-1], int(at[i])
			if a.IsNull(k) {
				b.AppendNull()
				continue
			}
			b.Append(a.Value(k))
		}
		return b.NewArray(), true
	}
	return nil, false
}

// safeConds: every WHEN condition raises no error on any row (safeCond),
// so all of them may be evaluated on the whole batch.
func (n *caseNode) safeConds() bool {
	for _, c := range n.conds {
		if !safeCond(c) {
			return false
		}
	}
	return true
}

// evalEager is CASE whose conditions are safe: each condition runs once
// over the whole batch (no copying of the undecided rows per branch), then
// each result, and ELSE, only on the rows that take it, in branch order, as
// the lazy path would.
func (n *caseNode) evalEager(st *evalState, b *batch) (vec, error) {
	branch := make([]int32, b.n) // 1 + the WHEN taken; 0 = none yet
	open := b.n
	for k, c := range n.conds {
		if open == 0 {
			break
		}
		cv, err := c.eval(st, b)
		if err != nil {
			return vec{}, err
		}
		if cv.isConst() {
			if triAt(cv, 0) == triTrue {
				for i := range branch {
					if branch[i] == 0 {
						branch[i] = int32(k + 1)
					}
				}
				open = 0
			}
			continue
		}
		a, ok := cv.arr.(*array.Boolean)
		if !ok {
			return vec{}, errUnexpectedArray(cv.arr)
		}
		nulls := a.NullN() > 0
		for i := range branch {
			if branch[i] == 0 && a.Value(i) && (!nulls || a.IsValid(i)) {
				branch[i] = int32(k + 1)
				open--
			}
		}
	}
	rows := make([][]int, len(n.conds)+1)
	for i, k := range branch {
		rows[k] = append(rows[k], i)
	}
	var pieces []piece
	for k := 1; k <= len(n.conds); k++ {
		if len(rows[k]) == 0 {
			continue
		}
		rv, err := n.results[k-1].eval(st, b.sub(rows[k]))
		if err != nil {
			return vec{}, err
		}
		pieces = append(pieces, piece{v: rv, rows: rows[k]})
	}
	if len(rows[0]) > 0 && n.els != nil {
		ev, err := n.els.eval(st, b.sub(rows[0]))
		if err != nil {
			return vec{}, err
		}
		pieces = append(pieces, piece{v: ev, rows: rows[0]})
	}
	if len(pieces) == 0 {
		return constVec(types.NullValue), nil
	}
	if len(pieces) == 1 && pieces[0].v.isConst() && len(pieces[0].rows) == b.n {
		return pieces[0].v, nil
	}
	return vec{arr: scatter(n.t, b.n, pieces, n.typed)}, nil
}
