package plan

// AggSortKey is one key of an aggregate call's ORDER BY: Args[Arg].
type AggSortKey struct {
	Arg        int
	Desc       bool
	NullsFirst bool // resolved, as SortKey.NullsFirst
}

// FuncArgs are the arguments the aggregate function itself receives: Args
// without the trailing ORDER BY-only expressions.
func (a AggCall) FuncArgs() []Expr {
	if a.WithinGroup {
		return a.Args[:a.Direct]
	}
	if a.Func == nil || len(a.Order) == 0 || len(a.Args) <= len(a.Func.Args) {
		return a.Args
	}
	return a.Args[:len(a.Func.Args)]
}

// OrderSuffix renders the call's ORDER BY (" ORDER BY x DESC") with f
// rendering an expression; "" without one.
func (a AggCall) OrderSuffix(f func(Expr) string) string {
	if len(a.Order) == 0 {
		return ""
	}
	s := " ORDER BY "
	if a.WithinGroup {
		// The caller closes the parenthesis.
		s = ") WITHIN GROUP (ORDER BY "
	}
	for i, k := range a.Order {
		if i > 0 {
			s += ", "
		}
		s += f(a.Args[k.Arg]) + SortDirection(k.Desc, k.NullsFirst)
	}
	return s
}

// SortDirection renders a sort key's direction as EXPLAIN does: " DESC",
// and NULLS FIRST/LAST only when not the direction's default.
func SortDirection(desc, nullsFirst bool) string {
	s := ""
	if desc {
		s = " DESC"
	}
	if nullsFirst != desc {
		if nullsFirst {
			s += " NULLS FIRST"
		} else {
			s += " NULLS LAST"
		}
	}
	return s
}
