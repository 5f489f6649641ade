package types

import (
	"strings"

	"github.com/joind/joind/pgerr"
)

// Named arguments (name => value), as PostgreSQL's func_get_detail matches
// them: positional arguments take the first parameters, each named one the
// parameter of its name, and every parameter left over must have a default.
// Only built-ins registered with parameter names (withParams) accept them.

// withParams gives b its parameter names and the defaults of its last
// len(defaults) parameters.
func (b *builtin) withParams(names []string, defaults ...Value) *builtin {
	b.params, b.defaults = names, defaults
	return b
}

// NamedCall is a resolved call with named arguments: the overload, and for
// each of its parameters the index of the call argument it takes, or -1 for
// its default, Defaults[i].
type NamedCall struct {
	Func     *Overload
	ArgIndex []int
	Defaults []Value
}

// ResolveNamedFunction resolves name(args...) where the last len(names)
// arguments are named (names[i] names args[len(args)-len(names)+i]).
// Errors: 42883 function does not exist (shown with the names, as
// PostgreSQL shows it), 42725 not unique.
func ResolveNamedFunction(name string, args []Type, names []string) (*NamedCall, error) {
	lname := normFuncName(name)
	npos := len(args) - len(names)
	var found []*NamedCall
	for _, c := range functionTable[lname] {
		if c.params == nil || len(c.params) < len(args) {
			continue
		}
		idx := make([]int, len(c.params))
		for i := range idx {
			idx[i] = -1
			if i < npos {
				idx[i] = i
			}
		}
		ok := true
		for k, n := range names {
			p := paramIndex(c.params, n)
			if p < 0 || idx[p] >= 0 {
				ok = false
				break
			}
			idx[p] = npos + k
		}
		firstDefault := len(c.params) - len(c.defaults)
		in := make([]ID, len(c.params))
		defs := make([]Value, len(c.params))
		for p, a := range idx {
			switch {
			case a >= 0:
				in[p] = args[a].ID
			case p >= firstDefault:
				in[p], defs[p] = c.args[p], c.defaults[p-firstDefault]
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		if best, _ := selectBest([]*builtin{c}, in); best != nil {
			ts := make([]Type, len(in))
			for p, id := range in {
				ts[p] = Type{ID: id, Typmod: -1}
				if a := idx[p]; a >= 0 {
					ts[p] = args[a]
				}
			}
			found = append(found, &NamedCall{Func: c.instantiate(ts), ArgIndex: idx, Defaults: defs})
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	desc := make([]string, len(args))
	for i, t := range args {
		desc[i] = t.BaseSQLName()
		if i >= npos {
			desc[i] = names[i-npos] + " => " + desc[i]
		}
	}
	if len(found) > 1 {
		return nil, pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", lname, strings.Join(desc, ", ")).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", lname, strings.Join(desc, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func paramIndex(params []string, name string) int {
	for i, p := range params {
		if p == name {
			return i
		}
	}
	return -1
}
