package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// Vectorized kernels of function calls and operators.
//
// A kernel evaluates one resolved overload over whole columns, reading the
// Arrow buffers directly instead of boxing every row into a types.Value. It
// must give exactly the results (values, NULLs, errors and their SQLSTATE)
// of the overload's Eval, which stays the reference: callNode.generic runs
// it row by row wherever no kernel applies, and vecdiff_test.go compares
// every kernel with it on random columns.
//
// Kernels are found through one registry keyed by the overload's signature
// (name and argument type IDs): a file adding kernels registers them in its
// init with registerKernel, and the compiler needs no other hook.

// fastFunc evaluates a call over whole columns of n rows. ok=false means
// "not applicable to these inputs" (a NULL constant, an unexpected layout):
// the caller falls back to the generic per-row path.
type fastFunc func(argv []vec, n int) (arr arrow.Array, ok bool, err error)

// kernelMaker builds the kernel of one resolved overload, or returns nil
// when its particular types (typmods, a bound polymorphic argument) are not
// handled. ctx is the statement's evaluation context, fixed for the
// compiled expression's lifetime.
type kernelMaker func(fn *types.Overload, ctx *types.EvalContext) fastFunc

type kernelKey struct {
	name string
	args [3]types.ID
	n    int
}

func keyOf(name string, args []types.ID) (kernelKey, bool) {
	k := kernelKey{name: name, n: len(args)}
	if len(args) > len(k.args) {
		return k, false
	}
	copy(k.args[:], args)
	return k, true
}

var kernelRegistry = map[kernelKey][]kernelMaker{}

// registerKernel adds a kernel maker for the overload name(args...). Several
// makers may serve one signature; the first that returns a kernel wins.
func registerKernel(name string, args []types.ID, mk kernelMaker) {
	k, ok := keyOf(name, args)
	if !ok {
		panic("operators: kernel signature too long: " + name)
	}
	kernelRegistry[k] = append(kernelRegistry[k], mk)
}

// pickFast returns a vectorized implementation of fn, or nil.
func pickFast(fn *types.Overload, ctx *types.EvalContext) fastFunc {
	if fn == nil || !fn.Strict || fn.Volatile || fn.SideEffects {
		return nil
	}
	if f := pickNumericFast(fn); f != nil {
		return f
	}
	ids := make([]types.ID, len(fn.Args))
	for i, a := range fn.Args {
		ids[i] = a.ID
	}
	k, ok := keyOf(fn.Name, ids)
	if !ok {
		return nil
	}
	for _, mk := range kernelRegistry[k] {
		if f := mk(fn, ctx); f != nil {
			return f
		}
	}
	return nil
}
