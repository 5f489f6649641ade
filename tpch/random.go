package tpch

// dbgen's random number streams (rnd.c): 48 Lehmer generators
// (x' = 16807·x mod 2^31-1), each owned by one table and advanced, after
// every row, to a fixed number of draws per row (its boundary) however many
// the row used — so any row can be reached by skipping whole rows.

const (
	numStreams = 48
	modulus    = 2147483647
	multiplier = 16807
	maxLong    = 2147483647
)

// stream is one generator's state within one table's generation.
type stream struct {
	seed     int64
	usage    int64 // draws since the row began
	boundary int64 // draws per row, the row's consumption after rowEnd
}

// streams is the generator state of one table's generation: a value, so
// tables are generated independently (and in parallel).
type streams struct {
	s    [numStreams]stream
	used []int // the streams this table's rows draw from (rowEnd advances these)
}

// group is the set of tables generated from one row maker: part rows carry
// their partsupp rows, orders their lineitems.
type group int

const (
	groupNone group = iota // the text pool's stream
	groupPart
	groupSupplier
	groupCustomer
	groupOrders
	groupNation
	groupRegion
)

// seedTable is dbgen's Seed[] (rnd.h / driver.c): each stream's owner, start
// seed and draws per row.
var seedTable = [numStreams]struct {
	owner    group
	seed     int64
	boundary int64
}{
	{groupPart, 1, 1},                             // 0 p_mfgr
	{groupPart, 46831694, 1},                      // 1 p_brand
	{groupPart, 1841581359, 1},                    // 2 p_type
	{groupPart, 1193163244, 1},                    // 3 p_size
	{groupPart, 727633698, 1},                     // 4 p_container
	{groupNone, 933588178, 1},                     // 5 text pool
	{groupPart, 804159733, 2},                     // 6 p_comment
	{groupPart, 1671059989, suppliersPerPart},     // 7 ps_availqty
	{groupPart, 1051288424, suppliersPerPart},     // 8 ps_supplycost
	{groupPart, 1961692154, suppliersPerPart * 2}, // 9 ps_comment
	{groupOrders, 1227283347, 1},                  // 10 (unused)
	{groupOrders, 1171034773, 1},                  // 11 o_clerk
	{groupOrders, 276090261, 2},                   // 12 o_comment
	{groupOrders, 1066728069, 1},                  // 13 o_orderdate
	{groupOrders, 209208115, maxLines},            // 14 l_quantity
	{groupOrders, 554590007, maxLines},            // 15 l_discount
	{groupOrders, 721958466, maxLines},            // 16 l_tax
	{groupOrders, 1371272478, maxLines},           // 17 l_shipinstruct
	{groupOrders, 675466456, maxLines},            // 18 l_shipmode
	{groupOrders, 1808217256, maxLines},           // 19 l_partkey
	{groupOrders, 2095021727, maxLines},           // 20 l_suppkey
	{groupOrders, 1769349045, maxLines},           // 21 l_shipdate
	{groupOrders, 904914315, maxLines},            // 22 l_commitdate
	{groupOrders, 373135028, maxLines},            // 23 l_receiptdate
	{groupOrders, 717419739, maxLines},            // 24 l_returnflag
	{groupOrders, 1095462486, maxLines * 2},       // 25 l_comment
	{groupCustomer, 881155353, 9},                 // 26 c_address
	{groupCustomer, 1489529863, 1},                // 27 c_nationkey
	{groupCustomer, 1521138112, 3},                // 28 c_phone
	{groupCustomer, 298370230, 1},                 // 29 c_acctbal
	{groupCustomer, 1140279430, 1},                // 30 c_mktsegment
	{groupCustomer, 1335826707, 2},                // 31 c_comment
	{groupSupplier, 706178559, 9},                 // 32 s_address
	{groupSupplier, 110356601, 1},                 // 33 s_nationkey
	{groupSupplier, 884434366, 3},                 // 34 s_phone
	{groupSupplier, 962338209, 1},                 // 35 s_acctbal
	{groupSupplier, 1341315363, 2},                // 36 s_comment
	{groupPart, 709314158, 92},                    // 37 p_name
	{groupOrders, 591449447, 1},                   // 38 o_orderpriority
	{groupOrders, 431918286, 1},                   // 39 (unused)
	{groupOrders, 851767375, 1},                   // 40 o_custkey
	{groupNation, 606179079, 2},                   // 41 n_comment
	{groupRegion, 1500869201, 2},                  // 42 r_comment
	{groupOrders, 1434868289, 1},                  // 43 lines per order
	{groupSupplier, 263032577, 1},                 // 44 supplier BBB noise
	{groupSupplier, 753643799, 1},                 // 45 supplier BBB type
	{groupSupplier, 202794285, 1},                 // 46 supplier BBB bad press
	{groupSupplier, 715851524, 1},                 // 47 supplier BBB offset
}

// newStreams returns the start state of the streams group g draws from.
func newStreams(g group) *streams {
	r := &streams{}
	for i, d := range seedTable {
		r.s[i] = stream{seed: d.seed, boundary: d.boundary}
		if d.owner == g {
			r.used = append(r.used, i)
		}
	}
	return r
}

// random is dbgen's RANDOM(lo, hi, sd) (UnifInt): a uniform integer in
// [lo, hi] from stream sd, in dbgen's double arithmetic.
func (r *streams) random(lo, hi int64, sd int) int64 {
	st := &r.s[sd]
	st.usage++
	st.seed = st.seed * multiplier % modulus
	span := float64(hi - lo + 1)
	if lo == 0 && hi == maxLong {
		// dbgen computes this range in 32-bit long arithmetic, where
		// 2^31-1 - 0 + 1 wraps to -2^31; its output depends on that.
		span = -2147483648
	}
	return lo + int64(float64(st.seed)/float64(modulus)*span)
}

// rowEnd is dbgen's row_stop: every stream of the table moves on to its
// boundary, so each row consumes the same number of draws.
func (r *streams) rowEnd() {
	for _, i := range r.used {
		st := &r.s[i]
		st.seed = skipAhead(st.seed, st.boundary-st.usage)
		st.usage = 0
	}
}

// skipRows moves the table's streams past n whole rows (dbgen's sd_*
// functions), so generation can start at any row.
func (r *streams) skipRows(n int64) {
	for _, i := range r.used {
		st := &r.s[i]
		st.seed = skipAhead(st.seed, st.boundary*n)
	}
}

// skipAhead is dbgen's NthElement: the seed n draws on, by repeated squaring.
func skipAhead(seed, n int64) int64 {
	mult := int64(multiplier)
	for n > 0 {
		if n%2 != 0 {
			seed = mult * seed % modulus
		}
		n /= 2
		mult = mult * mult % modulus
	}
	return seed
}
