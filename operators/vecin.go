package operators

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// IN lists over constants. The binder spells `x IN (c1, c2, ...)` as
// `x = c1 OR x = c2 OR ...` and NOT IN as `x <> c1 AND ...`; when x is a
// column (or a cast of one) and every ci a constant of one type, the
// compiler evaluates x once and looks each row up in a set of the
// constants: a short list linearly, a longer one hashed. Equality of these
// types cannot fail, so skipping OR's laziness changes no result.
// NULLs as in SQL: a NULL x is NULL; an x matching no constant is NULL when
// some constant is NULL.

type inListNode struct {
	x      node
	negate bool // NOT IN: AND of <>
	ints   []int64
	intSet map[int64]struct{}
	strs   []string
	strSet map[string]struct{}
	text   bool // strs, not ints
	bpchar bool // compare without trailing blanks
	hasNul bool // some constant is NULL
}

const inListLinear = 8

// inList returns the IN-list node of OR/AND arguments args, or nil when
// they are not such a list.
func (cp *compiler) inList(args []plan.Expr, and bool) (node, error) {
	if cp.generic || len(args) < 2 {
		return nil, nil
	}
	want := "="
	if and {
		want = "<>"
	}
	var x plan.Expr
	var sig []types.ID
	n := &inListNode{negate: and}
	for _, a := range args {
		if k, ok := a.(*plan.Const); ok && k.Val.Null {
			// x = NULL, folded (a strict call of a NULL constant)
			n.hasNul = true
			continue
		}
		c, ok := a.(*plan.Call)
		if !ok || c.Func == nil || c.Func.Name != want || len(c.Args) != 2 || !c.Func.Strict {
			return nil, nil
		}
		k, ok := c.Args[1].(*plan.Const)
		if !ok {
			return nil, nil
		}
		ids := []types.ID{c.Func.Args[0].ID, c.Func.Args[1].ID}
		if x == nil {
			x, sig = c.Args[0], ids
			if !columnLike(x) {
				return nil, nil
			}
			switch {
			case isIntID(ids[0]) && isIntID(ids[1]):
			case ids[0] == ids[1] && (ids[0] == types.Date || ids[0] == types.Timestamp || ids[0] == types.TimestampTZ || ids[0] == types.Bool):
			case ids[0] == ids[1] && (ids[0] == types.Text || ids[0] == types.Char):
				n.text, n.bpchar = true, ids[0] == types.Char
			default:
				return nil, nil
			}
		} else if !sameExpr(x, c.Args[0]) || ids[0] != sig[0] || ids[1] != sig[1] {
			return nil, nil
		}
		switch {
		case k.Val.Null:
			n.hasNul = true
		case n.text:
			s := k.Val.S
			if n.bpchar {
				s = strings.TrimRight(s, " ")
			}
			n.strs = append(n.strs, s)
		default:
			n.ints = append(n.ints, k.Val.I)
		}
	}
	if x == nil {
		return nil, nil
	}
	xn, err := cp.compile(x)
	if err != nil {
		return nil, err
	}
	n.x = xn
	if len(n.ints) > inListLinear {
		n.intSet = make(map[int64]struct{}, len(n.ints))
		for _, v := range n.ints {
			n.intSet[v] = struct{}{}
		}
	}
	if len(n.strs) > inListLinear {
		n.strSet = make(map[string]struct{}, len(n.strs))
		for _, v := range n.strs {
			n.strSet[v] = struct{}{}
		}
	}
	return n, nil
}

// columnLike: a column, or casts of one (no volatility, evaluated once by
// the list as by its first comparison).
func columnLike(e plan.Expr) bool {
	switch e := e.(type) {
	case *plan.ColRef:
		return true
	case *plan.Cast:
		return columnLike(e.Input)
	}
	return false
}

func sameExpr(a, b plan.Expr) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *plan.ColRef:
		b, ok := b.(*plan.ColRef)
		return ok && a.ID == b.ID && a.T == b.T
	case *plan.Cast:
		b, ok := b.(*plan.Cast)
		return ok && a.T == b.T && a.Explicit == b.Explicit && sameExpr(a.Input, b.Input)
	}
	return false
}

func (n *inListNode) hasInt(v int64) bool {
	if n.intSet != nil {
		_, ok := n.intSet[v]
		return ok
	}
	for _, c := range n.ints {
		if c == v {
			return true
		}
	}
	return false
}

func (n *inListNode) hasStr(s string) bool {
	if n.bpchar {
		s = strings.TrimRight(s, " ")
	}
	if n.strSet != nil {
		_, ok := n.strSet[s]
		return ok
	}
	for _, c := range n.strs {
		if c == s {
			return true
		}
	}
	return false
}

// result of a non-NULL x: found or not.
func (n *inListNode) result(found bool) tri {
	switch {
	case found:
		if n.negate {
			return triFalse
		}
		return triTrue
	case n.hasNul:
		return triNull
	case n.negate:
		return triTrue
	}
	return triFalse
}

func (n *inListNode) eval(st *evalState, b *batch) (vec, error) {
	v, err := n.x.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	if v.isConst() {
		if v.c.Null {
			return constVec(types.NullValue), nil
		}
		var found bool
		if n.text {
			found = n.hasStr(v.c.S)
		} else {
			found = n.hasInt(v.c.I)
		}
		return constVec(triValue(n.result(found))), nil
	}
	rows := b.n
	vals := make([]byte, bitutil.BytesForBits(int64(rows)))
	valid := make([]byte, len(vals))
	nulls := 0
	var strs *array.String
	var ints column[int64]
	if n.text {
		a, ok := v.arr.(*array.String)
		if !ok {
			return vec{}, errUnexpectedArray(v.arr)
		}
		strs = a
	} else {
		c, ok := asInt64s(v)
		if !ok {
			if bl, isBool := v.arr.(*array.Boolean); isBool {
				c = column[int64]{vals: make([]int64, rows), arr: bl}
				for i := range c.vals {
					if bl.Value(i) {
						c.vals[i] = 1
					}
				}
			} else {
				return vec{}, errUnexpectedArray(v.arr)
			}
		}
		ints = c
	}
	hasNulls := v.arr.NullN() > 0
	for i := 0; i < rows; i++ {
		if hasNulls && v.arr.IsNull(i) {
			nulls++
			continue
		}
		var found bool
		if n.text {
			found = n.hasStr(strs.Value(i))
		} else {
			found = n.hasInt(ints.vals[i])
		}
		switch n.result(found) {
		case triTrue:
			bitutil.SetBit(vals, i)
			bitutil.SetBit(valid, i)
		case triFalse:
			bitutil.SetBit(valid, i)
		default:
			nulls++
		}
	}
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, rows, []*memory.Buffer{vb, memory.NewBufferBytes(vals)}, nil, nulls, 0)
	return vec{arr: array.NewBooleanData(data)}, nil
}

func errUnexpectedArray(a arrow.Array) error {
	return pgerr.New(pgerr.InternalError, "operators: unexpected array %T", a)
}
