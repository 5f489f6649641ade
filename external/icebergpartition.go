package external

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Iceberg partition transforms: the partition_by option of a table joind
// creates names them (ParsePartitionBy), iceberg-go's writers fan rows
// out by them, and a scan skips the data files whose partition value
// proves a filter false (ExcludedUnits): each skip test is projected
// through the transforms of its column as the Iceberg spec's inclusive
// projection does (iceberg-go's Transform.Project: a bucket keeps only
// equality, the order-preserving transforms keep ranges) and evaluated
// on the file's partition tuple.

// PartitionTerm is one partition field of partition_by: a transform of a
// column.
type PartitionTerm struct {
	Column    string
	Transform iceberg.Transform
}

// ParsePartitionBy parses the partition_by option: comma-separated terms,
// each a column (identity), bucket(N, col), truncate(W, col), or
// year(col), month(col), day(col), hour(col) (Spark's plural names
// years/months/days/hours too). Column names fold to lower case unless
// double-quoted, as SQL identifiers do.
func ParsePartitionBy(s string) ([]PartitionTerm, error) {
	var out []PartitionTerm
	for _, item := range splitTopLevel(s) {
		item = strings.TrimSpace(item)
		bad := pgerr.New(pgerr.InvalidParameterValue, "invalid partition_by term \"%s\"", item).
			WithHint("Write a column, bucket(N, column), truncate(W, column), year(column), month(column), day(column) or hour(column).")
		open := strings.IndexByte(item, '(')
		if open < 0 {
			col, ok := partitionColumn(item)
			if !ok {
				return nil, bad
			}
			out = append(out, PartitionTerm{Column: col, Transform: iceberg.IdentityTransform{}})
			continue
		}
		if !strings.HasSuffix(item, ")") {
			return nil, bad
		}
		fn := strings.ToLower(strings.TrimSpace(item[:open]))
		args := strings.Split(item[open+1:len(item)-1], ",")
		var tr iceberg.Transform
		switch fn {
		case "identity":
			tr = iceberg.IdentityTransform{}
		case "year", "years":
			tr = iceberg.YearTransform{}
		case "month", "months":
			tr = iceberg.MonthTransform{}
		case "day", "days":
			tr = iceberg.DayTransform{}
		case "hour", "hours":
			tr = iceberg.HourTransform{}
		case "bucket", "truncate":
			if len(args) != 2 {
				return nil, bad
			}
			n, err := strconv.Atoi(strings.TrimSpace(args[0]))
			if err != nil || n <= 0 || n > math.MaxInt32 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid partition_by term \"%s\": the width must be a positive integer", item)
			}
			if fn == "bucket" {
				tr = iceberg.BucketTransform{NumBuckets: n}
			} else {
				tr = iceberg.TruncateTransform{Width: n}
			}
			args = args[1:]
		default:
			return nil, bad
		}
		if len(args) != 1 {
			return nil, bad
		}
		col, ok := partitionColumn(args[0])
		if !ok {
			return nil, bad
		}
		out = append(out, PartitionTerm{Column: col, Transform: tr})
	}
	return out, nil
}

// splitTopLevel splits s at the commas outside parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// partitionColumn is an identifier of partition_by: folded to lower case,
// or as written between double quotes.
func partitionColumn(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`), len(s) > 2
	}
	if s == "" || strings.ContainsAny(s, " \t\n\"()") {
		return "", false
	}
	return strings.ToLower(s), true
}

// partitionSpec is the spec of terms over the fields of a new table's
// schema, the partition fields named as Iceberg's writers name them
// (col, col_bucket, col_trunc, col_year, ...).
func partitionSpec(terms []PartitionTerm, cols []storage.ColumnDef, fields []iceberg.NestedField) (iceberg.PartitionSpec, error) {
	var pfs []iceberg.PartitionField
	names := map[string]bool{}
	for _, pt := range terms {
		k := -1
		for i, c := range cols {
			if c.Name == pt.Column {
				k = i
			}
		}
		if k < 0 {
			return iceberg.PartitionSpec{}, pgerr.New(pgerr.UndefinedColumn, "partition column \"%s\" is not a column of the table", pt.Column)
		}
		if !pt.Transform.CanTransform(fields[k].Type) {
			return iceberg.PartitionSpec{}, pgerr.New(pgerr.FeatureNotSupported, "partition transform %s cannot be applied to column \"%s\" of type %s", pt.Transform, pt.Column, cols[k].Type.SQLName())
		}
		name := pt.Column
		switch tr := pt.Transform.(type) {
		case iceberg.BucketTransform:
			name += "_bucket"
		case iceberg.TruncateTransform:
			name += "_trunc"
		case iceberg.IdentityTransform:
		default:
			name += "_" + tr.String()
		}
		if names[name] {
			return iceberg.PartitionSpec{}, pgerr.New(pgerr.InvalidParameterValue, "partition_by names %s of column \"%s\" twice", pt.Transform, pt.Column)
		}
		names[name] = true
		pfs = append(pfs, iceberg.PartitionField{SourceIDs: []int{fields[k].ID}, FieldID: 1000 + len(pfs), Name: name, Transform: pt.Transform})
	}
	return iceberg.NewPartitionSpec(pfs...), nil
}

// ExcludedUnits implements storage.UnitPruner: a data file is excluded
// when its partition tuple fails the tests' inclusive projection onto its
// partition spec.
func (t *IcebergTable) ExcludedUnits(tests []storage.UnitTest) []bool {
	out := make([]bool, len(t.tasks))
	type specEval struct {
		eval func(iceberg.StructLike) (bool, error)
		typ  *iceberg.StructType
	}
	evals := map[int32]*specEval{}
	for i, task := range t.tasks {
		id := task.File.SpecID()
		ev, seen := evals[id]
		if !seen {
			if fn, typ := t.partitionFilter(int(id), tests); fn != nil {
				ev = &specEval{fn, typ}
			}
			evals[id] = ev
		}
		if ev == nil {
			continue
		}
		match, err := ev.eval(table.GetPartitionRecord(task.File, ev.typ))
		out[i] = err == nil && !match
	}
	return out
}

// partitionFilter is the tests projected onto partition spec specID, as
// an evaluator of partition tuples of type typ (nil: nothing to test).
func (t *IcebergTable) partitionFilter(specID int, tests []storage.UnitTest) (func(iceberg.StructLike) (bool, error), *iceberg.StructType) {
	spec := t.tbl.Metadata().PartitionSpecByID(specID)
	if spec == nil || spec.IsUnpartitioned() {
		return nil, nil
	}
	for _, pf := range spec.Fields() {
		if _, ok := t.schema.FindFieldByID(pf.SourceID()); !ok {
			return nil, nil // a source column since dropped: no projection
		}
	}
	var preds []iceberg.BooleanExpression
	for _, ut := range tests {
		if ut.Ordinal >= len(t.fields) {
			continue
		}
		f := t.fields[ut.Ordinal]
		bound, ok := boundTest(t.schema, f, ut)
		if !ok {
			continue
		}
		for _, pf := range spec.FieldsBySourceID(f.ID) {
			p, err := pf.Transform.Project(pf.Name, bound)
			if err == nil && p != nil {
				preds = append(preds, p)
			}
		}
	}
	if len(preds) == 0 {
		return nil, nil
	}
	expr := preds[0]
	if len(preds) > 1 {
		expr = iceberg.NewAnd(preds[0], preds[1], preds[2:]...)
	}
	typ := spec.PartitionType(t.schema)
	fn, err := iceberg.ExpressionEvaluator(iceberg.NewSchema(0, typ.FieldList...), expr, true)
	if err != nil {
		return nil, nil
	}
	return fn, typ
}

// boundTest is test ut on field f as an Iceberg predicate bound to sc
// (false: a value Iceberg's type of f cannot hold, or a type joind does
// not test).
func boundTest(sc *iceberg.Schema, f iceberg.NestedField, ut storage.UnitTest) (iceberg.BoundPredicate, bool) {
	ref := iceberg.Reference(f.Name)
	var pred iceberg.UnboundPredicate
	if ut.Op == "" {
		if ut.IsNull {
			pred = iceberg.IsNull(ref)
		} else {
			pred = iceberg.NotNull(ref)
		}
	} else {
		lit, ok := icebergLiteral(f.Type, ut.Value)
		if !ok {
			return nil, false
		}
		ops := map[string]iceberg.Operation{"=": iceberg.OpEQ, "<": iceberg.OpLT, "<=": iceberg.OpLTEQ, ">": iceberg.OpGT, ">=": iceberg.OpGTEQ}
		op, ok := ops[ut.Op]
		if !ok {
			return nil, false
		}
		pred = iceberg.LiteralPredicate(op, ref, lit)
	}
	b, err := pred.Bind(sc, true)
	if err != nil {
		return nil, false
	}
	bp, ok := b.(iceberg.BoundPredicate)
	return bp, ok
}

// icebergLiteral is joind value v as a literal of Iceberg type typ.
func icebergLiteral(typ iceberg.Type, v types.Value) (iceberg.Literal, bool) {
	switch typ.(type) {
	case iceberg.Int32Type:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return nil, false
		}
		return iceberg.NewLiteral(int32(v.I)), true
	case iceberg.Int64Type:
		return iceberg.NewLiteral(v.I), true
	case iceberg.DateType:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return nil, false
		}
		return iceberg.NewLiteral(iceberg.Date(v.I)), true
	case iceberg.TimestampType, iceberg.TimestampTzType:
		return iceberg.NewLiteral(iceberg.Timestamp(v.I)), true
	case iceberg.StringType:
		return iceberg.NewLiteral(v.S), true
	}
	return nil, false
}
