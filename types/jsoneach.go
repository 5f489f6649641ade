package types

import "github.com/joind/joind/pgerr"

// json[b]_each and json[b]_each_text return (key text, value json[b] or
// text) records. In a SELECT list a row is the record's record_out text;
// in FROM the call is run as one set-returning function per column
// (RecordSetColumns), which the lockstep keeps row-aligned since each
// makes the same number of rows from the same document.

var (
	jsonEachTypes = map[string][]Type{}    // function -> its (key, value) types
	jsonEachCols  = map[string][2]string{} // function -> its column functions
)

func registerJSONEach() {
	for _, id := range []ID{JSON, JSONB} {
		id, prefix := id, jsonFuncPrefix(id)
		for _, text := range []bool{false, true} {
			name := prefix + "_each"
			valT := Type{ID: id, Typmod: -1}
			if text {
				name += "_text"
				valT = TextType
			}
			name, text := name, text
			check := func(doc *jsonValue) error {
				switch {
				case doc.Kind == jsonObject:
					return nil
				case id == JSONB:
					return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-object", name)
				case doc.Kind == jsonArray:
					return pgerr.New(pgerr.InvalidParameterValue, "cannot deconstruct an array as an object")
				}
				return pgerr.New(pgerr.InvalidParameterValue, "cannot deconstruct a scalar")
			}
			value := func(v *jsonValue) Value {
				if text {
					return jsonOutText(v, id)
				}
				return jsonOut(v, id)
			}
			ts := []Type{TextType, valT}
			jsonEachTypes[name] = ts
			rt := RecordOf(RecordDesc{Fields: []string{"key", "value"}, Types: ts})
			fn := regFn(name, []ID{id}, Record, notScalarSet)
			fn.setReturning, fn.recordResult = true, &rt
			jsonSetFuncs[name] = func(doc *jsonValue, _ ID) ([]Value, error) {
				if err := check(doc); err != nil {
					return nil, err
				}
				out := make([]Value, len(doc.Keys))
				for i, k := range doc.Keys {
					out[i] = Value{S: FormatRecord([]Value{{S: k}, value(doc.Vals[i])}, ts, nil)}
				}
				return out, nil
			}
			var cols [2]string
			for field, col := range []string{"key", "value"} {
				field, part := field, name+"."+col
				cols[field] = part
				setFuncOutNames[part] = col
				jsonSetFuncs[part] = func(doc *jsonValue, _ ID) ([]Value, error) {
					if err := check(doc); err != nil {
						return nil, err
					}
					out := make([]Value, len(doc.Keys))
					for i, k := range doc.Keys {
						if field == 0 {
							out[i] = Value{S: k}
						} else {
							out[i] = value(doc.Vals[i])
						}
					}
					return out, nil
				}
			}
			jsonEachCols[name] = cols
		}
	}
}

// RecordSetColumns is the FROM form of a set-returning call ov whose rows
// are records: one set-returning overload per column, in order (nil when
// ov returns no record).
func RecordSetColumns(ov *Overload) []*Overload {
	cols, ok := jsonEachCols[ov.Name]
	if !ok {
		return nil
	}
	out := make([]*Overload, len(cols))
	for i, c := range cols {
		o := *ov
		o.Name, o.Result = c, jsonEachTypes[ov.Name][i]
		out[i] = &o
	}
	return out
}
