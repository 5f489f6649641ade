package operators

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestKernelsMatchGeneric is the differential test of the vectorized
// kernels: random columns (with NULLs, infinities, range edges) and random
// expressions over them — datetime arithmetic and comparisons, extract,
// date_part, date_trunc, text comparisons, LIKE/ILIKE, substring, CASE,
// IN lists, COALESCE, casts — compiled with kernels and without
// (compiler.generic: the row-by-row reference), must give the same values
// and NULLs, or the same error with the same SQLSTATE.
func TestKernelsMatchGeneric(t *testing.T) {
	seed := int64(20261201)
	iters := 2000
	if testing.Short() {
		iters = 500
	}
	r := rand.New(rand.NewSource(seed))
	g := &exprGen{r: r}
	stats := map[string]int{}
	defer func(c int) { memoCap = c }(memoCap)
	for it := 0; it < iters; it++ {
		if it == iters/2 {
			memoCap = 16 // the second half fills memo caches and turns them off
		}
		g.newColumns()
		g.edges = r.Intn(4) == 0
		rows := 1 + r.Intn(300)
		if r.Intn(20) == 0 {
			rows = 600 + r.Intn(1500) // past memoKernel's give-up point
		}
		data := make([][]types.Value, rows)
		for i := range data {
			data[i] = make([]types.Value, len(g.cols))
			for k, c := range g.cols {
				data[i][k] = g.value(c.Type)
			}
		}
		rec := mkRecord(g.cols, data)
		if rows > 3 && r.Intn(4) == 0 {
			// scans hand on slices of segments: arrays with an offset
			lo := 1 + r.Intn(rows/2)
			rec = rec.NewSlice(int64(lo), int64(rows))
			data, rows = data[lo:], rows-lo
		}
		want := g.anyType()
		e := g.gen(want, 3)
		fast, ferr := evalWith(t, e, g.cols, rec, false)
		slow, serr := evalWith(t, e, g.cols, rec, true)
		desc := exprString(e)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("iteration %d: %s\nkernel error: %v\ngeneric error: %v", it, desc, ferr, serr)
		}
		if ferr != nil {
			if ferr.Error() != serr.Error() || pgerr.Code(ferr) != pgerr.Code(serr) {
				t.Fatalf("iteration %d: %s\nkernel error: %v (%s)\ngeneric error: %v (%s)", it, desc, ferr, pgerr.Code(ferr), serr, pgerr.Code(serr))
			}
			stats["error"]++
			continue
		}
		if !arrow.TypeEqual(fast.DataType(), slow.DataType()) {
			t.Fatalf("iteration %d: %s: kernel type %s, generic %s", it, desc, fast.DataType(), slow.DataType())
		}
		for i := 0; i < rows; i++ {
			a, b := valueKey(fast, e.Type(), i), valueKey(slow, e.Type(), i)
			if a != b {
				t.Fatalf("iteration %d: %s\nrow %d (%s): kernel %s, generic %s", it, desc, i, fmtRow(data[i], g.cols), a, b)
			}
		}
		stats[e.Type().BaseSQLName()]++
	}
	if stats["boolean"] == 0 || stats["error"] == 0 || stats["timestamp without time zone"] == 0 || stats["text"] == 0 {
		t.Fatalf("the generator missed a class of expressions: %v", stats)
	}
	t.Logf("results by type: %v", stats)
}

func evalWith(t *testing.T, e plan.Expr, cs []plan.Column, rec arrow.Record, generic bool) (arrow.Array, error) {
	t.Helper()
	c, err := compile(e, cs, &Env{Eval: &types.EvalContext{}}, generic)
	if err != nil {
		t.Fatalf("compile %s: %v", exprString(e), err)
	}
	return c.Eval(context.Background(), rec)
}

// valueKey spells row i of arr exactly (NaN, -0, interval fields apart).
func valueKey(arr arrow.Array, t types.Type, i int) string {
	v := types.GetValue(arr, t, i)
	if v.Null {
		return "NULL"
	}
	switch t.ID {
	case types.Float4, types.Float8:
		return fmt.Sprintf("%v/%x", v.F, math.Float64bits(v.F))
	case types.Interval:
		return fmt.Sprintf("%d mons %d days %d us", v.Iv.Months, v.Iv.Days, v.Iv.Micros)
	case types.Numeric:
		return v.Num.String()
	case types.Text, types.Varchar, types.Char, types.Unknown:
		return fmt.Sprintf("%q", v.S)
	}
	return fmt.Sprint(v.I)
}

type exprGen struct {
	r    *rand.Rand
	cols []plan.Column
	// edges: this iteration's values include range edges and infinities
	// (most expressions then fail somewhere, so only some iterations).
	edges bool
}

var (
	char4   = types.Type{ID: types.Char, Typmod: 4 + 4}
	varchar = types.Type{ID: types.Varchar, Typmod: 3 + 4}
	genTys  = []types.Type{types.BoolType, types.Int2Type, types.Int4Type, types.Int8Type, types.Float8Type,
		types.TextType, char4, types.CharType, types.DateType, types.TimestampType, types.TimestampTZType, types.IntervalType}
)

// newColumns picks the input: two columns of every type, so every form
// finds operands.
func (g *exprGen) newColumns() {
	g.cols = nil
	for _, t := range genTys {
		for k := 0; k < 2; k++ {
			g.cols = append(g.cols, plan.Column{ID: plan.ColumnID(len(g.cols) + 1), Name: fmt.Sprintf("%s%d", t.BaseSQLName(), k), Type: t})
		}
	}
}

func (g *exprGen) anyType() types.Type {
	return []types.Type{types.BoolType, types.BoolType, types.BoolType, types.DateType, types.TimestampType,
		types.IntervalType, types.Int4Type, types.Float8Type, types.TextType, types.NumericType, types.TimestampTZType}[g.r.Intn(11)]
}

const (
	maxDate = 2147483494 - 2440588 - 1 // last day of the date range (days since 1970)
	minDate = -2440588
)

// pick is one of the ordinary values, or (in an edge iteration, one time
// in four) one of the edges.
func (g *exprGen) pick(ordinary []int64, edges ...int64) int64 {
	if g.edges && g.r.Intn(4) == 0 {
		return edges[g.r.Intn(len(edges))]
	}
	return ordinary[g.r.Intn(len(ordinary))]
}

func (g *exprGen) str(n int) string {
	const alpha = "aAbB%_\\ é"
	rs := []rune(alpha)
	var b strings.Builder
	for k := g.r.Intn(n + 1); k > 0; k-- {
		b.WriteRune(rs[g.r.Intn(len(rs))])
	}
	return b.String()
}

// value is a random value of t, NULL one time in eight.
func (g *exprGen) value(t types.Type) types.Value {
	r := g.r
	if r.Intn(8) == 0 {
		return types.NullValue
	}
	switch t.ID {
	case types.Bool:
		return types.BoolValue(r.Intn(2) == 0)
	case types.Int2:
		return I(g.pick([]int64{0, 1, -1, 7, 31, int64(r.Intn(200) - 100)}, math.MaxInt16, math.MinInt16))
	case types.Int4:
		return I(g.pick([]int64{0, 1, -1, 12, 365, int64(r.Intn(2000) - 1000)}, math.MaxInt32, math.MinInt32, 5000000, -5000000))
	case types.Int8:
		return I(g.pick([]int64{0, 1, -1, int64(r.Intn(2000) - 1000)}, math.MaxInt64, math.MinInt64, 1<<40))
	case types.Float8:
		if g.edges && r.Intn(4) == 0 {
			return F([]float64{math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e300}[r.Intn(5)])
		}
		return F([]float64{0, 1.5, -2.25, float64(r.Intn(100)) / 4}[r.Intn(4)])
	case types.Text, types.Varchar:
		return S(g.str(6))
	case types.Char:
		s := g.str(4)
		if n := t.CharLen(); n >= 0 {
			rs := []rune(s)
			if len(rs) > n {
				rs = rs[:n]
			}
			s = string(rs) + strings.Repeat(" ", n-len(rs))
		}
		return S(s)
	case types.Date:
		return I(g.pick([]int64{0, -1, 10000, r.Int63n(40000) - 20000, r.Int63n(40000) - 20000},
			types.DateInfinity, types.DateNegInfinity, maxDate, maxDate-r.Int63n(40), minDate, minDate+r.Int63n(40), 106751991))
	case types.Timestamp, types.TimestampTZ:
		day := int64(86400000000)
		return I(g.pick([]int64{0, (r.Int63n(40000)-20000)*day + r.Int63n(day), (r.Int63n(40000) - 20000) * day},
			types.TimestampInfinity, types.TimestampNegInfinity, 9223371331200000000-r.Int63n(3*day), -210866803200000000+r.Int63n(3*day)))
	case types.Interval:
		iv := types.IntervalValue{Months: int32(r.Intn(61) - 30), Days: int32(r.Intn(201) - 100), Micros: r.Int63n(200*3600e6) - 100*3600e6}
		switch r.Intn(6) {
		case 0:
			iv = types.IntervalValue{Days: int32(r.Intn(10))}
		case 1:
			if g.edges {
				iv.Months = math.MaxInt32
			}
		case 2:
			if g.edges {
				iv.Micros = math.MinInt64 + r.Int63n(1000)
			}
		}
		return types.Value{Iv: iv}
	}
	panic("exprGen: no values of " + t.BaseSQLName())
}

func (g *exprGen) colOf(t types.Type) plan.Expr {
	var cands []plan.Column
	for _, c := range g.cols {
		if c.Type == t {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	c := cands[g.r.Intn(len(cands))]
	return &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
}

func (g *exprGen) konst(t types.Type) plan.Expr {
	if t.ID == types.Numeric {
		return &plan.Const{Val: types.NullValue, T: t}
	}
	return &plan.Const{Val: g.value(t), T: t}
}

// leaf is a column or a constant of t.
func (g *exprGen) leaf(t types.Type) plan.Expr {
	if g.r.Intn(4) != 0 {
		if c := g.colOf(t); c != nil {
			return c
		}
	}
	return g.konst(t)
}

// coerce casts e to t when the overload wants another type.
func coerce(e plan.Expr, t types.Type) plan.Expr {
	if e.Type() == t {
		return e
	}
	return &plan.Cast{Input: e, T: t}
}

func (g *exprGen) op(name string, l, r plan.Expr) plan.Expr {
	fn, err := types.ResolveOperator(name, l.Type(), r.Type())
	if err != nil {
		return nil
	}
	return &plan.Call{Func: fn, Args: []plan.Expr{coerce(l, fn.Args[0]), coerce(r, fn.Args[1])}}
}

func (g *exprGen) fn(name string, args ...plan.Expr) plan.Expr {
	ts := make([]types.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	fn, err := types.ResolveFunction(name, ts)
	if err != nil {
		return nil
	}
	out := make([]plan.Expr, len(args))
	for i, a := range args {
		out[i] = coerce(a, fn.Args[i])
	}
	return &plan.Call{Func: fn, Args: out}
}

var (
	extractFields = []string{"year", "month", "day", "dow", "isodow", "doy", "epoch", "hour", "minute", "second", "quarter",
		"week", "isoyear", "century", "decade", "millennium", "julian", "microseconds", "milliseconds", "timezone", "bogus"}
	truncFields = []string{"year", "month", "day", "hour", "week", "quarter", "decade", "century", "millennium", "minute",
		"second", "milliseconds", "microseconds", "bogus"}
	likePatterns = []string{"a%", "%a", "%a%", "a", "", "%", "%%", "a%b", "%a%b%", "ab%ba", "a_", "%\\%%", "a\\", "%é%", "A%", "%b_%", "_%", "a%a%a"}
)

func (g *exprGen) field(fields []string) plan.Expr {
	if g.r.Intn(10) == 0 {
		return g.leaf(types.TextType)
	}
	return &plan.Const{Val: S(fields[g.r.Intn(len(fields))]), T: types.TextType}
}

// gen returns an expression of type t (the generator may fall back to a
// leaf when no form fits).
func (g *exprGen) gen(t types.Type, depth int) plan.Expr {
	if depth <= 0 || g.r.Intn(5) == 0 {
		if t.ID == types.Numeric {
			if e := g.fn("extract", g.field(extractFields), g.leaf(types.DateType)); e != nil {
				return e
			}
		}
		return g.leaf(t)
	}
	d := depth - 1
	var e plan.Expr
	switch g.r.Intn(10) {
	case 0: // CASE, searched or simple
		c := &plan.Case{T: t}
		if g.r.Intn(2) == 0 {
			x := g.leaf(types.TextType)
			for k := 1 + g.r.Intn(3); k > 0; k-- {
				c.Whens = append(c.Whens, plan.When{Cond: g.op("=", x, g.konst(types.TextType)), Result: g.gen(t, d)})
			}
		} else {
			for k := 1 + g.r.Intn(3); k > 0; k-- {
				c.Whens = append(c.Whens, plan.When{Cond: g.gen(types.BoolType, d), Result: g.gen(t, d)})
			}
		}
		if g.r.Intn(3) != 0 {
			c.Else = g.gen(t, d)
		}
		return c
	case 1:
		n := 2 + g.r.Intn(2)
		c := &plan.Coalesce{T: t}
		for ; n > 0; n-- {
			c.Args = append(c.Args, g.gen(t, d))
		}
		return c
	case 2: // a cast into t
		from := genTys[g.r.Intn(len(genTys))]
		if from == t {
			break
		}
		if _, _, ok := types.CanCast(from, t); ok {
			return &plan.Cast{Input: g.gen(from, d), T: t, Explicit: g.r.Intn(2) == 0}
		}
	}
	switch t.ID {
	case types.Bool:
		e = g.genBool(d)
	case types.Date:
		switch g.r.Intn(3) {
		case 0:
			e = g.op("+", g.gen(types.DateType, d), g.leaf(types.Int4Type))
		case 1:
			e = g.op("-", g.gen(types.DateType, d), g.leaf(types.Int4Type))
		default:
			e = g.op("+", g.leaf(types.Int4Type), g.gen(types.DateType, d))
		}
	case types.Timestamp:
		switch g.r.Intn(5) {
		case 0:
			e = g.op("+", g.gen(types.DateType, d), g.gen(types.IntervalType, d))
		case 1:
			e = g.op("-", g.gen(types.DateType, d), g.gen(types.IntervalType, d))
		case 2:
			e = g.op("+", g.gen(types.TimestampType, d), g.gen(types.IntervalType, d))
		case 3:
			e = g.op("-", g.gen(types.TimestampType, d), g.leaf(types.IntervalType))
		default:
			e = g.fn("date_trunc", g.field(truncFields), g.gen(types.TimestampType, d))
		}
	case types.TimestampTZ:
		switch g.r.Intn(2) {
		case 0:
			e = g.op("+", g.gen(types.TimestampTZType, d), g.leaf(types.IntervalType))
		default:
			e = g.fn("date_trunc", g.field(truncFields), g.gen(types.TimestampTZType, d))
		}
	case types.Interval:
		switch g.r.Intn(4) {
		case 0:
			e = g.op("+", g.gen(types.IntervalType, d), g.gen(types.IntervalType, d))
		case 1:
			e = g.op("-", g.gen(types.IntervalType, d), g.leaf(types.IntervalType))
		case 2:
			e = g.op("-", g.gen(types.TimestampType, d), g.gen(types.TimestampType, d))
		default:
			e = g.fn("date_trunc", g.field(truncFields), g.gen(types.IntervalType, d))
		}
	case types.Int4:
		e = g.op("-", g.gen(types.DateType, d), g.gen(types.DateType, d))
	case types.Float8, types.Numeric:
		name := "date_part"
		if t.ID == types.Numeric {
			name = "extract"
		}
		src := []types.Type{types.DateType, types.TimestampType, types.TimestampTZType, types.IntervalType}[g.r.Intn(4)]
		e = g.fn(name, g.field(extractFields), g.gen(src, d))
	case types.Text:
		switch g.r.Intn(3) {
		case 0:
			e = g.fn("substr", g.gen(types.TextType, d), g.leaf(types.Int4Type))
		case 1:
			e = g.fn("substring", g.gen(types.TextType, d), g.leaf(types.Int4Type), g.leaf(types.Int4Type))
		default:
			e = g.op("||", g.gen(types.TextType, d), g.leaf(types.TextType))
		}
	}
	if e == nil {
		return g.leaf(t)
	}
	return e
}

var cmpPairs = [][2]types.Type{
	{types.DateType, types.DateType}, {types.DateType, types.TimestampType}, {types.TimestampType, types.DateType},
	{types.TimestampType, types.TimestampType}, {types.TimestampTZType, types.TimestampTZType},
	{types.DateType, types.TimestampTZType}, {types.TimestampType, types.TimestampTZType},
	{types.TextType, types.TextType}, {char4, char4}, {types.CharType, char4}, {types.IntervalType, types.IntervalType},
	{types.Int4Type, types.Int8Type}, {types.Float8Type, types.Float8Type},
}

func (g *exprGen) genBool(d int) plan.Expr {
	switch g.r.Intn(6) {
	case 0, 1:
		p := cmpPairs[g.r.Intn(len(cmpPairs))]
		return g.op(cmpNames[g.r.Intn(len(cmpNames))], g.gen(p[0], d), g.gen(p[1], d))
	case 2: // LIKE family
		ops := []string{"~~", "!~~", "~~*", "!~~*"}
		var pat plan.Expr = &plan.Const{Val: S(likePatterns[g.r.Intn(len(likePatterns))]), T: types.TextType}
		if g.r.Intn(8) == 0 {
			pat = g.leaf(types.TextType)
		}
		subj := g.gen(types.TextType, d)
		if g.r.Intn(3) == 0 {
			subj = g.leaf(char4)
		}
		fn, err := types.ResolveOperator(ops[g.r.Intn(len(ops))], subj.Type(), types.TextType)
		if err != nil {
			return nil
		}
		return &plan.Call{Func: fn, Args: []plan.Expr{coerce(subj, fn.Args[0]), pat}}
	case 3: // IN / NOT IN
		ty := []types.Type{types.Int4Type, types.Int8Type, types.TextType, char4, types.DateType, types.TimestampType, types.BoolType}[g.r.Intn(7)]
		x := g.colOf(ty)
		name := "="
		if g.r.Intn(2) == 0 {
			name = "<>"
		}
		var terms []plan.Expr
		for k := 2 + g.r.Intn(12); k > 0; k-- {
			terms = append(terms, g.op(name, x, g.konst(ty)))
		}
		if name == "<>" {
			return &plan.And{Args: terms}
		}
		return &plan.Or{Args: terms}
	case 4:
		return &plan.And{Args: []plan.Expr{g.genBool(d), g.genBool(d)}}
	}
	return &plan.Or{Args: []plan.Expr{g.genBool(d), g.genBool(d)}}
}

// exprString spells e for failure messages.
func exprString(e plan.Expr) string {
	switch e := e.(type) {
	case *plan.ColRef:
		return e.Name
	case *plan.Const:
		if e.Val.Null {
			return "NULL::" + e.T.SQLName()
		}
		return fmt.Sprintf("'%s'::%s", types.FormatText(nil, e.Val, e.T, nil), e.T.SQLName())
	case *plan.Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = exprString(a)
		}
		if len(args) == 2 && !isWord(e.Func.Name) {
			return "(" + args[0] + " " + e.Func.Name + " " + args[1] + ")"
		}
		return e.Func.Name + "(" + strings.Join(args, ", ") + ")"
	case *plan.Cast:
		return "(" + exprString(e.Input) + ")::" + e.T.SQLName()
	case *plan.And, *plan.Or:
		var args []plan.Expr
		sep := " AND "
		if a, ok := e.(*plan.And); ok {
			args = a.Args
		} else {
			args, sep = e.(*plan.Or).Args, " OR "
		}
		s := make([]string, len(args))
		for i, a := range args {
			s[i] = exprString(a)
		}
		return "(" + strings.Join(s, sep) + ")"
	case *plan.Case:
		var b strings.Builder
		b.WriteString("CASE")
		for _, w := range e.Whens {
			b.WriteString(" WHEN " + exprString(w.Cond) + " THEN " + exprString(w.Result))
		}
		if e.Else != nil {
			b.WriteString(" ELSE " + exprString(e.Else))
		}
		return b.String() + " END"
	case *plan.Coalesce:
		s := make([]string, len(e.Args))
		for i, a := range e.Args {
			s[i] = exprString(a)
		}
		return "COALESCE(" + strings.Join(s, ", ") + ")"
	}
	return fmt.Sprintf("%T", e)
}

func isWord(s string) bool { return s != "" && (s[0] >= 'a' && s[0] <= 'z') }
