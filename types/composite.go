package types

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/joind/joind/pgerr"
)

// Record values. A value of type Record (an anonymous ROW(...), a FROM
// item's whole row, a composite column) is held as its record_out text in
// Value.S, so it travels through Arrow string columns, spill files, hash
// keys and storage like any string. Its field names and types are the
// type's, not the value's: Type.Typmod of a Record indexes a process-wide
// registry of RecordDescs (PostgreSQL's "blessed" record typmods), -1 being
// a record whose fields are unknown. Comparisons read the fields back with
// record_in (ParseRecord) and compare them as record_cmp does.
//
// Grouping, DISTINCT and hashing compare RecordKey, the text with each
// field in a form equal fields share (numeric 1.0 and 1.00, float -0 and
// 0, char(n) padding), as record_eq compares them.

// OIDRecord is pg_type's record pseudo-type, OIDRecordArray its array
// type (_record), the type of every array of records.
const (
	OIDRecord      uint32 = 2249
	OIDRecordArray uint32 = 2287
)

// RecordDesc describes a record type's fields.
type RecordDesc struct {
	// Name is the composite type's name ("" for an anonymous record).
	Name   string
	Fields []string
	Types  []Type
}

var recordRegistry struct {
	sync.RWMutex
	descs []*RecordDesc
	byKey map[string]int32
}

// RecordOf is the record type of desc, registering it on first use; equal
// descriptions share one typmod.
func RecordOf(desc RecordDesc) Type {
	var k strings.Builder
	k.WriteString(desc.Name)
	for i, f := range desc.Fields {
		k.WriteByte(0)
		k.WriteString(f)
		k.WriteByte(0)
		k.WriteByte(byte(desc.Types[i].ID))
		tm := desc.Types[i].Typmod
		k.WriteString(string([]byte{byte(tm >> 24), byte(tm >> 16), byte(tm >> 8), byte(tm)}))
	}
	key := k.String()
	r := &recordRegistry
	r.RLock()
	tm, ok := r.byKey[key]
	r.RUnlock()
	if ok {
		return Type{ID: Record, Typmod: tm}
	}
	r.Lock()
	defer r.Unlock()
	if tm, ok := r.byKey[key]; ok {
		return Type{ID: Record, Typmod: tm}
	}
	if r.byKey == nil {
		r.byKey = map[string]int32{}
	}
	d := desc
	d.Fields = append([]string(nil), desc.Fields...)
	d.Types = append([]Type(nil), desc.Types...)
	tm = int32(len(r.descs))
	r.descs = append(r.descs, &d)
	r.byKey[key] = tm
	return Type{ID: Record, Typmod: tm}
}

// AnonymousRecord is the type of ROW(...) over fields of types ts: fields
// f1, f2, ...
func AnonymousRecord(ts []Type) Type {
	names := make([]string, len(ts))
	for i := range ts {
		names[i] = "f" + strconv.Itoa(i+1)
	}
	return RecordOf(RecordDesc{Fields: names, Types: ts})
}

// Desc is the field description of a Record type, nil when unknown.
func (t Type) Desc() *RecordDesc {
	if t.ID == Record && t.UserOID != 0 && t.Typmod < 0 {
		return compositeRecordDesc(t.UserOID) // compositetype.go
	}
	if t.ID != Record || t.Typmod < 0 {
		return nil
	}
	r := &recordRegistry
	r.RLock()
	defer r.RUnlock()
	if int(t.Typmod) >= len(r.descs) {
		return nil
	}
	return r.descs[t.Typmod]
}

// WireTypmod is the atttypmod sent in RowDescription: a record's registry
// index is joind's own, so records go out as PostgreSQL sends them (-1).
func (t Type) WireTypmod() int32 {
	if t.TypmodIsFields() {
		return -1
	}
	return t.Typmod
}

// TypmodIsFields reports whether t's typmod names a record's fields (a
// record or an array of records) rather than modifying the type: such a
// typmod is part of the type and stays where other typmods are dropped.
func (t Type) TypmodIsFields() bool {
	return t.ID == Record || (t.ID == Array && t.Elem == Record)
}

// DropTypmod is t without its modifier (typmod -1), a record's field
// description kept.
func DropTypmod(t Type) Type {
	if !t.TypmodIsFields() {
		t.Typmod = -1
	}
	return t
}

// FieldWithoutEquality is the first field of the record type t (or of an
// array of records' elements), nested records searched too, whose type has
// no equality operator (json); ok false when there is none. record_eq and
// record_cmp fail on such a field where they first run.
func FieldWithoutEquality(t Type) (ft Type, ok bool) {
	if t.ID == Array {
		t = t.ElemType()
	}
	d := t.Desc()
	if d == nil {
		return Type{}, false
	}
	for _, f := range d.Types {
		if !HasEquality(f) {
			return f, true
		}
		if f.TypmodIsFields() {
			if ft, ok := FieldWithoutEquality(f); ok {
				return ft, true
			}
		}
	}
	return Type{}, false
}

// recordName is the type name of a record type: the composite type's
// name, or "record".
func recordName(t Type) string {
	if d := t.Desc(); d != nil && d.Name != "" {
		return d.Name
	}
	return "record"
}

// RowConstructor is ROW(...) producing a value of the record type t from
// its fields (t's field types, in order).
func RowConstructor(t Type) *Overload {
	o := recordOut.instantiate(t.Desc().Types)
	o.Name = "row"
	o.Result = t
	return o
}

// errMalformedRecord is record_in's syntax error.
func errMalformedRecord(s, detail string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed record literal: \"%s\"", s).WithDetail("%s", detail)
}

// SplitRecord splits record text into its n fields' texts as record_in
// reads them (ok false: NULL). White space before "(" and after ")" is
// skipped; inside, a field's text is taken as written, "..." quoting and
// backslash escapes removed.
func SplitRecord(s string, n int) (fields []string, ok []bool, err error) {
	return splitRecord(s, n, false)
}

// splitRecord is SplitRecord; short accepts text of fewer fields than n,
// the rest NULL: a composite value stored before ALTER TYPE ... ADD
// ATTRIBUTE, as PostgreSQL reads a tuple with fewer attributes.
func splitRecord(s string, n int, short bool) (fields []string, ok []bool, err error) {
	i := 0
	for i < len(s) && isRecordSpace(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '(' {
		return nil, nil, errMalformedRecord(s, "Missing left parenthesis.")
	}
	i++
	fields, ok = make([]string, n), make([]bool, n)
	for f := 0; f < n; f++ {
		if f > 0 {
			if short && i < len(s) && s[i] == ')' {
				break
			}
			if i >= len(s) || s[i] != ',' {
				// record_in reads the following ")" as the end.
				return nil, nil, errMalformedRecord(s, "Too few columns.")
			}
			i++
		}
		if i < len(s) && (s[i] == ',' || s[i] == ')') {
			continue // NULL
		}
		var b strings.Builder
		inQuote := false
		for {
			if i >= len(s) {
				return nil, nil, errMalformedRecord(s, "Unexpected end of input.")
			}
			c := s[i]
			if !inQuote && (c == ',' || c == ')') {
				break
			}
			i++
			switch {
			case c == '\\':
				if i >= len(s) {
					return nil, nil, errMalformedRecord(s, "Unexpected end of input.")
				}
				b.WriteByte(s[i])
				i++
			case c == '"':
				if !inQuote {
					inQuote = true
				} else if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
				} else {
					inQuote = false
				}
			default:
				b.WriteByte(c)
			}
		}
		fields[f], ok[f] = b.String(), true
	}
	if i >= len(s) || s[i] != ')' {
		return nil, nil, errMalformedRecord(s, "Too many columns.")
	}
	i++
	for i < len(s) && isRecordSpace(s[i]) {
		i++
	}
	if i < len(s) {
		return nil, nil, errMalformedRecord(s, "Junk after right parenthesis.")
	}
	return fields, ok, nil
}

func isRecordSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// ParseRecordFields reads the fields of a record value s of type t (a
// value joind made, whose text may predate ALTER TYPE ... ADD ATTRIBUTE).
func ParseRecordFields(s string, t Type, f *Format) ([]Value, error) {
	return parseRecordFields(s, t, f, true)
}

// parseRecordFields is record_in over s (short: a stored value, which may
// have fewer fields than t now has).
func parseRecordFields(s string, t Type, f *Format, short bool) ([]Value, error) {
	d := t.Desc()
	if d == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	texts, ok, err := splitRecord(s, len(d.Types), short)
	if err != nil {
		return nil, err
	}
	out := make([]Value, len(texts))
	for i, txt := range texts {
		if !ok[i] {
			out[i] = NullValue
			continue
		}
		if short && d.Types[i].ID == Record {
			// A nested stored value: short too.
			if out[i], err = normalizeRecord(txt, d.Types[i], f); err != nil {
				return nil, err
			}
			continue
		}
		if out[i], err = ParseTextFormat(txt, d.Types[i], f, time.Time{}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseRecord is record_in producing the canonical (record_out) text, so
// equal records hold equal strings.
func parseRecord(s string, t Type, f *Format) (Value, error) {
	vals, err := parseRecordFields(s, t, f, false)
	if err != nil {
		return Value{}, err
	}
	return Value{S: FormatRecord(vals, t.Desc().Types, f)}, nil
}

// normalizeRecord is a stored record value s of type t in its type's
// current form: fields added to the type since (NULL) written out.
func normalizeRecord(s string, t Type, f *Format) (Value, error) {
	vals, err := parseRecordFields(s, t, f, true)
	if err != nil {
		return Value{}, err
	}
	return Value{S: FormatRecord(vals, t.Desc().Types, f)}, nil
}

// formatComposite is record_out of a named composite's value: its stored
// text, with fields the type gained since written out.
func formatComposite(dst []byte, v Value, t Type, f *Format) []byte {
	if d := t.Desc(); d != nil {
		if _, _, err := SplitRecord(v.S, len(d.Types)); err != nil || hasCompositeField(d) {
			if n, err := normalizeRecord(v.S, t, f); err == nil {
				return append(dst, n.S...)
			}
		}
	}
	return append(dst, v.S...)
}

// hasCompositeField reports whether a field of d is of a named composite
// type, whose stored text may predate its type's newer attributes.
func hasCompositeField(d *RecordDesc) bool {
	for _, t := range d.Types {
		if t.IsComposite() {
			return true
		}
	}
	return false
}

// FormatRecord is record_out over field values of types ts.
func FormatRecord(vals []Value, ts []Type, f *Format) string {
	return formatRecordWith(vals, func(i int) string { return string(FormatText(nil, vals[i], ts[i], f)) })
}

// compareRecord is record_cmp: field by field, a NULL field sorting after
// every non-NULL one and equal to another NULL. Text that does not read
// back (it always does for values joind made) compares bytewise.
func compareRecord(a, b string, t Type) int {
	if a == b {
		return 0
	}
	d := t.Desc()
	if d == nil {
		return strings.Compare(a, b)
	}
	av, err1 := ParseRecordFields(a, t, nil)
	bv, err2 := ParseRecordFields(b, t, nil)
	if err1 != nil || err2 != nil {
		return strings.Compare(a, b)
	}
	for i := range av {
		switch {
		case av[i].Null && bv[i].Null:
			continue
		case av[i].Null:
			return 1
		case bv[i].Null:
			return -1
		}
		if c := Compare(av[i], bv[i], d.Types[i]); c != 0 {
			return c
		}
	}
	return 0
}

// FieldSelect is (expr).field over a record of type t: the field's value.
func FieldSelect(t Type, field int) *Overload {
	d := t.Desc()
	ft := d.Types[field]
	// The field number is part of the name: expression equality (GROUP BY
	// and ORDER BY matching, SameExpr) compares calls by name and arguments.
	return &Overload{Name: "fieldselect#" + strconv.Itoa(field+1), Args: []Type{t}, Result: ft, Strict: true,
		Eval: func(ctx *EvalContext, a []Value) (Value, error) {
			vals, err := ParseRecordFields(a[0].S, t, ctxFormat(ctx))
			if err != nil {
				return Value{}, err
			}
			return vals[field], nil
		}}
}

// FieldStore is the record of type t (a, NULL meaning all fields NULL)
// with field replaced by v: PostgreSQL's FieldStore.
func FieldStore(t Type, field int) *Overload {
	d := t.Desc()
	return &Overload{Name: "fieldstore#" + strconv.Itoa(field+1), Args: []Type{t, d.Types[field]}, Result: t,
		Eval: func(ctx *EvalContext, a []Value) (Value, error) {
			f := ctxFormat(ctx)
			vals := make([]Value, len(d.Types))
			if a[0].Null {
				for i := range vals {
					vals[i] = NullValue
				}
			} else {
				var err error
				if vals, err = ParseRecordFields(a[0].S, t, f); err != nil {
					return Value{}, err
				}
			}
			vals[field] = a[1]
			return Value{S: FormatRecord(vals, d.Types, f)}, nil
		}}
}

// RecordCompare is record_eq, record_ne, record_lt, record_le, record_gt
// or record_ge between records of types lt and rt: field by field with
// record_cmp's order (NULL fields equal each other and sort last), so the
// result is never NULL for two non-NULL records. Records of different
// widths or field types fail when compared, as in PostgreSQL.
func RecordCompare(op string, lt, rt Type) (*Overload, error) {
	test := comparisonTest(op)
	if test == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", lt.SQLName(), op, rt.SQLName()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	ld, rd := lt.Desc(), rt.Desc()
	return &Overload{Name: op, Args: []Type{lt, rt}, Result: BoolType, Strict: true,
		Eval: func(ctx *EvalContext, a []Value) (Value, error) {
			if ld == nil || rd == nil {
				return Value{}, pgerr.New(pgerr.FeatureNotSupported, "comparison of records of unknown type is not supported")
			}
			f := ctxFormat(ctx)
			av, err := ParseRecordFields(a[0].S, lt, f)
			if err != nil {
				return Value{}, err
			}
			bv, err := ParseRecordFields(a[1].S, rt, f)
			if err != nil {
				return Value{}, err
			}
			c := 0
			for i := 0; c == 0 && i < len(av) && i < len(bv); i++ {
				if ld.Types[i].ID != rd.Types[i].ID {
					return Value{}, pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d",
						ld.Types[i].BaseSQLName(), rd.Types[i].BaseSQLName(), i+1)
				}
				if err := fieldComparable(ld.Types[i], op); err != nil {
					return Value{}, err
				}
				switch {
				case av[i].Null && bv[i].Null:
				case av[i].Null:
					c = 1
				case bv[i].Null:
					c = -1
				default:
					c = Compare(av[i], bv[i], ld.Types[i])
				}
			}
			if c == 0 && len(av) != len(bv) {
				return Value{}, pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
			}
			return BoolValue(test(c)), nil
		}}, nil
}

// fieldComparable is record_eq's (= and <>) or record_cmp's lookup of a
// field type's equality or comparison, made for each field the comparison
// reaches, before its NULLs are looked at: 42883 for a type without one
// (json, point, a composite over one).
func fieldComparable(ft Type, op string) error {
	bad := !HasEquality(ft)
	if !bad && ft.ID == Record && ft.UserOID != 0 {
		_, bad = FieldWithoutEquality(ft)
	}
	if !bad {
		return nil
	}
	if op == "=" || op == "<>" {
		return pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", ft.BaseSQLName())
	}
	return pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type %s", ft.BaseSQLName())
}

// RecordNullTest is `x IS [NOT] NULL` of a record value of type t: true
// when every field is NULL (IS NOT NULL: none is); a NULL record is NULL
// for IS NULL and not for IS NOT NULL.
func RecordNullTest(t Type, negate bool) *Overload {
	return &Overload{Name: "row_null_test", Args: []Type{t}, Result: BoolType,
		Eval: func(ctx *EvalContext, a []Value) (Value, error) {
			if a[0].Null {
				return BoolValue(!negate), nil
			}
			vals, err := ParseRecordFields(a[0].S, t, ctxFormat(ctx))
			if err != nil {
				return Value{}, err
			}
			for _, v := range vals {
				if v.Null == negate {
					return BoolValue(false), nil
				}
			}
			return BoolValue(true), nil
		}}
}

// castRecord converts a record to another record type field by field, as
// PostgreSQL's coerce_record_to_complex (a row constructor) and
// record-to-composite conversion do.
func castRecord(ctx *EvalContext, v Value, from, to Type, explicit bool) (Value, error) {
	if from.Typmod == to.Typmod || to.Desc() == nil {
		return v, nil
	}
	fd, td := from.Desc(), to.Desc()
	if fd == nil {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "conversion of a record of unknown type is not supported")
	}
	f := ctxFormat(ctx)
	vals, err := ParseRecordFields(v.S, from, f)
	if err != nil {
		return Value{}, err
	}
	if len(vals) != len(td.Types) {
		detail := "Input has too few columns."
		if len(vals) > len(td.Types) {
			detail = "Input has too many columns."
		}
		return Value{}, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.SQLName(), to.SQLName()).WithDetail("%s", detail)
	}
	for i := range vals {
		ft, tt := fd.Types[i], td.Types[i]
		if ft == tt {
			continue
		}
		if _, _, ok := CanCast(ft, tt); !ok {
			return Value{}, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.SQLName(), to.SQLName()).
				WithDetail("Cannot cast type %s to %s in column %d.", ft.SQLName(), tt.SQLName(), i+1)
		}
		if vals[i], err = CastValue(ctx, vals[i], ft, tt, explicit); err != nil {
			return Value{}, err
		}
	}
	return Value{S: FormatRecord(vals, td.Types, f)}, nil
}

// resolveRecordOperator resolves an operator over two records, or a record
// and an unknown literal (which then reads as that record type): the
// record comparisons. ok is false when neither side is a record.
func resolveRecordOperator(name string, left, right Type) (*Overload, bool, error) {
	switch {
	case left.ID == Record && right.ID == Unknown:
		right = left
	case left.ID == Unknown && right.ID == Record:
		left = right
	}
	if left.ID != Record || right.ID != Record {
		return nil, false, nil
	}
	if _, ok := imageOperators[name]; ok {
		ov, err := RecordImageCompare(name, left, right) // recordimage.go
		return ov, true, err
	}
	ov, err := RecordCompare(name, left, right)
	return ov, true, err
}

// RecordKey is the grouping and hashing key of record text s of type t:
// its fields written in forms that equal values share. Text that does not
// read back is its own key.
func RecordKey(s string, t Type) string {
	d := t.Desc()
	if d == nil {
		return s
	}
	vals, err := ParseRecordFields(s, t, nil)
	if err != nil {
		return s
	}
	return formatRecordWith(vals, func(i int) string { return fieldKey(vals[i], d.Types[i]) })
}

func fieldKey(v Value, t Type) string {
	switch t.ID {
	case Numeric:
		if v.Num.Form == apd.Finite {
			if v.Num.IsZero() {
				return "0"
			}
			var r apd.Decimal
			r.Reduce(v.Num)
			return r.Text('f')
		}
	case Float4, Float8:
		if v.F == 0 {
			return "0" // -0 = 0
		}
	case Char:
		return strings.TrimRight(v.S, " ")
	case Record:
		return RecordKey(v.S, t)
	}
	return string(FormatText(nil, v, t, nil))
}

// comparisonTest is the outcome test of comparison operator op over a
// three-way comparison's result, nil for any other operator.
func comparisonTest(op string) func(c int) bool {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }
	case "<>":
		return func(c int) bool { return c != 0 }
	case "<":
		return func(c int) bool { return c < 0 }
	case "<=":
		return func(c int) bool { return c <= 0 }
	case ">":
		return func(c int) bool { return c > 0 }
	case ">=":
		return func(c int) bool { return c >= 0 }
	}
	return nil
}
