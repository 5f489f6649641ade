package sqlfuzz

import (
	"math/rand"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/types"
)

// Value pools: the input text of values per type, edge values included.
// Stored data uses only values whose sums are exact in any order (binary
// fractions for floats) and no two equal values of one type with different
// text in one pool (numeric 1.5 and 1.50), so aggregation order cannot
// change an answer; literals in expressions may use the wider pools.
var (
	int2Pool = []string{"0", "1", "-1", "2", "3", "7", "10", "-10", "100", "32767", "-32768", "-32767"}
	int4Pool = []string{"0", "1", "-1", "2", "3", "7", "-10", "100", "65536", "2147483647", "-2147483648", "-2147483647"}
	oidPool  = []string{"0", "1", "23", "25", "2147483648", "4294967295"}
	xidPool  = []string{"0", "1", "3", "4294967295"}
	xid8Pool = []string{"0", "1", "3", "4294967296", "9223372036854775808", "18446744073709551615"}
	lsnPool  = []string{"0/0", "0/1", "16/B374D848", "1/0", "80000000/0", "FFFFFFFF/FFFFFFFF"}
	int8Pool = []string{"0", "1", "-1", "2", "3", "-7", "100", "4294967296", "9223372036854775807", "-9223372036854775808", "-9223372036854775807"}
	// binary fractions, exact in float4 and in sums of a few dozen rows
	floatDataPool = []string{"0", "-0", "1", "-1", "0.5", "-0.5", "0.125", "2.75", "-3.25", "100", "1024.375", "NaN", "Infinity", "-Infinity"}
	floatLitPool  = []string{"1.1", "3.141592653589793", "-1e-300", "3.4e38", "1e-45", "123456.789", "0.1", "2.5", "-0", "1e300"}
	numericPool   = []string{"0", "1", "-1", "2", "1.5", "-2.25", "0.001", "10.10", "100", "-0.5", "3.14159",
		"123456789012345678901234567890.123456789", "0.00000000000000000001", "99999", "NaN", "Infinity", "-Infinity"}
	textPool = []string{"", "a", "A", "b", "abc", "ABC", "a b", " a", "a ", "%", "_", "a%b", "x_y", "it's", `back\slash`,
		"é", "ß", "Ωmega", "日本", "0", "1", "-1", "1.5", "true", "2020-01-01", "NaN", "1 day",
		strings.Repeat("xyz", 100)}
	datePool = []string{"2020-01-01", "2020-02-29", "1999-12-31", "1970-01-01", "2000-01-01", "0001-01-01",
		"0044-03-15 BC", "4713-11-24 BC", "5874897-12-31", "infinity", "-infinity", "2024-06-15", "1900-02-28"}
	timestampPool = []string{"2020-01-01 00:00:00", "2020-02-29 12:34:56.789", "1999-12-31 23:59:59.999999",
		"1970-01-01 00:00:00", "0001-01-01 00:00:00", "4713-11-24 00:00:00 BC", "294276-12-31 23:59:59.999999",
		"infinity", "-infinity", "2024-06-15 08:00:00", "2000-01-01 00:00:00.5", "294246-12-31 23:59:59.999999"}
	timestamptzPool = []string{"2020-01-01 00:00:00+00", "2020-06-15 12:00:00-07", "1999-12-31 23:59:59.999999+05:30",
		"1970-01-01 00:00:00+00", "0001-01-01 00:00:00+00", "294276-12-31 23:59:59.999999+00", "infinity", "-infinity",
		"2024-03-10 02:30:00+01", "2000-01-01 00:00:00.5+00", "294246-12-31 23:59:59.999999+00"}
	intervalPool = []string{"0", "1 day", "-1 day", "1 mon", "1 year 2 mons 3 days 04:05:06.789", "36:00:00",
		"30 days", "-00:00:01", "1 day -01:00:00", "178000000 years", "-178000000 years", "00:00:00.000001",
		"2 weeks", "1 mon -1 days"}
	boolPool  = []string{"true", "false"}
	byteaPool = []string{`\x`, `\x00`, `\x01`, `\xdeadbeef`, `\xff00`, "abc", `a\\b`, `\x41`, `\x4142`, `\x7f80`}
	uuidPool  = []string{"00000000-0000-0000-0000-000000000000", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12", "{ffffffff-ffff-ffff-ffff-ffffffffffff}", "11111111222233334444555555555555"}
	// bit strings of one length, so & | # mostly meet their own size
	charBytePool = []string{"a", "Z", "0", "\\101", ""}
	bitPool      = []string{"0000", "1010", "1111", "0110", "B0001", "X8"}
	timePool     = []string{"00:00:00", "24:00:00", "12:34:56.789", "23:59:59.999999", "01:00", "11:59:59 PM", "00:00:00.000001"}
	// network addresses, mostly IPv4 so & | - meet their own family
	inetPool = []string{"10.1.2.3", "10.1.2.3/8", "192.168.0.0/16", "0.0.0.0/0", "255.255.255.255", "::1",
		"2001:db8::1/64", "::ffff:1.2.3.4", "10.1.2.3/24"}
	cidrPool     = []string{"10.0.0.0/8", "10.1.2.0/24", "192.168", "0.0.0.0/0", "10.1.2.3/32", "::/0", "2001:db8::/32"}
	macaddrPool  = []string{"08:00:2b:01:02:03", "08-00-2b-01-02-04", "0800.2b01.0203", "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff"}
	macaddr8Pool = []string{"08:00:2b:01:02:03:04:05", "08:00:2b:01:02:03", "00:00:00:00:00:00:00:00",
		"ff:ff:ff:ff:ff:ff:ff:ff", "08002b0102030406"}
	// timetz with explicit offsets only: a zone-less one reads today's offset of TimeZone
	timetzPool = []string{"00:00:00+00", "24:00:00-15:59", "12:34:56.789+05:30", "23:59:59.999999-08", "01:00+01",
		"12:00:00+12", "12:00:00-12", "08:00:00+00"}
)

// colType is a column's full type, typmod included.
type colType struct {
	id        types.ID
	n         int // varchar(n)/char(n) length; 0 = none
	prec, scl int // numeric(p,s); prec 0 = unconstrained
}

func (c colType) sql() string {
	switch c.id {
	case types.Varchar:
		if c.n > 0 {
			return "varchar(" + itoa(c.n) + ")"
		}
		return "varchar"
	case types.Char:
		return "char(" + itoa(c.n) + ")"
	case types.Numeric:
		if c.prec > 0 {
			return "numeric(" + itoa(c.prec) + "," + itoa(c.scl) + ")"
		}
		return "numeric"
	}
	return typeName(c.id)
}

// randColType picks a column type: every type joind supports, with typmods.
func randColType(r *rand.Rand) colType {
	ids := fuzzIDs()
	id := ids[r.Intn(len(ids))]
	if r.Intn(12) == 0 {
		// array columns, of the element types expressions build arrays of
		id = []types.ID{types.IntArrayID, types.TextArrayID}[r.Intn(2)]
	}
	c := colType{id: id}
	switch id {
	case types.Varchar:
		c.n = []int{0, 1, 5, 300}[r.Intn(4)]
	case types.Char:
		c.n = []int{1, 3, 10}[r.Intn(3)]
	case types.Numeric:
		ps := [][2]int{{0, 0}, {10, 2}, {5, 0}, {20, 6}, {3, 3}}[r.Intn(5)]
		c.prec, c.scl = ps[0], ps[1]
	}
	return c
}

// fuzzIDs are the types the fuzzer gives columns and expressions: every
// concrete type but the reg* aliases, whose values are catalog OIDs and
// whose text is a catalog name — agreement there is pgcatalog's test, not
// the expression engine's.
func fuzzIDs() []types.ID {
	var out []types.ID
	for _, id := range types.ConcreteIDs() {
		switch id {
		case types.RegClass, types.RegType, types.RegProc, types.RegProcedure,
			types.RegOper, types.RegOperator, types.RegNamespace, types.RegRole:
			continue
		case types.Xid, types.Point:
			// No ordering: the generator's ORDER BYs would fail on both
			// servers alike; the xid_lsn suite covers it.
			continue
		}
		out = append(out, id)
	}
	return out
}

// dataPool is the pool of stored values for a column of type c (input
// text, unquoted), each of which fits the column's typmod.
func dataPool(c colType) []string {
	switch c.id {
	case types.Bool:
		return boolPool
	case types.Int2:
		return int2Pool
	case types.Int4:
		return int4Pool
	case types.Int8:
		return int8Pool
	case types.Float4, types.Float8:
		return floatDataPool
	case types.Numeric:
		if c.prec == 0 {
			return numericPool
		}
		return numericFit(c.prec, c.scl)
	case types.Text, types.Name:
		return textPool
	case types.Varchar, types.Char:
		if c.n == 0 {
			return textPool
		}
		var out []string
		for _, s := range textPool {
			if utf8.RuneCountInString(s) <= c.n {
				out = append(out, s)
			}
		}
		if c.id == types.Char {
			// char(n) ignores trailing blanks: keep one of "a" / "a "
			seen := map[string]bool{}
			var dedup []string
			for _, s := range out {
				k := strings.TrimRight(s, " ")
				if !seen[k] {
					seen[k] = true
					dedup = append(dedup, s)
				}
			}
			out = dedup
		}
		return out
	case types.Date:
		return datePool
	case types.Timestamp:
		return timestampPool
	case types.TimestampTZ:
		return timestamptzPool
	case types.Interval:
		return intervalPool
	case types.Bytea:
		return byteaPool
	case types.UUID:
		return uuidPool
	case types.Bit, types.VarBit:
		return bitPool
	case types.InternalChar:
		return charBytePool
	case types.Inet:
		return inetPool
	case types.Cidr:
		return cidrPool
	case types.MacAddr:
		return macaddrPool
	case types.MacAddr8:
		return macaddr8Pool
	case types.Time:
		return timePool
	case types.TimeTZ:
		return timetzPool
	case types.JSON, types.JSONB:
		return jsonPool
	case types.JSONPath:
		return jsonpathPool
	case types.Oid:
		return oidPool
	case types.Xid:
		return xidPool
	case types.Xid8:
		return xid8Pool
	case types.PgLSN:
		return lsnPool
	case types.IntArrayID:
		return intArrayPool
	case types.TextArrayID:
		return textArrayPool
	}
	panic("no pool for type " + typeName(c.id))
}

// numericFit are values that fit numeric(p,s) (rounding on input included).
func numericFit(p, s int) []string {
	intDigits := p - s
	out := []string{"0", "NaN"}
	if intDigits >= 2 {
		out = append(out, "1", "-1", "7", strings.Repeat("9", intDigits-1))
	}
	if s > 0 {
		out = append(out, "0."+strings.Repeat("0", s-1)+"5", "-0."+strings.Repeat("3", s))
		if intDigits >= 2 {
			out = append(out, "1."+strings.Repeat("2", s+1), "-2.5")
		}
	}
	return out
}

// quote is s as a SQL string literal (standard_conforming_strings on).
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func itoa(i int) string { return strconv.Itoa(i) }

// literal is a random literal of type id in one of SQL's spellings.
func literal(r *rand.Rand, k *Knobs, id types.ID) string {
	var pool []string
	switch id {
	case types.IntArrayID, types.TextArrayID:
		// array input text: empty, NULL elements, quoting, two dimensions,
		// lower bounds other than 1
		pool = intArrayPool
		if id == types.TextArrayID {
			pool = textArrayPool
		}
		v := quote(pool[r.Intn(len(pool))])
		if r.Intn(2) == 0 {
			return "CAST(" + v + " AS " + typeName(id) + ")"
		}
		return v + "::" + typeName(id)
	case types.Float4, types.Float8:
		pool = floatDataPool
		if r.Intn(3) == 0 {
			pool = floatLitPool
			if id == types.Float4 {
				pool = pool[:len(pool)-1] // no 1e300 (out of range for real)
			}
		}
	case types.Varchar, types.Char:
		pool = textPool[:len(textPool)-1]
	default:
		pool = k.filterPool(id, dataPool(colType{id: id}))
	}
	v := pool[r.Intn(len(pool))]
	tn := typeName(id)
	switch id {
	case types.Bool:
		if r.Intn(4) == 0 {
			return quote(v[:1]) + "::boolean"
		}
		return v
	case types.Int4:
		if isDigits(v) && r.Intn(2) == 0 {
			return v
		}
		if v[0] == '-' && r.Intn(2) == 0 {
			return "(" + v + ")"
		}
	case types.Int8:
		if r.Intn(3) == 0 && len(v) > 11 {
			return "(" + v + ")" // out of int4 range: a bare literal is bigint
		}
	case types.Numeric:
		if strings.Contains(v, ".") && r.Intn(2) == 0 {
			return "(" + v + ")" // a literal with a point is numeric
		}
	case types.Text:
		if r.Intn(2) == 0 {
			return quote(v) // unknown-typed: resolution coerces it
		}
	}
	switch r.Intn(3) {
	case 0:
		return quote(v) + "::" + tn
	case 1:
		return "CAST(" + quote(v) + " AS " + tn + ")"
	}
	return tn + " " + quote(v)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// nullLit is a NULL of type id.
func nullLit(r *rand.Rand, id types.ID) string {
	if r.Intn(2) == 0 {
		return "CAST(NULL AS " + typeName(id) + ")"
	}
	return "NULL::" + typeName(id)
}

var (
	intArrayPool = []string{"{}", "{1}", "{1,2,3}", "{3,2,1}", "{NULL}", "{1,NULL,3}", "{0,-1,2147483647,-2147483648}",
		"{{1,2},{3,4}}", "{{1,NULL},{NULL,4}}", "[0:2]={7,8,9}", "[-1:0]={5,5}", "{2,2,2}", "{1,2,3,4,5,6,7,8,9,10}"}
	textArrayPool = []string{"{}", "{a}", "{a,b,c}", "{c,b,a}", "{NULL}", `{"",NULL,"x y"}`, `{"NULL",null}`,
		`{"a,b","c\"d",'e'}`, "{{a,b},{c,d}}", "[0:1]={x,y}", "{A,a,B,b}", "{ä,ö,ü,€}", "{abc,ab,a}"}
)
