package types

import (
	"strings"

	"github.com/joind/joind/pgerr"
)

// json[b]_to_record and json[b]_to_recordset in FROM, with a column
// definition list (AS t(a int, b text)). As json_each, the call runs as one
// set-returning function per column (JSONToRecordColumns), each naming its
// key after the function's name and a separator; every column makes the
// same number of rows from the same document. A value converts as
// populate_record_field does (populateField, jsonpopulate.go).

var jsonToRecordFuncs = map[string]ID{
	"json_to_record": JSON, "jsonb_to_record": JSONB, "json_to_recordset": JSON, "jsonb_to_recordset": JSONB,
}

// jsonToRecordSep separates the function from the key in a column's name.
const jsonToRecordSep = "\x00"

// IsJSONToRecord reports whether name is one of json[b]_to_record[set].
func IsJSONToRecord(name string) bool { _, ok := jsonToRecordFuncs[normFuncName(name)]; return ok }

// JSONToRecordColumns is the FROM form of the call ov with the column
// definition list cols of types ts: one set-returning overload per column.
func JSONToRecordColumns(ov *Overload, cols []string, ts []Type) ([]*Overload, error) {
	out := make([]*Overload, len(cols))
	for i, c := range cols {
		o := *ov
		// in FROM, to_record too is a set (of one row)
		o.Name, o.Result, o.SetReturning = ov.Name+jsonToRecordSep+c, ts[i], true
		out[i] = &o
	}
	return out, nil
}

// jsonToRecordColumn splits a column overload's name.
func jsonToRecordColumn(name string) (fn, key string, ok bool) {
	fn, key, ok = strings.Cut(name, jsonToRecordSep)
	return fn, key, ok && jsonToRecordFuncs[fn] != 0
}

func registerJSONToRecord() {
	for name, id := range jsonToRecordFuncs {
		fn := regFn(name, []ID{id}, Record, func(*EvalContext, []Value) (Value, error) {
			return Value{}, pgerr.New(pgerr.FeatureNotSupported, "function returning record called in context that cannot accept type record")
		})
		fn.setReturning = strings.HasSuffix(name, "set")
	}
}

// jsonToRecordRows is one column's values over the call's document.
func jsonToRecordRows(fn, key string, t Type, args []Value, ctx *EvalContext) ([]Value, error) {
	id := jsonToRecordFuncs[fn]
	doc, err := jsonDoc(args[0], id)
	if err != nil {
		return nil, err
	}
	objs := []*jsonValue{doc}
	if strings.HasSuffix(fn, "set") {
		if doc.Kind != jsonArray {
			switch {
			case id == JSONB:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", fn)
			case doc.Kind == jsonObject:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on an object", fn)
			}
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", fn)
		}
		objs = doc.Elems
		for _, o := range objs {
			if o.Kind != jsonObject {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "argument of %s must be an array of objects", fn)
			}
		}
	} else if doc.Kind != jsonObject {
		what := "a scalar"
		if doc.Kind == jsonArray {
			what = "an array"
		}
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call populate_composite on %s", what)
	}
	out := make([]Value, len(objs))
	for i, o := range objs {
		v, err := populateField(ctx, objectField(o, key), id, t, key, NullValue)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
