package sqlfuzz

import (
	"strings"

	"github.com/joind/joind/types"
)

// Window shapes: SELECT <columns>, <window calls> FROM <table> [WHERE p],
// compared as a multiset. Each call's answer must not depend on how a
// server orders ties, so a window either orders by every column of the
// table and then every column's text ("total": rows that tie are identical,
// and which of them gets which value leaves the multiset unchanged), and
// may then call any window function over any frame; or orders by at most
// one column ("keyed") and calls only functions of the peer groups and
// frame contents as sets: rank, dense_rank, percent_rank, cume_dist,
// count, exact sums and min/max over types whose equal values print alike.
// Under a total order, a positional call (row_number, ntile, lag, lead, or a
// ROWS frame) tells identical rows apart, and two such calls may pair their
// values with the rows differently: a query has at most one.

func (g *gen) windowQuery() *query {
	f, cols := g.fromTable()
	q := &Select{From: f, Limit: -1, Offset: -1}
	if g.pct(40) {
		q.Where = g.expr(types.Bool, 2, &scope{cols: cols})
	}
	for i := 0; i < 1+g.r.Intn(2); i++ {
		c := cols[g.r.Intn(len(cols))]
		q.Items = append(q.Items, &Node{K: kCol, T: c.t, Text: c.name})
	}
	positional := false
	for i := 0; i < 1+g.r.Intn(3); i++ {
		n, pos := g.windowCall(cols, !positional)
		positional = positional || pos
		q.Items = append(q.Items, n)
	}
	return &query{sel: q, mode: multiset}
}

// windowCall is one window function call over a table's columns; pos says
// whether it is positional (allowed only when mayPos).
func (g *gen) windowCall(cols []colRef, mayPos bool) (n *Node, pos bool) {
	var spec []string
	if n := g.r.Intn(3); n > 0 {
		var ps []string
		for i := 0; i < n; i++ {
			ps = append(ps, cols[g.r.Intn(len(cols))].name)
		}
		spec = append(spec, "PARTITION BY "+strings.Join(ps, ", "))
	}
	total := g.pct(60)
	var key *colRef
	if total {
		var os []string
		for _, c := range cols {
			os = append(os, c.name+g.direction())
		}
		for _, c := range cols {
			os = append(os, "("+c.name+")::text"+g.direction())
		}
		spec = append(spec, "ORDER BY "+strings.Join(os, ", "))
	} else if g.pct(80) {
		c := cols[g.r.Intn(len(cols))]
		key = &c
		spec = append(spec, "ORDER BY "+c.name+g.direction())
	}
	n = g.windowFunc(cols, total && mayPos)
	frame := g.frame(total && mayPos, key)
	if frame != "" && (n.Text != "rank" && n.Text != "dense_rank" && n.Text != "row_number") {
		spec = append(spec, frame)
	}
	n.Over = strings.Join(spec, " ")
	switch n.Text {
	case "row_number", "ntile", "lag", "lead":
		pos = true
	}
	return n, total && (pos || strings.HasPrefix(frame, "ROWS"))
}

func (g *gen) direction() string {
	return []string{"", " DESC", " NULLS FIRST", " DESC NULLS LAST"}[g.r.Intn(4)]
}

// windowFunc picks a call; positional functions only under a total order.
func (g *gen) windowFunc(cols []colRef, positional bool) *Node {
	c := cols[g.r.Intn(len(cols))]
	col := &Node{K: kCol, T: c.t, Text: c.name}
	small := func() *Node { return &Node{K: kLit, T: types.Int4, Text: itoa(g.r.Intn(4))} }
	w := func(name string, t types.ID, args ...*Node) *Node {
		return &Node{K: kWindow, T: t, Text: name, Args: args}
	}
	for {
		switch g.r.Intn(14) {
		case 0:
			return w("rank", types.Int8)
		case 1:
			return w("dense_rank", types.Int8)
		case 2:
			return w("percent_rank", types.Float8)
		case 3:
			return w("cume_dist", types.Float8)
		case 4:
			n := w("count*", types.Int8)
			g.windowFilter(n, cols)
			return n
		case 5:
			n := w("count", types.Int8, col)
			g.windowFilter(n, cols)
			return n
		case 6:
			if exactSum(c.t) || (positional && (c.t == types.Float8 || c.t == types.Float4)) {
				name := []string{"sum", "avg"}[g.r.Intn(2)]
				ov, err := types.ResolveAggregate(name, []types.Type{{ID: c.t, Typmod: -1}}, false)
				if err == nil {
					n := w(name, ov.Result.ID, col)
					g.windowFilter(n, cols)
					return n
				}
			}
		case 7:
			if plainOrder(c.t) {
				return w([]string{"min", "max"}[g.r.Intn(2)], c.t, col)
			}
		}
		if !positional {
			continue
		}
		switch g.r.Intn(7) {
		case 0:
			return w("row_number", types.Int8)
		case 1:
			return w("ntile", types.Int4, &Node{K: kLit, T: types.Int4, Text: itoa(1 + g.r.Intn(5))})
		case 2, 3:
			name := []string{"lag", "lead"}[g.r.Intn(2)]
			switch g.r.Intn(3) {
			case 0:
				return w(name, c.t, col)
			case 1:
				return w(name, c.t, col, small())
			}
			other := cols[g.r.Intn(len(cols))]
			if other.t == c.t {
				return w(name, c.t, col, small(), &Node{K: kCol, T: c.t, Text: other.name})
			}
			return w(name, c.t, col, small())
		case 4:
			return w("first_value", c.t, col)
		case 5:
			return w("last_value", c.t, col)
		default:
			return w("nth_value", c.t, col, &Node{K: kLit, T: types.Int4, Text: itoa(1 + g.r.Intn(4))})
		}
	}
}

func (g *gen) windowFilter(n *Node, cols []colRef) {
	if g.pct(25) {
		n.Filter = g.expr(types.Bool, 1, &scope{cols: cols, noSub: true})
	}
}

// exactSum: sum/avg whose result does not depend on the order of the rows.
func exactSum(t types.ID) bool {
	return t == types.Int2 || t == types.Int4 || t == types.Int8 || t == types.Numeric
}

// plainOrder: types whose equal values print alike (min/max may return
// any of equal values).
func plainOrder(t types.ID) bool {
	switch t {
	case types.Int2, types.Int4, types.Int8, types.Date, types.Timestamp, types.TimestampTZ, types.Text, types.Varchar:
		return true
	}
	return false
}

// frame is a frame clause ("" for the default). RANGE offsets need a
// single ORDER BY key of a type with in_range support; ROWS frames a total
// order that may be positional.
func (g *gen) frame(rows bool, key *colRef) string {
	if !rows && key == nil || g.pct(30) {
		return ""
	}
	// ROWS frames split peer groups, so only a total order may use them.
	mode := []string{"RANGE", "GROUPS", "ROWS"}[g.r.Intn(2+b2i(rows))]
	offset := func() string { return itoa(g.r.Intn(4)) }
	if mode == "RANGE" {
		offset = nil
		if key != nil {
			switch key.t {
			case types.Int2, types.Int4, types.Int8:
				offset = func() string { return itoa(g.r.Intn(6)) }
			case types.Numeric:
				offset = func() string { return []string{"0", "1.5", "100"}[g.r.Intn(3)] }
			case types.Float8, types.Float4:
				offset = func() string { return []string{"0", "0.5", "'infinity'"}[g.r.Intn(3)] }
			case types.Date, types.Timestamp, types.TimestampTZ:
				offset = func() string { return []string{"'1 day'", "'0'", "'1 mon 2 hours'"}[g.r.Intn(3)] + "::interval" }
			case types.Interval:
				offset = func() string { return "'" + []string{"1 day", "0", "2 years"}[g.r.Intn(3)] + "'::interval" }
			}
		}
	}
	bound := func(end bool) (string, int) {
		for {
			k := g.r.Intn(5)
			if (k == 0 && end) || (k == 4 && !end) || ((k == 1 || k == 3) && offset == nil) {
				continue
			}
			switch k {
			case 0:
				return "UNBOUNDED PRECEDING", k
			case 1:
				return offset() + " PRECEDING", k
			case 2:
				return "CURRENT ROW", k
			case 3:
				return offset() + " FOLLOWING", k
			}
			return "UNBOUNDED FOLLOWING", k
		}
	}
	var s, e string
	for {
		var sk, ek int
		s, sk = bound(false)
		e, ek = bound(true)
		if sk <= ek {
			break
		}
	}
	out := mode + " BETWEEN " + s + " AND " + e
	if g.pct(40) {
		out += " EXCLUDE " + []string{"CURRENT ROW", "GROUP", "TIES", "NO OTHERS"}[g.r.Intn(4)]
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
