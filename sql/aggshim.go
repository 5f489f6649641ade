package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// resolveAggregate resolves an aggregate call. TEMPORARY: package types
// does not yet export ResolveAggregate; this resolves the signatures of
// the common aggregates (without accumulators) so binding can proceed.
// Replace the body with types.ResolveAggregate once it exists.
func resolveAggregate(name string, args []types.Type, star bool) (*types.AggOverload, error) {
	sig := func(res types.Type, as ...types.Type) (*types.AggOverload, error) {
		return &types.AggOverload{Name: name, Args: as, Result: res}, nil
	}
	if star {
		if name != "count" || len(args) > 0 {
			return nil, pgerr.New(pgerr.WrongObjectType, "%s(*) specified, but %s is not an aggregate function", name, name)
		}
		return sig(types.Int8Type)
	}
	if len(args) != 1 {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name)
	}
	a := args[0]
	if a.ID == types.Unknown {
		a = types.TextType
	}
	a.Typmod = -1
	switch name {
	case "count":
		return sig(types.Int8Type, a)
	case "min", "max":
		return sig(a, a)
	case "sum":
		switch a.ID {
		case types.Int2, types.Int4:
			return sig(types.Int8Type, a)
		case types.Int8, types.Numeric:
			return sig(types.NumericType, a)
		case types.Float4, types.Float8, types.Interval:
			return sig(a, a)
		}
	case "avg":
		switch a.ID {
		case types.Int2, types.Int4, types.Int8, types.Numeric:
			return sig(types.NumericType, a)
		case types.Float4, types.Float8:
			return sig(types.Float8Type, types.Float8Type)
		case types.Interval:
			return sig(a, a)
		}
	case "bool_and", "bool_or", "every":
		if a.ID == types.Bool {
			return sig(a, a)
		}
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, args[0].BaseSQLName()).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
