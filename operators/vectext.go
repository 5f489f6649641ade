package operators

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// Text kernels: comparisons in types.Compare's order (bytewise, the C
// collation; bpchar ignoring trailing blanks), LIKE/ILIKE against a
// constant pattern by prefix, suffix, substring or segment search, and the
// other text functions through rowKernel.

func init() {
	tx, ch, i4 := types.Text, types.Char, types.Int4
	for _, name := range cmpNames {
		op := cmpOpOf(name)
		registerKernel(name, []types.ID{tx, tx}, func(*types.Overload, *types.EvalContext) fastFunc {
			return func(argv []vec, n int) (arrow.Array, bool, error) { return textCompare(argv, n, op, false) }
		})
		registerKernel(name, []types.ID{ch, ch}, func(*types.Overload, *types.EvalContext) fastFunc {
			return func(argv []vec, n int) (arrow.Array, bool, error) { return textCompare(argv, n, op, true) }
		})
	}
	for _, l := range []struct {
		name    string
		neg, ci bool
	}{{"~~", false, false}, {"!~~", true, false}, {"~~*", false, true}, {"!~~*", true, true}} {
		l := l
		for _, id := range []types.ID{tx, ch} {
			registerKernel(l.name, []types.ID{id, tx}, func(fn *types.Overload, ctx *types.EvalContext) fastFunc {
				row := rowKernel(fn, ctx)
				return func(argv []vec, n int) (arrow.Array, bool, error) {
					if p := argv[1]; p.isConst() && !p.c.Null && !argv[0].isConst() {
						if m, ok := compileLike(p.c.S, l.ci); ok {
							return likeColumn(argv[0], n, m, l.neg, l.ci)
						}
					}
					return row(argv, n)
				}
			})
		}
	}
	registerRow("substr", []types.ID{tx, i4}, []types.ID{tx, i4, i4})
	registerRow("substring", []types.ID{tx, i4}, []types.ID{tx, i4, i4})
	registerRow("||", []types.ID{tx, tx})
}

// strColumn is one text operand: a constant or a String array.
type strColumn struct {
	konst bool
	c     string
	arr   *array.String
}

func asStrings(v vec) (strColumn, bool) {
	if v.isConst() {
		if v.c.Null {
			return strColumn{}, false
		}
		return strColumn{konst: true, c: v.c.S}, true
	}
	a, ok := v.arr.(*array.String)
	return strColumn{arr: a}, ok
}

func (c strColumn) at(i int) string {
	if c.konst {
		return c.c
	}
	return c.arr.Value(i)
}

func textCompare(argv []vec, n int, op cmpOp, bpchar bool) (arrow.Array, bool, error) {
	a, ok1 := asStrings(argv[0])
	b, ok2 := asStrings(argv[1])
	if !ok1 || !ok2 || (a.konst && b.konst) {
		return nil, false, nil
	}
	var arrs []arrow.Array
	if a.arr != nil {
		arrs = append(arrs, a.arr)
	}
	if b.arr != nil {
		arrs = append(arrs, b.arr)
	}
	if bpchar {
		// constants lose their padding once, not per row
		a.c, b.c = strings.TrimRight(a.c, " "), strings.TrimRight(b.c, " ")
	}
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		x, y := a.at(i), b.at(i)
		if bpchar {
			if !a.konst {
				x = strings.TrimRight(x, " ")
			}
			if !b.konst {
				y = strings.TrimRight(y, " ")
			}
		}
		var r bool
		switch op {
		case cmpEq:
			r = x == y
		case cmpNe:
			r = x != y
		case cmpLt:
			r = x < y
		case cmpLe:
			r = x <= y
		case cmpGt:
			r = x > y
		case cmpGe:
			r = x >= y
		}
		if r {
			bitutil.SetBit(bits, i)
		}
	}
	return boolBits(bits, n, arrs...), true, nil
}

// boolBits is a Boolean array of packed values, NULL where any of arrs is.
func boolBits(bits []byte, n int, arrs ...arrow.Array) arrow.Array {
	var validBuf *memory.Buffer
	nulls := 0
	var valid []byte
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		if valid == nil {
			valid = make([]byte, len(bits))
			for i := range valid {
				valid[i] = 0xff
			}
		}
		for i := 0; i < n; i++ {
			if a.IsNull(i) {
				bitutil.ClearBit(valid, i)
			}
		}
	}
	if valid != nil {
		nulls = n - bitutil.CountSetBits(valid, 0, n)
		if nulls > 0 {
			validBuf = memory.NewBufferBytes(valid)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{validBuf, memory.NewBufferBytes(bits)}, nil, nulls, 0)
	return array.NewBooleanData(data)
}

// likeKind is the shape of a LIKE pattern made of literals and %.
type likeKind uint8

const (
	likeExact    likeKind = iota // abc
	likePrefix                   // abc%
	likeSuffix                   // %abc
	likeContains                 // %abc%
	likeSegments                 // a%b%c, %a%b%, ...
)

// likeMatcher matches a LIKE pattern without _ or escapes: literal segments
// separated by %. For such a pattern the leftmost match of each segment in
// turn decides the match, as likeRec's backtracking would.
type likeMatcher struct {
	kind     likeKind
	lit      string   // exact, prefix, suffix, contains
	segs     []string // segments: the literals between %s, empties dropped
	anchorL  bool     // the pattern does not start with %
	anchorR  bool     // the pattern does not end with %
	minBytes int
}

// compileLike returns the matcher of pattern p (lowered first for ILIKE,
// as likeMatch does), or ok=false when p has _ or \ and needs the general
// matcher.
func compileLike(p string, ci bool) (*likeMatcher, bool) {
	if ci {
		p = strings.ToLower(p)
	}
	if strings.ContainsAny(p, `_\`) {
		return nil, false
	}
	m := &likeMatcher{anchorL: !strings.HasPrefix(p, "%"), anchorR: !strings.HasSuffix(p, "%")}
	for _, s := range strings.Split(p, "%") {
		if s != "" {
			m.segs = append(m.segs, s)
			m.minBytes += len(s)
		}
	}
	switch {
	case !strings.Contains(p, "%"):
		m.kind, m.lit = likeExact, p
	case len(m.segs) == 0:
		m.kind, m.lit = likeContains, "" // % alone matches everything
	case len(m.segs) == 1 && m.anchorL && !m.anchorR:
		m.kind, m.lit = likePrefix, m.segs[0]
	case len(m.segs) == 1 && !m.anchorL && m.anchorR:
		m.kind, m.lit = likeSuffix, m.segs[0]
	case len(m.segs) == 1 && !m.anchorL && !m.anchorR:
		m.kind, m.lit = likeContains, m.segs[0]
	default:
		m.kind = likeSegments
	}
	return m, true
}

func (m *likeMatcher) match(s string) bool {
	switch m.kind {
	case likeExact:
		return s == m.lit
	case likePrefix:
		return strings.HasPrefix(s, m.lit)
	case likeSuffix:
		return strings.HasSuffix(s, m.lit)
	case likeContains:
		return strings.Contains(s, m.lit)
	}
	if len(s) < m.minBytes {
		return false
	}
	segs := m.segs
	if m.anchorL {
		if !strings.HasPrefix(s, segs[0]) {
			return false
		}
		s, segs = s[len(segs[0]):], segs[1:]
	}
	if m.anchorR {
		last := segs[len(segs)-1]
		if !strings.HasSuffix(s, last) {
			return false
		}
		s, segs = s[:len(s)-len(last)], segs[:len(segs)-1]
	}
	for _, g := range segs {
		i := strings.Index(s, g)
		if i < 0 {
			return false
		}
		s = s[i+len(g):]
	}
	return true
}

// likeColumn is LIKE (or NOT LIKE) of a text column against matcher m.
func likeColumn(v vec, n int, m *likeMatcher, neg, ci bool) (arrow.Array, bool, error) {
	a, ok := v.arr.(*array.String)
	if !ok {
		return nil, false, nil
	}
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		s := a.Value(i)
		if ci {
			s = strings.ToLower(s)
		}
		if m.match(s) != neg {
			bitutil.SetBit(bits, i)
		}
	}
	return boolBits(bits, n, a), true, nil
}
