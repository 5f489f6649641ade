package sqlfuzz

// Walking the AST: every expression slot in a fixed order (the shrinker
// replaces slots by index on a clone), and the facts compare needs.

// nodeSlots appends the address of every expression pointer under n
// (n's own slot first, then its children's, depth-first).
func nodeSlots(p **Node, out []**Node) []**Node {
	if *p == nil {
		return out
	}
	out = append(out, p)
	n := *p
	for i := range n.Args {
		out = nodeSlots(&n.Args[i], out)
	}
	if n.Filter != nil {
		out = nodeSlots(&n.Filter, out)
	}
	if n.Sub != nil {
		out = selectSlots(n.Sub, out)
	}
	return out
}

func fromSlots(f *From, out []**Node) []**Node {
	if f == nil {
		return out
	}
	if f.Sub != nil {
		out = selectSlots(f.Sub, out)
	}
	out = fromSlots(f.L, out)
	out = fromSlots(f.R, out)
	if f.On != nil {
		out = nodeSlots(&f.On, out)
	}
	return out
}

// selectSlots appends every expression slot of s.
func selectSlots(s *Select, out []**Node) []**Node {
	if s == nil {
		return out
	}
	for _, w := range s.With {
		out = selectSlots(w.Q, out)
	}
	out = selectSlots(s.L, out)
	out = selectSlots(s.R, out)
	for i := range s.Items {
		out = nodeSlots(&s.Items[i], out)
	}
	out = fromSlots(s.From, out)
	if s.Where != nil {
		out = nodeSlots(&s.Where, out)
	}
	for i := range s.GroupBy {
		out = nodeSlots(&s.GroupBy[i], out)
	}
	if s.Having != nil {
		out = nodeSlots(&s.Having, out)
	}
	for i := range s.OrderBy {
		out = nodeSlots(&s.OrderBy[i].E, out)
	}
	return out
}

// selects appends s and every SELECT nested in it (CTEs, arms, derived
// tables, subqueries), outermost first.
func selects(s *Select, out []*Select) []*Select {
	if s == nil {
		return out
	}
	out = append(out, s)
	for _, w := range s.With {
		out = selects(w.Q, out)
	}
	out = selects(s.L, out)
	out = selects(s.R, out)
	var walkNode func(n *Node)
	walkNode = func(n *Node) {
		if n == nil {
			return
		}
		for _, a := range n.Args {
			walkNode(a)
		}
		walkNode(n.Filter)
		out = selects(n.Sub, out)
	}
	var walkFrom func(f *From)
	walkFrom = func(f *From) {
		if f == nil {
			return
		}
		out = selects(f.Sub, out)
		walkFrom(f.L)
		walkFrom(f.R)
		walkNode(f.On)
	}
	walkFrom(s.From)
	for _, n := range s.Items {
		walkNode(n)
	}
	walkNode(s.Where)
	for _, n := range s.GroupBy {
		walkNode(n)
	}
	walkNode(s.Having)
	for _, o := range s.OrderBy {
		walkNode(o.E)
	}
	return out
}

// analyze sets q.emptyInput (an empty table is read: PostgreSQL then
// never evaluates a non-immutable expression that joind may fold at plan
// time, FINDINGS.md #3), q.condEval (some expression may be evaluated for a subset
// of rows, or not at all, depending on the plan: a one-sided data
// exception is then not a wrong answer) and q.reprChoice (a server may
// output any one of several equal values).
func (q *query) analyze(sch *schema) {
	q.condEval, q.reprChoice, q.emptyInput = false, false, false
	empty := map[string]bool{}
	for _, t := range sch.tables {
		empty[t.name] = len(t.rows) == 0
	}
	var walkFrom func(f *From)
	walkFrom = func(f *From) {
		if f == nil {
			return
		}
		if empty[f.Table] {
			q.emptyInput = true
		}
		walkFrom(f.L)
		walkFrom(f.R)
	}
	for _, s := range selects(q.sel, nil) {
		walkFrom(s.From)
		if s.Where != nil || s.Having != nil || s.Limit >= 0 || s.Offset >= 0 {
			q.condEval = true
		}
		if s.From != nil && s.From.Join != "" {
			q.condEval = true
		}
		if s.Distinct || len(s.GroupBy) > 0 || (s.SetOp != "" && s.SetOp != "UNION ALL") {
			q.reprChoice = true
		}
		// a grouped query without GROUP BY (aggregates) may pick min/max
	}
	for _, p := range selectSlots(q.sel, nil) {
		n := *p
		switch n.K {
		case kCase, kCoalesce, kAnd, kOr, kScalarSub, kExists, kInSub, kInList, kBetween, kRowCmp:
			q.condEval = true
		case kAgg:
			if n.Filter != nil {
				q.condEval = true
			}
			if n.Distinct || n.Text == "min" || n.Text == "max" {
				q.reprChoice = true
			}
		}
	}
}
