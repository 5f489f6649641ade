package operators

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/types"
)

// Cast kernels. Every cast of a column gets one: the casts that cannot fail
// and need no conversion inline (integer widening, int→float8, text ↔
// varchar without a length, bpchar → text), every other through rowCast,
// castValue per row over typed readers and writers. Further kernels
// register with registerCastKernel.

// castFunc converts a whole column; ok=false leaves it to the generic path.
type castFunc func(arr arrow.Array, n int) (arrow.Array, bool, error)

type castMaker func(from, to types.Type, explicit bool, ctx *types.EvalContext) castFunc

var castRegistry = map[[2]types.ID][]castMaker{}

// registerCastKernel adds a kernel maker for casts from → to.
func registerCastKernel(from, to types.ID, mk castMaker) {
	k := [2]types.ID{from, to}
	castRegistry[k] = append(castRegistry[k], mk)
}

// pickCast returns the kernel of the cast from → to: a registered one, else
// the typed row-by-row cast.
func pickCast(from, to types.Type, explicit bool, ctx *types.EvalContext) castFunc {
	for _, mk := range castRegistry[[2]types.ID{from.ID, to.ID}] {
		if f := mk(from, to, explicit, ctx); f != nil {
			return f
		}
	}
	return rowCast(from, to, explicit, ctx)
}

func init() {
	for _, f := range []types.ID{types.Int2, types.Int4, types.Int8} {
		for _, t := range []types.ID{types.Int2, types.Int4, types.Int8, types.Float8} {
			registerCastKernel(f, t, func(from, to types.Type, _ bool, _ *types.EvalContext) castFunc {
				return func(arr arrow.Array, _ int) (arrow.Array, bool, error) {
					r, ok := fastCast(arr, from, to)
					return r, ok, nil
				}
			})
		}
	}
	str := []types.ID{types.Text, types.Varchar, types.Char}
	for _, f := range str {
		for _, t := range str {
			f := f
			registerCastKernel(f, t, func(_, to types.Type, _ bool, _ *types.EvalContext) castFunc {
				if to.CharLen() >= 0 {
					return nil // a length to enforce or pad to: row by row
				}
				if f != types.Char || to.ID == types.Char {
					// the value is unchanged (coerceString without a length)
					return func(arr arrow.Array, _ int) (arrow.Array, bool, error) { return arr, true, nil }
				}
				return trimBlanks
			})
		}
	}
}

// trimBlanks is bpchar → text/varchar: the padding goes (rtrim1).
func trimBlanks(arr arrow.Array, n int) (arrow.Array, bool, error) {
	a, ok := arr.(*array.String)
	if !ok {
		return nil, false, nil
	}
	b := array.NewStringBuilder(mem)
	b.Reserve(n)
	b.ReserveData(len(a.ValueBytes()))
	nulls := a.NullN() > 0
	for i := 0; i < n; i++ {
		if nulls && a.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(strings.TrimRight(a.Value(i), " "))
	}
	return b.NewArray(), true, nil
}

// rowCast is castValue per row, reading and writing the columns directly.
func rowCast(from, to types.Type, explicit bool, ctx *types.EvalContext) castFunc {
	return func(arr arrow.Array, n int) (arrow.Array, bool, error) {
		rd := readerOf(vec{arr: arr}, from)
		w := newWriter(to, n)
		for i := 0; i < n; i++ {
			if i%rowCancelEvery == rowCancelEvery-1 && ctx != nil && ctx.Ctx != nil {
				if err := checkCtx(ctx.Ctx); err != nil {
					return nil, true, err
				}
			}
			x := rd(i)
			if x.Null {
				w.null()
				continue
			}
			r, err := castValue(ctx, x, from, to, explicit)
			if err != nil {
				return nil, true, err
			}
			if r.Null {
				w.null()
				continue
			}
			w.add(r)
		}
		return w.array(), true, nil
	}
}
