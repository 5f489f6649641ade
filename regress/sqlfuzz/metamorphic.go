package sqlfuzz

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/types"
)

// Metamorphic checks need no oracle: they run on joind alone and compare
// joind with itself.
//
// base is SELECT <items> FROM F WHERE p. With P the three partitions of
// rows by p (WHERE p, WHERE NOT (p), WHERE (p) IS NULL):
//
//	tlpCount:  count(*) of F = the sum of the partitions' counts
//	tlpRows:   the rows of F = the UNION ALL of the partitions (multisets)
//	tlpAgg:    min/max/count/sum of a column over F = that aggregate
//	           re-aggregated over the partitions' results
//	norec:     count(*) WHERE p = sum(CASE WHEN p THEN 1 ELSE 0 END) over F
//	           = count of rows whose projected (p) IS TRUE
const (
	tlpCount = iota
	tlpRows
	tlpAgg
	norec
	numMeta
)

var metaNames = []string{"TLP count", "TLP rows", "TLP aggregate", "NoREC"}

// metaCase is one metamorphic check: base is SELECT items FROM F WHERE p.
type metaCase struct {
	kind int
	base *Select
	agg  string // tlpAgg: min, max, count, sum
}

func (g *gen) metaCase() *metaCase {
	g.alias = 0
	g.subDepth = 0
	f, cols := g.from()
	sc := &scope{cols: cols}
	m := &metaCase{kind: g.r.Intn(numMeta), base: &Select{From: f, Limit: -1, Offset: -1}}
	m.base.Where = g.expr(types.Bool, 3, sc)
	switch m.kind {
	case tlpRows:
		for i := 0; i < 1+g.r.Intn(3) && len(cols) > 0; i++ {
			c := cols[g.r.Intn(len(cols))]
			m.base.Items = append(m.base.Items, &Node{K: kCol, T: c.t, Text: c.name})
		}
	case tlpAgg:
		var ok []colRef
		m.agg = []string{"min", "max", "count", "sum"}[g.r.Intn(4)]
		for _, c := range cols {
			switch {
			case m.agg == "sum" && (c.t == types.Int2 || c.t == types.Int4 || c.t == types.Int8 || c.t == types.Numeric):
				ok = append(ok, c)
			case m.agg != "sum" && c.t != types.Bool:
				ok = append(ok, c)
			}
		}
		if len(ok) == 0 {
			m.agg = "count"
			ok = cols
		}
		if len(ok) == 0 {
			m.kind = tlpCount
			break
		}
		c := ok[g.r.Intn(len(ok))]
		m.base.Items = []*Node{{K: kCol, T: c.t, Text: c.name}}
	}
	return m
}

func (m *metaCase) clone() *metaCase {
	c := *m
	c.base = m.base.clone()
	return &c
}

// queries are the SQL texts whose answers must relate: [whole, parts...].
func (m *metaCase) queries() (whole, parts string) {
	p := m.base.Where.SQL()
	from := func() string {
		var b strings.Builder
		m.base.From.render(&b)
		return b.String()
	}()
	partWheres := []string{p, "NOT " + p, p + " IS NULL"}
	switch m.kind {
	case tlpCount:
		whole = "SELECT count(*) FROM " + from
		var ps []string
		for _, w := range partWheres {
			ps = append(ps, "(SELECT count(*) FROM "+from+" WHERE "+w+")")
		}
		parts = "SELECT " + strings.Join(ps, " + ")
	case tlpRows:
		items := itemsSQL(m.base.Items)
		whole = "SELECT " + items + " FROM " + from
		var ps []string
		for _, w := range partWheres {
			ps = append(ps, "SELECT "+items+" FROM "+from+" WHERE "+w)
		}
		parts = strings.Join(ps, " UNION ALL ")
	case tlpAgg:
		e := m.base.Items[0].SQL()
		whole = "SELECT " + m.agg + "(" + e + ") FROM " + from
		outer := m.agg
		if outer == "count" {
			outer = "sum"
		}
		var ps []string
		for _, w := range partWheres {
			ps = append(ps, "SELECT "+m.agg+"("+e+") AS m FROM "+from+" WHERE "+w)
		}
		parts = "SELECT " + outer + "(m) FROM (" + strings.Join(ps, " UNION ALL ") + ") AS tlp"
	case norec:
		whole = "SELECT count(*) FROM " + from + " WHERE " + p
		parts = "SELECT coalesce(sum(CASE WHEN " + p + " THEN 1 ELSE 0 END), 0), " +
			"(SELECT count(*) FROM (SELECT " + p + " AS b FROM " + from + ") AS nr WHERE nr.b)" +
			" FROM " + from
	}
	return whole, parts
}

func itemsSQL(items []*Node) string {
	var s []string
	for i, it := range items {
		s = append(s, it.SQL()+" AS c"+strconv.Itoa(i))
	}
	return strings.Join(s, ", ")
}

// metaVerdict is the outcome of one metamorphic check.
type metaVerdict uint8

const (
	mOK       metaVerdict = iota
	mSkipped              // a query failed (error, 0A000): nothing to compare
	mFail                 // the relation does not hold
	mInternal             // XX000 or a lost connection
)

// check runs m on joind and says whether the relation holds.
func (m *metaCase) check(j *peer) (metaVerdict, string) {
	whole, parts := m.queries()
	t := time.Now()
	wr := j.query(whole)
	pr := j.query(parts)
	j.busy += time.Since(t)
	for _, r := range []*result{wr, pr} {
		if r.state == "XX000" || (r.broken() && !isTimeout(r.err)) {
			return mInternal, r.err.Error()
		}
		if !r.ok() {
			return mSkipped, ""
		}
	}
	mismatch := func(a, b string) (metaVerdict, string) {
		return mFail, fmt.Sprintf("%s: %s\n  = %s\nbut\n  %s\n  = %s", metaNames[m.kind], whole, a, parts, b)
	}
	switch m.kind {
	case tlpCount, tlpAgg:
		a, b := cell(wr, 0), cell(pr, 0)
		if m.kind == tlpAgg && len(wr.oids) > 0 {
			a, b = normalizeText(a, wr.oids[0]), normalizeText(b, wr.oids[0])
		}
		if m.kind == tlpAgg && m.agg == "count" {
			// sum of counts: numeric text of the same integer
			a, b = strings.TrimSuffix(a, ".0"), strings.TrimSuffix(b, ".0")
		}
		if a != b {
			return mismatch(cell(wr, 0), cell(pr, 0))
		}
	case tlpRows:
		a, b := lines(wr, false), lines(pr, false)
		sort.Strings(a)
		sort.Strings(b)
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			return mismatch(fmt.Sprintf("%d rows", len(a)), fmt.Sprintf("%d rows", len(b)))
		}
	case norec:
		a := cell(wr, 0)
		if cell(pr, 0) != a || cell(pr, 1) != a {
			return mismatch(a, cell(pr, 0)+", "+cell(pr, 1))
		}
	}
	return mOK, ""
}

func cell(r *result, col int) string {
	if len(r.rows) != 1 || len(r.rows[0]) <= col {
		return fmt.Sprintf("<%d rows>", len(r.rows))
	}
	return r.rows[0][col]
}
