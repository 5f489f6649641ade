package types

import "github.com/joind/joind/pgerr"

// current_setting() and set_config() read and write the session's settings
// through EvalContext.Settings when they run, so a set_config earlier in a
// query is seen by a current_setting after it, as in PostgreSQL. Both are
// volatile: never folded at plan time.
func init() {
	current := func(ctx *EvalContext, name string, missingOK bool) (Value, error) {
		if ctx == nil || ctx.Settings == nil {
			if missingOK {
				return NullValue, nil
			}
			return Value{}, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
		}
		v, ok, err := ctx.Settings.Current(name, missingOK)
		if err != nil || !ok {
			return NullValue, err
		}
		return TextValue(v), nil
	}
	b := regFn("current_setting", []ID{Text}, Text, func(ctx *EvalContext, a []Value) (Value, error) {
		return current(ctx, a[0].S, false)
	})
	b.volatile = true
	b = regFn("current_setting", []ID{Text, Bool}, Text, func(ctx *EvalContext, a []Value) (Value, error) {
		return current(ctx, a[0].S, a[1].I != 0)
	})
	b.volatile = true
	// set_config is not strict: a NULL value resets, a NULL is_local is false.
	b = regFn("set_config", []ID{Text, Text, Bool}, Text, func(ctx *EvalContext, a []Value) (Value, error) {
		if a[0].Null {
			return Value{}, pgerr.New("22004", "SET requires parameter name")
		}
		if ctx == nil || ctx.Settings == nil {
			return Value{}, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", a[0].S)
		}
		var val *string
		if !a[1].Null {
			val = &a[1].S
		}
		v, err := ctx.Settings.SetConfig(a[0].S, val, !a[2].Null && a[2].I != 0)
		if err != nil {
			return Value{}, err
		}
		return TextValue(v), nil
	})
	b.volatile, b.sideEffects, b.strict = true, true, false
}
