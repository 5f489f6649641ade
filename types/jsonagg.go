package types

import "github.com/joind/joind/pgerr"

// json_agg, jsonb_agg, json_object_agg and jsonb_object_agg: not strict (a
// NULL value is JSON null), NULL over no rows. Their ORDER BY runs through
// the ordered-aggregate path, which feeds a fresh accumulator in order;
// Merge concatenates partitions' partial results.

// jsonAggAcc collects the elements (json_agg: the text of each; jsonb_agg
// and the object aggregates: the values) of one group.
type jsonAggAcc struct {
	ctx    *EvalContext
	args   []Type
	binary bool // jsonb
	object bool // *_object_agg
	keys   []string
	vals   []*jsonValue // jsonb
	texts  [][]byte     // json: each element's (or value's) text
	n      int
}

func (a *jsonAggAcc) Add(args []Value) error {
	if a.object {
		if args[0].Null {
			return pgerr.New(pgerr.InvalidParameterValue, "field name must not be null")
		}
		if err := jsonKeyError(a.args[0]); err != nil {
			return err
		}
		if a.binary {
			a.keys = append(a.keys, keyText(a.ctx, args[0], a.args[0]))
		} else {
			a.keys = append(a.keys, string(jsonScalarText(a.ctx, nil, args[0], a.args[0], true)))
		}
		args = args[1:]
	}
	t := a.args[len(a.args)-1]
	if a.binary {
		a.vals = append(a.vals, toJSONBValue(a.ctx, args[0], t))
	} else {
		a.texts = append(a.texts, jsonScalarText(a.ctx, nil, args[0], t, false))
	}
	a.n++
	return nil
}

func (a *jsonAggAcc) Merge(other Accumulator) error {
	b, ok := other.(*jsonAggAcc)
	if !ok {
		return errAggMerge()
	}
	a.keys = append(a.keys, b.keys...)
	a.vals = append(a.vals, b.vals...)
	a.texts = append(a.texts, b.texts...)
	a.n += b.n
	return nil
}

func (a *jsonAggAcc) Result() (Value, error) {
	if a.n == 0 {
		return NullValue, nil
	}
	switch {
	case a.binary && a.object:
		obj := &jsonValue{Kind: jsonObject, Keys: a.keys, Vals: a.vals}
		normalizeJSONB(obj)
		return Value{S: jsonbText(obj)}, nil
	case a.binary:
		return Value{S: jsonbText(&jsonValue{Kind: jsonArray, Elems: a.vals})}, nil
	case a.object:
		// json_object_agg's spacing: { "k" : v, "k2" : v2 }
		dst := []byte("{ ")
		for i, k := range a.keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, k...)
			dst = append(dst, " : "...)
			dst = append(dst, a.texts[i]...)
		}
		return Value{S: string(append(dst, " }"...))}, nil
	}
	// json_agg_transfn puts a line feed before each later non-null array
	// or record (a NULL one prints as null).
	structured := a.args[0].ID == Array || a.args[0].ID == Record
	dst := []byte{'['}
	for i, t := range a.texts {
		if i > 0 {
			dst = append(dst, ", "...)
			if structured && string(t) != "null" {
				dst = append(dst, "\n "...)
			}
		}
		dst = append(dst, t...)
	}
	return Value{S: string(append(dst, ']'))}, nil
}

func registerJSONAggregates() {
	for _, agg := range []struct {
		name           string
		result         ID
		binary, object bool
	}{
		{"json_agg", JSON, false, false}, {"jsonb_agg", JSONB, true, false},
		{"json_object_agg", JSON, false, true}, {"jsonb_object_agg", JSONB, true, true},
	} {
		agg := agg
		args := []ID{idAny}
		if agg.object {
			args = []ID{idAny, idAny}
		}
		regAgg(agg.name, args, agg.result, func() Accumulator { return &jsonAggAcc{binary: agg.binary, object: agg.object} })
		typedAcc[agg.name] = func(at []Type) Accumulator {
			return &jsonAggAcc{args: at, binary: agg.binary, object: agg.object}
		}
	}
}

// SessionAccumulator is an Accumulator whose result reads the session's
// settings (the json aggregates print timestamptz in its TimeZone).
type SessionAccumulator interface {
	Accumulator
	SetSession(ctx *EvalContext)
}

func (a *jsonAggAcc) SetSession(ctx *EvalContext) { a.ctx = ctx }

// WithSession is o with accumulators that see ctx (o itself when ctx is
// nil).
func (o *AggOverload) WithSession(ctx *EvalContext) *AggOverload {
	if ctx == nil || o == nil || o.New == nil {
		return o
	}
	c := *o
	inner := o.New
	c.New = func() Accumulator {
		a := inner()
		if s, ok := a.(SessionAccumulator); ok {
			s.SetSession(ctx)
		}
		return a
	}
	return &c
}
