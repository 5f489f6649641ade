package types

import "github.com/joind/joind/pgerr"

// The SQL functions and operators over jsonpath (jsonpath_exec.c's
// jsonb_path_*): exists, match, query (a set-returning function),
// query_array and query_first, each with optional vars (default '{}') and
// silent (default false) and a _tz twin; @? and @@ are exists and match
// with silent true. The _tz twins let datetime items compare across time
// zones (through the session's), and are stable for it.

var jsonPathParams = []string{"target", "path", "vars", "silent"}

// jsonPathCall reads a call's arguments: the document, the path, the vars
// object and whether errors are suppressed.
func jsonPathCall(a []Value, silentDefault bool) (doc *jsonValue, jp *jsonPath, vars *jsonValue, silent bool, err error) {
	doc = jsonbTree(a[0].S)
	if jp, err = parseJSONPath(a[1].S); err != nil {
		return
	}
	silent = silentDefault
	if len(a) > 2 {
		vars = jsonbTree(a[2].S)
	}
	if len(a) > 3 {
		silent = a[3].I != 0
	}
	return
}

func jsonPathExists(silentDefault, useTz bool) evalFn {
	return func(ctx *EvalContext, a []Value) (Value, error) {
		doc, jp, vars, silent, err := jsonPathCall(a, silentDefault)
		if err != nil {
			return Value{}, err
		}
		res, err := executeJSONPath(ctx, jp, vars, doc, !silent, useTz, nil)
		if err != nil {
			return Value{}, err
		}
		if res == jperError {
			return NullValue, nil
		}
		return BoolValue(res == jperOk), nil
	}
}

func jsonPathMatch(silentDefault, useTz bool) evalFn {
	return func(ctx *EvalContext, a []Value) (Value, error) {
		doc, jp, vars, silent, err := jsonPathCall(a, silentDefault)
		if err != nil {
			return Value{}, err
		}
		var found []*jsonValue
		res, err := executeJSONPath(ctx, jp, vars, doc, !silent, useTz, &found)
		if err != nil {
			return Value{}, err
		}
		if res != jperError && len(found) == 1 {
			switch found[0].Kind {
			case jsonBool:
				return BoolValue(found[0].Bool), nil
			case jsonNull:
				return NullValue, nil
			}
		}
		if !silent {
			return Value{}, pgerr.New(codeSingletonRequired, "single boolean result is expected")
		}
		return NullValue, nil
	}
}

// jsonPathItems is the items a path yields (what a silent call collected
// before an error), datetime items printed as strings.
func jsonPathItems(ctx *EvalContext, a []Value, useTz bool) ([]*jsonValue, error) {
	doc, jp, vars, silent, err := jsonPathCall(a, false)
	if err != nil {
		return nil, err
	}
	var found []*jsonValue
	if _, err := executeJSONPath(ctx, jp, vars, doc, !silent, useTz, &found); err != nil {
		return nil, err
	}
	return jsonPathResults(found), nil
}

func jsonPathQueryRows(useTz bool) func([]Value, *EvalContext) ([]Value, error) {
	return func(vals []Value, ctx *EvalContext) ([]Value, error) {
		found, err := jsonPathItems(ctx, vals, useTz)
		if err != nil {
			return nil, err
		}
		out := make([]Value, len(found))
		for i, v := range found {
			out[i] = Value{S: jsonbText(v)}
		}
		return out, nil
	}
}

func init() {
	for _, tz := range []string{"", "_tz"} {
		useTz := tz != ""
		reg := func(name string, result ID, eval evalFn) []*builtin {
			var bs []*builtin
			for n := 2; n <= 4; n++ {
				bs = append(bs, regFn(name+tz, []ID{JSONB, JSONPath, JSONB, Bool}[:n], result, eval))
			}
			bs[2].withParams(jsonPathParams, Value{S: "{}"}, BoolValue(false))
			return bs
		}
		reg("jsonb_path_exists", Bool, jsonPathExists(false, useTz))
		reg("jsonb_path_match", Bool, jsonPathMatch(false, useTz))
		reg("jsonb_path_query_array", JSONB, func(ctx *EvalContext, a []Value) (Value, error) {
			found, err := jsonPathItems(ctx, a, useTz)
			if err != nil {
				return Value{}, err
			}
			return Value{S: jsonbText(&jsonValue{Kind: jsonArray, Elems: append([]*jsonValue{}, found...)})}, nil
		})
		reg("jsonb_path_query_first", JSONB, func(ctx *EvalContext, a []Value) (Value, error) {
			found, err := jsonPathItems(ctx, a, useTz)
			if err != nil {
				return Value{}, err
			}
			if len(found) == 0 {
				return NullValue, nil
			}
			return Value{S: jsonbText(found[0])}, nil
		})
		for _, b := range reg("jsonb_path_query", JSONB, notScalarSet) {
			b.setReturning = true
		}
		rowsFunctions["jsonb_path_query"+tz] = jsonPathQueryRows(useTz)
	}
	regOp("@?", []ID{JSONB, JSONPath}, Bool, jsonPathExists(true, false))
	regOp("@@", []ID{JSONB, JSONPath}, Bool, jsonPathMatch(true, false))
}
