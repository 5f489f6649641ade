package operators

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// AND/OR of conditions that cannot fail. logicNode normally evaluates
// each argument only on the rows the earlier ones left undecided (so
// `x <> 0 AND 1/x > 1` never divides by zero), which copies the batch's
// rows for every argument. When every argument after the first is a
// condition that cannot raise an error (safeCond: a comparison of columns
// and constants, an IN list, LIKE without escapes), evaluating it on
// decided rows changes nothing: the arguments are evaluated on the whole
// batch and combined bitwise with SQL's three-valued logic.

// safeCompare reports whether n is a comparison of columns/constants that
// has a vectorized kernel (integer, float, date/timestamp, text types): the
// comparison operators of package types never raise an error.
func safeCompare(n node) bool {
	c, ok := n.(*callNode)
	if !ok || c.fast == nil || cmpOpOf(c.fn.Name) == cmpNone {
		return false
	}
	for _, a := range c.args {
		if !safeOperand(a) {
			return false
		}
	}
	return true
}

// safeOperand: a column, constant or parameter, or a cast of a column that
// cannot fail (varchar → text).
func safeOperand(n node) bool {
	switch a := n.(type) {
	case *colNode, *constNode, *paramNode:
		return true
	case *castNode:
		return a.kern != nil && types.CastLeakproof(a.from, a.to) && safeOperand(a.in)
	}
	return false
}

// safeCond reports whether a condition can be evaluated on rows a lazy
// construct (CASE, AND, OR) would not reach without changing any result:
// it raises no error and has no side effect.
func safeCond(n node) bool {
	switch c := n.(type) {
	case *inListNode:
		return safeOperand(c.x)
	case *isNullNode:
		return safeOperand(c.arg)
	case *notNode:
		return safeCond(c.arg)
	case *callNode:
		if safeCompare(c) {
			return true
		}
		// LIKE against a constant pattern without escapes cannot fail.
		if c.fast != nil && isLikeOp(c.fn.Name) && len(c.args) == 2 && safeOperand(c.args[0]) {
			if k, ok := c.args[1].(*constNode); ok && !k.v.Null && !strings.Contains(k.v.S, `\`) {
				return true
			}
		}
	}
	return false
}

func isLikeOp(name string) bool {
	return name == "~~" || name == "!~~" || name == "~~*" || name == "!~~*"
}

// evalBitwise is logicNode.eval for safe arguments; ok=false leaves the
// batch to the general path (a constant argument, an unexpected layout).
func (n *logicNode) evalBitwise(st *evalState, b *batch) (vec, bool, error) {
	if len(n.args) < 2 || b.n == 0 {
		return vec{}, false, nil
	}
	for _, a := range n.args[1:] {
		if !safeCond(a) {
			return vec{}, false, nil
		}
	}
	nb := int(bitutil.BytesForBits(int64(b.n)))
	decided := make([]byte, nb) // AND: some argument FALSE; OR: some TRUE
	nulls := make([]byte, nb)   // some argument NULL
	anyNull := false
	for _, a := range n.args {
		v, err := a.eval(st, b)
		if err != nil {
			return vec{}, false, err
		}
		arr, ok := v.arr.(*array.Boolean)
		if v.isConst() || !ok || arr.Data().Offset() != 0 || arr.Len() != b.n {
			return vec{}, false, nil
		}
		vals := arr.Data().Buffers()[1].Bytes()
		var valid []byte
		if arr.NullN() > 0 {
			valid = arr.Data().Buffers()[0].Bytes()
			anyNull = true
		}
		for i := 0; i < nb; i++ {
			x := vals[i]
			if !n.and {
				x = ^x
			}
			// decided where valid and the value settles the row
			d := ^x
			if valid != nil {
				d &= valid[i]
				nulls[i] |= ^valid[i]
			}
			decided[i] |= d
		}
	}
	out := make([]byte, nb)
	validOut := make([]byte, nb)
	for i := 0; i < nb; i++ {
		und := ^decided[i] // not settled by any argument
		if n.and {
			out[i] = und &^ nulls[i] // TRUE: nothing FALSE, nothing NULL
		} else {
			out[i] = decided[i] // TRUE: some argument TRUE
		}
		validOut[i] = decided[i] | ^nulls[i]
	}
	bufs := []*memory.Buffer{nil, memory.NewBufferBytes(out)}
	nullCount := 0
	if anyNull {
		nullCount = b.n - bitutil.CountSetBits(validOut, 0, b.n)
		if nullCount > 0 {
			bufs[0] = memory.NewBufferBytes(validOut)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, b.n, bufs, nil, nullCount, 0)
	return vec{arr: array.NewBooleanData(data)}, true, nil
}
