package storage

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// External is a read-only table whose rows live in a file joind does not
// own (read_parquet). Its rows come in units (a Parquet file's row groups)
// that a scan reads only when it gets to them, only for the columns it
// keeps, each unit by one scan partition; a unit whose statistics prove a
// filter excludes every row is never read.
type External interface {
	Table
	// Units describes the units in order: Rows and Columns (the
	// statistics) are set, Records and Deletes are not.
	Units() []Segment
	// Source names where the rows come from (the file's path), for EXPLAIN.
	Source() string
	// ReadUnit reads columns ordinals (in that order) of unit i.
	ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error)
}

// ExternalRowIDs is an External whose rows have RowIDs, so UPDATE and
// DELETE can name them (an Iceberg table's: unit and position in its data
// file). ReadUnitRowIDs is ReadUnit with one more column, last: each
// row's RowID as int8.
type ExternalRowIDs interface {
	External
	ReadUnitRowIDs(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error)
}

// UnitTest is one skip test of a scan: column Ordinal Op Value (Op one of
// "=", "<", "<=", ">", ">="; Value of Type's family, not NULL), or, with Op
// "", IS NULL (IsNull) or IS NOT NULL.
type UnitTest struct {
	Ordinal int
	Op      string
	Value   types.Value
	Type    types.Type
	IsNull  bool
}

// UnitPruner is an External that can exclude units on more than their
// statistics' bounds: an Iceberg data file by its partition (a bucket or
// a truncated value no bound expresses). ExcludedUnits reports, for each
// unit, whether the tests prove no row of it passes them all.
type UnitPruner interface {
	External
	ExcludedUnits(tests []UnitTest) []bool
}
