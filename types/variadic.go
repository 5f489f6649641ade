package types

import (
	"sync"

	"github.com/joind/joind/pgerr"
)

// Calls written f(a, ..., VARIADIC arr). PostgreSQL matches them only
// against the candidates taking exactly that many arguments, the last being
// the variadic parameter's array (func_get_detail without variadic
// expansion). A VARIADIC "any" function (concat, concat_ws, format,
// json_build_array, ...) then reads the array's elements as its trailing
// arguments, of the element type; a VARIADIC text[] one (json_extract_path)
// its path elements.

// ResolveVariadicCall resolves name(in...) written with VARIADIC before its
// last argument. Errors: 42804 when a VARIADIC "any" argument is no array,
// 42883 when no candidate takes the arguments.
func ResolveVariadicCall(name string, in []Type) (*Overload, error) {
	lname := normFuncName(name)
	n := len(in)
	last := in[n-1]
	for _, c := range functionTable[lname] {
		if !c.variadic || len(c.args) != n || !coercible(ids(in[:n-1]), c.args[:n-1]) {
			continue
		}
		va := c.args[n-1]
		if va == idAny && last.ID != Array {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "VARIADIC argument must be an array")
		}
		if va != idAny && !(last.ID == Unknown || last.ID == Array && (last.ElemType().ID == va || canImplicit(last.ElemType().ID, va))) {
			continue
		}
		return c.instantiateVariadic(in), nil
	}
	return nil, funcError(lname, in, false)
}

// instantiateVariadic is instantiate for a VARIADIC call: the last
// argument is the array whose elements the function reads.
func (b *builtin) instantiateVariadic(in []Type) *Overload {
	n := len(in)
	args := make([]Type, n)
	for i, id := range b.args[:n-1] {
		args[i] = Type{ID: id, Typmod: -1}
		if isPolyID(id) {
			args[i] = in[i]
			if in[i].ID == Unknown {
				args[i] = TextType
			}
		}
	}
	elem := Type{ID: b.args[n-1], Typmod: -1}
	if b.args[n-1] == idAny {
		elem = in[n-1].ElemType()
	}
	args[n-1] = ArrayOf(elem)
	strict := b.strict
	if b.args[n-1] != idAny {
		// VARIADIC text[] functions are strict in their array.
		strict = true
	}
	return &Overload{Name: b.name, Args: args, Result: Type{ID: b.result, Typmod: -1}, Strict: strict, Volatile: b.volatile,
		Stable: b.stable, SideEffects: b.sideEffects, Eval: b.spreadEval(args[:n-1], elem)}
}

// spreadEval calls b's body with the array argument's elements (flattened,
// as deconstruct_array reads a multidimensional array) as its trailing
// arguments. A NULL array makes the call NULL, except for format, which
// takes it as no arguments (text_format).
func (b *builtin) spreadEval(prefix []Type, elem Type) evalFn {
	var bound sync.Map // element count → b.bind's body for it
	body := func(k int) evalFn {
		if b.bind == nil {
			return b.eval
		}
		if ev, ok := bound.Load(k); ok {
			return ev.(evalFn)
		}
		at := append([]Type(nil), prefix...)
		for range k {
			at = append(at, elem)
		}
		ev := b.bind(at)
		bound.Store(k, ev)
		return ev
	}
	return func(ctx *EvalContext, a []Value) (Value, error) {
		arr := a[len(a)-1]
		if arr.Null && b.name != "format" {
			return NullValue, nil
		}
		vals := append([]Value(nil), a[:len(a)-1]...)
		if !arr.Null {
			vals = append(vals, arr.Arr.Elems...)
		}
		return body(len(vals)-len(prefix))(ctx, vals)
	}
}
