package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// The json/jsonb operators and functions that take a text[] path or key
// list: #> and #>> (json[b]_extract_path over an array), ?| and ?&, #-,
// jsonb - text[], and jsonb_set / jsonb_set_lax / jsonb_insert, which are
// PostgreSQL's setPath over the parsed tree (jsonfuncs.c).

// jsonbPathOp is setPath's op_type.
type jsonbPathOp uint8

const (
	pathCreate jsonbPathOp = 1 << iota
	pathDelete
	pathReplace
	pathInsertBefore
	pathInsertAfter
	pathCreateOrInsert = pathCreate | pathInsertBefore | pathInsertAfter
)

// pathElems is a text[] argument's elements (any dimensions, flattened as
// deconstruct_array does); null[i] marks a NULL element.
func pathElems(a *ArrayValue) (keys []string, null []bool) {
	keys = make([]string, len(a.Elems))
	null = make([]bool, len(a.Elems))
	for i, e := range a.Elems {
		keys[i], null[i] = e.S, e.Null
	}
	return keys, null
}

func oneDimPath(a *ArrayValue) error {
	if len(a.Dims) > 1 {
		return pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	return nil
}

// pathIndex is strtoint(s, &end, 10) succeeding with nothing after the
// digits (leading white space allowed, as strtol skips it).
func pathIndex(s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	i, err := strconv.ParseInt(t, 10, 32)
	return i, err == nil
}

// extractPath is get_path_all / get_jsonb_path_all: nil when a step finds
// nothing. A jsonb raw scalar is returned by an empty path only.
func extractPath(doc *jsonValue, path []string) *jsonValue {
	e := doc
	for _, k := range path {
		if e = pathStep(e, k); e == nil {
			return nil
		}
	}
	return e
}

func registerJSONPathOps() {
	for _, id := range []ID{JSON, JSONB} {
		id := id
		path := func(text bool) evalFn {
			return func(_ *EvalContext, a []Value) (Value, error) {
				doc, err := jsonDoc(a[0], id)
				if err != nil {
					return Value{}, err
				}
				keys, null := pathElems(a[1].Arr)
				for _, n := range null {
					if n {
						return NullValue, nil
					}
				}
				e := extractPath(doc, keys)
				if e == nil {
					return NullValue, nil
				}
				if text {
					return jsonOutText(e, id), nil
				}
				return jsonOut(e, id), nil
			}
		}
		regOp("#>", []ID{id, textArrayID}, id, path(false))
		regOp("#>>", []ID{id, textArrayID}, Text, path(true))
	}
	exists := func(all bool) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			doc := jsonbTree(a[0].S)
			keys, null := pathElems(a[1].Arr)
			for i, k := range keys {
				if null[i] {
					continue
				}
				if jsonbHasKey(doc, k) != all {
					return BoolValue(!all), nil
				}
			}
			return BoolValue(all), nil
		}
	}
	regOp("?|", []ID{JSONB, textArrayID}, Bool, exists(false))
	regFn("jsonb_exists_any", []ID{JSONB, textArrayID}, Bool, exists(false))
	regOp("?&", []ID{JSONB, textArrayID}, Bool, exists(true))
	regFn("jsonb_exists_all", []ID{JSONB, textArrayID}, Bool, exists(true))

	deleteKeys := func(_ *EvalContext, a []Value) (Value, error) {
		doc, keys, null, err := pathArgs(a, "cannot delete from scalar")
		if err != nil {
			return Value{}, err
		}
		drop := map[string]bool{}
		for i, k := range keys {
			if !null[i] {
				drop[k] = true
			}
		}
		if len(drop) == 0 {
			return a[0], nil
		}
		out := &jsonValue{Kind: doc.Kind, Elems: []*jsonValue{}}
		for i, k := range doc.Keys {
			if !drop[k] {
				out.Keys = append(out.Keys, k)
				out.Vals = append(out.Vals, doc.Vals[i])
			}
		}
		for _, e := range doc.Elems {
			if e.Kind != jsonString || !drop[e.Str] {
				out.Elems = append(out.Elems, e)
			}
		}
		return Value{S: jsonbText(out)}, nil
	}
	regOp("-", []ID{JSONB, textArrayID}, JSONB, deleteKeys)
	// jsonb_delete(jsonb, VARIADIC text[]) called with its keys spread out.
	spread := regFn("jsonb_delete", []ID{JSONB, Text, Text}, JSONB, func(ctx *EvalContext, a []Value) (Value, error) {
		if a[0].Null {
			return NullValue, nil
		}
		return deleteKeys(ctx, []Value{a[0], {Arr: NewArray(a[1:])}})
	})
	spread.variadic, spread.strict = true, false

	deletePath := func(_ *EvalContext, a []Value) (Value, error) {
		doc, keys, null, err := pathArgs(a, "cannot delete path in scalar")
		if err != nil {
			return Value{}, err
		}
		if jsonbEmpty(doc) || len(keys) == 0 {
			return a[0], nil
		}
		return setPathText(doc, keys, null, nil, pathDelete)
	}
	regOp("#-", []ID{JSONB, textArrayID}, JSONB, deletePath)
	regFn("jsonb_delete_path", []ID{JSONB, textArrayID}, JSONB, deletePath)

	set := func(a []Value) (Value, error) {
		doc, keys, null, err := pathArgs(a, "cannot set path in scalar")
		if err != nil {
			return Value{}, err
		}
		create := len(a) < 4 || a[3].I != 0
		if jsonbEmpty(doc) && !create || len(keys) == 0 {
			return a[0], nil
		}
		op := pathReplace
		if create {
			op = pathCreate
		}
		return setPathText(doc, keys, null, jsonbTree(a[2].S), op)
	}
	setFn := func(_ *EvalContext, a []Value) (Value, error) { return set(a) }
	regFn("jsonb_set", []ID{JSONB, textArrayID, JSONB}, JSONB, setFn)
	regFn("jsonb_set", []ID{JSONB, textArrayID, JSONB, Bool}, JSONB, setFn).
		withParams([]string{"jsonb_in", "path", "replacement", "create_if_missing"}, BoolValue(true))

	lax := func(ctx *EvalContext, a []Value) (Value, error) {
		if a[0].Null || a[1].Null || len(a) > 3 && a[3].Null {
			return NullValue, nil
		}
		treatment := "use_json_null"
		if len(a) > 4 {
			if a[4].Null {
				return Value{}, pgerr.New(pgerr.InvalidParameterValue, nullTreatmentMsg)
			}
			treatment = a[4].S
		}
		if !a[2].Null {
			return set(a)
		}
		switch treatment {
		case "raise_exception":
			return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "JSON value must not be null").
				WithDetail(`Exception was raised because null_value_treatment is "raise_exception".`).
				WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")
		case "use_json_null":
			b := append([]Value{}, a...)
			b[2] = Value{S: "null"}
			return set(b)
		case "delete_key":
			return deletePath(ctx, a)
		case "return_target":
			return a[0], nil
		}
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, nullTreatmentMsg)
	}
	for n := 3; n <= 5; n++ {
		b := regFn("jsonb_set_lax", []ID{JSONB, textArrayID, JSONB, Bool, Text}[:n], JSONB, lax)
		b.strict = false
		if n == 5 {
			b.withParams([]string{"jsonb_in", "path", "replacement", "create_if_missing", "null_value_treatment"},
				BoolValue(true), Value{S: "use_json_null"})
		}
	}

	insert := func(_ *EvalContext, a []Value) (Value, error) {
		doc, keys, null, err := pathArgs(a, "cannot set path in scalar")
		if err != nil {
			return Value{}, err
		}
		if len(keys) == 0 {
			return a[0], nil
		}
		op := pathInsertBefore
		if len(a) > 3 && a[3].I != 0 {
			op = pathInsertAfter
		}
		return setPathText(doc, keys, null, jsonbTree(a[2].S), op)
	}
	regFn("jsonb_insert", []ID{JSONB, textArrayID, JSONB}, JSONB, insert)
	regFn("jsonb_insert", []ID{JSONB, textArrayID, JSONB, Bool}, JSONB, insert).
		withParams([]string{"jsonb_in", "path", "replacement", "insert_after"}, BoolValue(false))
}

// pathArgs reads (jsonb, text[]) arguments: the document, which must be
// an array or object (else scalarMsg), and the path, of one dimension.
func pathArgs(a []Value, scalarMsg string) (doc *jsonValue, keys []string, null []bool, err error) {
	if err := oneDimPath(a[1].Arr); err != nil {
		return nil, nil, nil, err
	}
	doc = jsonbTree(a[0].S)
	if doc.Kind < jsonArray {
		return nil, nil, nil, pgerr.New(pgerr.InvalidParameterValue, "%s", scalarMsg)
	}
	keys, null = pathElems(a[1].Arr)
	return doc, keys, null, nil
}

// setPathText is setPath from the root, printed.
func setPathText(doc *jsonValue, keys []string, null []bool, newval *jsonValue, op jsonbPathOp) (Value, error) {
	out, err := setPath(doc, keys, null, 0, newval, op)
	if err != nil {
		return Value{}, err
	}
	return Value{S: jsonbText(out)}, nil
}

const nullTreatmentMsg = `null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"`

// jsonbEmpty is JB_ROOT_COUNT(in) == 0 for a container root.
func jsonbEmpty(v *jsonValue) bool { return len(v.Elems) == 0 && len(v.Keys) == 0 }

// setPath is jsonfuncs.c's setPath: v rebuilt with the change op makes at
// path[level:] (newval to set or insert). A path element reached while
// NULL is an error; a scalar in the way leaves the value as it is.
func setPath(v *jsonValue, path []string, null []bool, level int, newval *jsonValue, op jsonbPathOp) (*jsonValue, error) {
	if null[level] {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "path element at position %d is null", level+1)
	}
	switch v.Kind {
	case jsonObject:
		return setPathObject(v, path, null, level, newval, op)
	case jsonArray:
		return setPathArray(v, path, null, level, newval, op)
	}
	return v, nil
}

func setPathObject(v *jsonValue, path []string, null []bool, level int, newval *jsonValue, op jsonbPathOp) (*jsonValue, error) {
	last := level == len(path)-1
	key := path[level]
	out := &jsonValue{Kind: jsonObject}
	done := false
	for i, k := range v.Keys {
		if done || k != key {
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, v.Vals[i])
			continue
		}
		done = true
		if !last {
			nv, err := setPath(v.Vals[i], path, null, level+1, newval, op)
			if err != nil {
				return nil, err
			}
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, nv)
			continue
		}
		if op&(pathInsertBefore|pathInsertAfter) != 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot replace existing key").
				WithHint("Try using the function jsonb_set to replace key value.")
		}
		if op&pathDelete == 0 {
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, newval)
		}
	}
	if !done && last && op&pathCreateOrInsert != 0 {
		out.Keys = append(out.Keys, key)
		out.Vals = append(out.Vals, newval)
		normalizeJSONB(out)
	}
	return out, nil
}

func setPathArray(v *jsonValue, path []string, null []bool, level int, newval *jsonValue, op jsonbPathOp) (*jsonValue, error) {
	const prepend = -1 << 31 // INT_MIN: before the first element
	last := level == len(path)-1
	n := int64(len(v.Elems))
	idx, ok := pathIndex(path[level])
	if !ok {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", level+1, path[level])
	}
	if idx < 0 {
		if -idx > n {
			idx = prepend
		} else {
			idx += n
		}
	}
	if idx > n {
		idx = n
	}
	out := &jsonValue{Kind: jsonArray, Elems: []*jsonValue{}}
	done := false
	if (idx == prepend || n == 0) && last && op&pathCreateOrInsert != 0 {
		out.Elems = append(out.Elems, newval)
		done = true
	}
	for i, e := range v.Elems {
		if int64(i) != idx {
			out.Elems = append(out.Elems, e)
			continue
		}
		done = true
		if !last {
			ne, err := setPath(e, path, null, level+1, newval, op)
			if err != nil {
				return nil, err
			}
			out.Elems = append(out.Elems, ne)
			continue
		}
		if op&(pathInsertBefore|pathCreate) != 0 {
			out.Elems = append(out.Elems, newval)
		}
		if op&(pathInsertAfter|pathInsertBefore) != 0 {
			out.Elems = append(out.Elems, e)
		}
		if op&(pathInsertAfter|pathReplace) != 0 {
			out.Elems = append(out.Elems, newval)
		}
	}
	if op&pathCreateOrInsert != 0 && !done && last {
		out.Elems = append(out.Elems, newval)
	}
	return out, nil
}
