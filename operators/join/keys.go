package join

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Join keys are turned into canonical encodings so that "equal under the SQL
// equality operator" becomes "equal bits": integers of any width widen to
// int64, floats become float64 bits with -0 folded to 0 and every NaN to one
// NaN (PostgreSQL orders NaN equal to itself), numerics are reduced (1.50 =
// 1.5), bpchar drops trailing blanks, intervals are normalised the way
// interval_cmp does (1 mon = 30 days, 1 day = 24 h).

// family groups the types whose values compare with each other.
type family uint8

const (
	famInt family = iota // int2, int4, int8
	famBool
	famFloat
	famNumeric
	famText // text, varchar, char, unknown
	famDate
	famTimestamp
	famInterval
	famTimestampTZ // same int64 µs encoding, but never equal to a timestamp's bits
)

func familyOf(t types.Type) family {
	switch t.ID {
	case types.Int2, types.Int4, types.Int8:
		return famInt
	case types.Bool:
		return famBool
	case types.Float4, types.Float8:
		return famFloat
	case types.Numeric:
		return famNumeric
	case types.Date:
		return famDate
	case types.Timestamp:
		return famTimestamp
	case types.TimestampTZ:
		return famTimestampTZ
	case types.Interval:
		return famInterval
	}
	return famText
}

// intLike families encode as a single int64.
func (f family) intLike() bool {
	return f == famInt || f == famBool || f == famFloat || f == famDate || f == famTimestamp || f == famTimestampTZ
}

// keyCol is one key column of a batch, encoded.
type keyCol struct {
	nulls []bool   // nil when no row is NULL
	ints  []int64  // intLike families
	strs  []string // the others
}

func (k *keyCol) null(i int) bool { return k.nulls != nil && k.nulls[i] }

// equal reports whether row i of k and row j of o hold equal non-NULL values.
func (k *keyCol) equal(i int, o *keyCol, j int) bool {
	if k.ints != nil {
		return k.ints[i] == o.ints[j]
	}
	return k.strs[i] == o.strs[j]
}

// keyBatch is the encoded keys of one batch (or of the whole build side).
type keyBatch struct {
	n    int
	cols []keyCol
}

// keyEval evaluates one side's key expressions over its batches.
type keyEval struct {
	exprs []plan.Expr
	pos   []int // column position for a plain ColRef, else -1
	comp  []*operators.Compiled
	typs  []types.Type
}

func newKeyEval(exprs []plan.Expr, input []plan.Column, env *operators.Env) (*keyEval, error) {
	ke := &keyEval{exprs: exprs, pos: make([]int, len(exprs)), comp: make([]*operators.Compiled, len(exprs)), typs: make([]types.Type, len(exprs))}
	for i, e := range exprs {
		ke.typs[i] = e.Type()
		ke.pos[i] = -1
		if c, ok := e.(*plan.ColRef); ok {
			for j, col := range input {
				if col.ID == c.ID {
					ke.pos[i] = j
					break
				}
			}
			if ke.pos[i] >= 0 {
				continue
			}
		}
		c, err := operators.Compile(e, input, env)
		if err != nil {
			return nil, err
		}
		ke.comp[i] = c
	}
	return ke, nil
}

// eval encodes the keys of rec.
func (ke *keyEval) eval(ctx context.Context, rec arrow.Record) (*keyBatch, error) {
	kb := &keyBatch{n: int(rec.NumRows()), cols: make([]keyCol, len(ke.exprs))}
	for i := range ke.exprs {
		var arr arrow.Array
		if ke.pos[i] >= 0 {
			arr = rec.Column(ke.pos[i])
		} else {
			a, err := ke.comp[i].Eval(ctx, rec)
			if err != nil {
				return nil, err
			}
			arr = a
		}
		col, err := encodeColumn(arr, ke.typs[i])
		if err != nil {
			return nil, err
		}
		kb.cols[i] = col
	}
	return kb, nil
}

// evalColumns encodes the keys of n rows given as columns (cols, described
// by input; columns no key reads may be nil).
func (ke *keyEval) evalColumns(ctx context.Context, cols []arrow.Array, n int, input []plan.Column) (*keyBatch, error) {
	for i := range ke.exprs {
		if ke.pos[i] < 0 {
			rec := array.NewRecordBatch(schemaOf(input), cols, int64(n))
			return ke.eval(ctx, rec)
		}
	}
	kb := &keyBatch{n: n, cols: make([]keyCol, len(ke.exprs))}
	for i := range ke.exprs {
		col, err := encodeColumn(cols[ke.pos[i]], ke.typs[i])
		if err != nil {
			return nil, err
		}
		kb.cols[i] = col
	}
	return kb, nil
}

func encodeColumn(arr arrow.Array, t types.Type) (keyCol, error) {
	n := arr.Len()
	var k keyCol
	if arr.NullN() > 0 {
		k.nulls = make([]bool, n)
		for i := 0; i < n; i++ {
			k.nulls[i] = arr.IsNull(i)
		}
	}
	fam := familyOf(t)
	if fam.intLike() {
		if _, ok := arr.(*array.Int64); !ok {
			k.ints = make([]int64, n)
		}
		switch a := arr.(type) {
		case *array.Int64:
			// Keys are read-only: share the batch's values.
			if k.ints = a.Int64Values(); k.ints == nil {
				k.ints = []int64{}
			}
		case *array.Int32:
			for i, v := range a.Int32Values() {
				k.ints[i] = int64(v)
			}
		case *array.Int16:
			for i, v := range a.Int16Values() {
				k.ints[i] = int64(v)
			}
		case *array.Date32:
			for i, v := range a.Date32Values() {
				k.ints[i] = int64(v)
			}
		case *array.Timestamp:
			for i, v := range a.TimestampValues() {
				k.ints[i] = int64(v)
			}
		case *array.Boolean:
			for i := 0; i < n; i++ {
				if a.Value(i) {
					k.ints[i] = 1
				}
			}
		case *array.Float64:
			for i, v := range a.Float64Values() {
				k.ints[i] = floatKey(v)
			}
		case *array.Float32:
			for i, v := range a.Float32Values() {
				k.ints[i] = floatKey(float64(v))
			}
		default:
			return k, pgerr.New(pgerr.InternalError, "hash join key of type %d has unexpected array %T", t.ID, arr)
		}
		return k, nil
	}
	k.strs = make([]string, n)
	for i := 0; i < n; i++ {
		if k.null(i) {
			continue
		}
		switch fam {
		case famNumeric:
			s := arr.(*array.String).Value(i)
			d, _, err := apd.NewFromString(s)
			if err != nil {
				return k, pgerr.New(pgerr.InternalError, "corrupt numeric %q in join key", s)
			}
			k.strs[i] = numericKey(d)
		case famInterval:
			v := arr.(*array.MonthDayNanoInterval).Value(i)
			k.strs[i] = intervalKey(v.Months, v.Days, v.Nanoseconds/1000)
		default:
			s := arr.(*array.String).Value(i)
			if t.ID == types.Char {
				s = strings.TrimRight(s, " ")
			}
			k.strs[i] = strings.Clone(s) // do not pin the batch's buffer
		}
	}
	return k, nil
}

func floatKey(f float64) int64 {
	switch {
	case f != f:
		return int64(math.Float64bits(math.NaN()))
	case f == 0:
		return 0
	}
	return int64(math.Float64bits(f))
}

func numericKey(d *apd.Decimal) string {
	if d.Form == apd.Finite && d.IsZero() {
		return "0"
	}
	var r apd.Decimal
	r.Reduce(d)
	return r.Text('E')
}

// intervalKey normalises like PostgreSQL's interval_cmp_value: a month is 30
// days and a day 24 hours, so '1 mon' = '30 days' = '720 hours'.
func intervalKey(months, days int32, micros int64) string {
	const day = 86400_000_000
	totalDays := int64(months)*30 + int64(days) + micros/day
	rem := micros % day
	if rem < 0 {
		rem += day
		totalDays--
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(totalDays))
	binary.BigEndian.PutUint64(b[8:], uint64(rem))
	return string(b[:])
}

// checkKeyTypes rejects key pairs whose types do not compare with each other.
func checkKeyTypes(left, right []plan.Expr) error {
	for i := range left {
		lf, rf := familyOf(left[i].Type()), familyOf(right[i].Type())
		if lf != rf {
			return pgerr.New(pgerr.InternalError, "hash join key %d compares incompatible types (%s and %s)", i+1, typeName(left[i].Type()), typeName(right[i].Type()))
		}
	}
	return nil
}

func typeName(t types.Type) string {
	names := map[types.ID]string{types.Unknown: "unknown", types.Bool: "boolean", types.Int2: "smallint", types.Int4: "integer",
		types.Int8: "bigint", types.Float4: "real", types.Float8: "double precision", types.Numeric: "numeric",
		types.Text: "text", types.Varchar: "character varying", types.Char: "character", types.Date: "date",
		types.Timestamp: "timestamp without time zone", types.TimestampTZ: "timestamp with time zone", types.Interval: "interval"}
	if n, ok := names[t.ID]; ok {
		return n
	}
	return fmt.Sprintf("type %d", t.ID)
}

// composite appends the encoding of the given columns of row i to buf. A
// NULL in a nulls-equal column encodes as a marker so NULL matches NULL.
func (kb *keyBatch) composite(buf []byte, cols []int, i int) []byte {
	for _, c := range cols {
		k := &kb.cols[c]
		if k.null(i) {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		if k.ints != nil {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(k.ints[i]))
		} else {
			buf = binary.AppendUvarint(buf, uint64(len(k.strs[i])))
			buf = append(buf, k.strs[i]...)
		}
	}
	return buf
}

// mayBeNull reports whether some row may be NULL in one of cols (false:
// anyNull is false for every row).
func (kb *keyBatch) mayBeNull(cols []int) bool {
	for _, c := range cols {
		if kb.cols[c].nulls != nil {
			return true
		}
	}
	return false
}

// anyNull reports whether row i is NULL in one of cols, ignoring columns
// whose NULLs compare equal.
func (kb *keyBatch) anyNull(cols []int, nullsEq []bool, i int) bool {
	for _, c := range cols {
		if kb.cols[c].null(i) && !nullsEq[c] {
			return true
		}
	}
	return false
}
