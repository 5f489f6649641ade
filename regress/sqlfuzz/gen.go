package sqlfuzz

import (
	"math/rand"

	"github.com/joind/joind/types"
)

// colRef is a visible column: qualified name and type.
type colRef struct {
	name string
	t    types.ID
}

// scope is what an expression may reference.
type scope struct {
	cols  []colRef // row columns (own FROM and, for a correlated subquery, outer ones)
	agg   bool     // aggregate context: leaves are group keys or aggregate calls
	keys  []*Node  // group keys, in agg context
	row   *scope   // the row scope aggregate arguments come from (agg context)
	noSub bool     // no subqueries (inside aggregate arguments, ON, ...)
}

func (s *scope) colsOf(t types.ID) []colRef {
	var out []colRef
	for _, c := range s.cols {
		if c.t == t {
			out = append(out, c)
		}
	}
	return out
}

// gen generates expressions and queries over one schema.
type gen struct {
	r     *rand.Rand
	cat   *catalog
	k     Knobs
	s     *schema
	alias int // next alias number: every FROM item of a query gets its own
	// subDepth limits nesting of subqueries
	subDepth int
}

func (g *gen) pct(p int) bool { return g.r.Intn(100) < p }

func (g *gen) newAlias() string {
	g.alias++
	return "a" + itoa(g.alias)
}

// stringIDs are the types a text parameter accepts as is.
var stringIDs = []types.ID{types.Text, types.Text, types.Text, types.Varchar, types.Char}

// argType is the type to generate for a parameter of type id.
func (g *gen) argType(id types.ID) types.ID {
	switch id {
	case types.Text:
		return stringIDs[g.r.Intn(len(stringIDs))]
	case types.AnyNonArray, types.AnyArg:
		ids := fuzzIDs()
		return ids[g.r.Intn(len(ids))]
	}
	return id
}

// expr generates an expression of type t.
func (g *gen) expr(t types.ID, depth int, sc *scope) *Node {
	if depth <= 0 || g.pct(25) {
		return g.leaf(t, depth, sc)
	}
	for tries := 0; tries < 4; tries++ {
		if n := g.compound(t, depth, sc); n != nil {
			return n
		}
	}
	return g.leaf(t, depth, sc)
}

// leaf is a column, group key, aggregate call or literal of type t.
func (g *gen) leaf(t types.ID, depth int, sc *scope) *Node {
	if sc.agg {
		var keys []*Node
		for _, k := range sc.keys {
			if k.T == t {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 && g.pct(50) {
			return keys[g.r.Intn(len(keys))].clone()
		}
		if g.pct(75) {
			if n := g.aggCall(t, sc.row); n != nil {
				return n
			}
		}
	} else if cols := sc.colsOf(t); len(cols) > 0 && g.pct(70) {
		c := cols[g.r.Intn(len(cols))]
		return &Node{K: kCol, T: t, Text: c.name}
	}
	if g.pct(12) {
		return &Node{K: kLit, T: t, Text: nullLit(g.r, t)}
	}
	return &Node{K: kLit, T: t, Text: literal(g.r, &g.k, t)}
}

// aggCall is an aggregate with result type t over row scope rs, or nil.
func (g *gen) aggCall(t types.ID, rs *scope) *Node {
	if t == types.Int8 && g.pct(30) {
		n := &Node{K: kAgg, T: t, Text: "count*"}
		g.maybeFilter(n, rs)
		return n
	}
	sigs := g.cat.aggs[t]
	if len(sigs) == 0 {
		return nil
	}
	sig := sigs[g.r.Intn(len(sigs))]
	if orderSensitive[sig.Name] != (sig.Result != t) {
		return nil // an order-sensitive aggregate is only generated inside length()
	}
	argScope := &scope{cols: rs.cols, noSub: true}
	n := &Node{K: kAgg, T: sig.Result, Text: sig.Name}
	for i, a := range sig.Args {
		at := g.argType(a)
		if orderSensitiveFloat(sig, at) {
			// sum/avg over floats: only stored binary fractions are exact
			// in any order, so only bare columns
			cols := rs.colsOf(at)
			if len(cols) == 0 {
				return nil
			}
			n.Args = append(n.Args, &Node{K: kCol, T: at, Text: cols[g.r.Intn(len(cols))].name})
			continue
		}
		if sig.Name == "string_agg" && i == 1 {
			n.Args = append(n.Args, &Node{K: kLit, T: types.Text, Text: quote([]string{",", "", "-", " | "}[g.r.Intn(4)])})
			continue
		}
		n.Args = append(n.Args, g.expr(at, 2, argScope))
	}
	if len(n.Args) > 0 && g.pct(20) {
		n.Distinct = true
	}
	g.maybeFilter(n, rs)
	if orderSensitive[sig.Name] {
		// the concatenation order is unspecified without ORDER BY in the
		// call (which joind rejects with 0A000): compare its length
		return &Node{K: kFunc, T: types.Int4, Text: "length", Args: []*Node{n}}
	}
	return n
}

func (g *gen) maybeFilter(n *Node, rs *scope) {
	if g.pct(15) {
		n.Filter = g.expr(types.Bool, 2, &scope{cols: rs.cols, noSub: true})
	}
}

// arrayElem is the element type of each array type the generator builds.
var arrayElem = map[types.ID]types.ID{types.IntArrayID: types.Int4, types.TextArrayID: types.Text}

// orderSensitive aggregates give order-dependent text.
var orderSensitive = map[string]bool{"string_agg": true}

func orderSensitiveFloat(sig types.Signature, at types.ID) bool {
	return (sig.Name == "sum" || sig.Name == "avg") && (at == types.Float4 || at == types.Float8)
}

// compound is an operator, function, cast, CASE, ... of type t, or nil.
func (g *gen) compound(t types.ID, depth int, sc *scope) *Node {
	d := depth - 1
	if et, ok := arrayElem[t]; ok && g.pct(30) {
		// ARRAY[...] of element expressions (ARRAY[] alone has no type)
		n := &Node{K: kArray, T: t}
		for i := 0; i < 1+g.r.Intn(4); i++ {
			n.Args = append(n.Args, g.expr(et, d, sc))
		}
		return n
	}
	switch c := g.r.Intn(100); {
	case c < 30:
		ops := g.cat.ops[t]
		if len(ops) == 0 {
			return nil
		}
		return g.call(kOp, ops[g.r.Intn(len(ops))], t, d, sc)
	case c < 55:
		fs := g.cat.funcs[t]
		if len(fs) == 0 {
			return nil
		}
		return g.call(kFunc, fs[g.r.Intn(len(fs))], t, d, sc)
	case c < 63:
		from := g.cat.casts[t]
		if len(from) == 0 {
			return nil
		}
		src := from[g.r.Intn(len(from))]
		arg := g.expr(src, d, sc)
		if isString(src) && !isString(t) && g.pct(75) {
			// text -> t mostly of valid input text (else most casts fail)
			arg = &Node{K: kLit, T: src, Text: quote(g.inputText(t)) + "::" + typeName(src)}
		}
		return &Node{K: kCast, T: t, Flag: g.pct(50), Args: []*Node{arg}}
	case c < 70:
		n := &Node{K: kCase, T: t}
		for i := 0; i < 1+g.r.Intn(2); i++ {
			n.Args = append(n.Args, g.expr(types.Bool, d, sc), g.expr(t, d, sc))
		}
		if g.pct(70) {
			n.Flag = true
			n.Args = append(n.Args, g.expr(t, d, sc))
		}
		return n
	case c < 78:
		kw := []string{"COALESCE", "COALESCE", "NULLIF", "GREATEST", "LEAST"}[g.r.Intn(5)]
		if (kw == "GREATEST" || kw == "LEAST") && !types.HasOrdering(types.Type{ID: t, Typmod: -1}) && g.k.AvoidUnorderedMinMax {
			kw = "COALESCE"
		}
		n := &Node{K: kCoalesce, T: t, Text: kw}
		nargs := 1 + g.r.Intn(3)
		if kw == "NULLIF" {
			nargs = 2
		}
		for i := 0; i < nargs; i++ {
			n.Args = append(n.Args, g.expr(t, d, sc))
		}
		return n
	case c < 82:
		if sc.noSub || g.subDepth >= 2 {
			return nil
		}
		return g.scalarSub(t, sc)
	}
	if t == types.Bool {
		return g.boolExpr(d, sc)
	}
	return nil
}

func isString(id types.ID) bool {
	return id == types.Text || id == types.Varchar || id == types.Char || id == types.Name
}

// inputText is valid input text of type t.
func (g *gen) inputText(t types.ID) string {
	var pool []string
	if t == types.Float4 || t == types.Float8 {
		pool = floatLitPool
	} else {
		pool = g.k.filterPool(t, dataPool(colType{id: t}))
	}
	return pool[g.r.Intn(len(pool))]
}

// call is an operator or function call of signature sig.
func (g *gen) call(k kind, sig types.Signature, t types.ID, d int, sc *scope) *Node {
	n := &Node{K: k, T: t, Text: sig.Name, Flag: g.pct(50)}
	nargs := len(sig.Args)
	if sig.Variadic {
		nargs += g.r.Intn(3)
	}
	for i := 0; i < nargs; i++ {
		pt := sig.Args[len(sig.Args)-1]
		if i < len(sig.Args) {
			pt = sig.Args[i]
		}
		if h := argHint(g.r, sig.Name, nargs, i); h != "" {
			n.Args = append(n.Args, &Node{K: kLit, T: pt, Text: h})
			continue
		}
		n.Args = append(n.Args, g.expr(g.argType(pt), d, sc))
	}
	if k == kOp && (sig.Name == "~~" || sig.Name == "~~*" || sig.Name == "!~~" || sig.Name == "!~~*") && g.pct(60) {
		n.Args[1] = g.likePattern(sc)
	}
	return n
}

// boolExpr is one of the boolean-only forms.
func (g *gen) boolExpr(d int, sc *scope) *Node {
	anyT := func() types.ID { ids := fuzzIDs(); return ids[g.r.Intn(len(ids))] }
	switch g.r.Intn(13) {
	case 0, 1:
		return &Node{K: kAnd, T: types.Bool, Args: []*Node{g.expr(types.Bool, d, sc), g.expr(types.Bool, d, sc)}}
	case 2:
		return &Node{K: kOr, T: types.Bool, Args: []*Node{g.expr(types.Bool, d, sc), g.expr(types.Bool, d, sc)}}
	case 3:
		return &Node{K: kNot, T: types.Bool, Args: []*Node{g.expr(types.Bool, d, sc)}}
	case 4:
		return &Node{K: kIsNull, T: types.Bool, Flag: g.pct(50), Args: []*Node{g.expr(anyT(), d, sc)}}
	case 5:
		return &Node{K: kIsBool, T: types.Bool, Flag: g.pct(50), Text: []string{"TRUE", "FALSE", "UNKNOWN"}[g.r.Intn(3)],
			Args: []*Node{g.expr(types.Bool, d, sc)}}
	case 6:
		t := anyT()
		return &Node{K: kDistinct, T: types.Bool, Flag: g.pct(50), Args: []*Node{g.expr(t, d, sc), g.expr(t, d, sc)}}
	case 7:
		t := anyT()
		sym := ""
		if g.pct(30) {
			sym = "SYMMETRIC"
		}
		return &Node{K: kBetween, T: types.Bool, Flag: g.pct(30), Text: sym,
			Args: []*Node{g.expr(t, d, sc), g.expr(t, d, sc), g.expr(t, d, sc)}}
	case 8:
		t := anyT()
		n := &Node{K: kInList, T: types.Bool, Flag: g.pct(40), Args: []*Node{g.expr(t, d, sc)}}
		for i := 0; i < 1+g.r.Intn(4); i++ {
			n.Args = append(n.Args, g.expr(t, 0, sc))
		}
		return n
	case 9:
		kw := "LIKE"
		if g.pct(40) {
			kw = "ILIKE"
		}
		esc := []string{`'\'`, `'!'`, `''`, `'a'`}[g.r.Intn(4)]
		return &Node{K: kLikeEsc, T: types.Bool, Text: kw, Flag: g.pct(30),
			Args: []*Node{g.expr(types.Text, d, sc), g.likePattern(sc), {K: kLit, T: types.Text, Text: esc}}}
	case 10:
		if sc.noSub || g.subDepth >= 2 || sc.agg {
			return nil
		}
		return g.existsSub(sc)
	case 12:
		// Row comparisons: PostgreSQL expands them column by column
		// (lexicographic for < <= > >=, three-valued with NULLs).
		n := &Node{K: kRowCmp, T: types.Bool, Text: rowCmpOps[g.r.Intn(len(rowCmpOps))]}
		width := 1 + g.r.Intn(3)
		ts := make([]types.ID, width)
		for i := range ts {
			ts[i] = anyT()
		}
		for side := 0; side < 2; side++ {
			for _, t := range ts {
				n.Args = append(n.Args, g.expr(t, d, sc))
			}
		}
		return n
	default:
		if sc.noSub || g.subDepth >= 2 || sc.agg {
			return nil
		}
		return g.inSub(d, sc)
	}
}

var rowCmpOps = []string{"=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"}

var likePatterns = []string{"%", "", "a%", "%a", "%a%", "_", "a_c", "%b_", `a\%b`, `\_`, "A%", "%é%", "x_y", "%%", "!%", "a!%"}

func (g *gen) likePattern(sc *scope) *Node {
	if cols := sc.colsOf(types.Text); len(cols) > 0 && g.pct(20) {
		return &Node{K: kCol, T: types.Text, Text: cols[g.r.Intn(len(cols))].name}
	}
	return &Node{K: kLit, T: types.Text, Text: quote(likePatterns[g.r.Intn(len(likePatterns))])}
}

var (
	dateFields = []string{"year", "month", "day", "hour", "minute", "second", "epoch", "dow", "doy", "quarter",
		"week", "century", "decade", "millennium", "microseconds", "milliseconds", "isodow", "isoyear", "julian", "YEAR", "mon", "days"}
	truncFields = []string{"microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter",
		"year", "decade", "century", "millennium"}
	zones   = []string{"UTC", "America/New_York", "Asia/Kolkata", "Europe/Berlin", "+05", "-03:30", "EST5EDT", "Australia/Adelaide"}
	regexes = []string{"^a", "a$", "a.c", "[a-c]", "^$", "x*y?", "(ab|cd)", "A", ".", "^[0-9]+$", "b+", "^.{3}$"}
)

// argHint is a literal for parameters whose useful domain is narrow (field
// names, zone names, lengths a server would spend memory on), or "" for a
// random argument. Keyed by name: the catalog gives types, not domains.
func argHint(r *rand.Rand, name string, nargs, i int) string {
	pick := func(s []string) string { return quote(s[r.Intn(len(s))]) }
	small := func(lo, hi int) string { return "(" + itoa(lo+r.Intn(hi-lo+1)) + ")" }
	switch name {
	case "extract", "date_part":
		if i == 0 {
			return pick(dateFields)
		}
	case "date_trunc":
		if i == 0 {
			return pick(truncFields)
		}
		if i == 2 {
			return pick(zones)
		}
	case "timezone":
		if i == 0 && r.Intn(3) > 0 {
			return pick(zones) // text zone; an interval zone is generated
		}
	case "repeat", "lpad", "rpad":
		if i == 1 {
			return small(-2, 12)
		}
	case "round", "trunc":
		if i == 1 {
			return small(-3, 8)
		}
	case "chr":
		return small(0, 300)
	case "make_date":
		return [...]func() string{func() string { return small(-5, 3000) }, func() string { return small(0, 13) },
			func() string { return small(0, 32) }}[i]()
	case "make_timestamp":
		switch i {
		case 0:
			return small(-5, 3000)
		case 1:
			return small(0, 13)
		case 2:
			return small(0, 32)
		case 3:
			return small(0, 25)
		case 4:
			return small(0, 60)
		}
		return "(" + []string{"0", "1.5", "59.999999", "60", "61", "-1"}[r.Intn(6)] + ")::float8"
	case "~", "~*", "!~", "!~*":
		if i == 1 {
			return pick(regexes)
		}
	}
	return ""
}

// scalarSub is (SELECT agg(...) FROM t [WHERE correlated]) of type t.
func (g *gen) scalarSub(t types.ID, sc *scope) *Node {
	g.subDepth++
	defer func() { g.subDepth-- }()
	from, cols := g.fromTable()
	inner := &scope{cols: append(append([]colRef(nil), cols...), sc.cols...)}
	q := &Select{From: from, Limit: -1, Offset: -1}
	if g.pct(60) {
		q.Where = g.expr(types.Bool, 2, inner)
	}
	// aggregate only the subquery's own columns: an aggregate of outer
	// columns belongs to the outer query (PostgreSQL's agglevelsup)
	agg := g.aggCall(t, &scope{cols: cols})
	if agg == nil {
		return nil
	}
	q.Items = []*Node{agg}
	return &Node{K: kScalarSub, T: t, Sub: q}
}

func (g *gen) existsSub(sc *scope) *Node {
	g.subDepth++
	defer func() { g.subDepth-- }()
	from, cols := g.fromTable()
	inner := &scope{cols: append(append([]colRef(nil), cols...), sc.cols...)}
	q := &Select{From: from, Limit: -1, Offset: -1, Items: []*Node{{K: kLit, T: types.Int4, Text: "1"}}}
	q.Where = g.expr(types.Bool, 2, inner)
	return &Node{K: kExists, T: types.Bool, Flag: g.pct(40), Sub: q}
}

func (g *gen) inSub(d int, sc *scope) *Node {
	g.subDepth++
	defer func() { g.subDepth-- }()
	from, cols := g.fromTable()
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.r.Intn(len(cols))]
	inner := &scope{cols: append(append([]colRef(nil), cols...), sc.cols...)}
	q := &Select{From: from, Limit: -1, Offset: -1, Items: []*Node{g.expr(c.t, 1, &scope{cols: cols, noSub: true})}}
	if g.pct(50) {
		q.Where = g.expr(types.Bool, 2, inner)
	}
	n := &Node{K: kInSub, T: types.Bool, Flag: g.pct(50), Args: []*Node{g.expr(c.t, d, sc)}, Sub: q}
	if g.k.AvoidNotInNullOperand {
		// an operand that folds to a constant (NULL / c, c AND false)
		// trips FINDINGS #5: use a bare column
		cols := sc.colsOf(c.t)
		if len(cols) == 0 {
			return nil
		}
		n.Args[0] = &Node{K: kCol, T: c.t, Text: cols[g.r.Intn(len(cols))].name}
	}
	return n
}

// fromTable is one base table under a fresh alias, and its columns.
func (g *gen) fromTable() (*From, []colRef) {
	t := g.s.tables[g.r.Intn(len(g.s.tables))]
	a := g.newAlias()
	var cols []colRef
	for _, c := range t.cols {
		cols = append(cols, colRef{a + "." + c.name, c.t.id})
	}
	return &From{Table: t.name, Alias: a}, cols
}

// usingCols are the column names both sides have with the same type.
type namedCol struct {
	name string
	t    types.ID
}

// fromItem is a table or a derived table, with its columns and the
// unqualified names (for USING).
func (g *gen) fromItem(allowDerived bool) (*From, []colRef, []namedCol) {
	if allowDerived && g.subDepth < 2 && g.pct(15) {
		g.subDepth++
		sub, outTypes := g.simpleSelect(nil, 1+g.r.Intn(3))
		g.subDepth--
		a := g.newAlias()
		var cols []colRef
		var names []namedCol
		for i, t := range outTypes {
			cols = append(cols, colRef{a + ".c" + itoa(i), t})
			names = append(names, namedCol{"c" + itoa(i), t})
		}
		return &From{Sub: sub, Alias: a}, cols, names
	}
	t := g.s.tables[g.r.Intn(len(g.s.tables))]
	a := g.newAlias()
	var cols []colRef
	var names []namedCol
	for _, c := range t.cols {
		cols = append(cols, colRef{a + "." + c.name, c.t.id})
		names = append(names, namedCol{c.name, c.t.id})
	}
	return &From{Table: t.name, Alias: a}, cols, names
}

var joinTypes = []string{"INNER JOIN", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", ",", "LEFT OUTER JOIN", "FULL OUTER JOIN"}

// from is a FROM clause of 1-3 items joined at random, and its columns.
func (g *gen) from() (*From, []colRef) {
	f, cols, names := g.fromItem(true)
	// 1-3 items, rarely 3: PostgreSQL runs correlated subqueries once
	// per joined row, and the oracle's time is most of a run's
	n := 1
	if c := g.r.Intn(100); c >= 85 {
		n = 3
	} else if c >= 35 {
		n = 2
	}
	for i := 1; i < n; i++ {
		rf, rcols, rnames := g.fromItem(true)
		j := &From{Join: joinTypes[g.r.Intn(len(joinTypes))], L: f, R: rf}
		if j.Join != "CROSS JOIN" && j.Join != "," {
			var common []string
			for _, a := range names {
				for _, b := range rnames {
					if a.name == b.name && a.t == b.t {
						common = append(common, a.name)
					}
				}
			}
			// USING needs a name that occurs once on each side
			var once []string
			for _, c := range common {
				if countName(names, c) == 1 && countName(rnames, c) == 1 && !contains(once, c) {
					once = append(once, c)
				}
			}
			if len(once) > 0 && g.pct(25) {
				j.Using = once[:1+g.r.Intn(len(once))]
			}
			if j.Using == nil {
				j.On = g.joinCond(cols, rcols)
			}
		}
		f = j
		cols = append(cols, rcols...)
		names = append(names, rnames...)
	}
	return f, cols
}

func countName(ns []namedCol, name string) int {
	n := 0
	for _, c := range ns {
		if c.name == name {
			n++
		}
	}
	return n
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// joinCond is mostly an equality of same-typed columns (so hash joins are
// exercised), sometimes with an extra conjunct or an arbitrary predicate.
func (g *gen) joinCond(l, r []colRef) *Node {
	both := &scope{cols: append(append([]colRef(nil), l...), r...), noSub: true}
	var pairs [][2]colRef
	for _, a := range l {
		for _, b := range r {
			if a.t == b.t {
				pairs = append(pairs, [2]colRef{a, b})
			}
		}
	}
	if len(pairs) == 0 || g.pct(15) {
		return g.expr(types.Bool, 2, both)
	}
	p := pairs[g.r.Intn(len(pairs))]
	eq := &Node{K: kOp, T: types.Bool, Text: "=", Args: []*Node{{K: kCol, T: p[0].t, Text: p[0].name}, {K: kCol, T: p[1].t, Text: p[1].name}}}
	if g.pct(25) {
		return &Node{K: kAnd, T: types.Bool, Args: []*Node{eq, g.expr(types.Bool, 1, both)}}
	}
	return eq
}

// simpleSelect is a SELECT of width columns (types chosen at random unless
// want is given) over a random FROM, with optional WHERE and DISTINCT, or a
// grouped aggregate query. It returns the output types.
func (g *gen) simpleSelect(want []types.ID, width int) (*Select, []types.ID) {
	q := &Select{Limit: -1, Offset: -1}
	var cols []colRef
	if g.pct(95) {
		q.From, cols = g.from()
	}
	rs := &scope{cols: cols}
	if q.From != nil && g.pct(60) {
		q.Where = g.expr(types.Bool, 3, rs)
	}
	if want == nil {
		for i := 0; i < width; i++ {
			want = append(want, g.outType(cols))
		}
	}
	sc := rs
	if q.From != nil && g.pct(35) {
		// grouped: keys are columns or expressions, repeated verbatim
		asc := &scope{agg: true, row: rs}
		for i := 0; i < g.r.Intn(3); i++ {
			var k *Node
			if len(cols) > 0 && g.pct(70) {
				c := cols[g.r.Intn(len(cols))]
				k = &Node{K: kCol, T: c.t, Text: c.name}
			} else {
				k = g.expr(g.outType(cols), 2, &scope{cols: cols, noSub: true})
			}
			if k.K == kLit {
				continue // a constant GROUP BY item is a position (or an error)
			}
			q.GroupBy = append(q.GroupBy, k)
		}
		if len(q.GroupBy) > 0 && g.pct(40) {
			// ROLLUP / CUBE / GROUPING SETS over the keys, after a plain one
			q.Grouping = [...]string{"ROLLUP", "CUBE", "SETS"}[g.r.Intn(3)]
			if len(q.GroupBy) > 1 && g.pct(30) {
				q.GroupingPlain = 1
			}
		}
		asc.keys = q.GroupBy
		if g.pct(30) {
			q.Having = g.expr(types.Bool, 2, asc)
		}
		sc = asc
	}
	for _, t := range want {
		q.Items = append(q.Items, g.expr(t, 3, sc))
	}
	if g.pct(15) {
		q.Distinct = true
	}
	return q, want
}

// outType is an output column type, biased towards the FROM's column types.
func (g *gen) outType(cols []colRef) types.ID {
	if len(cols) > 0 && g.pct(60) {
		return cols[g.r.Intn(len(cols))].t
	}
	ids := fuzzIDs()
	return ids[g.r.Intn(len(ids))]
}

// compareMode says how a query's rows are compared.
type compareMode uint8

const (
	multiset  compareMode = iota // order is open
	ordered                      // ORDER BY fully determines the text order
	countOnly                    // LIMIT/OFFSET over an open order: only the row count is defined
)

// query is one generated top-level query.
type query struct {
	sel        *Select
	mode       compareMode
	condEval   bool // set by analyze
	reprChoice bool // set by analyze
	emptyInput bool // set by analyze
	// strictPrecedence: a joind data exception against a PostgreSQL
	// analysis error is a disagreement (Knobs.AllowErrorPrecedence off)
	strictPrecedence bool
	lenientData      bool // Knobs.AllowOneSidedDataErrors
}

func (q *query) clone() *query {
	c := *q
	c.sel = q.sel.clone()
	return &c
}

// query generates a top-level query.
func (g *gen) query() *query {
	g.alias = 0
	g.subDepth = 0
	switch c := g.r.Intn(100); {
	case c < 50:
		q, _ := g.simpleSelect(nil, 1+g.r.Intn(4))
		if g.pct(20) {
			g.partialOrder(q)
			if g.pct(30) {
				q.Limit = g.r.Intn(6)
				return &query{sel: q, mode: countOnly}
			}
		}
		return &query{sel: q, mode: multiset}
	case c < 65:
		return &query{sel: g.setOp(), mode: multiset}
	case c < 75:
		return &query{sel: g.withCTE(), mode: multiset}
	case c < 85:
		return g.windowQuery()
	default:
		return g.totalOrder()
	}
}

// partialOrder adds an ORDER BY over output positions (no total order).
func (g *gen) partialOrder(q *Select) {
	for i := 0; i < 1+g.r.Intn(2) && i < q.width(); i++ {
		q.OrderBy = append(q.OrderBy, g.orderItem(&Node{K: kLit, T: types.Int4, Text: itoa(1 + g.r.Intn(q.width()))}))
	}
}

func (g *gen) orderItem(e *Node) OrderItem {
	o := OrderItem{E: e, Desc: g.pct(40)}
	if g.pct(40) {
		b := g.pct(50)
		o.NullsFirst = &b
	}
	return o
}

// totalOrder wraps a query as SELECT * FROM (q) s ORDER BY <every column,
// then every column's text>, so the text order is fully determined even
// where equal values print differently (1.0 and 1.00), then LIMIT/OFFSET.
func (g *gen) totalOrder() *query {
	var inner *Select
	if g.pct(25) {
		inner = g.setOp()
	} else {
		inner, _ = g.simpleSelect(nil, 1+g.r.Intn(3))
	}
	w := inner.width()
	a := "s"
	outer := &Select{From: &From{Sub: inner, Alias: a}, Limit: -1, Offset: -1}
	for _, i := range g.r.Perm(w) {
		outer.OrderBy = append(outer.OrderBy, g.orderItem(&Node{K: kCol, Text: a + ".c" + itoa(i)}))
	}
	for i := 0; i < w; i++ {
		outer.OrderBy = append(outer.OrderBy, g.orderItem(&Node{K: kCast, T: types.Text, Args: []*Node{{K: kCol, Text: a + ".c" + itoa(i)}}}))
	}
	if g.pct(50) {
		outer.Limit = g.r.Intn(10)
	}
	if g.pct(30) {
		outer.Offset = g.r.Intn(5)
	}
	return &query{sel: outer, mode: ordered}
}

var setOps = []string{"UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}

func (g *gen) setOp() *Select {
	l, ts := g.simpleSelect(nil, 1+g.r.Intn(3))
	r, _ := g.simpleSelect(ts, len(ts))
	return &Select{SetOp: setOps[g.r.Intn(len(setOps))], L: l, R: r, Limit: -1, Offset: -1}
}

// withCTE is WITH c AS (q) SELECT ... FROM c [join a table].
func (g *gen) withCTE() *Select {
	g.subDepth++
	cq, ts := g.simpleSelect(nil, 1+g.r.Intn(3))
	g.subDepth--
	name := "w" + itoa(g.r.Intn(10))
	a := g.newAlias()
	var cols []colRef
	for i, t := range ts {
		cols = append(cols, colRef{a + ".c" + itoa(i), t})
	}
	f := &From{Table: name, Alias: a}
	if g.pct(40) {
		rf, rcols := g.fromTable()
		f = &From{Join: joinTypes[g.r.Intn(5)], L: f, R: rf}
		f.On = g.joinCond(cols, rcols)
		cols = append(cols, rcols...)
	}
	q := &Select{With: []CTE{{name, cq}}, From: f, Limit: -1, Offset: -1}
	sc := &scope{cols: cols}
	if g.pct(50) {
		q.Where = g.expr(types.Bool, 2, sc)
	}
	for i := 0; i < 1+g.r.Intn(3); i++ {
		q.Items = append(q.Items, g.expr(g.outType(cols), 3, sc))
	}
	return q
}
