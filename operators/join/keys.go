package join

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Join keys are in the not-distinct key encoding of operators/keys.go (the
// one aggregation, DISTINCT and set operations use), so "equal under the
// SQL equality operator" is "equal encodings". A family is the join's check
// that both sides' keys compare with each other.

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
	famTime
	famTimeTZ
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
	case types.Time:
		return famTime
	case types.TimeTZ:
		return famTimeTZ
	}
	return famText
}

// keyCol is one key column of a batch, encoded.
type keyCol = operators.KeyCol

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
		col, err := operators.EncodeKeys(arr, ke.typs[i])
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
		col, err := operators.EncodeKeys(cols[ke.pos[i]], ke.typs[i])
		if err != nil {
			return nil, err
		}
		kb.cols[i] = col
	}
	return kb, nil
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
		types.Timestamp: "timestamp without time zone", types.TimestampTZ: "timestamp with time zone", types.Interval: "interval", types.Name: "name",
		types.Time: "time without time zone", types.TimeTZ: "time with time zone"}
	if n, ok := names[t.ID]; ok {
		return n
	}
	return fmt.Sprintf("type %d", t.ID)
}

// hashes returns the hash of every row over cols (NULLs hash as a fixed
// value) into dst.
func (kb *keyBatch) hashes(cols []int, dst []uint64) []uint64 {
	return operators.HashKeys(kb.cols, cols, kb.n, dst)
}

// mayBeNull reports whether some row may be NULL in one of cols (false:
// anyNull is false for every row).
func (kb *keyBatch) mayBeNull(cols []int) bool {
	for _, c := range cols {
		if kb.cols[c].Nulls != nil {
			return true
		}
	}
	return false
}

// anyNull reports whether row i is NULL in one of cols, ignoring columns
// whose NULLs compare equal.
func (kb *keyBatch) anyNull(cols []int, nullsEq []bool, i int) bool {
	for _, c := range cols {
		if kb.cols[c].Null(i) && !nullsEq[c] {
			return true
		}
	}
	return false
}
