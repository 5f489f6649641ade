package types

import "sort"

// Exported pseudo-type IDs of built-in signatures, for tools that enumerate
// the catalog (regress/sqlfuzz generates expressions from it).
const (
	// AnyNonArray is PostgreSQL's anynonarray (text || anynonarray).
	AnyNonArray = idAnyNonArray
	// AnyArg is PostgreSQL's "any" (count(x), concat's VARIADIC "any").
	AnyArg = idAny
)

// Signature is one built-in operator, function or aggregate as registered:
// its name, argument types (pseudo-types included) and result type.
type Signature struct {
	Name     string
	Args     []ID
	Result   ID // AnyNonArray: the (first) argument's type
	Variadic bool
	Strict   bool
	Volatile bool
	// SetReturning functions yield rows, not a value.
	SetReturning bool
}

// IntArrayID and TextArrayID stand for int4[] and text[] in signatures:
// the array types the catalog's consumers (the fuzzer's generator) build
// values of.
const (
	IntArrayID  = intArrayID
	TextArrayID = textArrayID
)

// recordSig reports a signature over records (json_each), which the
// catalog's consumers do not build values of yet.
func recordSig(b *builtin) bool {
	for _, id := range append([]ID{b.result}, b.args...) {
		if id == Record {
			return true
		}
	}
	return false
}

func sigOf(b *builtin) Signature {
	return Signature{Name: b.name, Args: append([]ID(nil), b.args...), Result: b.result,
		Variadic: b.variadic, Strict: b.strict, Volatile: b.volatile, SetReturning: b.setReturning}
}

// sigInstances is b's signature, or for one over anyarray / anyelement
// its instances at int4 and at text (int4[] / text[] and their elements).
func sigInstances(b *builtin) []Signature {
	poly := false
	for _, id := range append([]ID{b.result}, b.args...) {
		poly = poly || isArrayPoly(id)
	}
	if !poly {
		return []Signature{sigOf(b)}
	}
	var out []Signature
	for _, inst := range [][2]ID{{intArrayID, Int4}, {textArrayID, Text}} {
		s := sigOf(b)
		sub := func(id ID) ID {
			switch id {
			case idAnyArray:
				return inst[0]
			case idAnyElement:
				return inst[1]
			}
			return id
		}
		s.Result = sub(s.Result)
		for i := range s.Args {
			s.Args[i] = sub(s.Args[i])
		}
		out = append(out, s)
	}
	return out
}

func sortSigs(s []Signature) []Signature {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	return s
}

// Operators lists every built-in operator (prefix operators have one arg),
// in a stable order.
func Operators() []Signature {
	var out []Signature
	for _, k := range sortedKeys(operatorTable) {
		for _, b := range operatorTable[k] {
			if recordSig(b) {
				continue
			}
			out = append(out, sigInstances(b)...)
		}
	}
	return sortSigs(out)
}

// Functions lists every built-in scalar (and set-returning) function, in a
// stable order.
func Functions() []Signature {
	var out []Signature
	for _, k := range sortedKeys(functionTable) {
		for _, b := range functionTable[k] {
			if recordSig(b) {
				continue
			}
			out = append(out, sigInstances(b)...)
		}
	}
	return sortSigs(out)
}

// Aggregates lists every built-in aggregate overload (count(*) excluded), in
// a stable order.
func Aggregates() []Signature {
	var out []Signature
	keys := make([]string, 0, len(aggTable))
	for k := range aggTable {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, a := range aggTable[k] {
			out = append(out, Signature{Name: a.name, Args: append([]ID(nil), a.args...), Result: a.result})
		}
	}
	return out
}

// ConcreteIDs lists the SQL types a column can have (no Unknown, no pseudo-types).
func ConcreteIDs() []ID {
	return []ID{Bool, Int2, Int4, Int8, Float4, Float8, Numeric, Text, Varchar, Char,
		Date, Timestamp, Interval, TimestampTZ, Name, Bytea, UUID, Time, TimeTZ, JSON, JSONB, Bit, VarBit, InternalChar, Inet, Cidr, MacAddr, MacAddr8, Point,
		Oid, RegClass, RegType, RegProc, RegProcedure, RegOper, RegOperator, RegNamespace, RegRole, Xid, Xid8, PgLSN}
}

func sortedKeys(m map[string][]*builtin) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
