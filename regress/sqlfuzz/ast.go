package sqlfuzz

import (
	"strconv"
	"strings"

	"github.com/joind/joind/types"
)

// kind is the shape of an expression node; render turns each into SQL.
type kind uint8

const (
	kLit       kind = iota // Text is the literal's SQL
	kCol                   // Text is the qualified column name
	kOp                    // binary (2 args) or prefix (1 arg) operator Text
	kFunc                  // function call Text(args...)
	kAgg                   // aggregate Text(args...) [DISTINCT] [FILTER (WHERE Filter)]; Text "count*" is count(*)
	kCast                  // CAST(arg AS T) or arg::T (Flag picks)
	kCase                  // CASE WHEN a0 THEN a1 [WHEN ...] [ELSE last] END; Flag: has ELSE
	kCoalesce              // COALESCE / GREATEST / LEAST / NULLIF: Text is the keyword
	kAnd                   // a0 AND a1
	kOr                    // a0 OR a1
	kNot                   // NOT a0
	kIsNull                // a0 IS [NOT] NULL (Flag: NOT)
	kIsBool                // a0 IS [NOT] TRUE/FALSE/UNKNOWN: Text is "TRUE", ...; Flag: NOT
	kDistinct              // a0 IS [NOT] DISTINCT FROM a1 (Flag: NOT)
	kBetween               // a0 [NOT] BETWEEN [SYMMETRIC] a1 AND a2: Flag NOT, Text "SYMMETRIC" or ""
	kInList                // a0 [NOT] IN (a1, ...): Flag NOT
	kLikeEsc               // a0 [NOT] LIKE/ILIKE a1 ESCAPE a2: Text "LIKE"/"ILIKE", Flag NOT
	kScalarSub             // (Sub)
	kExists                // [NOT] EXISTS (Sub): Flag NOT
	kInSub                 // a0 [NOT] IN (Sub): Flag NOT
	kParen                 // (a0) — used by the shrinker for nothing; kept for symmetry
	kWindow                // window call Text(args...) [FILTER (WHERE Filter)] OVER (Over); "count*" is count(*)
	kRowCmp                // ROW(first half of args) Text ROW(second half): Text an operator or "IS [NOT] DISTINCT FROM"
	kArray                 // ARRAY[a0, ...]
)

// Node is one expression. T is its SQL type (as PostgreSQL resolves it for
// the signatures the generator picks).
type Node struct {
	K        kind
	T        types.ID
	Text     string
	Args     []*Node
	Flag     bool
	Distinct bool  // aggregate DISTINCT
	Filter   *Node // aggregate FILTER (WHERE ...)
	Sub      *Select
	Over     string // kWindow: the window specification's SQL
	// volatile-free, aggregate-free, subquery-free facts for the generator
	hasAgg bool
}

func (n *Node) clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Args = make([]*Node, len(n.Args))
	for i, a := range n.Args {
		c.Args[i] = a.clone()
	}
	c.Filter = n.Filter.clone()
	c.Sub = n.Sub.clone()
	return &c
}

// typeName is the SQL spelling of an unmodified type.
func typeName(id types.ID) string {
	switch id {
	case types.Char:
		return "bpchar"
	case types.IntArrayID:
		return "int4[]"
	case types.TextArrayID:
		return "text[]"
	}
	return types.Type{ID: id, Typmod: -1}.SQLName()
}

// sqlSyntaxFuncs are functions PostgreSQL's grammar spells with keywords
// (position and extract only so; substring both ways, Flag picks).
var sqlSyntaxFuncs = map[string]string{"position": "IN", "extract": "FROM", "substring": "FOR"}

var likeNames = map[string]string{"~~": "LIKE", "!~~": "NOT LIKE", "~~*": "ILIKE", "!~~*": "NOT ILIKE"}

func (n *Node) render(b *strings.Builder) {
	arg := func(i int) { n.Args[i].render(b) }
	not := func() {
		if n.Flag {
			b.WriteString(" NOT")
		}
	}
	switch n.K {
	case kLit, kCol:
		b.WriteString(n.Text)
	case kOp:
		b.WriteByte('(')
		if len(n.Args) == 1 {
			b.WriteString(n.Text)
			b.WriteByte(' ')
			arg(0)
		} else {
			arg(0)
			b.WriteByte(' ')
			if l, ok := likeNames[n.Text]; ok {
				b.WriteString(l)
			} else {
				b.WriteString(n.Text)
			}
			b.WriteByte(' ')
			arg(1)
		}
		b.WriteByte(')')
	case kFunc, kAgg, kWindow:
		if sep, ok := sqlSyntaxFuncs[n.Text]; ok && n.K == kFunc && len(n.Args) >= 2 && (n.Flag || n.Text != "substring") {
			// keyword syntax: position(b IN a), EXTRACT(f FROM x), substring(s FROM i [FOR n])
			b.WriteString(n.Text + "(")
			if n.Text == "position" {
				arg(1)
				b.WriteString(" IN ")
				arg(0)
			} else {
				arg(0)
				b.WriteString(" FROM ")
				arg(1)
				if len(n.Args) > 2 {
					b.WriteString(" " + sep + " ")
					arg(2)
				}
			}
			b.WriteByte(')')
		} else if n.Text == "count*" {
			b.WriteString("count(*)")
		} else {
			b.WriteString(n.Text)
			b.WriteByte('(')
			if n.Distinct {
				b.WriteString("DISTINCT ")
			}
			for i := range n.Args {
				if i > 0 {
					b.WriteString(", ")
				}
				arg(i)
			}
			b.WriteByte(')')
		}
		if n.Filter != nil {
			b.WriteString(" FILTER (WHERE ")
			n.Filter.render(b)
			b.WriteByte(')')
		}
		if n.K == kWindow {
			b.WriteString(" OVER (" + n.Over + ")")
		}
	case kCast:
		if n.Flag {
			b.WriteString("CAST(")
			arg(0)
			b.WriteString(" AS ")
			b.WriteString(typeName(n.T))
			b.WriteByte(')')
		} else {
			b.WriteByte('(')
			arg(0)
			b.WriteString(")::")
			b.WriteString(typeName(n.T))
		}
	case kCase:
		b.WriteString("CASE")
		end := len(n.Args)
		if n.Flag {
			end--
		}
		for i := 0; i+1 < end; i += 2 {
			b.WriteString(" WHEN ")
			arg(i)
			b.WriteString(" THEN ")
			arg(i + 1)
		}
		if n.Flag {
			b.WriteString(" ELSE ")
			arg(end)
		}
		b.WriteString(" END")
	case kCoalesce:
		b.WriteString(n.Text)
		b.WriteByte('(')
		for i := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			arg(i)
		}
		b.WriteByte(')')
	case kAnd, kOr:
		b.WriteByte('(')
		arg(0)
		if n.K == kAnd {
			b.WriteString(" AND ")
		} else {
			b.WriteString(" OR ")
		}
		arg(1)
		b.WriteByte(')')
	case kNot:
		b.WriteString("(NOT ")
		arg(0)
		b.WriteByte(')')
	case kIsNull:
		b.WriteByte('(')
		arg(0)
		b.WriteString(" IS")
		not()
		b.WriteString(" NULL)")
	case kIsBool:
		b.WriteByte('(')
		arg(0)
		b.WriteString(" IS")
		not()
		b.WriteByte(' ')
		b.WriteString(n.Text)
		b.WriteByte(')')
	case kArray:
		b.WriteString("ARRAY[")
		for i := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			arg(i)
		}
		b.WriteByte(']')
	case kRowCmp:
		half := len(n.Args) / 2
		for side := 0; side < 2; side++ {
			if side == 0 {
				b.WriteString("(ROW(")
			} else {
				b.WriteString(") " + n.Text + " ROW(")
			}
			for i := 0; i < half; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				arg(side*half + i)
			}
		}
		b.WriteString("))")
	case kDistinct:
		b.WriteByte('(')
		arg(0)
		b.WriteString(" IS")
		not()
		b.WriteString(" DISTINCT FROM ")
		arg(1)
		b.WriteByte(')')
	case kBetween:
		b.WriteByte('(')
		arg(0)
		not()
		b.WriteString(" BETWEEN ")
		if n.Text != "" {
			b.WriteString(n.Text + " ")
		}
		arg(1)
		b.WriteString(" AND ")
		arg(2)
		b.WriteByte(')')
	case kInList:
		b.WriteByte('(')
		arg(0)
		not()
		b.WriteString(" IN (")
		for i := 1; i < len(n.Args); i++ {
			if i > 1 {
				b.WriteString(", ")
			}
			arg(i)
		}
		b.WriteString("))")
	case kLikeEsc:
		b.WriteByte('(')
		arg(0)
		not()
		b.WriteString(" " + n.Text + " ")
		arg(1)
		b.WriteString(" ESCAPE ")
		arg(2)
		b.WriteByte(')')
	case kScalarSub:
		b.WriteByte('(')
		n.Sub.render(b)
		b.WriteByte(')')
	case kExists:
		b.WriteByte('(')
		if n.Flag {
			b.WriteString("NOT ")
		}
		b.WriteString("EXISTS (")
		n.Sub.render(b)
		b.WriteString("))")
	case kInSub:
		b.WriteByte('(')
		arg(0)
		not()
		b.WriteString(" IN (")
		n.Sub.render(b)
		b.WriteString("))")
	case kParen:
		b.WriteByte('(')
		arg(0)
		b.WriteByte(')')
	}
}

// SQL renders n.
func (n *Node) SQL() string {
	var b strings.Builder
	n.render(&b)
	return b.String()
}

// From is one FROM item: a table, a derived table or a join.
type From struct {
	Table string  // base table name (Sub == nil, Join == "")
	Sub   *Select // derived table
	Alias string  // for a table or derived table
	Join  string  // "INNER JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "," — a join node
	L, R  *From
	On    *Node
	Using []string
}

func (f *From) clone() *From {
	if f == nil {
		return nil
	}
	c := *f
	c.Sub = f.Sub.clone()
	c.L, c.R = f.L.clone(), f.R.clone()
	c.On = f.On.clone()
	c.Using = append([]string(nil), f.Using...)
	return &c
}

func (f *From) render(b *strings.Builder) { f.renderAs(b, false) }

// renderAs renders f; noComma spells a "," join as CROSS JOIN, needed left
// of an explicit JOIN (which binds tighter than a comma: "a, b JOIN c ON
// a.x = c.x" cannot see a).
func (f *From) renderAs(b *strings.Builder, noComma bool) {
	switch {
	case f.Join != "":
		f.L.renderAs(b, noComma || f.Join != ",")
		if f.Join == "," && noComma {
			b.WriteString(" CROSS JOIN ")
		} else if f.Join == "," {
			b.WriteString(", ")
		} else {
			b.WriteString(" " + f.Join + " ")
		}
		if f.R.Join != "" {
			b.WriteByte('(')
			f.R.render(b)
			b.WriteByte(')')
		} else {
			f.R.render(b)
		}
		if f.On != nil {
			b.WriteString(" ON ")
			f.On.render(b)
		} else if len(f.Using) > 0 {
			b.WriteString(" USING (" + strings.Join(f.Using, ", ") + ")")
		}
	case f.Sub != nil:
		b.WriteByte('(')
		f.Sub.render(b)
		b.WriteString(") AS " + f.Alias)
	default:
		b.WriteString(f.Table)
		if f.Alias != "" && f.Alias != f.Table {
			b.WriteString(" AS " + f.Alias)
		}
	}
}

// OrderItem is one ORDER BY key.
type OrderItem struct {
	E          *Node
	Desc       bool
	NullsFirst *bool
}

// CTE is one WITH item.
type CTE struct {
	Name string
	Q    *Select
}

// Select is one query: a SELECT core or a set operation (SetOp != "").
type Select struct {
	With     []CTE
	SetOp    string // "UNION", "UNION ALL", "INTERSECT", ... ; L and R are the arms
	L, R     *Select
	Distinct bool
	Items    []*Node // output columns c0..cn; empty renders as *
	From     *From
	Where    *Node
	GroupBy  []*Node
	// Grouping wraps GroupBy after its first GroupingPlain keys in a
	// grouping-set construct: "ROLLUP", "CUBE" or "SETS" (GROUPING SETS of
	// each key alone and the empty set); "" is plain GROUP BY.
	Grouping      string
	GroupingPlain int
	Having        *Node
	OrderBy       []OrderItem
	Limit         int // -1: none
	Offset        int // -1: none
}

func (s *Select) clone() *Select {
	if s == nil {
		return nil
	}
	c := *s
	c.With = make([]CTE, len(s.With))
	for i, w := range s.With {
		c.With[i] = CTE{w.Name, w.Q.clone()}
	}
	c.L, c.R = s.L.clone(), s.R.clone()
	c.Items = cloneNodes(s.Items)
	c.From = s.From.clone()
	c.Where = s.Where.clone()
	c.GroupBy = cloneNodes(s.GroupBy)
	c.Having = s.Having.clone()
	c.OrderBy = make([]OrderItem, len(s.OrderBy))
	for i, o := range s.OrderBy {
		c.OrderBy[i] = OrderItem{o.E.clone(), o.Desc, o.NullsFirst}
	}
	return &c
}

func cloneNodes(ns []*Node) []*Node {
	if ns == nil {
		return nil
	}
	out := make([]*Node, len(ns))
	for i, n := range ns {
		out[i] = n.clone()
	}
	return out
}

func (s *Select) render(b *strings.Builder) {
	if len(s.With) > 0 {
		b.WriteString("WITH ")
		for i, w := range s.With {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(w.Name + " AS (")
			w.Q.render(b)
			b.WriteByte(')')
		}
		b.WriteByte(' ')
	}
	if s.SetOp != "" {
		b.WriteByte('(')
		s.L.render(b)
		b.WriteString(") " + s.SetOp + " (")
		s.R.render(b)
		b.WriteByte(')')
	} else {
		b.WriteString("SELECT ")
		if s.Distinct {
			b.WriteString("DISTINCT ")
		}
		if len(s.Items) == 0 {
			b.WriteByte('*')
		}
		for i, it := range s.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it.render(b)
			b.WriteString(" AS c" + strconv.Itoa(i))
		}
		if s.From != nil {
			b.WriteString(" FROM ")
			s.From.render(b)
		}
		if s.Where != nil {
			b.WriteString(" WHERE ")
			s.Where.render(b)
		}
		if len(s.GroupBy) > 0 {
			b.WriteString(" GROUP BY ")
			s.renderGroupBy(b)
		}
		if s.Having != nil {
			b.WriteString(" HAVING ")
			s.Having.render(b)
		}
	}
	if len(s.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		for i, o := range s.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			o.E.render(b)
			if o.Desc {
				b.WriteString(" DESC")
			}
			if o.NullsFirst != nil {
				if *o.NullsFirst {
					b.WriteString(" NULLS FIRST")
				} else {
					b.WriteString(" NULLS LAST")
				}
			}
		}
	}
	if s.Limit >= 0 {
		b.WriteString(" LIMIT " + strconv.Itoa(s.Limit))
	}
	if s.Offset >= 0 {
		b.WriteString(" OFFSET " + strconv.Itoa(s.Offset))
	}
}

// SQL renders s.
func (s *Select) SQL() string {
	var b strings.Builder
	s.render(&b)
	return b.String()
}

// width is the number of output columns (0 if unknown: SELECT *).
func (s *Select) width() int {
	if s.SetOp != "" {
		return s.L.width()
	}
	return len(s.Items)
}

// renderGroupBy writes the GROUP BY items, the grouping-set construct
// around all but the first GroupingPlain keys.
func (s *Select) renderGroupBy(b *strings.Builder) {
	plain := len(s.GroupBy)
	if s.Grouping != "" {
		plain = min(s.GroupingPlain, len(s.GroupBy)-1)
	}
	for i, g := range s.GroupBy[:plain] {
		if i > 0 {
			b.WriteString(", ")
		}
		g.render(b)
	}
	if plain == len(s.GroupBy) {
		return
	}
	if plain > 0 {
		b.WriteString(", ")
	}
	switch s.Grouping {
	case "ROLLUP":
		b.WriteString("ROLLUP (")
	case "CUBE":
		b.WriteString("CUBE (")
	default:
		b.WriteString("GROUPING SETS (")
	}
	for i, g := range s.GroupBy[plain:] {
		if i > 0 {
			b.WriteString(", ")
		}
		g.render(b)
	}
	if s.Grouping == "SETS" {
		b.WriteString(", ()")
	}
	b.WriteByte(')')
}
