package types

import "github.com/joind/joind/pgerr"

// The json set-returning functions of one output column:
// json[b]_array_elements[_text] and json[b]_object_keys. Their rows are
// computed whole from the argument (a document is one value) and the
// operators' lockstep steps through them (RowSet). json[b]_each[_text]
// return records (jsoneach.go), as json[b]_to_record[set] do in FROM
// (jsonrecord.go); jsonb_path_query is one of rowsFunctions
// (jsonpath_funcs.go).

var jsonSetFuncs = map[string]func(doc *jsonValue, id ID) ([]Value, error){}

// jsonFuncPrefix is the name prefix of a json (json_...) or jsonb
// (jsonb_...) function.
func jsonFuncPrefix(id ID) string {
	if id == JSONB {
		return "jsonb"
	}
	return "json"
}

func registerJSONSetFuncs() {
	for _, id := range []ID{JSON, JSONB} {
		id, prefix := id, jsonFuncPrefix(id)
		elements := func(text bool) func(doc *jsonValue, id ID) ([]Value, error) {
			name := prefix + "_array_elements"
			if text {
				name += "_text"
			}
			return func(doc *jsonValue, id ID) ([]Value, error) {
				switch {
				case doc.Kind == jsonArray:
				case id == JSON && doc.Kind == jsonObject:
					return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", name)
				case id == JSON:
					return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", name)
				case doc.Kind == jsonObject:
					return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from an object")
				default:
					return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from a scalar")
				}
				out := make([]Value, len(doc.Elems))
				for i, e := range doc.Elems {
					if text {
						out[i] = jsonOutText(e, id)
					} else {
						out[i] = jsonOut(e, id)
					}
				}
				return out, nil
			}
		}
		keysName := prefix + "_object_keys"
		reg := func(name string, result ID, rows func(doc *jsonValue, id ID) ([]Value, error)) {
			regFn(name, []ID{id}, result, notScalarSet).setReturning = true
			jsonSetFuncs[name] = rows
		}
		reg(prefix+"_array_elements", id, elements(false))
		reg(prefix+"_array_elements_text", Text, elements(true))
		setFuncOutNames[prefix+"_array_elements"] = "value"
		setFuncOutNames[prefix+"_array_elements_text"] = "value"
		reg(keysName, Text, func(doc *jsonValue, _ ID) ([]Value, error) {
			switch doc.Kind {
			case jsonObject:
			case jsonArray:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on an array", keysName)
			default:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", keysName)
			}
			out := make([]Value, len(doc.Keys))
			for i, k := range doc.Keys {
				out[i] = Value{S: k}
			}
			return out, nil
		})
	}
}

// setFuncOutNames is the name of the OUT parameter of the functions that
// have one: their column's name in FROM, whatever the alias.
var setFuncOutNames = map[string]string{}

// SetFuncOutName is the FROM column name of set-returning function name
// when its OUT parameter names it ("" when the alias does).
func SetFuncOutName(name string) string {
	if _, key, ok := jsonToRecordColumn(name); ok {
		return key
	}
	return setFuncOutNames[normFuncName(name)]
}

func notScalarSet(*EvalContext, []Value) (Value, error) {
	return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
}

// IsRowSetFunc reports whether name is a json set-returning function
// (its FROM binding names its columns as the json functions' OUT
// parameters do).
func IsRowSetFunc(name string) bool { return jsonSetFuncs[normFuncName(name)] != nil }

// RowSet is the rows of the set-returning call ov over its argument
// values, for every set-returning function but generate_series: the json
// ones and those of rowsFunctions (regexpsrf.go). They are strict: a NULL
// argument gives none (but for a non-strict Rows: ScalarInFrom).
func RowSet(ov *Overload, args []Value, ctx *EvalContext) ([]Value, error) {
	if _, ok := jsonPopulateFuncs[ov.Name]; ok {
		return populateRows(ctx, ov.Name, ov.Result, args) // not strict: a NULL base record is the usual call
	}
	for _, a := range args {
		if a.Null && (ov.Rows == nil || ov.Strict) {
			return nil, nil
		}
	}
	if ov.Rows != nil {
		return ov.Rows(ctx, args)
	}
	if fn := rowsFunctions[ov.Name]; fn != nil {
		return fn(args, ctx)
	}
	if fn, key, ok := jsonToRecordColumn(ov.Name); ok {
		return jsonToRecordRows(fn, key, ov.Result, args, ctx)
	}
	rows := jsonSetFuncs[ov.Name]
	if rows == nil {
		return nil, pgerr.New(pgerr.InternalError, "%s is not a row-set function", ov.Name)
	}
	doc, err := jsonDoc(args[0], ov.Args[0].ID)
	if err != nil {
		return nil, err
	}
	return rows(doc, ov.Args[0].ID)
}

// ScalarInFrom is the row source of a scalar expression in FROM (FROM
// lower('X'), FROM parse_ident(...)): one row holding its value, named
// name, as PostgreSQL's function scan of a function that returns no set.
func ScalarInFrom(name string, t Type) *Overload {
	return &Overload{Name: name, Args: []Type{t}, Result: t, Strict: false, SetReturning: true,
		Rows: func(_ *EvalContext, a []Value) ([]Value, error) { return []Value{a[0]}, nil }}
}
