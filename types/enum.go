package types

import (
	"sort"
	"sync"

	"github.com/joind/joind/pgerr"
)

// Enum types (CREATE TYPE ... AS ENUM). A value of an enum type is held as
// its label's order key in Value.S: a byte string that sorts bytewise in the
// labels' declaration order, fixed for the label's life, so enum columns are
// string columns to Arrow, spill files, hashing and every sort, and ALTER
// TYPE ... RENAME VALUE or ADD VALUE never rewrite stored data. Keys
// never end in a zero byte, so a key always fits between two others
// (EnumKeyBetween). The labels themselves, and the key each holds, live in
// the catalog (storage), which registers each enum type here under its
// pg_type OID (Type.UserOID) for input, output and names.

// EnumDesc is an enum type: its name and its labels in sort order.
type EnumDesc struct {
	OID      uint32
	ArrayOID uint32 // its array type's pg_type OID
	Name     string // as format_type prints it
	Labels   []EnumLabel
}

// EnumLabel is one label of an enum type (a pg_enum row).
type EnumLabel struct {
	Label     string
	Key       string  // the order key values of this label hold
	SortOrder float32 // pg_enum.enumsortorder
	OID       uint32  // pg_enum.oid
	// Unsafe marks a label added by ALTER TYPE ... ADD VALUE in a
	// transaction not yet committed: reading it is 55P04.
	Unsafe bool `json:"-"`
}

// checkSafe is check_safe_enum_use.
func (d *EnumDesc) checkSafe(l EnumLabel) error {
	if l.Unsafe {
		return pgerr.New("55P04", "unsafe use of new value \"%s\" of enum type %s", l.Label, d.Name).
			WithHint("New enum values must be committed before they can be used.")
	}
	return nil
}

var enumRegistry struct {
	sync.RWMutex
	byOID   map[uint32]*EnumDesc
	byArray map[uint32]uint32
}

// RegisterEnum makes d the description of enum type d.OID (replacing an
// earlier one): input, output and names read it. d is not modified after.
func RegisterEnum(d *EnumDesc) {
	SortEnumLabels(d)
	r := &enumRegistry
	r.Lock()
	defer r.Unlock()
	if r.byOID == nil {
		r.byOID, r.byArray = map[uint32]*EnumDesc{}, map[uint32]uint32{}
	}
	r.byOID[d.OID] = d
	r.byArray[d.ArrayOID] = d.OID
}

// SortEnumLabels puts d's labels in sort order (by key).
func SortEnumLabels(d *EnumDesc) {
	sort.Slice(d.Labels, func(i, j int) bool { return d.Labels[i].Key < d.Labels[j].Key })
}

// EnumView is a transaction's own changes to committed enum types (the
// registry holds the committed ones): Format.Enums.
type EnumView interface {
	PendingEnum(oid uint32) (*EnumDesc, bool)
}

// enumIn is enum type oid as f's transaction sees it.
func enumIn(oid uint32, f *Format) (*EnumDesc, bool) {
	if f != nil && f.Enums != nil {
		if d, ok := f.Enums.PendingEnum(oid); ok {
			return d, true
		}
	}
	return LookupEnum(oid)
}

// LookupEnum is the registered description of enum type oid.
func LookupEnum(oid uint32) (*EnumDesc, bool) {
	r := &enumRegistry
	r.RLock()
	defer r.RUnlock()
	d, ok := r.byOID[oid]
	return d, ok
}

// EnumType is the enum type whose pg_type OID is oid.
func EnumType(oid uint32) Type { return Type{ID: Enum, Typmod: -1, UserOID: oid} }

// enumTypeByOID is the enum type, or array of enum type, of pg_type OID oid.
func enumTypeByOID(oid uint32) (Type, bool) {
	r := &enumRegistry
	r.RLock()
	defer r.RUnlock()
	if _, ok := r.byOID[oid]; ok {
		return EnumType(oid), true
	}
	if e, ok := r.byArray[oid]; ok {
		return ArrayOf(EnumType(e)), true
	}
	return Type{}, false
}

func (t Type) enumDesc() *EnumDesc {
	d, _ := LookupEnum(t.UserOID)
	return d
}

// enumName is the name of enum type t.
func enumName(t Type) string {
	if d := t.enumDesc(); d != nil {
		return d.Name
	}
	return "anyenum"
}

// enumArrayOID is the OID of the array type over enum type t.
func enumArrayOID(t Type) uint32 {
	if d := t.enumDesc(); d != nil {
		return d.ArrayOID
	}
	return 0
}

// Label is the label of an enum value's key.
func (d *EnumDesc) Label(key string) (string, bool) {
	i := sort.Search(len(d.Labels), func(i int) bool { return d.Labels[i].Key >= key })
	if i < len(d.Labels) && d.Labels[i].Key == key {
		return d.Labels[i].Label, true
	}
	return "", false
}

// Find is the index of label in d.Labels, -1 if it has none.
func (d *EnumDesc) Find(label string) int {
	for i, l := range d.Labels {
		if l.Label == label {
			return i
		}
	}
	return -1
}

// parseEnum is enum_in.
func parseEnum(s string, t Type, f *Format) (Value, error) {
	if d, _ := enumIn(t.UserOID, f); d != nil {
		if i := d.Find(s); i >= 0 {
			return Value{S: d.Labels[i].Key}, d.checkSafe(d.Labels[i])
		}
	}
	return Value{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", enumName(t), s)
}

// formatEnum is enum_out.
func formatEnum(dst []byte, v Value, t Type, f *Format) []byte {
	if d, _ := enumIn(t.UserOID, f); d != nil {
		if l, ok := d.Label(v.S); ok {
			return append(dst, l...)
		}
	}
	// A key without a label: the type changed under a value (never, as
	// labels are not dropped); show the key rather than nothing.
	return append(dst, v.S...)
}

// EnumKeyBetween is an order key after a and before b: "" for a means no
// lower bound, "" for b no upper bound. a < b bytewise; neither ends in a
// zero byte, nor does the result.
func EnumKeyBetween(a, b string) string {
	var out []byte
	upper := b != ""
	for i := 0; ; i++ {
		da := 0
		if i < len(a) {
			da = int(a[i])
		}
		db := 256
		if upper {
			db = 0
			if i < len(b) {
				db = int(b[i])
			}
		}
		if da == db {
			out = append(out, byte(da))
			continue
		}
		if db-da >= 2 {
			return string(append(out, byte((da+db)/2)))
		}
		// Adjacent digits: keep a's and find room above the rest of a.
		out = append(out, byte(da))
		upper = false
	}
}

// EnumKeys are the order keys of n labels declared in order: equal-length
// keys of digits 1..255, so later labels can go between any two.
func EnumKeys(n int) []string {
	width := 1
	for c := 255; c < n; c *= 255 {
		width++
	}
	keys := make([]string, n)
	for i := range keys {
		k := make([]byte, width)
		x := i
		for j := width - 1; j >= 0; j-- {
			k[j] = byte(1 + x%255)
			x /= 255
		}
		keys[i] = string(k)
	}
	return keys
}

// resolveEnumOperator resolves the comparison operators of two values of
// one enum type (enum_eq, enum_lt, ...: an unknown side takes the enum
// type), which compare order keys.
func resolveEnumOperator(name string, left, right Type) (*Overload, bool, error) {
	if (left.Domain != 0 && right.ID == Unknown || right.Domain != 0 && left.ID == Unknown) && (left.ID == Enum || right.ID == Enum) {
		// PostgreSQL finds no anyenum operator for a domain over an enum
		// and an unknown literal.
		return nil, true, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", left.BaseSQLName(), name, right.BaseSQLName()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	left, right = left.BaseType(), right.BaseType()
	switch {
	case left.ID == Enum && right.ID == Unknown:
		right = left
	case left.ID == Unknown && right.ID == Enum:
		left = right
	}
	if left.ID != Enum || right.ID != Enum {
		return nil, false, nil
	}
	test := comparisonTest(name)
	if test == nil || left.UserOID != right.UserOID {
		return nil, true, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", left.BaseSQLName(), name, right.BaseSQLName()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	t := Type{ID: Enum, Typmod: -1, UserOID: left.UserOID}
	return &Overload{Name: name, Args: []Type{t, t}, Result: BoolType, Strict: true, Leakproof: true,
		Eval: func(_ *EvalContext, args []Value) (Value, error) {
			return BoolValue(test(compareStrings(args[0].S, args[1].S))), nil
		}}, true, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// resolveEnumFunction resolves the enum support functions over an enum
// argument: enum_first, enum_last, enum_range (one or two arguments),
// enum_cmp, enum_larger and enum_smaller.
func resolveEnumFunction(name string, args []Type) (*Overload, bool, error) {
	switch name {
	case "enum_first", "enum_last", "enum_range", "enum_cmp", "enum_larger", "enum_smaller":
	default:
		return nil, false, nil
	}
	if len(args) == 0 || args[0].ID != Enum {
		if len(args) == 2 && args[0].ID == Unknown && args[1].ID == Enum {
			args = []Type{args[1], args[1]}
		} else {
			return nil, false, nil
		}
	}
	t := Type{ID: Enum, Typmod: -1, UserOID: args[0].UserOID}
	for i := range args {
		if args[i].ID == Unknown {
			args[i] = t
		}
		if args[i].ID != Enum || args[i].UserOID != t.UserOID {
			return nil, false, nil
		}
	}
	desc := func(ctx *EvalContext) (*EnumDesc, error) {
		var f *Format
		if ctx != nil {
			f = ctx.Format
		}
		d, _ := enumIn(t.UserOID, f)
		if d == nil {
			return nil, pgerr.New(pgerr.InternalError, "enum type %d is not known", t.UserOID)
		}
		return d, nil
	}
	ov := &Overload{Name: name, Args: args, Stable: true}
	switch {
	case (name == "enum_first" || name == "enum_last") && len(args) == 1:
		// Not strict: the argument only names the type (NULL::mood).
		ov.Result = t
		ov.Eval = func(ctx *EvalContext, _ []Value) (Value, error) {
			d, err := desc(ctx)
			if err != nil {
				return NullValue, err
			}
			if len(d.Labels) == 0 {
				return NullValue, pgerr.New("55000", "enum %s contains no values", d.Name)
			}
			l := d.Labels[len(d.Labels)-1]
			if name == "enum_first" {
				l = d.Labels[0]
			}
			return Value{S: l.Key}, d.checkSafe(l)
		}
	case name == "enum_range" && len(args) <= 2:
		ov.Result = ArrayOf(t)
		ov.Eval = func(ctx *EvalContext, vs []Value) (Value, error) {
			d, err := desc(ctx)
			if err != nil {
				return NullValue, err
			}
			var elems []Value
			for _, l := range d.Labels {
				if len(vs) == 2 && (!vs[0].Null && l.Key < vs[0].S || !vs[1].Null && l.Key > vs[1].S) {
					continue
				}
				if err := d.checkSafe(l); err != nil {
					return NullValue, err
				}
				elems = append(elems, Value{S: l.Key})
			}
			return Value{Arr: NewArray(elems)}, nil
		}
	case name == "enum_cmp" && len(args) == 2:
		ov.Result, ov.Strict, ov.Stable, ov.Leakproof = Int4Type, true, false, true
		ov.Eval = func(_ *EvalContext, vs []Value) (Value, error) {
			return IntValue(int64(compareStrings(vs[0].S, vs[1].S))), nil
		}
	case (name == "enum_larger" || name == "enum_smaller") && len(args) == 2:
		ov.Result, ov.Strict, ov.Stable = t, true, false
		ov.Eval = func(_ *EvalContext, vs []Value) (Value, error) {
			c := compareStrings(vs[0].S, vs[1].S)
			if (name == "enum_larger") == (c >= 0) {
				return vs[0], nil
			}
			return vs[1], nil
		}
	default:
		return nil, false, nil
	}
	return ov, true, nil
}

// enumCastContext is pg_cast's answer for casts involving an enum type:
// the same enum (identity), and the I/O conversion casts to a string type
// (assignment) and from one (explicit). ok false: no enum involved.
func enumCastContext(from, to Type) (ctx byte, ok bool) {
	if from.ID != Enum && to.ID != Enum {
		return 0, false
	}
	switch {
	case from.ID == Enum && to.ID == Enum:
		if from.UserOID == to.UserOID {
			return 'i', true
		}
	case from.ID == Unknown:
		return 'i', true
	case from.ID == Enum && isStringID(to.ID):
		return 'a', true
	case to.ID == Enum && isStringID(from.ID):
		return 'e', true
	}
	return 0, true
}

// TypeByUserOID is the user-defined type (or array of one) registered
// under pg_type OID oid.
func TypeByUserOID(oid uint32) (Type, bool) {
	if d, ok := LookupDomain(oid); ok {
		return DomainType(d), true
	}
	if t, ok := domainArrayByOID(oid); ok {
		return t, true
	}
	if t, ok := compositeTypeByOID(oid); ok {
		return t, true
	}
	return enumTypeByOID(oid)
}
