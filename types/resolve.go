package types

import (
	"strings"

	"github.com/joind/joind/pgerr"
)

// Pseudo-types used only in built-in signatures.
const (
	// NoArg is the left "type" of a prefix operator: ResolveOperator("-", NoArgType, t).
	NoArg ID = 255
	// idAnyNonArray is PostgreSQL's anynonarray (text || anynonarray).
	idAnyNonArray ID = 254
	// idAny is "any" (concat's VARIADIC "any").
	idAny ID = 253
)

// NoArgType is the left operand type passed to ResolveOperator for a prefix
// (unary) operator such as -x, +x, @x, |/x.
var NoArgType = Type{ID: NoArg, Typmod: -1}

type evalFn = func(ctx *EvalContext, args []Value) (Value, error)

// builtin is one pg_proc / pg_operator candidate.
type builtin struct {
	name     string
	args     []ID
	variadic bool // last arg repeats (VARIADIC "any")
	result   ID
	strict   bool
	volatile bool
	stable   bool // PostgreSQL's provolatile 's' (volatility.go)
	// leakproof: PostgreSQL's proleakproof (leakproof.go).
	leakproof bool
	// sideEffects marks a function that changes session state (set_config).
	sideEffects bool
	// setReturning marks a set-returning function (srf.go).
	setReturning bool
	eval         evalFn
	// bind, if set, builds the Eval for the actual (resolved) argument types;
	// polymorphic candidates need them (e.g. text || anynonarray formats its
	// argument by type).
	bind func(args []Type) evalFn
	// params names the parameters (pg_proc.proargnames) of a built-in that
	// takes named arguments; defaults are the trailing ones' defaults
	// (namedargs.go).
	params   []string
	defaults []Value
	// recordResult, when set, is a record result's full type (its fields).
	recordResult *Type
	// bindRows, if set, builds a set-returning overload's Rows for the
	// resolved argument types (a polymorphic record result:
	// _pg_expandarray's element field).
	bindRows func(args []Type) (Type, func(*EvalContext, []Value) ([]Value, error))
}

var (
	operatorTable = map[string][]*builtin{} // key "name/nargs"
	functionTable = map[string][]*builtin{}
)

func opKey(name string, nargs int) string {
	if nargs == 1 {
		return name + "/1"
	}
	return name + "/2"
}

func (b *builtin) argsFor(n int) []ID {
	if !b.variadic || n == len(b.args) {
		return b.args
	}
	out := make([]ID, n)
	copy(out, b.args)
	for i := len(b.args); i < n; i++ {
		out[i] = b.args[len(b.args)-1]
	}
	return out
}

func isPolyID(id ID) bool { return id == idAnyNonArray || id == idAny }

// coercible is can_coerce_type in the implicit context.
func coercible(in []ID, target []ID) bool {
	for i := range in {
		if !polySlotAccepts(target[i], in[i]) {
			return false
		}
		if in[i] == target[i] || in[i] == Unknown || isPolyID(target[i]) || isArrayPoly(target[i]) || concreteArraySlots[target[i]].ID == Array {
			continue
		}
		if !canImplicit(in[i], target[i]) {
			return false
		}
	}
	return true
}

func exactMatch(in []ID, target []ID) bool {
	for i := range in {
		if in[i] != target[i] {
			return false
		}
	}
	return true
}

// selectBest runs PostgreSQL's func_match_argtypes + func_select_candidate.
// It returns the chosen candidate, or nil with ambiguous set when several
// remain.
func selectBest(cands []*builtin, in []ID) (best *builtin, ambiguous bool) {
	n := len(in)
	var arity []*builtin
	for _, c := range cands {
		if len(c.args) == n || (c.variadic && n >= len(c.args)) {
			arity = append(arity, c)
		}
	}
	cands = arity
	for _, c := range cands {
		if exactMatch(in, c.argsFor(n)) {
			return c, false
		}
	}
	var matching []*builtin
	for _, c := range cands {
		if coercible(in, c.argsFor(n)) {
			matching = append(matching, c)
		}
	}
	switch len(matching) {
	case 0:
		return nil, false
	case 1:
		return matching[0], false
	}
	nunknown := 0
	for _, t := range in {
		if t == Unknown {
			nunknown++
		}
	}
	// Most exact matches on known inputs.
	keepMax := func(list []*builtin, score func(args []ID) int) []*builtin {
		bestScore := -1
		var out []*builtin
		for _, c := range list {
			s := score(c.argsFor(n))
			if s > bestScore {
				bestScore, out = s, []*builtin{c}
			} else if s == bestScore {
				out = append(out, c)
			}
		}
		return out
	}
	matching = keepMax(matching, func(args []ID) int {
		k := 0
		for i := range in {
			if in[i] != Unknown && args[i] == in[i] {
				k++
			}
		}
		return k
	})
	if len(matching) == 1 {
		return matching[0], false
	}
	// Exact or preferred-type matches within the input's category.
	matching = keepMax(matching, func(args []ID) int {
		k := 0
		for i := range in {
			if in[i] != Unknown && (args[i] == in[i] ||
				(idPreferred(args[i]) && idCategory(args[i]) == idCategory(in[i]))) {
				k++
			}
		}
		return k
	})
	if len(matching) == 1 {
		return matching[0], false
	}
	if nunknown == 0 {
		return nil, true
	}
	// Resolve unknown inputs by category, STRING winning.
	slotCat := make([]byte, n)
	slotPref := make([]bool, n)
	resolved := true
	for i := range in {
		if in[i] != Unknown {
			continue
		}
		conflict := false
		slotCat[i] = catInvalid
		for _, c := range matching {
			t := c.argsFor(n)[i]
			cat, pref := idCategory(t), idPreferred(t)
			switch {
			case slotCat[i] == catInvalid:
				slotCat[i], slotPref[i] = cat, pref
			case cat == slotCat[i]:
				slotPref[i] = slotPref[i] || pref
			case cat == catString:
				slotCat[i], slotPref[i] = cat, pref
			default:
				conflict = true
			}
		}
		if conflict && slotCat[i] != catString {
			resolved = false
			break
		}
	}
	if resolved {
		var kept []*builtin
		for _, c := range matching {
			args := c.argsFor(n)
			ok := true
			for i := range in {
				if in[i] != Unknown {
					continue
				}
				if idCategory(args[i]) != slotCat[i] || (slotPref[i] && !idPreferred(args[i])) {
					ok = false
					break
				}
			}
			if ok {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			matching = kept
		}
		if len(matching) == 1 {
			return matching[0], false
		}
	}
	// Last gasp: all known inputs share one type; treat unknowns as it.
	if nunknown < n {
		known := Unknown
		for _, t := range in {
			if t == Unknown {
				continue
			}
			if known == Unknown {
				known = t
			} else if known != t {
				known = Unknown
				break
			}
		}
		if known != Unknown {
			same := make([]ID, n)
			for i := range same {
				same[i] = known
			}
			var last *builtin
			cnt := 0
			for _, c := range matching {
				if coercible(same, c.argsFor(n)) {
					cnt++
					last = c
				}
			}
			if cnt == 1 {
				return last, false
			}
		}
	}
	return nil, true
}

// instantiate turns a chosen candidate into the Overload the binder uses.
func (b *builtin) instantiate(in []Type) *Overload {
	ids := b.argsFor(len(in))
	args := make([]Type, len(in))
	for i, id := range ids {
		if isPolyID(id) {
			t := in[i]
			if t.ID == Unknown {
				t = TextType
			}
			args[i] = t
		} else {
			args[i] = Type{ID: id, Typmod: -1}
		}
	}
	for i, id := range ids {
		if ct, ok := concreteArraySlots[id]; ok {
			args[i] = ct
		}
	}
	if elem, poly := b.polyElemFor(ids, in); poly {
		for i, id := range ids {
			if isArrayPoly(id) {
				args[i] = polyType(id, elem)
			}
		}
	}
	ev := b.eval
	if b.bind != nil {
		ev = b.bind(args)
	}
	result := Type{ID: b.result, Typmod: -1}
	if ct, ok := concreteArraySlots[b.result]; ok {
		result = ct
	}
	if b.recordResult != nil {
		result = *b.recordResult
	}
	if elem, poly := b.polyElemFor(ids, in); poly && isArrayPoly(b.result) {
		result = DropTypmod(polyType(b.result, elem))
	}
	var rows func(*EvalContext, []Value) ([]Value, error)
	if b.bindRows != nil {
		result, rows = b.bindRows(args)
	}
	return &Overload{Name: b.name, Args: args, Result: result, Strict: b.strict, Volatile: b.volatile, Stable: b.stable, Leakproof: b.leakproof, SideEffects: b.sideEffects, SetReturning: b.setReturning, Eval: ev, Rows: rows,
		AnyArgs: anyArgs(ids)}
}

// anyArgs marks the "any" slots of a signature (nil when it has none).
func anyArgs(ids []ID) []bool {
	var out []bool
	for i, id := range ids {
		if id == idAny {
			if out == nil {
				out = make([]bool, len(ids))
			}
			out[i] = true
		}
	}
	return out
}

func typeNames(ts []Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.BaseSQLName()
	}
	return strings.Join(names, ", ")
}

func ids(ts []Type) []ID {
	out := make([]ID, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// ResolveOperator picks the operator `left name right` by PostgreSQL's rules
// (oper_select_candidate). For a prefix operator pass NoArgType as left; the
// returned Overload then has one Arg. Errors: 42883 operator does not exist,
// 42725 operator is not unique.
func ResolveOperator(name string, left, right Type) (*Overload, error) {
	if ov, ok, err := resolveRecordOperator(name, left, right); ok { // composite.go
		return ov, err
	}
	if ov, ok, err := resolveEnumOperator(name, left, right); ok { // enum.go
		return ov, err
	}
	if ov, ok := resolveVectorOperator(name, left, right); ok { // vectors.go
		return ov, nil
	}
	var in []Type
	if left.ID == NoArg {
		in = []Type{right}
	} else {
		in = []Type{left, right}
	}
	cands := polyConsistent(operatorTable[opKey(name, len(in))], in)
	inIDs := ids(in)
	// binary_oper_exact: an unknown side takes the other side's type.
	if len(in) == 2 && (inIDs[0] == Unknown) != (inIDs[1] == Unknown) {
		k := inIDs[0]
		if k == Unknown {
			k = inIDs[1]
		}
		for _, c := range cands {
			if c.args[0] == k && c.args[1] == k || k == Array && c.args[0] == idAnyArray && c.args[1] == idAnyArray {
				return c.instantiate(in), nil
			}
		}
	}
	best, amb := selectBest(cands, inIDs)
	if best != nil {
		return best.instantiate(in), nil
	}
	desc := name + " " + in[0].BaseSQLName()
	if len(in) == 2 {
		desc = in[0].BaseSQLName() + " " + name + " " + in[1].BaseSQLName()
	}
	if amb {
		return nil, pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s", desc).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	if len(in) == 1 {
		return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", desc).
			WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", desc).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// ResolveFunction picks the built-in function name(args...) by PostgreSQL's
// rules (func_select_candidate). Names are case-insensitive; a leading
// "pg_catalog." is ignored. Errors: 42883 function does not exist, 42725
// function is not unique.
func ResolveFunction(name string, args []Type) (*Overload, error) {
	lname := normFuncName(name)
	if ov, ok, err := resolveEnumFunction(lname, args); ok { // enum.go
		return ov, err
	}
	best, amb := selectBest(polyConsistent(functionTable[lname], args), ids(args))
	if best != nil {
		if err := checkAnyElement(lname, args); err != nil {
			return nil, err
		}
		return best.instantiate(args), nil
	}
	return nil, funcError(lname, args, amb)
}

func normFuncName(name string) string {
	l := strings.ToLower(name)
	return strings.TrimPrefix(l, "pg_catalog.")
}

func funcError(name string, args []Type, amb bool) error {
	if amb {
		return pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, typeNames(args)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeNames(args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// IsFunction reports whether a scalar built-in of that name exists (any arity).
func IsFunction(name string) bool { return len(functionTable[normFuncName(name)]) > 0 }

func init() {
	// Functions reuse operator implementations (abs, mod), so order matters.
	registerOperators()
	registerFunctions()
	registerSetReturning()
	registerSleepFuncs()
	registerSizeFuncs()
	registerArrayFuncs()
}

// registration helpers

func regOp(name string, args []ID, result ID, eval evalFn) *builtin {
	b := &builtin{name: name, args: args, result: result, strict: true, stable: isStable(name, args), leakproof: isLeakproof(name, args), eval: eval}
	k := opKey(name, len(args))
	operatorTable[k] = append(operatorTable[k], b)
	return b
}

func regFn(name string, args []ID, result ID, eval evalFn) *builtin {
	b := &builtin{name: name, args: args, result: result, strict: true, stable: isStable(name, args), leakproof: isLeakproof(name, args), eval: eval}
	functionTable[name] = append(functionTable[name], b)
	return b
}
