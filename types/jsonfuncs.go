package types

import (
	"math"
	"strings"

	"github.com/joind/joind/pgerr"
)

// The json and jsonb operators and functions (PostgreSQL's jsonfuncs.c,
// json.c and jsonb.c), over the trees of json.go.

// jsonCastContext is pg_cast's rows for json and jsonb: json<->jsonb by
// assignment, jsonb to bool and the numeric types explicitly (the I/O
// conversions with the string types follow castContext's general rule).
func jsonCastContext(from, to ID) byte {
	switch {
	case from == JSON && to == JSONB, from == JSONB && to == JSON:
		return 'a'
	case from == JSONB:
		switch to {
		case Bool, Numeric, Int2, Int4, Int8, Float4, Float8:
			return 'e'
		}
	}
	return 0
}

// castFromJSON is the casts out of jsonb (and json -> jsonb).
func castFromJSON(v Value, from, to Type) (Value, error) {
	switch {
	case isStringID(to.ID) || to.ID == Unknown:
		return coerceString(v.S, to, true)
	case to.ID == JSON:
		return Value{S: v.S}, nil
	case to.ID == JSONB:
		if from.ID == JSONB {
			return v, nil
		}
		return parseJSONBInput(v.S)
	}
	j := jsonbTree(v.S)
	want := jsonNumber
	if to.ID == Bool {
		want = jsonBool
	}
	if j.Kind != want {
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot cast jsonb %s to type %s", jsonbKindName(j), to.BaseSQLName())
	}
	if to.ID == Bool {
		return BoolValue(j.Bool), nil
	}
	return CastValue(nil, Value{Num: j.Num}, NumericType, to, true)
}

// jsonbKindName is JsonbTypeName's word for the cast errors.
func jsonbKindName(v *jsonValue) string {
	switch v.Kind {
	case jsonNull:
		return "null"
	case jsonString:
		return "string"
	case jsonNumber:
		return "numeric"
	case jsonBool:
		return "boolean"
	case jsonArray:
		return "array"
	}
	return "object"
}

// typeofName is json_typeof's answer.
func typeofName(v *jsonValue) string {
	switch v.Kind {
	case jsonNumber:
		return "number"
	case jsonBool:
		return "boolean"
	}
	return jsonbKindName(v)
}

// jsonDoc is a json or jsonb argument read into its tree.
func jsonDoc(v Value, id ID) (*jsonValue, error) {
	if id == JSONB {
		return jsonbTree(v.S), nil
	}
	return jsonTree(v.S)
}

// jsonOut is a sub-value's text as a value of the document's type: json
// keeps the source text, jsonb prints it normalized.
func jsonOut(v *jsonValue, id ID) Value {
	if id == JSON && v.Raw != "" {
		return Value{S: v.Raw}
	}
	return Value{S: jsonbText(v)}
}

// jsonOutText is ->>'s text: a string's characters, SQL NULL for null.
func jsonOutText(v *jsonValue, id ID) Value {
	switch v.Kind {
	case jsonString:
		return Value{S: v.Str}
	case jsonNull:
		return NullValue
	}
	return jsonOut(v, id)
}

// objectField is the value under key (json: the last of repeated keys,
// as PostgreSQL's json_object_field finds it).
func objectField(v *jsonValue, key string) *jsonValue {
	if v.Kind != jsonObject {
		return nil
	}
	var found *jsonValue
	for i, k := range v.Keys {
		if k == key {
			found = v.Vals[i]
		}
	}
	return found
}

func arrayElement(v *jsonValue, i int64) *jsonValue {
	if v.Kind != jsonArray {
		return nil
	}
	n := int64(len(v.Elems))
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil
	}
	return v.Elems[i]
}

func registerJSON() {
	for _, id := range []ID{JSON, JSONB} {
		id := id
		get := func(text bool, byKey bool) evalFn {
			return func(_ *EvalContext, a []Value) (Value, error) {
				if byKey && id == JSONB {
					if v, ok := jsonbFieldByKey(a[0].S, a[1].S, text); ok {
						return v, nil
					}
				}
				doc, err := jsonDoc(a[0], id)
				if err != nil {
					return Value{}, err
				}
				var e *jsonValue
				switch {
				case byKey:
					e = objectField(doc, a[1].S)
				case id == JSONB:
					// A jsonb scalar is a one-element array to an index.
					arr, _ := asArray(doc)
					e = arrayElement(arr, a[1].I)
				default:
					e = arrayElement(doc, a[1].I)
				}
				if e == nil {
					return NullValue, nil
				}
				if text {
					return jsonOutText(e, id), nil
				}
				return jsonOut(e, id), nil
			}
		}
		regOp("->", []ID{id, Text}, id, get(false, true))
		regOp("->", []ID{id, Int4}, id, get(false, false))
		regOp("->>", []ID{id, Text}, Text, get(true, true))
		regOp("->>", []ID{id, Int4}, Text, get(true, false))
		prefix := "json"
		if id == JSONB {
			prefix = "jsonb"
		}
		regFn(prefix+"_typeof", []ID{id}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			doc, err := jsonDoc(a[0], id)
			if err != nil {
				return Value{}, err
			}
			return Value{S: typeofName(doc)}, nil
		})
		regFn(prefix+"_array_length", []ID{id}, Int4, func(_ *EvalContext, a []Value) (Value, error) {
			doc, err := jsonDoc(a[0], id)
			if err != nil {
				return Value{}, err
			}
			switch doc.Kind {
			case jsonArray:
				return Value{I: int64(len(doc.Elems))}, nil
			case jsonObject:
				return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a non-array")
			}
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a scalar")
		})
		regFn(prefix+"_strip_nulls", []ID{id}, id, func(_ *EvalContext, a []Value) (Value, error) {
			doc, err := jsonDoc(a[0], id)
			if err != nil {
				return Value{}, err
			}
			stripNulls(doc)
			if id == JSONB {
				return Value{S: jsonbText(doc)}, nil
			}
			return Value{S: string(appendStyled(nil, doc, styleCompact, 0))}, nil
		})
		path := func(text bool) evalFn {
			return func(_ *EvalContext, a []Value) (Value, error) {
				doc, err := jsonDoc(a[0], id)
				if err != nil {
					return Value{}, err
				}
				e := doc
				for _, k := range a[1:] {
					if k.Null {
						return NullValue, nil
					}
					e = pathStep(e, k.S)
					if e == nil {
						return NullValue, nil
					}
				}
				if text {
					return jsonOutText(e, id), nil
				}
				return jsonOut(e, id), nil
			}
		}
		ep := regFn(prefix+"_extract_path", []ID{id, Text}, id, path(false))
		ep.variadic, ep.strict = true, false
		ep = regFn(prefix+"_extract_path_text", []ID{id, Text}, Text, path(true))
		ep.variadic, ep.strict = true, false
	}
	for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
		op := op
		regOp(op, []ID{JSONB, JSONB}, Bool, func(_ *EvalContext, a []Value) (Value, error) {
			c := compareJSONB(a[0].S, a[1].S)
			var r bool
			switch op {
			case "=":
				r = c == 0
			case "<>":
				r = c != 0
			case "<":
				r = c < 0
			case "<=":
				r = c <= 0
			case ">":
				r = c > 0
			default:
				r = c >= 0
			}
			return BoolValue(r), nil
		})
	}
	contains := func(flip bool) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			l, r := jsonbTree(a[0].S), jsonbTree(a[1].S)
			if flip {
				l, r = r, l
			}
			return BoolValue(jsonbContainsTop(l, r)), nil
		}
	}
	regOp("@>", []ID{JSONB, JSONB}, Bool, contains(false))
	regOp("<@", []ID{JSONB, JSONB}, Bool, contains(true))
	regFn("jsonb_contains", []ID{JSONB, JSONB}, Bool, contains(false))
	regFn("jsonb_contained", []ID{JSONB, JSONB}, Bool, contains(true))
	exists := func(_ *EvalContext, a []Value) (Value, error) {
		return BoolValue(jsonbHasKey(jsonbTree(a[0].S), a[1].S)), nil
	}
	regOp("?", []ID{JSONB, Text}, Bool, exists)
	regFn("jsonb_exists", []ID{JSONB, Text}, Bool, exists)
	concat := func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: jsonbText(jsonbConcat(jsonbTree(a[0].S), jsonbTree(a[1].S)))}, nil
	}
	regOp("||", []ID{JSONB, JSONB}, JSONB, concat)
	regFn("jsonb_concat", []ID{JSONB, JSONB}, JSONB, concat)
	deleteKey := func(_ *EvalContext, a []Value) (Value, error) {
		v := jsonbTree(a[0].S)
		switch v.Kind {
		case jsonObject:
			out := &jsonValue{Kind: jsonObject}
			for i, k := range v.Keys {
				if k != a[1].S {
					out.Keys = append(out.Keys, k)
					out.Vals = append(out.Vals, v.Vals[i])
				}
			}
			return Value{S: jsonbText(out)}, nil
		case jsonArray:
			out := &jsonValue{Kind: jsonArray, Elems: []*jsonValue{}}
			for _, e := range v.Elems {
				if e.Kind != jsonString || e.Str != a[1].S {
					out.Elems = append(out.Elems, e)
				}
			}
			return Value{S: jsonbText(out)}, nil
		}
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
	}
	regOp("-", []ID{JSONB, Text}, JSONB, deleteKey)
	regFn("jsonb_delete", []ID{JSONB, Text}, JSONB, deleteKey)
	deleteIndex := func(_ *EvalContext, a []Value) (Value, error) {
		v := jsonbTree(a[0].S)
		switch v.Kind {
		case jsonObject:
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from object using integer index")
		case jsonArray:
			n := int64(len(v.Elems))
			i := a[1].I
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return a[0], nil
			}
			out := &jsonValue{Kind: jsonArray, Elems: append(append([]*jsonValue{}, v.Elems[:i]...), v.Elems[i+1:]...)}
			return Value{S: jsonbText(out)}, nil
		}
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
	}
	regOp("-", []ID{JSONB, Int4}, JSONB, deleteIndex)
	regFn("jsonb_delete", []ID{JSONB, Int4}, JSONB, deleteIndex)
	regFn("jsonb_pretty", []ID{JSONB}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return Value{S: string(appendStyled(nil, jsonbTree(a[0].S), stylePretty, 0))}, nil
	})
	// pg_column_size("any"): of a jsonb value a query computed, its
	// datum's size (JSONBDatumSize); of other types not yet (0A000). The
	// binder refuses a stored column's value, whose PostgreSQL size
	// depends on its storage (sql.checkColumnSizeArg).
	colSize := &builtin{name: "pg_column_size", args: []ID{idAny}, result: Int4, strict: true, stable: true}
	colSize.bind = func(at []Type) evalFn {
		return func(_ *EvalContext, a []Value) (Value, error) {
			if at[0].ID != JSONB {
				return Value{}, pgerr.New(pgerr.FeatureNotSupported, "pg_column_size of type %s is not supported", at[0].SQLName())
			}
			return IntValue(int64(JSONBDatumSize(a[0]))), nil
		}
	}
	functionTable["pg_column_size"] = append(functionTable["pg_column_size"], colSize)
	registerJSONConstructors()
}

// pathStep is one step of json_extract_path: a key of an object, or an
// array index written as an integer.
func pathStep(v *jsonValue, k string) *jsonValue {
	switch v.Kind {
	case jsonObject:
		return objectField(v, k)
	case jsonArray:
		i, ok := pathIndex(k)
		if !ok {
			return nil
		}
		return arrayElement(v, i)
	}
	return nil
}

func stripNulls(v *jsonValue) {
	switch v.Kind {
	case jsonArray:
		for _, e := range v.Elems {
			stripNulls(e)
		}
	case jsonObject:
		var keys []string
		var vals []*jsonValue
		for i, e := range v.Vals {
			if e.Kind == jsonNull {
				continue
			}
			stripNulls(e)
			keys = append(keys, v.Keys[i])
			vals = append(vals, e)
		}
		v.Keys, v.Vals = keys, vals
	}
}

func jsonbHasKey(v *jsonValue, key string) bool {
	switch v.Kind {
	case jsonObject:
		return objectField(v, key) != nil
	case jsonArray:
		for _, e := range v.Elems {
			if e.Kind == jsonString && e.Str == key {
				return true
			}
		}
		return false
	case jsonString:
		return v.Str == key // a raw scalar is an array of one
	}
	return false
}

// asArray is a top-level value as jsonb stores it: a scalar is a raw-scalar
// array of one element.
func asArray(v *jsonValue) (*jsonValue, bool) {
	if v.Kind < jsonArray {
		return &jsonValue{Kind: jsonArray, Elems: []*jsonValue{v}}, true
	}
	return v, false
}

// jsonbContainsTop is jsonb_contains: JsonbDeepContains over the roots.
func jsonbContainsTop(l, r *jsonValue) bool {
	la, lraw := asArray(l)
	ra, rraw := asArray(r)
	if la.Kind != ra.Kind {
		return false
	}
	if lraw && !rraw {
		return false
	}
	return jsonbContains(la, ra)
}

func jsonbContains(l, r *jsonValue) bool {
	if l.Kind != r.Kind {
		return false
	}
	switch l.Kind {
	case jsonObject:
		for i, k := range r.Keys {
			lv := objectField(l, k)
			if lv == nil {
				return false
			}
			rv := r.Vals[i]
			if rv.Kind < jsonArray {
				if lv.Kind != rv.Kind || compareJSONBValue(lv, rv) != 0 {
					return false
				}
			} else if !jsonbContains(lv, rv) {
				return false
			}
		}
		return true
	case jsonArray:
		for _, re := range r.Elems {
			found := false
			for _, le := range l.Elems {
				if re.Kind < jsonArray {
					found = le.Kind == re.Kind && compareJSONBValue(le, re) == 0
				} else {
					found = le.Kind == re.Kind && jsonbContains(le, re)
				}
				if found {
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return compareJSONBValue(l, r) == 0
}

// jsonbConcat is jsonb's ||: objects merge (the right side's keys win),
// anything else concatenates as arrays (a scalar or an object becoming an
// element).
func jsonbConcat(l, r *jsonValue) *jsonValue {
	if l.Kind == jsonObject && r.Kind == jsonObject {
		out := &jsonValue{Kind: jsonObject, Keys: append(append([]string{}, l.Keys...), r.Keys...),
			Vals: append(append([]*jsonValue{}, l.Vals...), r.Vals...)}
		normalizeJSONB(out)
		return out
	}
	elems := func(v *jsonValue) []*jsonValue {
		if v.Kind == jsonArray {
			return v.Elems
		}
		return []*jsonValue{v}
	}
	return &jsonValue{Kind: jsonArray, Elems: append(append([]*jsonValue{}, elems(l)...), elems(r)...)}
}

// ---- constructors ----

// jsonScalarText is datum_to_json for a value of type t: its JSON text.
// asKey quotes every scalar, as an object key must be.
func jsonScalarText(ctx *EvalContext, dst []byte, v Value, t Type, asKey bool) []byte {
	if v.Null {
		return append(dst, "null"...)
	}
	switch t.ID {
	case JSON, JSONB:
		return append(dst, v.S...)
	case Bool:
		s := "false"
		if v.I != 0 {
			s = "true"
		}
		if asKey {
			return escapeJSON(dst, s)
		}
		return append(dst, s...)
	case Int2, Int4, Int8, Float4, Float8, Numeric:
		s := string(FormatText(nil, v, t, ctxFormat(ctx)))
		if asKey || !validJSONNumber(s) {
			return escapeJSON(dst, s)
		}
		return append(dst, s...)
	case Date, Timestamp, TimestampTZ:
		return escapeJSON(dst, jsonDateTime(ctx, v, t))
	case Array:
		return appendJSONArray(ctx, dst, v.Arr, t.ElemType(), false)
	case Record:
		return appendJSONRecord(ctx, dst, v, t, false)
	}
	return escapeJSON(dst, anyToText(ctx, v, t))
}

func validJSONNumber(s string) bool {
	end, bad := lexNumber(s, 0)
	return !bad && end == len(s) && s != ""
}

// jsonDateTime is JsonEncodeDateTime: XSD form, 2020-01-02T03:04:05+00:00.
func jsonDateTime(ctx *EvalContext, v Value, t Type) string {
	switch {
	case t.ID == Date && (v.I == math.MinInt32 || v.I == math.MaxInt32),
		t.ID != Date && (v.I == math.MinInt64 || v.I == math.MaxInt64):
		return string(FormatText(nil, v, t, nil))
	}
	f := Format{DateStyle: "ISO, MDY", IntervalStyle: "postgres", ExtraFloatDigits: 1}
	if c := ctxFormat(ctx); c != nil {
		f.TimeZone = c.TimeZone
	}
	s := string(FormatText(nil, v, t, &f))
	if t.ID == Date {
		return s
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i] + "T" + s[i+1:]
	}
	if t.ID == TimestampTZ {
		bc := strings.HasSuffix(s, " BC")
		s = strings.TrimSuffix(s, " BC")
		if i := strings.LastIndexAny(s, "+-"); i > 10 && len(s)-i == 3 {
			s += ":00"
		}
		if bc {
			s += " BC"
		}
	}
	return s
}

// toJSONBValue is datum_to_jsonb: a value of type t as a jsonb tree.
func toJSONBValue(ctx *EvalContext, v Value, t Type) *jsonValue {
	if v.Null {
		return &jsonValue{Kind: jsonNull}
	}
	switch t.ID {
	case JSONB:
		return jsonbTree(v.S)
	case JSON:
		j, err := parseJSONBText(v.S)
		if err != nil {
			return &jsonValue{Kind: jsonNull}
		}
		return j
	case Bool:
		return &jsonValue{Kind: jsonBool, Bool: v.I != 0}
	case Int2, Int4, Int8, Float4, Float8, Numeric:
		s := string(FormatText(nil, v, t, ctxFormat(ctx)))
		if validJSONNumber(s) {
			if d, err := parseNumeric(s); err == nil {
				return &jsonValue{Kind: jsonNumber, Num: d}
			}
		}
		return &jsonValue{Kind: jsonString, Str: s}
	case Date, Timestamp, TimestampTZ:
		return &jsonValue{Kind: jsonString, Str: jsonDateTime(ctx, v, t)}
	case Array:
		return jsonbArrayTree(ctx, v.Arr, t.ElemType())
	case Record:
		return jsonbRecordTree(ctx, v, t)
	}
	return &jsonValue{Kind: jsonString, Str: anyToText(ctx, v, t)}
}

func jsonKeyError(t Type) error {
	if t.ID == JSON || t.ID == JSONB || t.ID == Array || t.ID == Record {
		return pgerr.New(pgerr.InvalidParameterValue, "key value must be scalar, not array, composite, or json")
	}
	return nil
}

func registerJSONConstructors() {
	reg := func(name string, result ID, variadic, strict bool, bind func(args []Type) evalFn) {
		b := &builtin{name: name, args: []ID{idAny}, variadic: variadic, result: result, strict: strict, stable: true, bind: bind}
		functionTable[name] = append(functionTable[name], b)
	}
	for _, id := range []ID{JSON, JSONB} {
		id, prefix := id, jsonFuncPrefix(id)
		reg("to_"+prefix, id, false, true, func(args []Type) evalFn {
			return func(ctx *EvalContext, a []Value) (Value, error) {
				if id == JSON {
					return Value{S: string(jsonScalarText(ctx, nil, a[0], args[0], false))}, nil
				}
				return Value{S: jsonbText(toJSONBValue(ctx, a[0], args[0]))}, nil
			}
		})
		empty := "{}"
		if id == JSON {
			empty = "{}"
		}
		regFn(prefix+"_build_object", nil, id, func(*EvalContext, []Value) (Value, error) { return Value{S: empty}, nil }).strict = false
		regFn(prefix+"_build_array", nil, id, func(*EvalContext, []Value) (Value, error) { return Value{S: "[]"}, nil }).strict = false
		reg(prefix+"_build_object", id, true, false, func(args []Type) evalFn {
			return func(ctx *EvalContext, a []Value) (Value, error) {
				if len(a)%2 != 0 {
					return Value{}, pgerr.New(pgerr.InvalidParameterValue, "argument list must have even number of elements").
						WithHint("The arguments of %s_build_object() must consist of alternating keys and values.", prefix)
				}
				if id == JSONB {
					obj := &jsonValue{Kind: jsonObject}
					for i := 0; i < len(a); i += 2 {
						if a[i].Null {
							return Value{}, pgerr.New(pgerr.InvalidParameterValue, "argument %d: key must not be null", i+1)
						}
						if err := jsonKeyError(args[i]); err != nil {
							return Value{}, err
						}
						obj.Keys = append(obj.Keys, keyText(ctx, a[i], args[i]))
						obj.Vals = append(obj.Vals, toJSONBValue(ctx, a[i+1], args[i+1]))
					}
					normalizeJSONB(obj)
					return Value{S: jsonbText(obj)}, nil
				}
				dst := []byte{'{'}
				for i := 0; i < len(a); i += 2 {
					if a[i].Null {
						return Value{}, pgerr.New(pgerr.InvalidParameterValue, "argument %d cannot be null", i+1).WithHint("Object keys should be text.")
					}
					if err := jsonKeyError(args[i]); err != nil {
						return Value{}, err
					}
					if i > 0 {
						dst = append(dst, ", "...)
					}
					dst = jsonScalarText(ctx, dst, a[i], args[i], true)
					dst = append(dst, " : "...)
					dst = jsonScalarText(ctx, dst, a[i+1], args[i+1], false)
				}
				return Value{S: string(append(dst, '}'))}, nil
			}
		})
		reg(prefix+"_build_array", id, true, false, func(args []Type) evalFn {
			return func(ctx *EvalContext, a []Value) (Value, error) {
				if id == JSONB {
					arr := &jsonValue{Kind: jsonArray, Elems: []*jsonValue{}}
					for i := range a {
						arr.Elems = append(arr.Elems, toJSONBValue(ctx, a[i], args[i]))
					}
					return Value{S: jsonbText(arr)}, nil
				}
				dst := []byte{'['}
				for i := range a {
					if i > 0 {
						dst = append(dst, ", "...)
					}
					dst = jsonScalarText(ctx, dst, a[i], args[i], false)
				}
				return Value{S: string(append(dst, ']'))}, nil
			}
		})
	}
}

// keyText is an object key's characters from a value of type t.
func keyText(ctx *EvalContext, v Value, t Type) string {
	if t.ID == Bool {
		if v.I != 0 {
			return "true"
		}
		return "false"
	}
	if t.ID == Date || t.ID == Timestamp || t.ID == TimestampTZ {
		return jsonDateTime(ctx, v, t)
	}
	return anyToText(ctx, v, t)
}

func init() {
	registerJSON()
	registerJSONAggregates()
	registerJSONSetFuncs()
	registerJSONPathOps()
	registerJSONEach()
	registerJSONComposites()
	registerJSONToRecord()
	registerJSONPopulate()
}

// anyElementFuncs take anyelement, not "any": PostgreSQL cannot resolve
// an unknown literal for them.
var anyElementFuncs = map[string]bool{"to_json": true, "to_jsonb": true, "json_agg": true, "jsonb_agg": true}

func checkAnyElement(name string, args []Type) error {
	if recordArgFuncs[name] && args[0].ID != Record { // jsoncomposite.go
		return funcError(name, args, false)
	}
	if !anyElementFuncs[name] {
		return nil
	}
	for _, a := range args {
		if a.ID == Unknown {
			return pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
		}
	}
	return nil
}
