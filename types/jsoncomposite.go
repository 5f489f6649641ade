package types

import (
	"github.com/joind/joind/pgerr"
)

// Arrays and records as JSON: datum_to_json's array_to_json_internal and
// composite_to_json (arrays become JSON arrays, nested per dimension;
// records objects keyed by their field names), datum_to_jsonb's jsonb
// trees of them, and the functions over them: array_to_json, row_to_json,
// json_object and jsonb_object.

// jsonSep is the element separator: pretty puts a line feed after each
// of the outermost level's commas.
func jsonSep(pretty bool) string {
	if pretty {
		return ",\n "
	}
	return ","
}

// appendJSONArray is array_to_json_internal.
func appendJSONArray(ctx *EvalContext, dst []byte, a *ArrayValue, et Type, pretty bool) []byte {
	if len(a.Dims) == 0 {
		return append(dst, "[]"...)
	}
	n := 0
	var dim func(d int, pretty bool)
	dim = func(d int, pretty bool) {
		dst = append(dst, '[')
		for i := 0; i < int(a.Dims[d]); i++ {
			if i > 0 {
				dst = append(dst, jsonSep(pretty)...)
			}
			if d+1 == len(a.Dims) {
				dst = jsonScalarText(ctx, dst, a.Elems[n], et, false)
				n++
			} else {
				dim(d+1, false)
			}
		}
		dst = append(dst, ']')
	}
	dim(0, pretty)
	return dst
}

// recordFields is a record value's field names, types and values; ok is
// false when its type has no field description.
func recordFields(ctx *EvalContext, v Value, t Type) (names []string, ts []Type, vals []Value, ok bool) {
	d := t.Desc()
	if d == nil {
		return nil, nil, nil, false
	}
	vals, err := ParseRecordFields(v.S, t, ctxFormat(ctx))
	if err != nil {
		return nil, nil, nil, false
	}
	return d.Fields, d.Types, vals, true
}

// appendJSONRecord is composite_to_json.
func appendJSONRecord(ctx *EvalContext, dst []byte, v Value, t Type, pretty bool) []byte {
	names, ts, vals, ok := recordFields(ctx, v, t)
	if !ok {
		return escapeJSON(dst, v.S)
	}
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, jsonSep(pretty)...)
		}
		dst = escapeJSON(dst, name)
		dst = append(dst, ':')
		dst = jsonScalarText(ctx, dst, vals[i], ts[i], false)
	}
	return append(dst, '}')
}

// jsonbArrayTree and jsonbRecordTree are datum_to_jsonb's arrays and
// composites.
func jsonbArrayTree(ctx *EvalContext, a *ArrayValue, et Type) *jsonValue {
	n := 0
	var dim func(d int) *jsonValue
	dim = func(d int) *jsonValue {
		out := &jsonValue{Kind: jsonArray, Elems: []*jsonValue{}}
		if d >= len(a.Dims) {
			return out
		}
		for i := 0; i < int(a.Dims[d]); i++ {
			if d+1 == len(a.Dims) {
				out.Elems = append(out.Elems, toJSONBValue(ctx, a.Elems[n], et))
				n++
			} else {
				out.Elems = append(out.Elems, dim(d+1))
			}
		}
		return out
	}
	return dim(0)
}

func jsonbRecordTree(ctx *EvalContext, v Value, t Type) *jsonValue {
	names, ts, vals, ok := recordFields(ctx, v, t)
	if !ok {
		return &jsonValue{Kind: jsonString, Str: v.S}
	}
	out := &jsonValue{Kind: jsonObject}
	for i, name := range names {
		out.Keys = append(out.Keys, name)
		out.Vals = append(out.Vals, toJSONBValue(ctx, vals[i], ts[i]))
	}
	normalizeJSONB(out)
	return out
}

// recordArgFuncs take a record (PostgreSQL's record pseudo-type), which
// joind's signatures spell "any" so the binder keeps the record's fields.
var recordArgFuncs = map[string]bool{"row_to_json": true}

func registerJSONComposites() {
	pretty := func(a []Value) bool { return len(a) > 1 && a[1].I != 0 }
	// Both read the session's settings (datum_to_json of timestamptz):
	// stable, as in pg_proc.
	for _, args := range [][]ID{{idAnyArray}, {idAnyArray, Bool}} {
		functionTable["array_to_json"] = append(functionTable["array_to_json"], &builtin{name: "array_to_json", args: args, result: JSON, strict: true, stable: true,
			bind: func(at []Type) evalFn {
				return func(ctx *EvalContext, a []Value) (Value, error) {
					return Value{S: string(appendJSONArray(ctx, nil, a[0].Arr, at[0].ElemType(), pretty(a)))}, nil
				}
			}})
	}
	for _, args := range [][]ID{{idAny}, {idAny, Bool}} {
		functionTable["row_to_json"] = append(functionTable["row_to_json"], &builtin{name: "row_to_json", args: args, result: JSON, strict: true, stable: true,
			bind: func(at []Type) evalFn {
				return func(ctx *EvalContext, a []Value) (Value, error) {
					return Value{S: string(appendJSONRecord(ctx, nil, a[0], at[0], pretty(a)))}, nil
				}
			}})
	}
	for _, id := range []ID{JSON, JSONB} {
		id := id
		prefix := "json"
		if id == JSONB {
			prefix = "jsonb"
		}
		object := func(_ *EvalContext, a []Value) (Value, error) {
			keys, vals, err := jsonObjectPairs(a)
			if err != nil {
				return Value{}, err
			}
			if id == JSONB {
				out := &jsonValue{Kind: jsonObject}
				for i, k := range keys {
					out.Keys = append(out.Keys, k)
					v := &jsonValue{Kind: jsonNull}
					if !vals[i].Null {
						v = &jsonValue{Kind: jsonString, Str: vals[i].S}
					}
					out.Vals = append(out.Vals, v)
				}
				normalizeJSONB(out)
				return Value{S: jsonbText(out)}, nil
			}
			// json_object's own spacing: {"k" : "v", "k2" : null}
			dst := []byte{'{'}
			for i, k := range keys {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				dst = append(escapeJSON(dst, k), " : "...)
				if vals[i].Null {
					dst = append(dst, "null"...)
				} else {
					dst = escapeJSON(dst, vals[i].S)
				}
			}
			return Value{S: string(append(dst, '}'))}, nil
		}
		regFn(prefix+"_object", []ID{textArrayID}, id, object)
		regFn(prefix+"_object", []ID{textArrayID, textArrayID}, id, object)
	}
}

// jsonObjectPairs is json_object's reading of its arguments: one array of
// alternating keys and values (one dimension, or two with inner length
// 2), or separate key and value arrays of one dimension each.
func jsonObjectPairs(a []Value) (keys []string, vals []Value, err error) {
	if len(a) == 1 {
		arr := a[0].Arr
		switch len(arr.Dims) {
		case 0:
			return nil, nil, nil
		case 1:
			if arr.Dims[0]%2 != 0 {
				return nil, nil, pgerr.New(pgerr.ArraySubscriptError, "array must have even number of elements")
			}
		case 2:
			if arr.Dims[1] != 2 {
				return nil, nil, pgerr.New(pgerr.ArraySubscriptError, "array must have two columns")
			}
		default:
			return nil, nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
		}
		for i := 0; i+1 < len(arr.Elems); i += 2 {
			if arr.Elems[i].Null {
				return nil, nil, pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for object key")
			}
			keys = append(keys, arr.Elems[i].S)
			vals = append(vals, arr.Elems[i+1])
		}
		return keys, vals, nil
	}
	ka, va := a[0].Arr, a[1].Arr
	if len(ka.Dims) > 1 || len(ka.Dims) != len(va.Dims) {
		return nil, nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	if len(ka.Elems) != len(va.Elems) {
		return nil, nil, pgerr.New(pgerr.ArraySubscriptError, "mismatched array dimensions")
	}
	for i, k := range ka.Elems {
		if k.Null {
			return nil, nil, pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for object key")
		}
		keys = append(keys, k.S)
		vals = append(vals, va.Elems[i])
	}
	return keys, vals, nil
}
