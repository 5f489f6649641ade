package plan

import "github.com/joind/joind/types"

// BindLimitParams replaces $n in the LIMIT/OFFSET of n's tree by the bound
// values, in place: the planner needs those as constants, and a portal's
// plan is its own.
func BindLimitParams(n Node, params []types.Value) {
	WalkNodes(n, func(n Node) bool {
		if l, ok := n.(*Limit); ok {
			l.Count = paramConst(l.Count, params)
			l.Offset = paramConst(l.Offset, params)
		}
		return true
	})
}

func paramConst(e Expr, params []types.Value) Expr {
	switch x := e.(type) {
	case *Param:
		if x.Index >= 1 && x.Index <= len(params) {
			return &Const{Val: params[x.Index-1], T: x.T}
		}
	case *Cast:
		c := *x
		c.Input = paramConst(x.Input, params)
		return &c
	}
	return e
}
