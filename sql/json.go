package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// json has neither an equality nor an ordering operator (jsonb has both):
// PostgreSQL refuses to group, deduplicate or sort by it.

func (b *binder) checkEquality(t types.Type, loc int32) error {
	if types.HasEquality(t) {
		if ft, bad := types.FieldWithoutEquality(t); bad {
			if t.UserOID != 0 {
				// A named composite's type cache has no equality when a
				// field lacks one (record_fields_have_equality).
				return b.errAt(pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", t.BaseSQLName()), loc)
			}
			// record_eq's failure, at run time in PostgreSQL: no position.
			return pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", ft.BaseSQLName())
		}
		return nil
	}
	return b.errAt(pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", t.BaseSQLName()), loc)
}

func (b *binder) checkOrdering(t types.Type, loc int32) error {
	if types.HasOrdering(t) {
		if ft, bad := types.FieldWithoutEquality(t); bad {
			if t.UserOID != 0 {
				// record_fields_have_compare: a named composite has no
				// ordering operator when a field lacks one.
				return b.errAt(pgerr.New(pgerr.UndefinedFunction, "could not identify an ordering operator for type %s", t.BaseSQLName()).
					WithHint("Use an explicit ordering operator or modify the query."), loc)
			}
			// record_cmp's failure, at run time in PostgreSQL: no position.
			return pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type %s", ft.BaseSQLName())
		}
		return nil
	}
	return b.errAt(pgerr.New(pgerr.UndefinedFunction, "could not identify an ordering operator for type %s", t.BaseSQLName()).
		WithHint("Use an explicit ordering operator or modify the query."), loc)
}

// checkTargetsEquality is SELECT DISTINCT's (and a set operation's) check
// of every visible output column.
func (b *binder) checkTargetsEquality(targets []*target) error {
	for _, t := range targets {
		if t.junk {
			continue
		}
		if err := b.checkEquality(t.expr.Type(), t.loc); err != nil {
			return err
		}
	}
	return nil
}

// checkDistinctArgs is an aggregate DISTINCT's check of its arguments.
func (b *binder) checkDistinctArgs(fc *pg_query.FuncCall, args []plan.Expr) error {
	if !fc.AggDistinct {
		return nil
	}
	for i, a := range args {
		if err := b.checkEquality(a.Type(), nodeLocation(fc.Args[i])); err != nil {
			return err
		}
	}
	return nil
}

// unorderedMinMax is GREATEST/LEAST over a type without a comparison
// (json): PostgreSQL binds it and fails where it is evaluated.
func unorderedMinMax(name string, argTypes []types.Type, t types.Type, args []plan.Expr) plan.Expr {
	ov := &types.Overload{Name: name, Args: argTypes, Result: t,
		Eval: func(*types.EvalContext, []types.Value) (types.Value, error) {
			return types.NullValue, pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type %s", t.BaseSQLName())
		}}
	return &plan.Call{Func: ov, Args: args}
}
