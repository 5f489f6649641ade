package types

import (
	"math"
	"strings"

	"github.com/joind/joind/pgerr"
)

// The record image operators *= *<> *< *<= *> *>= (record_image_eq,
// record_image_cmp): records compared field by field by their fields'
// binary images, not their types' orderings, so that two records are
// image-equal only when every field is byte-for-byte the same (a
// materialized view's diff uses them). A pass-by-value field compares as
// PostgreSQL's Datum, an unsigned machine word (so a negative integer,
// sign-extended, sorts after every positive one); a varlena field by
// memcmp of its bytes, the shorter first on a tie. NULL fields order as in
// record_cmp.

// imageOperators are the image operators' three-way tests.
var imageOperators = map[string]string{"*=": "=", "*<>": "<>", "*<": "<", "*<=": "<=", "*>": ">", "*>=": ">="}

// RecordImageCompare is the image operator op between records of types
// lt and rt.
func RecordImageCompare(op string, lt, rt Type) (*Overload, error) {
	test := comparisonTest(imageOperators[op])
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
				switch {
				case av[i].Null && bv[i].Null:
				case av[i].Null:
					c = 1
				case bv[i].Null:
					c = -1
				default:
					if c, err = imageCompare(av[i], bv[i], ld.Types[i]); err != nil {
						return Value{}, err
					}
				}
			}
			if c == 0 && len(av) != len(bv) {
				return Value{}, pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
			}
			return BoolValue(test(c)), nil
		}}, nil
}

// imageCompare is record_image_cmp's comparison of one field's images.
func imageCompare(a, b Value, t Type) (int, error) {
	var x, y uint64
	switch t.ID {
	case Bool, Int2, Int4, Int8:
		x, y = uint64(a.I), uint64(b.I) // sign-extended, as Int32GetDatum
	case Float8:
		x, y = math.Float64bits(a.F), math.Float64bits(b.F)
	case Float4:
		x, y = uint64(math.Float32bits(float32(a.F))), uint64(math.Float32bits(float32(b.F)))
	case Text, Varchar, Bytea:
		// memcmp over the shorter, then the shorter first.
		n := min(len(a.S), len(b.S))
		if c := strings.Compare(a.S[:n], b.S[:n]); c != 0 {
			return c, nil
		}
		return compareInts(len(a.S), len(b.S)), nil
	case Point:
		// By reference, fixed length: memcmp of the 16 bytes (point.go).
		return strings.Compare(a.S, b.S), nil
	default:
		return 0, pgerr.New(pgerr.FeatureNotSupported, "record image comparison of type %s is not supported", t.SQLName())
	}
	switch {
	case x < y:
		return -1, nil
	case x > y:
		return 1, nil
	}
	return 0, nil
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
