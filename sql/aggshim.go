package sql

import "github.com/joind/joind/types"

// resolveAggregate resolves an aggregate call through package types.
func resolveAggregate(name string, args []types.Type, star bool) (*types.AggOverload, error) {
	return types.ResolveAggregate(name, args, star)
}
