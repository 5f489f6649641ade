package types

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// The jsonpath executor: PostgreSQL's jsonpath_exec.c over joind's parsed
// json trees. Lax mode unwraps arrays for member accessors and wraps
// scalars for array accessors and suppresses structural errors; strict
// mode raises them. An error that the silent argument (or a predicate)
// suppresses travels as jperError with a nil error.

type jperResult uint8

const (
	jperOk jperResult = iota
	jperNotFound
	jperError
)

// jpTruth is a predicate's three-valued result.
type jpTruth uint8

const (
	jpbFalse jpTruth = iota
	jpbTrue
	jpbUnknown
)

// SQLSTATEs of SQL/JSON path errors.
const (
	codeInvalidJSONSubscript = "22033"
	codeSingletonRequired    = "22038"
	codeJSONArrayNotFound    = "22039"
	codeJSONMemberNotFound   = "2203A"
	codeJSONNumberNotFound   = "2203B"
	codeJSONObjectNotFound   = "2203C"
)

type jpExec struct {
	vars         *jsonValue
	root         *jsonValue
	current      *jsonValue
	lax          bool
	ignoreStruct bool
	throwErrors  bool
	arraySize    int          // innermostArraySize, for last; -1 outside subscripts
	ctx          *EvalContext // the session's time zone and clock, for datetime items
	useTz        bool         // a _tz function: datetimes may meet across time zones
	// the containers' offsets in the document and in vars (keyValue)
	rootOffsets, varsOffsets map[*jsonValue]int
}

// fail is RETURN_ERROR: raise the error when errors are thrown, else
// report jperError.
func (e *jpExec) fail(err error) (jperResult, error) {
	if e.throwErrors {
		return jperError, err
	}
	return jperError, nil
}

func jpErr(code, format string, args ...any) error { return pgerr.New(code, format, args...) }

// executeJSONPath runs jp over doc with vars (a jsonb object or nil),
// collecting the result items into found (when non-nil); useTz is a _tz
// function's leave to compare datetimes through the session time zone.
func executeJSONPath(ctx *EvalContext, jp *jsonPath, vars, doc *jsonValue, throwErrors, useTz bool, found *[]*jsonValue) (jperResult, error) {
	if vars != nil && vars.Kind != jsonObject {
		return jperError, pgerr.New(pgerr.InvalidParameterValue, "\"vars\" argument is not an object").
			WithDetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")
	}
	e := &jpExec{vars: vars, root: doc, current: doc, lax: jp.lax, ignoreStruct: jp.lax, throwErrors: throwErrors, arraySize: -1, ctx: ctx, useTz: useTz}
	if !jp.lax && found == nil {
		// strict mode: the whole result, to see that no error occurs
		var vals []*jsonValue
		res, err := e.item(jp.expr, doc, &vals)
		if res == jperError {
			return res, err
		}
		if len(vals) == 0 {
			return jperNotFound, nil
		}
		return jperOk, nil
	}
	return e.item(jp.expr, doc, found)
}

func (e *jpExec) item(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	return e.itemOptUnwrap(n, v, found, e.lax)
}

// nextItem is executeNextItem: n's next item over v, or v into found.
func (e *jpExec) nextItem(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	if n != nil && n.next != nil {
		return e.item(n.next, v, found)
	}
	if found != nil {
		*found = append(*found, v)
	}
	return jperOk, nil
}

// anyItem is executeAnyItem: n over the members of container c at levels
// first..last below it (n nil: the members themselves).
func (e *jpExec) anyItem(n *jpNode, c *jsonValue, found *[]*jsonValue, level, first, last uint32, ignoreStruct, unwrapNext bool) (jperResult, error) {
	res := jperNotFound
	if level > last {
		return res, nil
	}
	for _, v := range c.children() {
		if level >= first || (first == jpAnyUnbounded && last == jpAnyUnbounded && v.Kind < jsonArray) {
			if n != nil {
				saved := e.ignoreStruct
				if ignoreStruct {
					e.ignoreStruct = true
				}
				var err error
				res, err = e.itemOptUnwrap(n, v, found, unwrapNext)
				e.ignoreStruct = saved
				if res == jperError {
					return res, err
				}
				if res == jperOk && found == nil {
					return res, nil
				}
			} else if found != nil {
				*found = append(*found, v)
			} else {
				return jperOk, nil
			}
		}
		if level < last && v.Kind >= jsonArray {
			r, err := e.anyItem(n, v, found, level+1, first, last, ignoreStruct, unwrapNext)
			res = r
			if res == jperError {
				return res, err
			}
			if res == jperOk && found == nil {
				return res, nil
			}
		}
	}
	return res, nil
}

func (e *jpExec) unwrapTargetArray(n *jpNode, arr *jsonValue, found *[]*jsonValue, unwrapElems bool) (jperResult, error) {
	return e.anyItem(n, arr, found, 1, 1, 1, false, unwrapElems)
}

func (e *jpExec) itemOptUnwrap(n *jpNode, v *jsonValue, found *[]*jsonValue, unwrap bool) (jperResult, error) {
	switch n.kind {
	case jpAnd, jpOr, jpNot, jpIsUnknown, jpEqual, jpNotEqual, jpLess, jpGreater, jpLessOrEqual,
		jpGreaterOrEqual, jpExists, jpStartsWith, jpLikeRegex:
		b, err := e.boolItem(n, v)
		if err != nil {
			return jperError, err
		}
		if n.next == nil && found == nil {
			return jperOk, nil
		}
		r := &jsonValue{Kind: jsonNull}
		if b != jpbUnknown {
			r = &jsonValue{Kind: jsonBool, Bool: b == jpbTrue}
		}
		return e.nextItem(n, r, found)
	case jpAdd, jpSub, jpMul, jpDiv, jpMod:
		return e.binaryArith(n, v, found)
	case jpPlus, jpMinus:
		return e.unaryArith(n, v, found)
	case jpFilter:
		if unwrap && v.Kind == jsonArray {
			return e.unwrapTargetArray(n, v, found, false)
		}
		b, err := e.nestedBool(n.left, v)
		if err != nil {
			return jperError, err
		}
		if b != jpbTrue {
			return jperNotFound, nil
		}
		return e.nextItem(n, v, found)
	case jpAny:
		res := jperNotFound
		if n.first == 0 {
			saved := e.ignoreStruct
			e.ignoreStruct = true
			r, err := e.nextItem(n, v, found)
			e.ignoreStruct = saved
			res = r
			if res == jperError {
				return res, err
			}
			if res == jperOk && found == nil {
				return res, nil
			}
		}
		if v.Kind >= jsonArray {
			return e.anyItem(n.next, v, found, 1, n.first, n.last, true, e.lax)
		}
		return res, nil
	case jpKey:
		switch {
		case v.Kind == jsonObject:
			if m := objectField(v, n.str); m != nil {
				return e.nextItem(n, m, found)
			}
			if !e.ignoreStruct {
				return e.fail(jpErr(codeJSONMemberNotFound, "JSON object does not contain key \"%s\"", n.str))
			}
		case unwrap && v.Kind == jsonArray:
			return e.unwrapTargetArray(n, v, found, false)
		case !e.ignoreStruct:
			return e.fail(jpErr(codeJSONMemberNotFound, "jsonpath member accessor can only be applied to an object"))
		}
		return jperNotFound, nil
	case jpRoot:
		return e.nextItem(n, e.root, found)
	case jpCurrent:
		return e.nextItem(n, e.current, found)
	case jpAnyArray:
		switch {
		case v.Kind == jsonArray:
			return e.unwrapTargetArray(n.next, v, found, e.lax)
		case e.lax:
			return e.nextItem(n, v, found)
		case !e.ignoreStruct:
			return e.fail(jpErr(codeJSONArrayNotFound, "jsonpath wildcard array accessor can only be applied to an array"))
		}
		return jperNotFound, nil
	case jpIndexArray:
		return e.indexArray(n, v, found)
	case jpLast:
		if e.arraySize < 0 {
			return jperError, pgerr.New(pgerr.InternalError, "evaluating jsonpath LAST outside of array subscript")
		}
		if n.next == nil && found == nil {
			return jperOk, nil
		}
		return e.nextItem(n, &jsonValue{Kind: jsonNumber, Num: apd.New(int64(e.arraySize-1), 0)}, found)
	case jpAnyKey:
		switch {
		case v.Kind == jsonObject:
			return e.anyItem(n.next, v, found, 1, 1, 1, false, e.lax)
		case unwrap && v.Kind == jsonArray:
			return e.unwrapTargetArray(n, v, found, false)
		case !e.ignoreStruct:
			return e.fail(jpErr(codeJSONObjectNotFound, "jsonpath wildcard member accessor can only be applied to an object"))
		}
		return jperNotFound, nil
	case jpType:
		name := ""
		if v.Kind == jsonDatetime {
			name = v.dt.typeName()
		} else {
			name = typeofName(v)
		}
		return e.nextItem(n, &jsonValue{Kind: jsonString, Str: name}, found)
	case jpSize:
		size := len(v.Elems)
		if v.Kind != jsonArray {
			if !e.lax {
				if !e.ignoreStruct {
					return e.fail(jpErr(codeJSONArrayNotFound, "jsonpath item method .%s() can only be applied to an array", jpOperationName(n.kind)))
				}
				return jperNotFound, nil
			}
			size = 1
		}
		return e.nextItem(n, &jsonValue{Kind: jsonNumber, Num: apd.New(int64(size), 0)}, found)
	case jpAbs, jpFloor, jpCeiling:
		if unwrap && v.Kind == jsonArray {
			return e.unwrapTargetArray(n, v, found, false)
		}
		if v.Kind != jsonNumber {
			return e.fail(jpErr(codeNonNumericJSON, "jsonpath item method .%s() can only be applied to a numeric value", jpOperationName(n.kind)))
		}
		var r *apd.Decimal
		switch n.kind {
		case jpAbs:
			r = new(apd.Decimal).Abs(v.Num)
		default:
			out, _ := numCeilFloor(n.kind == jpCeiling)(nil, []Value{{Num: v.Num}})
			r = out.Num
		}
		return e.nextItem(n, &jsonValue{Kind: jsonNumber, Num: r}, found)
	case jpDouble:
		if unwrap && v.Kind == jsonArray {
			return e.unwrapTargetArray(n, v, found, false)
		}
		switch v.Kind {
		case jsonNumber:
			f := numericToFloat(v.Num, 64)
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return e.fail(jpErr(codeNonNumericJSON, "numeric argument of jsonpath item method .%s() is out of range for type double precision", jpOperationName(n.kind)))
			}
			return e.nextItem(n, v, found)
		case jsonString:
			f, err := parseFloat(v.Str, Float8)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return e.fail(jpErr(codeNonNumericJSON, "string argument of jsonpath item method .%s() is not a valid representation of a double precision number", jpOperationName(n.kind)))
			}
			d, err := floatToNumeric(f, 64)
			if err != nil {
				return jperError, err
			}
			return e.nextItem(n, &jsonValue{Kind: jsonNumber, Num: d}, found)
		}
		return e.fail(jpErr(codeNonNumericJSON, "jsonpath item method .%s() can only be applied to a string or numeric value", jpOperationName(n.kind)))
	case jpDatetime:
		if unwrap && v.Kind == jsonArray {
			return e.unwrapTargetArray(n, v, found, false)
		}
		return e.datetimeMethod(n, v, found)
	case jpKeyValue:
		return e.keyValue(n, v, found, unwrap)
	case jpNull, jpBool, jpNumeric, jpString, jpVariable:
		if n.next == nil && found == nil && n.kind != jpVariable {
			return jperOk, nil
		}
		val, err := e.literal(n)
		if err != nil {
			return jperError, err
		}
		return e.nextItem(n, val, found)
	}
	return jperError, pgerr.New(pgerr.InternalError, "unrecognized jsonpath item type: %d", n.kind)
}

// literal is getJsonPathItem: a constant's or variable's value.
func (e *jpExec) literal(n *jpNode) (*jsonValue, error) {
	switch n.kind {
	case jpNull:
		return &jsonValue{Kind: jsonNull}, nil
	case jpBool:
		return &jsonValue{Kind: jsonBool, Bool: n.b}, nil
	case jpNumeric:
		return &jsonValue{Kind: jsonNumber, Num: n.num}, nil
	case jpString:
		return &jsonValue{Kind: jsonString, Str: n.str}, nil
	}
	var v *jsonValue
	if e.vars != nil {
		v = objectField(e.vars, n.str)
	}
	if v == nil {
		return nil, pgerr.New(pgerr.UndefinedObject, "could not find jsonpath variable \"%s\"", n.str)
	}
	return v, nil
}

// keyValue is executeKeyValueMethod. PostgreSQL numbers each object by its
// byte offset inside the jsonb document it came from; joind knows that
// offset only for a whole document (0).
func (e *jpExec) keyValue(n *jpNode, v *jsonValue, found *[]*jsonValue, unwrap bool) (jperResult, error) {
	if unwrap && v.Kind == jsonArray {
		return e.unwrapTargetArray(n, v, found, false)
	}
	if v.Kind != jsonObject {
		return e.fail(jpErr(codeJSONObjectNotFound, "jsonpath item method .%s() can only be applied to an object", jpOperationName(n.kind)))
	}
	if len(v.Keys) == 0 {
		return jperNotFound, nil
	}
	// the id: the object's base document's number (the root 0, vars 1)
	// times 10^10 plus its offset inside that document
	if e.rootOffsets == nil {
		e.rootOffsets = jsonbOffsets(e.root)
		if e.vars != nil {
			e.varsOffsets = jsonbOffsets(e.vars)
		}
	}
	var id int64
	if off, ok := e.rootOffsets[v]; ok {
		id = int64(off)
	} else if off, ok := e.varsOffsets[v]; ok {
		id = 10000000000 + int64(off)
	} else {
		return jperError, pgerr.New(pgerr.FeatureNotSupported, "jsonpath item method .keyvalue() over an object .keyvalue() made is not supported")
	}
	res := jperNotFound
	for i, k := range v.Keys {
		obj := &jsonValue{Kind: jsonObject, Keys: []string{"id", "key", "value"},
			Vals: []*jsonValue{{Kind: jsonNumber, Num: apd.New(id, 0)}, {Kind: jsonString, Str: k}, v.Vals[i]}}
		r, err := e.nextItem(n, obj, found)
		res = r
		if res == jperError {
			return res, err
		}
		if res == jperOk && found == nil {
			break
		}
	}
	return res, nil
}

// indexArray is jpiIndexArray: the subscripts' elements (a scalar is a
// one-element array in lax mode).
func (e *jpExec) indexArray(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	if v.Kind != jsonArray && !e.lax {
		if !e.ignoreStruct {
			return e.fail(jpErr(codeJSONArrayNotFound, "jsonpath array accessor can only be applied to an array"))
		}
		return jperNotFound, nil
	}
	saved := e.arraySize
	defer func() { e.arraySize = saved }()
	singleton := v.Kind != jsonArray
	size := len(v.Elems)
	if singleton {
		size = 1
	}
	e.arraySize = size
	res := jperNotFound
	for _, s := range n.subs {
		from, r, err := e.arrayIndex(s.from, v)
		if r == jperError {
			return r, err
		}
		to := from
		if s.to != nil {
			if to, r, err = e.arrayIndex(s.to, v); r == jperError {
				return r, err
			}
		}
		if !e.ignoreStruct && (from < 0 || from > to || to >= size) {
			return e.fail(jpErr(codeInvalidJSONSubscript, "jsonpath array subscript is out of bounds"))
		}
		from = max(from, 0)
		to = min(to, size-1)
		res = jperNotFound
		for i := from; i <= to; i++ {
			el := v
			if !singleton {
				el = v.Elems[i]
			}
			if n.next == nil && found == nil {
				return jperOk, nil
			}
			res, err = e.nextItem(n, el, found)
			if res == jperError {
				return res, err
			}
			if res == jperOk && found == nil {
				break
			}
		}
		if res == jperOk && found == nil {
			break
		}
	}
	return res, nil
}

// arrayIndex is getArrayIndex: a subscript's single numeric value, truncated.
func (e *jpExec) arrayIndex(n *jpNode, v *jsonValue) (int, jperResult, error) {
	var vals []*jsonValue
	res, err := e.item(n, v, &vals)
	if res == jperError {
		return 0, res, err
	}
	if len(vals) != 1 || vals[0].Kind != jsonNumber {
		r, err := e.fail(jpErr(codeInvalidJSONSubscript, "jsonpath array subscript is not a single numeric value"))
		return 0, r, err
	}
	t := truncNumericScale(vals[0].Num, 0)
	i, err := numericToInt(t, Int4)
	if err != nil {
		r, err := e.fail(jpErr(codeInvalidJSONSubscript, "jsonpath array subscript is out of integer range"))
		return 0, r, err
	}
	return int(i), jperOk, nil
}

// itemUnwrapResult is executeItemOptUnwrapResult: in lax mode, arrays in
// the result are replaced by their elements.
func (e *jpExec) itemUnwrapResult(n *jpNode, v *jsonValue, unwrap bool, found *[]*jsonValue) (jperResult, error) {
	if unwrap && e.lax {
		var seq []*jsonValue
		res, err := e.item(n, v, &seq)
		if res == jperError {
			return res, err
		}
		for _, it := range seq {
			if it.Kind == jsonArray {
				_, _ = e.unwrapTargetArray(nil, it, found, false)
			} else {
				*found = append(*found, it)
			}
		}
		return jperOk, nil
	}
	return e.item(n, v, found)
}

func (e *jpExec) itemUnwrapResultNoThrow(n *jpNode, v *jsonValue, unwrap bool, found *[]*jsonValue) (jperResult, error) {
	saved := e.throwErrors
	e.throwErrors = false
	defer func() { e.throwErrors = saved }()
	return e.itemUnwrapResult(n, v, unwrap, found)
}

func (e *jpExec) binaryArith(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	var lseq, rseq []*jsonValue
	if res, err := e.itemUnwrapResult(n.left, v, true, &lseq); res == jperError {
		return res, err
	}
	if res, err := e.itemUnwrapResult(n.right, v, true, &rseq); res == jperError {
		return res, err
	}
	if len(lseq) != 1 || lseq[0].Kind != jsonNumber {
		return e.fail(jpErr(codeSingletonRequired, "left operand of jsonpath operator %s is not a single numeric value", jpOperationName(n.kind)))
	}
	if len(rseq) != 1 || rseq[0].Kind != jsonNumber {
		return e.fail(jpErr(codeSingletonRequired, "right operand of jsonpath operator %s is not a single numeric value", jpOperationName(n.kind)))
	}
	a, b := lseq[0].Num, rseq[0].Num
	var r *apd.Decimal
	var err error
	switch n.kind {
	case jpAdd:
		r, err = numAdd(a, b, false)
	case jpSub:
		r, err = numAdd(a, b, true)
	case jpMul:
		r, err = numMul(a, b)
	case jpDiv:
		r, err = numDiv(a, b)
	default:
		r, err = numMod(a, b)
	}
	if err != nil {
		return e.fail(err)
	}
	if n.next == nil && found == nil {
		return jperOk, nil
	}
	return e.nextItem(n, &jsonValue{Kind: jsonNumber, Num: r}, found)
}

func (e *jpExec) unaryArith(n *jpNode, v *jsonValue, found *[]*jsonValue) (jperResult, error) {
	var seq []*jsonValue
	if res, err := e.itemUnwrapResult(n.left, v, true, &seq); res == jperError {
		return res, err
	}
	res := jperNotFound
	hasNext := n.next != nil
	for _, it := range seq {
		if it.Kind == jsonNumber {
			if found == nil && !hasNext {
				return jperOk, nil
			}
		} else {
			if found == nil && !hasNext {
				continue
			}
			return e.fail(jpErr(codeJSONNumberNotFound, "operand of unary jsonpath operator %s is not a numeric value", jpOperationName(n.kind)))
		}
		if n.kind == jpMinus {
			it = &jsonValue{Kind: jsonNumber, Num: new(apd.Decimal).Neg(it.Num)}
		}
		r, err := e.nextItem(n, it, found)
		if r == jperError {
			return r, err
		}
		if r == jperOk {
			if found == nil {
				return jperOk, nil
			}
			res = jperOk
		}
	}
	return res, nil
}

// nestedBool is executeNestedBoolItem: a filter's predicate with @ = v.
func (e *jpExec) nestedBool(n *jpNode, v *jsonValue) (jpTruth, error) {
	saved := e.current
	e.current = v
	defer func() { e.current = saved }()
	return e.boolItem(n, v)
}

func (e *jpExec) boolItem(n *jpNode, v *jsonValue) (jpTruth, error) {
	switch n.kind {
	case jpAnd:
		l, err := e.boolItem(n.left, v)
		if err != nil || l == jpbFalse {
			return jpbFalse, err
		}
		r, err := e.boolItem(n.right, v)
		if r == jpbTrue {
			return l, err
		}
		return r, err
	case jpOr:
		l, err := e.boolItem(n.left, v)
		if err != nil || l == jpbTrue {
			return jpbTrue, err
		}
		r, err := e.boolItem(n.right, v)
		if r == jpbFalse {
			return l, err
		}
		return r, err
	case jpNot:
		r, err := e.boolItem(n.left, v)
		switch r {
		case jpbUnknown:
			return jpbUnknown, err
		case jpbTrue:
			return jpbFalse, err
		}
		return jpbTrue, err
	case jpIsUnknown:
		r, err := e.boolItem(n.left, v)
		if r == jpbUnknown {
			return jpbTrue, err
		}
		return jpbFalse, err
	case jpEqual, jpNotEqual, jpLess, jpGreater, jpLessOrEqual, jpGreaterOrEqual:
		return e.predicate(n.left, n.right, v, true, func(a, b *jsonValue) (jpTruth, error) {
			if a.Kind == jsonDatetime && b.Kind == jsonDatetime {
				cmp, ok, err := e.compareJPDatetimes(a.dt, b.dt)
				if err != nil || !ok {
					return jpbUnknown, err
				}
				return cmpTruth(n.kind, cmp), nil
			}
			return compareJPItems(n.kind, a, b), nil
		})
	case jpStartsWith:
		return e.predicate(n.left, n.right, v, false, func(a, b *jsonValue) (jpTruth, error) {
			if a.Kind != jsonString || b.Kind != jsonString {
				return jpbUnknown, nil
			}
			if strings.HasPrefix(a.Str, b.Str) {
				return jpbTrue, nil
			}
			return jpbFalse, nil
		})
	case jpLikeRegex:
		return e.predicate(n.left, nil, v, false, func(a, _ *jsonValue) (jpTruth, error) {
			if a.Kind != jsonString {
				return jpbUnknown, nil
			}
			ok, err := likeRegexMatch(n.str, n.flags, a.Str)
			if err != nil {
				return jpbUnknown, err
			}
			if ok {
				return jpbTrue, nil
			}
			return jpbFalse, nil
		})
	case jpExists:
		if !e.lax {
			var vals []*jsonValue
			res, err := e.itemUnwrapResultNoThrow(n.left, v, false, &vals)
			if err != nil {
				return jpbUnknown, err
			}
			if res == jperError {
				return jpbUnknown, nil
			}
			if len(vals) == 0 {
				return jpbFalse, nil
			}
			return jpbTrue, nil
		}
		res, err := e.itemUnwrapResultNoThrow(n.left, v, false, nil)
		if err != nil {
			return jpbUnknown, err
		}
		switch res {
		case jperError:
			return jpbUnknown, nil
		case jperOk:
			return jpbTrue, nil
		}
		return jpbFalse, nil
	}
	return jpbUnknown, pgerr.New(pgerr.InternalError, "invalid boolean jsonpath item type: %d", n.kind)
}

// predicate is executePredicate: exec over every pair of the operands'
// items; lax mode stops at the first true, strict at the first unknown.
func (e *jpExec) predicate(l, r *jpNode, v *jsonValue, unwrapRight bool, exec func(a, b *jsonValue) (jpTruth, error)) (jpTruth, error) {
	var lseq, rseq []*jsonValue
	res, err := e.itemUnwrapResultNoThrow(l, v, true, &lseq)
	if err != nil {
		return jpbUnknown, err
	}
	if res == jperError {
		return jpbUnknown, nil
	}
	if r != nil {
		res, err = e.itemUnwrapResultNoThrow(r, v, unwrapRight, &rseq)
		if err != nil {
			return jpbUnknown, err
		}
		if res == jperError {
			return jpbUnknown, nil
		}
	} else {
		rseq = []*jsonValue{nil}
	}
	errored, found := false, false
	for _, a := range lseq {
		for _, b := range rseq {
			res, err := exec(a, b)
			if err != nil {
				return jpbUnknown, err
			}
			switch res {
			case jpbUnknown:
				if !e.lax {
					return jpbUnknown, nil
				}
				errored = true
			case jpbTrue:
				if e.lax {
					return jpbTrue, nil
				}
				found = true
			}
		}
	}
	switch {
	case found:
		return jpbTrue, nil
	case errored:
		return jpbUnknown, nil
	}
	return jpbFalse, nil
}

// compareJPItems is compareItems: scalars of one kind compare, null
// equals only null, anything else is unknown.
func compareJPItems(op jpKind, a, b *jsonValue) jpTruth {
	if a.Kind != b.Kind {
		if a.Kind == jsonNull || b.Kind == jsonNull {
			if op == jpNotEqual {
				return jpbTrue
			}
			return jpbFalse
		}
		return jpbUnknown
	}
	var cmp int
	switch a.Kind {
	case jsonNull:
	case jsonBool:
		switch {
		case a.Bool == b.Bool:
		case a.Bool:
			cmp = 1
		default:
			cmp = -1
		}
	case jsonNumber:
		cmp = compareNumeric(a.Num, b.Num)
	case jsonString:
		cmp = strings.Compare(a.Str, b.Str)
	default:
		return jpbUnknown
	}
	return cmpTruth(op, cmp)
}

// cmpTruth is a comparison operator's result over a three-way cmp.
func cmpTruth(op jpKind, cmp int) jpTruth {
	var r bool
	switch op {
	case jpEqual:
		r = cmp == 0
	case jpNotEqual:
		r = cmp != 0
	case jpLess:
		r = cmp < 0
	case jpGreater:
		r = cmp > 0
	case jpLessOrEqual:
		r = cmp <= 0
	default:
		r = cmp >= 0
	}
	if r {
		return jpbTrue
	}
	return jpbFalse
}

// likeRegexFlags maps like_regex flags onto joind's regular expressions:
// i case-insensitive; without s, '.' stops at newlines; m anchors at
// lines; q literal.
func likeRegexFlags(flags string) (reFlags, error) {
	f := reFlags{icase: strings.Contains(flags, "i"), literal: strings.Contains(flags, "q"), ownGreediness: true}
	if f.literal {
		return f, nil
	}
	if strings.Contains(flags, "x") {
		return f, pgerr.New(pgerr.FeatureNotSupported, "XQuery \"x\" flag (expanded regular expressions) is not implemented")
	}
	// jspConvertRegexFlags: REG_NLSTOP unless s, REG_NLANCH with m
	switch dotall, mline := strings.Contains(flags, "s"), strings.Contains(flags, "m"); {
	case !dotall && mline:
		f.newline = true
	case !dotall:
		f.partial = 'p'
	case mline:
		f.partial = 'w'
	}
	return f, nil
}

// checkLikeRegex compiles a like_regex pattern when the path is parsed, as
// PostgreSQL does, reporting an invalid pattern; what joind cannot run
// waits for execution to be refused.
func checkLikeRegex(pattern, flags string) error {
	f, err := likeRegexFlags(flags)
	if err != nil {
		return err
	}
	if _, err := compileARE(pattern, f); err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.FeatureNotSupported {
			return nil
		}
		return err
	}
	return nil
}

func likeRegexMatch(pattern, flags, s string) (bool, error) {
	f, err := likeRegexFlags(flags)
	if err != nil {
		return false, err
	}
	re, err := compileARE(pattern, f)
	if err != nil {
		return false, err
	}
	return re.re.MatchString(s), nil
}

// jsonbOffsets is the byte offset of every container inside a jsonb
// document's binary form (PostgreSQL's JsonbContainer layout: a 4-byte
// header, a 4-byte JEntry per element or per key and value, then the keys'
// and values' data, numerics and containers aligned to 4 bytes), which is
// how .keyvalue() numbers objects.
func jsonbOffsets(root *jsonValue) map[*jsonValue]int {
	offs, _ := jsonbLayout(root)
	return offs
}

// jsonbLayout is jsonbOffsets and the size of the whole binary form (a
// scalar document is a one-element raw-scalar array, as PostgreSQL
// stores it).
func jsonbLayout(root *jsonValue) (map[*jsonValue]int, int) {
	offs := map[*jsonValue]int{}
	var container func(v *jsonValue, at int) int
	align := func(n int) int { return (n + 3) &^ 3 }
	var scalar func(v *jsonValue, at int) int
	scalar = func(v *jsonValue, at int) int {
		switch v.Kind {
		case jsonString:
			return at + len(v.Str)
		case jsonNumber:
			return align(at) + jsonbNumericSize(v.Num)
		case jsonArray, jsonObject:
			return container(v, align(at))
		}
		return at
	}
	container = func(v *jsonValue, at int) int {
		offs[v] = at
		p := at + 4
		if v.Kind == jsonObject {
			p += 8 * len(v.Keys)
			for _, k := range v.Keys {
				p += len(k)
			}
			for _, x := range v.Vals {
				p = scalar(x, p)
			}
			return p
		}
		p += 4 * len(v.Elems)
		for _, x := range v.Elems {
			p = scalar(x, p)
		}
		return p
	}
	if root.Kind >= jsonArray {
		return offs, container(root, 0)
	}
	return offs, scalar(root, 8) // header and the one JEntry
}

// JSONBDatumSize is pg_column_size of a jsonb value computed in a query
// (a 4-byte varlena header and the binary form; a value read from a
// table has PostgreSQL's 1-byte header or compression instead).
func JSONBDatumSize(v Value) int {
	_, n := jsonbLayout(jsonbTree(v.S))
	return 4 + n
}

// jsonbNumericSize is VARSIZE of a numeric as jsonb stores it: a 4-byte
// varlena header, the 2-byte short header (or 4 bytes of the long one when
// the weight or display scale does not fit it), and its base-10000 digits.
func jsonbNumericSize(d *apd.Decimal) int {
	if d.IsZero() {
		return 6
	}
	digits := d.Coeff.String()
	exp := int(d.Exponent)
	dscale := max(0, -exp)
	trimmed := strings.TrimRight(digits, "0")
	low := exp + len(digits) - len(trimmed) // power of ten of the last nonzero digit
	high := exp + len(digits) - 1           // of the first
	floor4 := func(p int) int {
		if p >= 0 {
			return p / 4
		}
		return -((-p + 3) / 4)
	}
	weight := floor4(high)
	ndigits := weight - floor4(low) + 1
	if dscale <= 63 && weight >= -64 && weight <= 63 {
		return 4 + 2 + 2*ndigits
	}
	return 4 + 4 + 2*ndigits
}
