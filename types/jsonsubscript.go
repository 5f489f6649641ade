package types

import (
	"strconv"

	"github.com/joind/joind/pgerr"
)

// jsonb subscripting (PostgreSQL's jsonbsubs.c): x[s1][s2]... reads the
// element at the path of the subscripts' texts as #> does
// (jsonb_get_element), and `UPDATE t SET x[s1][s2] = v` is
// jsonb_set_element: setPath with JB_PATH_CREATE | JB_PATH_FILL_GAPS |
// JB_PATH_CONSISTENT_POSITION, which, unlike jsonb_set, creates the
// missing containers along the path, pads arrays with nulls up to the
// index, refuses a negative index before the array's start and refuses a
// path through a scalar.

// JSONBSubscript is x[subs...] over a jsonb x whose subscripts are int4
// or text values: NULL when a subscript is NULL or nothing is there.
func JSONBSubscript(doc Value, subs []Value) Value {
	path := make([]string, len(subs))
	for i, s := range subs {
		if s.Null {
			return NullValue
		}
		path[i] = s.S
	}
	e := extractPath(jsonbTree(doc.S), path)
	if e == nil {
		return NullValue
	}
	return Value{S: jsonbText(e)}
}

// JSONBSubscriptText is a subscript value's text: an int4's digits or a
// text's characters.
func JSONBSubscriptText(v Value, t Type) Value {
	if v.Null || t.ID != Int4 {
		return v
	}
	return Value{S: strconv.FormatInt(v.I, 10)}
}

// JSONBAssign is jsonb_set_element: doc (NULL: an empty array when the
// first subscript is an integer, else an empty object) with the value at
// the subscripts' path set to newval (NULL: JSON null). intFirst tells
// whether the first subscript is of type integer.
func JSONBAssign(doc Value, subs []Value, newval Value, intFirst bool) (Value, error) {
	path := make([]string, len(subs))
	for i, s := range subs {
		if s.Null {
			return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "jsonb subscript in assignment must not be null")
		}
		path[i] = s.S
	}
	var root *jsonValue
	switch {
	case !doc.Null:
		root = jsonbTree(doc.S)
	case intFirst:
		root = &jsonValue{Kind: jsonArray, Elems: []*jsonValue{}}
	default:
		root = &jsonValue{Kind: jsonObject}
	}
	nv := &jsonValue{Kind: jsonNull}
	if !newval.Null {
		nv = jsonbTree(newval.S)
	}
	out, err := setElement(root, path, 0, nv)
	if err != nil {
		return Value{}, err
	}
	return Value{S: jsonbText(out)}, nil
}

func errPathThroughScalar() error {
	return pgerr.New(pgerr.InvalidParameterValue, "cannot replace existing key").
		WithDetail("The path assumes key is a composite object, but it is a scalar value.")
}

// setElement is setPath with the subscript assignment's flags, at
// path[level:].
func setElement(v *jsonValue, path []string, level int, newval *jsonValue) (*jsonValue, error) {
	switch v.Kind {
	case jsonObject:
		return setElementObject(v, path, level, newval)
	case jsonArray:
		return setElementArray(v, path, level, newval)
	}
	return nil, errPathThroughScalar()
}

func setElementObject(v *jsonValue, path []string, level int, newval *jsonValue) (*jsonValue, error) {
	last := level == len(path)-1
	key := path[level]
	out := &jsonValue{Kind: jsonObject, Keys: append([]string(nil), v.Keys...), Vals: append([]*jsonValue(nil), v.Vals...)}
	for i, k := range out.Keys {
		if k != key {
			continue
		}
		if last {
			out.Vals[i] = newval
			return out, nil
		}
		nv, err := setElement(out.Vals[i], path, level+1, newval)
		if err != nil {
			return nil, err
		}
		out.Vals[i] = nv
		return out, nil
	}
	out.Keys = append(out.Keys, key)
	out.Vals = append(out.Vals, pathChain(path, level, newval))
	normalizeJSONB(out)
	return out, nil
}

func setElementArray(v *jsonValue, path []string, level int, newval *jsonValue) (*jsonValue, error) {
	last := level == len(path)-1
	idx, ok := pathIndex(path[level])
	if !ok {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", level+1, path[level])
	}
	n := int64(len(v.Elems))
	if idx < 0 {
		if -idx > n {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "path element at position %d is out of range: %d", level+1, idx)
		}
		idx += n
	}
	out := &jsonValue{Kind: jsonArray, Elems: append([]*jsonValue{}, v.Elems...)}
	if idx < n {
		if last {
			out.Elems[idx] = newval
			return out, nil
		}
		ne, err := setElement(out.Elems[idx], path, level+1, newval)
		if err != nil {
			return nil, err
		}
		out.Elems[idx] = ne
		return out, nil
	}
	out.Elems = appendJSONNulls(out.Elems, idx-n)
	out.Elems = append(out.Elems, pathChain(path, level, newval))
	return out, nil
}

// pathChain is push_path: the value to store at path[level] when the
// rest of the path does not exist, each further step an object holding
// the key or an array padded with nulls up to the index.
func pathChain(path []string, level int, newval *jsonValue) *jsonValue {
	v := newval
	for i := len(path) - 1; i > level; i-- {
		if idx, ok := pathIndex(path[i]); ok {
			v = &jsonValue{Kind: jsonArray, Elems: append(appendJSONNulls([]*jsonValue{}, idx), v)}
		} else {
			v = &jsonValue{Kind: jsonObject, Keys: []string{path[i]}, Vals: []*jsonValue{v}}
		}
	}
	return v
}

// appendJSONNulls is push_null_elements: n JSON nulls (none for n <= 0).
func appendJSONNulls(dst []*jsonValue, n int64) []*jsonValue {
	for ; n > 0; n-- {
		dst = append(dst, &jsonValue{Kind: jsonNull})
	}
	return dst
}
