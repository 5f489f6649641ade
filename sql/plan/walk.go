package plan

import "github.com/joind/joind/types"

// Traversal of expressions and plan nodes. Each expression and node kind
// lists its own children (Children) and rebuilds itself around new ones
// (WithChildren), next to its definition; everything that walks, maps or
// collects goes through these, so a new kind touches its own file only.

// Children of the expression kinds, in evaluation order. Subquery plans are
// not expression children: a Subquery's children are its LHS.
func (e *ColRef) Children() []Expr     { return nil }
func (e *Const) Children() []Expr      { return nil }
func (e *Param) Children() []Expr      { return nil }
func (e *Call) Children() []Expr       { return e.Args }
func (e *Cast) Children() []Expr       { return []Expr{e.Input} }
func (e *And) Children() []Expr        { return e.Args }
func (e *Or) Children() []Expr         { return e.Args }
func (e *Not) Children() []Expr        { return []Expr{e.Arg} }
func (e *IsNull) Children() []Expr     { return []Expr{e.Arg} }
func (e *BoolTest) Children() []Expr   { return []Expr{e.Arg} }
func (e *IsDistinct) Children() []Expr { return []Expr{e.Left, e.Right} }
func (e *Coalesce) Children() []Expr   { return e.Args }
func (e *NullIf) Children() []Expr     { return []Expr{e.Left, e.Right} }
func (e *Subquery) Children() []Expr   { return e.LHS }

// Children of a Case: each branch's condition and result, then Else if set.
func (e *Case) Children() []Expr {
	out := make([]Expr, 0, 2*len(e.Whens)+1)
	for _, w := range e.Whens {
		out = append(out, w.Cond, w.Result)
	}
	if e.Else != nil {
		out = append(out, e.Else)
	}
	return out
}

func (e *ColRef) WithChildren([]Expr) Expr { return e }
func (e *Const) WithChildren([]Expr) Expr  { return e }
func (e *Param) WithChildren([]Expr) Expr  { return e }
func (e *Call) WithChildren(k []Expr) Expr { c := *e; c.Args = k; return &c }
func (e *Cast) WithChildren(k []Expr) Expr { c := *e; c.Input = k[0]; return &c }
func (e *And) WithChildren(k []Expr) Expr  { return &And{Args: k} }
func (e *Or) WithChildren(k []Expr) Expr   { return &Or{Args: k} }
func (e *Not) WithChildren(k []Expr) Expr  { return &Not{Arg: k[0]} }
func (e *IsNull) WithChildren(k []Expr) Expr {
	c := *e
	c.Arg = k[0]
	return &c
}
func (e *BoolTest) WithChildren(k []Expr) Expr {
	c := *e
	c.Arg = k[0]
	return &c
}
func (e *IsDistinct) WithChildren(k []Expr) Expr {
	c := *e
	c.Left, c.Right = k[0], k[1]
	return &c
}
func (e *Coalesce) WithChildren(k []Expr) Expr {
	c := *e
	c.Args = k
	return &c
}
func (e *NullIf) WithChildren(k []Expr) Expr {
	c := *e
	c.Left, c.Right = k[0], k[1]
	return &c
}
func (e *Subquery) WithChildren(k []Expr) Expr {
	c := *e
	c.LHS = k
	return &c
}
func (e *Case) WithChildren(k []Expr) Expr {
	c := *e
	c.Whens = make([]When, len(e.Whens))
	for i := range e.Whens {
		c.Whens[i] = When{Cond: k[2*i], Result: k[2*i+1]}
	}
	if e.Else != nil {
		c.Else = k[2*len(e.Whens)]
	}
	return &c
}

// Walk calls f on e and its sub-expressions in pre-order; when f returns
// false the children of that expression are skipped. A nil e is not visited.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	for _, c := range e.Children() {
		Walk(c, f)
	}
}

// Rewrite rebuilds e bottom-up: the children first, then f on the
// expression rebuilt around them. A nil e stays nil.
func Rewrite(e Expr, f func(Expr) Expr) Expr {
	out, _ := RewriteErr(e, func(x Expr) (Expr, error) { return f(x), nil })
	return out
}

// RewriteErr is Rewrite with a function that may fail; the first error
// stops the rewrite.
func RewriteErr(e Expr, f func(Expr) (Expr, error)) (Expr, error) {
	if e == nil {
		return nil, nil
	}
	kids := e.Children()
	if len(kids) > 0 {
		nk := make([]Expr, len(kids))
		for i, k := range kids {
			var err error
			if nk[i], err = RewriteErr(k, f); err != nil {
				return nil, err
			}
		}
		e = e.WithChildren(nk)
	}
	return f(e)
}

// MapChildren returns e rebuilt with f applied to each direct child (f
// decides whether to recurse); e itself is unchanged when it has none.
func MapChildren(e Expr, f func(Expr) (Expr, error)) (Expr, error) {
	kids := e.Children()
	if len(kids) == 0 {
		return e, nil
	}
	nk := make([]Expr, len(kids))
	for i, k := range kids {
		var err error
		if nk[i], err = f(k); err != nil {
			return nil, err
		}
	}
	return e.WithChildren(nk), nil
}

// ColumnRefs appends the columns e reads to out: its ColRefs and, for a
// subquery, the outer columns its plan reads (not entering the plan).
func ColumnRefs(e Expr, out []ColumnID) []ColumnID {
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *ColRef:
			out = append(out, x.ID)
		case *Subquery:
			out = append(out, x.OuterRefs...)
		}
		return true
	})
	return out
}

// WithChildren of the node kinds: a shallow copy with new inputs.
func (n *Scan) WithChildren([]Node) Node        { return n }
func (n *Values) WithChildren([]Node) Node      { return n }
func (n *CTEScan) WithChildren([]Node) Node     { return n }
func (n *Filter) WithChildren(k []Node) Node    { c := *n; c.Input = k[0]; return &c }
func (n *Project) WithChildren(k []Node) Node   { c := *n; c.Input = k[0]; return &c }
func (n *Aggregate) WithChildren(k []Node) Node { c := *n; c.Input = k[0]; return &c }
func (n *Sort) WithChildren(k []Node) Node      { c := *n; c.Input = k[0]; return &c }
func (n *Limit) WithChildren(k []Node) Node     { c := *n; c.Input = k[0]; return &c }
func (n *Distinct) WithChildren(k []Node) Node  { c := *n; c.Input = k[0]; return &c }
func (n *SetOp) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}
func (n *Join) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}
func (n *Apply) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}

// WalkNodes calls f on n and its inputs in pre-order; when f returns false
// the inputs of that node are skipped.
func WalkNodes(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, c := range n.Children() {
		WalkNodes(c, f)
	}
}

// Expressions of the node kinds: the expressions a node evaluates itself
// (not its inputs'), non-nil ones only, in a fixed order that
// WithExpressions reads back. A Scan's Skip list is a copy of the Filter
// above's conjuncts, not its own; a CTEScan's shared plan is not entered.
func (n *Scan) Expressions() []Expr     { return nil }
func (n *CTEScan) Expressions() []Expr  { return nil }
func (n *Distinct) Expressions() []Expr { return n.On }
func (n *SetOp) Expressions() []Expr    { return nil }
func (n *Filter) Expressions() []Expr   { return []Expr{n.Pred} }
func (n *Project) Expressions() []Expr  { return n.Exprs }
func (n *Join) Expressions() []Expr     { return optional(nil, n.On) }
func (n *Apply) Expressions() []Expr    { return optional(nil, n.On) }
func (n *Limit) Expressions() []Expr    { return optional(optional(nil, n.Count), n.Offset) }

// Expressions of Values: the rows, one after another.
func (n *Values) Expressions() []Expr {
	var out []Expr
	for _, r := range n.Rows {
		out = append(out, r...)
	}
	return out
}

// Expressions of an Aggregate: the grouping expressions, then each call's
// arguments and FILTER.
func (n *Aggregate) Expressions() []Expr {
	out := append([]Expr(nil), n.GroupBy...)
	for _, a := range n.Aggs {
		out = optional(append(out, a.Args...), a.Filter)
	}
	return out
}

func (n *Sort) Expressions() []Expr {
	out := make([]Expr, len(n.Keys))
	for i, k := range n.Keys {
		out[i] = k.Expr
	}
	return out
}

func optional(out []Expr, e Expr) []Expr {
	if e != nil {
		out = append(out, e)
	}
	return out
}

// WithExpressions of the node kinds: a shallow copy over new expressions, which
// stand where Expressions' results stood.
func (n *Scan) WithExpressions([]Expr) Node    { return n }
func (n *CTEScan) WithExpressions([]Expr) Node { return n }
func (n *Distinct) WithExpressions(k []Expr) Node {
	if len(n.On) == 0 {
		return n
	}
	c := *n
	c.On = k
	return &c
}
func (n *SetOp) WithExpressions([]Expr) Node    { return n }
func (n *Filter) WithExpressions(k []Expr) Node { c := *n; c.Pred = k[0]; return &c }
func (n *Project) WithExpressions(k []Expr) Node {
	c := *n
	c.Exprs = k
	return &c
}
func (n *Join) WithExpressions(k []Expr) Node {
	c := *n
	if n.On != nil {
		c.On = k[0]
	}
	return &c
}
func (n *Apply) WithExpressions(k []Expr) Node {
	c := *n
	if n.On != nil {
		c.On = k[0]
	}
	return &c
}
func (n *Limit) WithExpressions(k []Expr) Node {
	c := *n
	if n.Count != nil {
		c.Count, k = k[0], k[1:]
	}
	if n.Offset != nil {
		c.Offset = k[0]
	}
	return &c
}
func (n *Values) WithExpressions(k []Expr) Node {
	c := *n
	c.Rows = make([][]Expr, len(n.Rows))
	for i, r := range n.Rows {
		c.Rows[i], k = k[:len(r):len(r)], k[len(r):]
	}
	return &c
}
func (n *Aggregate) WithExpressions(k []Expr) Node {
	c := *n
	c.GroupBy, k = k[:len(n.GroupBy):len(n.GroupBy)], k[len(n.GroupBy):]
	c.Aggs = make([]AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		a.Args, k = k[:len(a.Args):len(a.Args)], k[len(a.Args):]
		if a.Filter != nil {
			a.Filter, k = k[0], k[1:]
		}
		c.Aggs[i] = a
	}
	return &c
}
func (n *Sort) WithExpressions(k []Expr) Node {
	c := *n
	c.Keys = make([]SortKey, len(n.Keys))
	for i, key := range n.Keys {
		key.Expr = k[i]
		c.Keys[i] = key
	}
	return &c
}

// MapNodeExprs returns n over f applied to each of its own expressions (not
// its inputs'); n itself when it has none.
func MapNodeExprs(n Node, f func(Expr) Expr) Node {
	es := n.Expressions()
	if len(es) == 0 {
		return n
	}
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = f(e)
	}
	return n.WithExpressions(out)
}

// Subqueries calls f on each subquery expression that n itself evaluates, in
// the order of Expressions and pre-order within each (not entering their plans).
func Subqueries(n Node, f func(*Subquery)) {
	for _, e := range n.Expressions() {
		Walk(e, func(x Expr) bool {
			if sq, ok := x.(*Subquery); ok {
				f(sq)
			}
			return true
		})
	}
}

// Foldable reports whether PostgreSQL's planner evaluates e once, as a
// constant (eval_const_expressions: no columns, subqueries, parameters or
// stable and volatile calls), so that any error of it arises while planning
// (PlanTimeError), whichever rows the plan reads.
func Foldable(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) bool {
		switch c := x.(type) {
		case *ColRef, *Param, *Subquery:
			ok = false
		case *Call:
			ok = ok && !c.Func.Volatile && !c.Func.Stable
		case *Cast:
			ok = ok && !types.CastStable(c.Input.Type().ID, c.T.ID)
		}
		return ok
	})
	return ok
}
