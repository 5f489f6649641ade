package plan

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
func (n *Scan) WithChildren([]Node) Node         { return n }
func (n *Values) WithChildren([]Node) Node       { return n }
func (n *FunctionScan) WithChildren([]Node) Node { return n }
func (n *CTEScan) WithChildren([]Node) Node      { return n }
func (n *Filter) WithChildren(k []Node) Node     { c := *n; c.Input = k[0]; return &c }
func (n *Project) WithChildren(k []Node) Node    { c := *n; c.Input = k[0]; return &c }
func (n *Aggregate) WithChildren(k []Node) Node  { c := *n; c.Input = k[0]; return &c }
func (n *Sort) WithChildren(k []Node) Node       { c := *n; c.Input = k[0]; return &c }
func (n *Limit) WithChildren(k []Node) Node      { c := *n; c.Input = k[0]; return &c }
func (n *Distinct) WithChildren(k []Node) Node   { c := *n; c.Input = k[0]; return &c }
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
