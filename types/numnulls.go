package types

// num_nulls and num_nonnulls(VARIADIC "any"): how many arguments are
// (not) NULL; with VARIADIC, how many of the array's elements
// (variadic.go spreads them).
func init() {
	for _, name := range []string{"num_nulls", "num_nonnulls"} {
		countNulls := name == "num_nulls"
		b := &builtin{name: name, args: []ID{idAny}, variadic: true, result: Int4,
			eval: func(_ *EvalContext, a []Value) (Value, error) {
				n := 0
				for _, v := range a {
					if v.Null == countNulls {
						n++
					}
				}
				return Value{I: int64(n)}, nil
			}}
		functionTable[name] = append(functionTable[name], b)
	}
}
