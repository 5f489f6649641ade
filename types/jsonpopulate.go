package types

import (
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// json[b]_populate_record and json[b]_populate_recordset (PostgreSQL's
// populate_record_worker / populate_recordset_worker, jsonfuncs.c): the
// first argument's record type, its value (unless NULL) supplying the
// fields an object does not name. Each field converts as
// populate_record_field does, shared with json[b]_to_record:
//   - a JSON null or (with no base record) a missing key: SQL NULL;
//   - a JSON string into an array or record: that type's input function;
//   - an array column: populate_array, the JSON array's nesting giving the
//     dimensions (all sub-arrays alike), each element converted in turn;
//   - a record column: populate_composite, from a JSON object;
//   - json and jsonb columns: the value itself;
//   - any other: the input function of the value's text (a string's
//     characters; json: a value's source text; jsonb: its printed form);
//   - a domain: its base type's conversion, then NOT NULL (a CHECK
//     constraint cannot be evaluated here and is refused, 0A000).
//
// In FROM the calls are set-returning functions of the record type
// (JSONPopulateInFrom), a one-row set for populate_record, a column
// definition list naming the record of a NULL::record argument.

var jsonPopulateFuncs = map[string]ID{
	"json_populate_record": JSON, "jsonb_populate_record": JSONB,
	"json_populate_recordset": JSON, "jsonb_populate_recordset": JSONB,
}

// IsJSONPopulate reports whether name is one of json[b]_populate_record[set].
func IsJSONPopulate(name string) bool { _, ok := jsonPopulateFuncs[normFuncName(name)]; return ok }

// JSONPopulateInFrom is the FROM form of the populate call ov producing
// records of type rt: a set-returning overload RowSet computes.
func JSONPopulateInFrom(ov *Overload, rt Type) *Overload {
	o := *ov
	o.Result, o.SetReturning = rt, true
	return &o
}

func registerJSONPopulate() {
	for name, id := range jsonPopulateFuncs {
		name, id := name, id
		set := strings.HasSuffix(name, "set")
		sigs := [][]ID{{idAnyElement, id}}
		if id == JSON {
			// use_json_as_text is accepted and, as in PostgreSQL, ignored.
			sigs = append(sigs, []ID{idAnyElement, id, Bool})
		}
		for _, args := range sigs {
			fn := &builtin{name: name, args: args, result: idAnyElement, stable: true, setReturning: set,
				bind: func(at []Type) evalFn {
					return func(ctx *EvalContext, a []Value) (Value, error) {
						if set {
							return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-valued function called in context that cannot accept a set")
						}
						rows, err := populateRows(ctx, name, at[0], a)
						if err != nil || len(rows) == 0 {
							return NullValue, err
						}
						return rows[0], nil
					}
				}}
			functionTable[name] = append(functionTable[name], fn)
		}
	}
}

// populateRows is the call's records of type rt over its arguments (base
// record, document): one for populate_record, one per array element for
// populate_recordset.
func populateRows(ctx *EvalContext, fn string, rt Type, a []Value) ([]Value, error) {
	id := jsonPopulateFuncs[fn]
	set := strings.HasSuffix(fn, "set")
	if rt.Domain != 0 {
		// A domain over a composite: records of the composite, each
		// checked against the domain.
		rows, err := populateRows(ctx, fn, rt.BaseType(), a)
		if err != nil {
			return nil, err
		}
		for i, r := range rows {
			if rows[i], err = checkDomainValue(ctx, rt, r); err != nil {
				return nil, err
			}
		}
		return rows, nil
	}
	if rt.ID != Record {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "first argument of %s must be a row type", fn)
	}
	base, doc := a[0], a[1]
	if rt.Desc() == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "could not determine row type for result of %s", fn).
			WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list.")
	}
	if doc.Null {
		if set || base.Null {
			return nil, nil
		}
		return []Value{base}, nil
	}
	tree, err := jsonDoc(doc, id)
	if err != nil {
		return nil, err
	}
	if !set {
		v, err := populateComposite(ctx, tree, id, rt, base)
		if err != nil {
			return nil, err
		}
		return []Value{v}, nil
	}
	if tree.Kind != jsonArray {
		switch {
		case id == JSONB:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", fn)
		case tree.Kind == jsonObject:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on an object", fn)
		}
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", fn)
	}
	out := make([]Value, 0, len(tree.Elems))
	for _, o := range tree.Elems {
		if o.Kind != jsonObject {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "argument of %s must be an array of objects", fn)
		}
		v, err := populateComposite(ctx, o, id, rt, base)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// populateComposite is populate_composite: a record of type t from the
// JSON object obj, the fields it does not name taken from def (when not
// NULL).
func populateComposite(ctx *EvalContext, obj *jsonValue, id ID, t Type, def Value) (Value, error) {
	if obj.Kind != jsonObject {
		what := "a scalar"
		if obj.Kind == jsonArray {
			what = "an array"
		}
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "cannot call populate_composite on %s", what)
	}
	d := t.Desc()
	if d == nil {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	if !def.Null && len(obj.Keys) == 0 {
		return def, nil
	}
	f := ctxFormat(ctx)
	vals := make([]Value, len(d.Types))
	if def.Null {
		for i := range vals {
			vals[i] = NullValue
		}
	} else {
		var err error
		if vals, err = ParseRecordFields(def.S, t, f); err != nil {
			return Value{}, err
		}
	}
	for i, name := range d.Fields {
		jv := objectField(obj, name)
		if jv == nil && !def.Null {
			continue
		}
		v, err := populateField(ctx, jv, id, d.Types[i], name, vals[i])
		if err != nil {
			return Value{}, err
		}
		vals[i] = v
	}
	return Value{S: FormatRecord(vals, d.Types, f)}, nil
}

// populateField is populate_record_field: the value of type t from jv
// (nil: a missing key) of a document of type id. colname names the key
// in array errors ("" for an array's element); def is a record field's
// previous value.
func populateField(ctx *EvalContext, jv *jsonValue, id ID, t Type, colname string, def Value) (Value, error) {
	if t.Domain != 0 {
		v, err := populateField(ctx, jv, id, t.BaseType(), colname, def)
		if err != nil {
			return Value{}, err
		}
		return checkDomainValue(ctx, t, v)
	}
	if jv == nil || jv.Kind == jsonNull {
		return NullValue, nil
	}
	composite := t.ID == Array || t.ID == Record && t.Desc() != nil
	switch {
	case jv.Kind == jsonString && composite:
		return castFromString(ctx, jv.Str, t, false)
	case t.ID == Array:
		return populateArray(ctx, jv, id, t, colname)
	case t.ID == Record && t.Desc() != nil:
		return populateComposite(ctx, jv, id, t, def)
	}
	return populateScalar(ctx, jv, id, t)
}

// populateScalar is populate_scalar: the input function of the value's
// text.
func populateScalar(ctx *EvalContext, jv *jsonValue, id ID, t Type) (Value, error) {
	toJSON := t.ID == JSON || t.ID == JSONB
	var s string
	switch {
	case id == JSONB && t.ID == JSONB:
		return Value{S: jsonbText(jv)}, nil
	case jv.Kind == jsonString && toJSON:
		s = string(escapeJSON(nil, jv.Str))
	case jv.Kind == jsonString:
		s = jv.Str
	default:
		s = jsonOut(jv, id).S
	}
	return castFromString(ctx, s, t, false)
}

// arrayPopulation is populate_array's PopulateArrayContext: the
// dimensions found so far (ndims 0 until the first non-array value or
// empty array tells) and the elements in order.
type arrayPopulation struct {
	ctx     *EvalContext
	id      ID
	elem    Type
	colname string
	ndims   int
	dims    []int // -1: not known yet
	sizes   []int // elements so far at each level
	elems   []Value
}

// populateArray is populate_array: an array of type t from the JSON value
// jv.
func populateArray(ctx *EvalContext, jv *jsonValue, id ID, t Type, colname string) (Value, error) {
	p := &arrayPopulation{ctx: ctx, id: id, elem: t.ElemType(), colname: colname}
	if err := p.dim(jv, 1); err != nil {
		return Value{}, err
	}
	p.dims[0] = p.sizes[0]
	out := &ArrayValue{}
	for _, n := range p.dims {
		if n == 0 {
			return Value{Arr: &ArrayValue{}}, nil
		}
	}
	for _, n := range p.dims {
		out.Dims = append(out.Dims, int32(n))
		out.Lbound = append(out.Lbound, 1)
	}
	out.Elems = p.elems
	return Value{Arr: out}, nil
}

// expected is populate_array_report_expected_array: a non-array where
// level ndim's array (0: the value itself) was expected.
func (p *arrayPopulation) expected(ndim int) error {
	err := pgerr.New(pgerr.InvalidTextRepresentation, "expected JSON array")
	if ndim <= 0 {
		if p.colname != "" {
			return err.WithHint("See the value of key \"%s\".", p.colname)
		}
		return err
	}
	var idx strings.Builder
	for i := 0; i < ndim; i++ {
		idx.WriteString("[" + strconv.Itoa(p.sizes[i]) + "]")
	}
	if p.colname != "" {
		return err.WithHint("See the array element %s of key \"%s\".", idx.String(), p.colname)
	}
	return err.WithHint("See the array element %s.", idx.String())
}

func (p *arrayPopulation) assignNdims(n int) error {
	if n <= 0 {
		return p.expected(n)
	}
	p.ndims = n
	p.dims, p.sizes = make([]int, n), make([]int, n)
	for i := range p.dims {
		p.dims[i] = -1
	}
	return nil
}

// checkDim is populate_array_check_dimension after a sub-array at level
// ndim+1 ends.
func (p *arrayPopulation) checkDim(ndim int) error {
	n := p.sizes[ndim]
	if p.dims[ndim] == -1 {
		p.dims[ndim] = n
	} else if p.dims[ndim] != n {
		return pgerr.New(pgerr.InvalidTextRepresentation, "malformed JSON array").
			WithDetail("Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	p.sizes[ndim] = 0
	if ndim > 0 {
		p.sizes[ndim-1]++
	}
	return nil
}

// dim is populate_array_dim_jsonb: the array jv at level ndim.
func (p *arrayPopulation) dim(jv *jsonValue, ndim int) error {
	if jv.Kind != jsonArray {
		return p.expected(ndim - 1)
	}
	if p.ndims <= 0 && (len(jv.Elems) == 0 || jv.Elems[0].Kind != jsonArray) {
		if err := p.assignNdims(ndim); err != nil {
			return err
		}
	}
	for _, e := range jv.Elems {
		if p.ndims > 0 && ndim >= p.ndims {
			v, err := populateField(p.ctx, e, p.id, p.elem, "", NullValue)
			if err != nil {
				return err
			}
			p.elems = append(p.elems, v)
			p.sizes[ndim-1]++
			continue
		}
		if err := p.dim(e, ndim+1); err != nil {
			return err
		}
		if err := p.checkDim(ndim); err != nil {
			return err
		}
	}
	return nil
}
