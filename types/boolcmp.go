package types

// registerBoolCmpFuncs registers boolean's comparison functions by their
// pg_proc names (booleq, boolne, boollt, boolgt, boolle, boolge), which
// queries may call directly as well as through = <> < > <= >=. Like the
// operators, they are leakproof.
func registerBoolCmpFuncs() {
	for name, op := range map[string]string{
		"booleq": "=", "boolne": "<>", "boollt": "<", "boolgt": ">", "boolle": "<=", "boolge": ">=",
	} {
		regFn(name, []ID{Bool, Bool}, Bool, cmpEval(op, BoolType)).leakproof = true
	}
}
