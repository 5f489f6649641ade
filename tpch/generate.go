package tpch

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"
)

// Table is one of the eight TPC-H tables.
type Table int

const (
	Nation Table = iota
	Region
	Part
	PartSupp
	Supplier
	Customer
	Orders
	LineItem
)

// Tables lists the eight tables in the order the schema declares them.
var Tables = []Table{Nation, Region, Part, Supplier, PartSupp, Customer, Orders, LineItem}

var tableNames = [...]string{"nation", "region", "part", "partsupp", "supplier", "customer", "orders", "lineitem"}

// String is the table's SQL name, also its .tbl file's base name.
func (t Table) String() string { return tableNames[t] }

// ParseTable returns the table of a SQL name.
func ParseTable(name string) (Table, bool) {
	for i, n := range tableNames {
		if n == name {
			return Table(i), true
		}
	}
	return 0, false
}

// dbgen's constants (dss.h) the rows are drawn with.
const (
	suppliersPerPart = 4
	maxLines         = 7 // O_LCNT_MAX
	ordersPerCust    = 10
	clerksPerScale   = 1000 // O_CLRK_SCL

	totalDays = 2557 // 1992-01-01 … 1998-12-31
	// The latest order date leaves room for ship (≤121 days) and receipt
	// (≤30 more) dates within the date range.
	maxOrderDay = totalDays - (121 + 30) - 1

	// MaxScaleFactor bounds the scale factors supported: from SF 30000 on
	// dbgen switches custkey and partkey to its 64-bit generator, not
	// implemented here.
	MaxScaleFactor = 29999
)

// currentDate is dbgen's CURRENTDATE (95168, yyddd): lines received by it
// have a return flag, lines shipped by it are filled ('F').
var currentDate = time.Date(1995, 6, 17, 0, 0, 0, 0, time.UTC)

// Generator produces the TPC-H tables of one scale factor, byte for byte as
// dbgen's .tbl files (without dbgen's trailing '|', see the package doc).
// It is safe for concurrent use: each table is generated from its own
// random-stream state, so tables may be written in parallel.
type Generator struct {
	sf    float64
	scale int64 // dbgen's integer scale: 1 below SF 1

	// Rows of the scaled tables, as dbgen's tdefs[].base * scale.
	parts, suppliers, customers, orders int64

	dists *distributions
	dates [totalDays]string // "YYYY-MM-DD" of day i after 1992-01-01
	// The first day index after currentDate.
	afterCurrent int

	poolOnce sync.Once
	pool     []byte
}

// NewGenerator returns the generator of scale factor sf. Below 1, as dbgen,
// every scaled table's base row count is multiplied by sf (in thousandths:
// dbgen's int_scale = (int)(1000*sf)) and the key ranges shrink with it;
// from 1 on, sf must be an integer.
func NewGenerator(sf float64) (*Generator, error) {
	if !(sf > 0) || sf > MaxScaleFactor {
		return nil, fmt.Errorf("tpch: scale factor %v out of range (0, %d]", sf, MaxScaleFactor)
	}
	g := &Generator{sf: sf, scale: 1}
	base := [4]int64{200000, 10000, 150000, 150000 * ordersPerCust} // part, supplier, customer, orders
	if sf < 1 {
		thousandths := int64(1000 * sf)
		for i := range base {
			base[i] = thousandths * base[i] / 1000
			if base[i] < 1 {
				base[i] = 1
			}
		}
	} else {
		if sf != math.Trunc(sf) {
			return nil, fmt.Errorf("tpch: scale factor %v: from 1 on it must be an integer (dbgen truncates it)", sf)
		}
		g.scale = int64(sf)
	}
	g.parts, g.suppliers, g.customers, g.orders = base[0]*g.scale, base[1]*g.scale, base[2]*g.scale, base[3]*g.scale
	d, err := loadDistributions()
	if err != nil {
		return nil, err
	}
	g.dists = d
	day := time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	g.afterCurrent = totalDays
	for i := range g.dates {
		date := day.AddDate(0, 0, i)
		g.dates[i] = date.Format("2006-01-02")
		if date.After(currentDate) && g.afterCurrent == totalDays {
			g.afterCurrent = i
		}
	}
	return g, nil
}

// ScaleFactor is the generator's scale factor.
func (g *Generator) ScaleFactor() float64 { return g.sf }

// Units is the number of generation units of table t: its rows, except
// that a part's unit holds its 4 partsupp rows and an order's its 1 to 7
// lineitem rows (dbgen cannot count lineitem without generating it).
func (g *Generator) Units(t Table) int64 {
	switch t {
	case Nation:
		return int64(len(g.dists.nations.tokens))
	case Region:
		return int64(len(g.dists.regions.tokens))
	case Part, PartSupp:
		return g.parts
	case Supplier:
		return g.suppliers
	case Customer:
		return g.customers
	default:
		return g.orders
	}
}

// textPool builds the text pool on first use (it takes a few seconds).
func (g *Generator) textPool() []byte {
	g.poolOnce.Do(func() { g.pool = buildTextPool(g.dists) })
	return g.pool
}

// Write writes table t in full to w, one '|'-separated line per row.
func (g *Generator) Write(w io.Writer, t Table) error {
	return g.WriteRange(w, t, 1, g.Units(t))
}

// WriteRange writes the rows of count units of table t from unit first
// (1-based) on: the same bytes as that stretch of the whole table, so a
// table can be generated in pieces.
func (g *Generator) WriteRange(w io.Writer, t Table, first, count int64) error {
	if first < 1 || count < 0 || first-1+count > g.Units(t) {
		return fmt.Errorf("tpch: %s has %d units; cannot write %d from %d", t, g.Units(t), count, first)
	}
	rg := &rowGen{g: g, pool: g.textPool()}
	switch t {
	case Nation:
		rg.r = newStreams(groupNation)
	case Region:
		rg.r = newStreams(groupRegion)
	case Part, PartSupp:
		rg.r = newStreams(groupPart)
	case Supplier:
		rg.r = newStreams(groupSupplier)
	case Customer:
		rg.r = newStreams(groupCustomer)
	default:
		rg.r = newStreams(groupOrders)
	}
	rg.r.skipRows(first - 1)
	bw := bufio.NewWriterSize(w, 1<<20)
	var line []byte
	for i := first; i < first+count; i++ {
		line = rg.row(t, i, line[:0])
		rg.r.rowEnd()
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// rowGen makes the rows of one table's generation.
type rowGen struct {
	g    *Generator
	r    *streams
	pool []byte
	ord  order
	cmt  []byte // the supplier comment being edited
}

// row appends the lines of unit i of table t to b.
func (rg *rowGen) row(t Table, i int64, b []byte) []byte {
	g, d, r := rg.g, rg.g.dists, rg.r
	switch t {
	case Nation:
		b = appendInt(b, i-1)
		b = append(append(b, '|'), d.nations.tokens[i-1]...)
		// A nation's weight in dists.dss is the delta of its region key.
		b = appendInt(append(b, '|'), d.nations.cum[i-1])
		b = append(append(b, '|'), rg.text(72, 41)...)
		return append(b, '\n')
	case Region:
		b = appendInt(b, i-1)
		b = append(append(b, '|'), d.regions.tokens[i-1]...)
		b = append(append(b, '|'), rg.text(72, 42)...)
		return append(b, '\n')
	case Part, PartSupp:
		return rg.part(t, i, b)
	case Supplier:
		return rg.supplier(i, b)
	case Customer:
		b = appendInt(b, i)
		b = appendPadded(append(b, "|Customer#"...), i, 9)
		b = rg.vstr(append(b, '|'), 25, 26)
		nation := r.random(0, int64(len(d.nations.tokens)-1), 27)
		b = appendInt(append(b, '|'), nation)
		b = rg.phone(append(b, '|'), nation, 28)
		b = appendMoney(append(b, '|'), r.random(-99999, 999999, 29))
		_, seg := d.segments.pick(r, 30)
		b = append(append(b, '|'), seg...)
		b = append(append(b, '|'), rg.text(73, 31)...)
		return append(b, '\n')
	}
	o := &rg.ord
	rg.makeOrder(i, o)
	if t == Orders {
		b = appendInt(b, o.key)
		b = appendInt(append(b, '|'), o.custKey)
		b = append(b, '|', o.status, '|')
		b = appendMoney(b, o.totalPrice)
		b = append(append(b, '|'), g.dates[o.date]...)
		b = append(append(b, '|'), o.priority...)
		b = appendPadded(append(b, "|Clerk#"...), o.clerk, 9)
		b = append(b, "|0|"...) // o_shippriority
		b = append(b, o.comment...)
		return append(b, '\n')
	}
	for n := range o.nLines {
		l := &o.lines[n]
		b = appendInt(b, o.key)
		b = appendInt(append(b, '|'), l.partKey)
		b = appendInt(append(b, '|'), l.suppKey)
		b = appendInt(append(b, '|'), int64(n+1))
		b = appendInt(append(b, '|'), l.quantity)
		b = appendMoney(append(b, '|'), l.extendedPrice)
		b = appendMoney(append(b, '|'), l.discount)
		b = appendMoney(append(b, '|'), l.tax)
		b = append(b, '|', l.returnFlag, '|', l.status, '|')
		b = append(b, g.dates[l.shipDate]...)
		b = append(append(b, '|'), g.dates[l.commitDate]...)
		b = append(append(b, '|'), g.dates[l.receiptDate]...)
		b = append(append(b, '|'), l.instruct...)
		b = append(append(b, '|'), l.mode...)
		b = append(append(b, '|'), l.comment...)
		b = append(b, '\n')
	}
	return b
}

// part appends part i's row (t == Part) or its 4 partsupp rows. Each
// stream is independent, so either table draws only its own columns.
func (rg *rowGen) part(t Table, i int64, b []byte) []byte {
	d, r := rg.g.dists, rg.r
	if t == PartSupp {
		for s := range int64(suppliersPerPart) {
			b = appendInt(b, i)
			b = appendInt(append(b, '|'), rg.partSupplier(i, s))
			b = appendInt(append(b, '|'), r.random(1, 9999, 7))
			b = appendMoney(append(b, '|'), r.random(100, 100000, 8))
			b = append(append(b, '|'), rg.text(124, 9)...)
			b = append(b, '\n')
		}
		return b
	}
	b = appendInt(b, i)
	b = append(b, '|')
	// p_name: 5 distinct colors, the head of a permutation of all 92
	// (dbgen's agg_str over permute_dist).
	var perm [128]int
	colors := d.colors.tokens
	for k := range colors {
		perm[k] = k
	}
	for k := range colors {
		src := r.random(int64(k), int64(len(colors)-1), 37)
		perm[src], perm[k] = perm[k], perm[src]
	}
	for k := range 5 {
		if k > 0 {
			b = append(b, ' ')
		}
		b = append(b, colors[perm[k]]...)
	}
	mfgr := r.random(1, 5, 0)
	b = appendInt(append(b, "|Manufacturer#"...), mfgr)
	b = appendPadded(append(b, "|Brand#"...), mfgr*10+r.random(1, 5, 1), 2)
	_, typ := d.partTypes.pick(r, 2)
	b = append(append(b, '|'), typ...)
	b = appendInt(append(b, '|'), r.random(1, 50, 3))
	_, cntr := d.containers.pick(r, 4)
	b = append(append(b, '|'), cntr...)
	b = appendMoney(append(b, '|'), retailPrice(i))
	b = append(append(b, '|'), rg.text(14, 6)...)
	return append(b, '\n')
}

// supplier appends supplier i's row. One in a thousand comments carries
// "Customer ... Complaints" or "... Recommends" (TPC-H clause 4.2.3), which
// Q16 looks for.
func (rg *rowGen) supplier(i int64, b []byte) []byte {
	d, r := rg.g.dists, rg.r
	b = appendInt(b, i)
	b = appendPadded(append(b, "|Supplier#"...), i, 9)
	b = rg.vstr(append(b, '|'), 25, 32)
	nation := r.random(0, int64(len(d.nations.tokens)-1), 33)
	b = appendInt(append(b, '|'), nation)
	b = rg.phone(append(b, '|'), nation, 34)
	b = appendMoney(append(b, '|'), r.random(-99999, 999999, 35))
	cmt := append(rg.cmt[:0], rg.text(63, 36)...)
	const base, complain, commend = "Customer ", "Complaints", "Recommends"
	const bbbLen = 19
	badPress := r.random(1, 10000, 46)
	kind := r.random(0, 100, 45)
	noise := r.random(0, int64(len(cmt)-bbbLen), 44)
	offset := r.random(0, int64(len(cmt))-(bbbLen+noise), 47)
	if badPress <= 10 {
		copy(cmt[offset:], base)
		if kind < 50 {
			copy(cmt[offset+int64(len(base))+noise:], complain)
		} else {
			copy(cmt[offset+int64(len(base))+noise:], commend)
		}
	}
	rg.cmt = cmt
	b = append(append(b, '|'), cmt...)
	return append(b, '\n')
}

// order is one order with its lines; dates are day indexes.
type order struct {
	key, custKey, totalPrice, clerk int64
	date                            int
	status                          byte
	priority, comment               []byte
	nLines                          int
	lines                           [maxLines]line
}

type line struct {
	partKey, suppKey, quantity, extendedPrice, discount, tax int64
	shipDate, commitDate, receiptDate                        int
	returnFlag, status                                       byte
	instruct, mode, comment                                  []byte
}

// makeOrder is dbgen's mk_order: order i with its lines. Orders and
// lineitem both need all of it (the total price and status sum up lines).
func (rg *rowGen) makeOrder(i int64, o *order) {
	g, d, r := rg.g, rg.g.dists, rg.r
	// Sparse keys: of each 32 keys only the first 8 are used, so refresh
	// inserts can fill the gaps (dbgen's mk_sparse).
	o.key = (i>>3)<<5 | i&7
	o.custKey = r.random(1, g.customers, 40)
	// A third of the customers (custkey divisible by 3) have no orders.
	delta := int64(1)
	for o.custKey%3 == 0 {
		o.custKey = min(o.custKey+delta, g.customers)
		delta = -delta
	}
	o.date = int(r.random(0, maxOrderDay, 13))
	_, prio := d.priorities.pick(r, 38)
	o.priority = append(o.priority[:0], prio...)
	o.clerk = r.random(1, max(g.scale*clerksPerScale, clerksPerScale), 11)
	o.comment = rg.text(49, 12)
	o.totalPrice = 0
	o.nLines = int(r.random(1, maxLines, 43))
	filled := 0
	for n := range o.nLines {
		l := &o.lines[n]
		l.quantity = r.random(1, 50, 14)
		l.discount = r.random(0, 10, 15)
		l.tax = r.random(0, 8, 16)
		_, instr := d.instructions.pick(r, 17)
		l.instruct = append(l.instruct[:0], instr...)
		_, mode := d.shipModes.pick(r, 18)
		l.mode = append(l.mode[:0], mode...)
		l.comment = rg.text(27, 25)
		l.partKey = r.random(1, g.parts, 19)
		l.suppKey = rg.partSupplier(l.partKey, r.random(0, 3, 20))
		l.extendedPrice = retailPrice(l.partKey) * l.quantity
		o.totalPrice += l.extendedPrice * (100 - l.discount) / 100 * (100 + l.tax) / 100
		l.shipDate = o.date + int(r.random(1, 121, 21))
		l.commitDate = o.date + int(r.random(30, 90, 22))
		l.receiptDate = l.shipDate + int(r.random(1, 30, 23))
		l.returnFlag = 'N'
		if l.receiptDate < g.afterCurrent {
			_, flag := d.returnFlags.pick(r, 24)
			l.returnFlag = flag[0]
		}
		l.status = 'O'
		if l.shipDate < g.afterCurrent {
			l.status = 'F'
			filled++
		}
	}
	switch filled {
	case 0:
		o.status = 'O'
	case o.nLines:
		o.status = 'F'
	default:
		o.status = 'P'
	}
}

// partSupplier is dbgen's PART_SUPP_BRIDGE: the s-th (0..3) supplier of
// part p, spread so a part's suppliers differ.
func (rg *rowGen) partSupplier(p, s int64) int64 {
	n := rg.g.suppliers
	return (p+s*(n/suppliersPerPart+(p-1)/n))%n + 1
}

// retailPrice is dbgen's rpb_routine, in cents.
func retailPrice(p int64) int64 {
	return 90000 + (p/10)%20001 + (p%1000)*100
}

// text is dbgen's TEXT / dbg_text: a slice of the text pool of a length in
// [0.4, 1.6] times avg, drawn (offset first) from stream sd.
func (rg *rowGen) text(avg int, sd int) []byte {
	lo, hi := int64(float64(avg)*0.4), int64(float64(avg)*1.6)
	off := rg.r.random(0, int64(len(rg.pool))-hi, sd)
	n := rg.r.random(lo, hi, sd)
	return rg.pool[off : off+n]
}

const alphaNum = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"

// vstr is dbgen's V_STR (a_rnd): random characters, a length in [0.4, 1.6]
// times avg, five 6-bit characters per draw.
func (rg *rowGen) vstr(b []byte, avg int, sd int) []byte {
	n := rg.r.random(int64(float64(avg)*0.4), int64(float64(avg)*1.6), sd)
	var bits int64
	for k := range n {
		if k%5 == 0 {
			bits = rg.r.random(0, maxLong, sd)
		}
		b = append(b, alphaNum[bits&0o77])
		bits >>= 6
	}
	return b
}

// phone is dbgen's gen_phone: country code 10+nation, then three groups.
func (rg *rowGen) phone(b []byte, nation int64, sd int) []byte {
	area := rg.r.random(100, 999, sd)
	exchange := rg.r.random(100, 999, sd)
	number := rg.r.random(1000, 9999, sd)
	b = appendPadded(b, 10+nation%90, 2)
	b = appendPadded(append(b, '-'), area, 3)
	b = appendPadded(append(b, '-'), exchange, 3)
	return appendPadded(append(b, '-'), number, 4)
}

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// appendPadded appends non-negative v zero-padded to width digits (%0*d).
func appendPadded(b []byte, v int64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], v, 10)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendMoney appends cents as dbgen's money format: [-]units.cc.
func appendMoney(b []byte, cents int64) []byte {
	if cents < 0 {
		b = append(b, '-')
		cents = -cents
	}
	b = appendInt(b, cents/100)
	return appendPadded(append(b, '.'), cents%100, 2)
}
