package sqlfuzz

import (
	"time"

	"github.com/joind/joind/types"
)

// Shrinking: delta debugging over the AST. A candidate is the current
// query with one simplification (a clause dropped, a join replaced by one
// side, an expression replaced by a same-typed child or a literal, an
// aggregate's DISTINCT/FILTER dropped); it is kept when the failure still
// reproduces with the same kind. Then table rows are dropped in halves and
// one by one, reloading the tables each time. Invalid candidates (a column
// of a dropped table, a width mismatch) fail on both servers alike and are
// rejected by the check itself.

// mutation is one simplification of the i-th SELECT or expression slot.
type mutation struct {
	sel  int // index in selects(); -1: an expression slot
	slot int // index in selectSlots()
	op   int
}

// Select-level operations.
const (
	mDropWhere = iota
	mDropHaving
	mDropGroup
	mDropDistinct
	mDropOrder
	mDropLimit
	mDropOffset
	mSetLeft
	mSetRight
	mFromLeft
	mFromRight
	mInnerJoin
	mDropWith
	mDropItem // + item index
)

// Expression-level operations.
const (
	nNull = iota
	nLit
	nDropFilter
	nDropDistinct
	nChild // + child index
)

func mutations(s *Select) []mutation {
	var out []mutation
	for i, q := range selects(s, nil) {
		add := func(op int) { out = append(out, mutation{sel: i, op: op}) }
		if q.SetOp != "" {
			add(mSetLeft)
			add(mSetRight)
		}
		if q.From != nil && q.From.Join != "" {
			add(mFromLeft)
			add(mFromRight)
			if q.From.Join != "INNER JOIN" {
				add(mInnerJoin)
			}
		}
		if q.Where != nil {
			add(mDropWhere)
		}
		if q.Having != nil {
			add(mDropHaving)
		}
		if len(q.GroupBy) > 0 {
			add(mDropGroup)
		}
		if q.Distinct {
			add(mDropDistinct)
		}
		if len(q.OrderBy) > 0 {
			add(mDropOrder)
		}
		if q.Limit >= 0 {
			add(mDropLimit)
		}
		if q.Offset >= 0 {
			add(mDropOffset)
		}
		if len(q.With) > 0 {
			add(mDropWith)
		}
		if len(q.Items) > 1 {
			for k := range q.Items {
				add(mDropItem + k)
			}
		}
	}
	for k, p := range selectSlots(s, nil) {
		n := *p
		add := func(op int) { out = append(out, mutation{sel: -1, slot: k, op: op}) }
		for c, a := range n.Args {
			if a.T == n.T {
				add(nChild + c)
			}
		}
		if n.K == kAgg {
			if n.Filter != nil {
				add(nDropFilter)
			}
			if n.Distinct {
				add(nDropDistinct)
			}
		}
		if n.T != types.Unknown && n.K != kLit {
			add(nLit)
			add(nNull)
		}
	}
	return out
}

// apply performs m on s (a clone) and reports whether it changed anything.
func apply(s *Select, m mutation) bool {
	if m.sel >= 0 {
		q := selects(s, nil)[m.sel]
		switch {
		case m.op == mDropWhere:
			q.Where = nil
		case m.op == mDropHaving:
			q.Having = nil
		case m.op == mDropGroup:
			q.GroupBy, q.Having, q.Grouping = nil, nil, ""
		case m.op == mDropDistinct:
			q.Distinct = false
		case m.op == mDropOrder:
			q.OrderBy = nil
		case m.op == mDropLimit:
			q.Limit = -1
		case m.op == mDropOffset:
			q.Offset = -1
		case m.op == mSetLeft || m.op == mSetRight:
			arm := q.L
			if m.op == mSetRight {
				arm = q.R
			}
			with, order, limit, offset := q.With, q.OrderBy, q.Limit, q.Offset
			*q = *arm
			q.With = append(with, q.With...)
			if len(order) > 0 {
				q.OrderBy = order
			}
			if limit >= 0 {
				q.Limit = limit
			}
			if offset >= 0 {
				q.Offset = offset
			}
		case m.op == mFromLeft:
			q.From = q.From.L
		case m.op == mFromRight:
			q.From = q.From.R
		case m.op == mInnerJoin:
			q.From.Join = "INNER JOIN"
			if q.From.On == nil && len(q.From.Using) == 0 {
				q.From.On = &Node{K: kLit, T: types.Bool, Text: "true"}
			}
		case m.op == mDropWith:
			q.With = q.With[1:]
		case m.op >= mDropItem:
			k := m.op - mDropItem
			q.Items = append(q.Items[:k:k], q.Items[k+1:]...)
		}
		return true
	}
	p := selectSlots(s, nil)[m.slot]
	n := *p
	switch {
	case m.op == nNull:
		*p = &Node{K: kLit, T: n.T, Text: "NULL::" + typeName(n.T)}
	case m.op == nLit:
		*p = &Node{K: kLit, T: n.T, Text: simpleLiteral(n.T)}
	case m.op == nDropFilter:
		n.Filter = nil
	case m.op == nDropDistinct:
		n.Distinct = false
	default:
		*p = n.Args[m.op-nChild]
	}
	return true
}

// simpleLiteral is the plainest non-NULL literal of a type.
func simpleLiteral(id types.ID) string {
	switch id {
	case types.Bool:
		return "true"
	case types.Int4:
		return "1"
	case types.Text:
		return "'a'"
	case types.IntArrayID:
		return "'{1}'::int4[]"
	case types.TextArrayID:
		return "'{a}'::text[]"
	}
	return quote(dataPool(colType{id: id, n: 1})[1%len(dataPool(colType{id: id, n: 1}))]) + "::" + typeName(id)
}

// shrinkBudget bounds one shrink.
const shrinkBudget = 90 * time.Second

// shrinkSelect repeatedly applies the first mutation that keeps fails()
// true, until none does (or the budget is spent).
func shrinkSelect(s *Select, fails func(*Select) bool, deadline time.Time) *Select {
	seen := map[string]bool{s.SQL(): true}
	for progress := true; progress && time.Now().Before(deadline); {
		progress = false
		for _, m := range mutations(s) {
			c := s.clone()
			if !apply(c, m) {
				continue
			}
			sql := c.SQL()
			// Only smaller queries: a column replaced by a literal can be
			// spelled longer ('1'::smallint for a1.c2), and shrinking must
			// not trade a short query for a longer one.
			if seen[sql] || len(sql) > len(s.SQL()) {
				continue
			}
			seen[sql] = true
			if fails(c) {
				s, progress = c, true
				break
			}
			if time.Now().After(deadline) {
				break
			}
		}
	}
	return s
}

// shrinkRows drops rows of each table (halves, then single rows) while
// fails() stays true. load installs a schema on both servers.
func shrinkRows(sch *schema, fails func() bool, load func(*schema) error, deadline time.Time) *schema {
	cur := sch.clone()
	for ti := range cur.tables {
		for chunk := (len(cur.tables[ti].rows) + 1) / 2; chunk >= 1; chunk /= 2 {
			for start := 0; start < len(cur.tables[ti].rows) && time.Now().Before(deadline); {
				cand := cur.clone()
				rows := cand.tables[ti].rows
				end := start + chunk
				if end > len(rows) {
					end = len(rows)
				}
				cand.tables[ti].rows = append(append([][]*string(nil), rows[:start]...), rows[end:]...)
				if load(cand) == nil && fails() {
					cur = cand
					continue // same start: the next chunk moved here
				}
				start = end
			}
		}
	}
	load(cur)
	return cur
}
