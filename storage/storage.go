package storage

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/types"
)

// ColumnDef is one column of a table's schema.
type ColumnDef struct {
	Name    string
	Type    types.Type
	NotNull bool
	// Default is the column's DEFAULT expression as SQL text ("" = none); the
	// binder parses and binds it when an INSERT omits the column.
	Default string
}

// Stats are the planner's estimates for a table.
type Stats struct {
	Rows int64
	// Distinct is the estimated number of distinct non-NULL values of each
	// column, by ordinal (nil when the table does not keep sketches). The
	// estimate is exact below 64 distinct values and within ~15% above.
	Distinct []int64
	// Nulls is the number of NULLs of each column, by ordinal (nil = unknown).
	Nulls []int64
	// Bounds are each column's bounds over all rows, by ordinal (nil =
	// unknown): HasMinMax only when every segment kept its bounds. They
	// are exact (the segments' are); Nulls is left zero here.
	Bounds []ColumnStats
}

// Table is a columnar table. Batches use the Arrow types of types.Type.ArrowType
// and are immutable once returned: readers may keep them.
type Table interface {
	Name() string
	Columns() []ColumnDef
	// Snapshot returns the table's committed batches as of now; later writes
	// do not change the returned slice.
	Snapshot() []arrow.Record
	Stats() Stats
}

// Catalog maps names to tables. Names are already case-folded by the caller.
type Catalog interface {
	Lookup(name string) (Table, bool)
	Tables() []Table
	// Create adds an empty table; it fails with 42P07 if the name is taken.
	Create(ctx context.Context, name string, cols []ColumnDef) (Table, error)
	// Drop removes a table; it fails with 42P01 if there is none.
	Drop(ctx context.Context, name string) error
	// Append adds rows (one batch per call, schema of the table) atomically.
	Append(ctx context.Context, t Table, batch arrow.Record) error
	// Truncate removes all rows of the listed tables atomically.
	Truncate(ctx context.Context, tables []Table) error
	// Delete removes the rows ids (read from a scan's RowID column in this
	// transaction) of t; see Txn.Delete for locking and concurrency.
	Delete(ctx context.Context, t Table, ids []RowID) error

	// LookupView finds a view by name.
	LookupView(name string) (View, bool)
	// Views lists the views by name (for dependency checks).
	Views() []View
	// CreateView adds a view, or replaces the view of that name when
	// replace is set; it fails with 42P07 if a table (or, without replace,
	// a view) has the name.
	CreateView(ctx context.Context, v View, replace bool) error
	// DropView removes a view; it fails with 42P01 if there is none.
	DropView(ctx context.Context, name string) error
}

// View is a stored view: a query kept as SQL text and bound afresh at each
// use (like a WITH query), its output column names, and the relations it
// reads (so dropping one of them can be refused or cascade). Tables and
// views share one namespace.
type View struct {
	Name    string
	SQL     string   // the defining SELECT
	Columns []string // output column names, in order
	Deps    []string // names of the tables and views the query reads
	// ID orders views by creation (set by the catalog; kept by OR REPLACE),
	// the order PostgreSQL lists dependent objects in.
	ID uint64
}

// ColumnStats summarise one column of one segment.
type ColumnStats struct {
	// Nulls is the number of NULLs in the segment.
	Nulls int64
	// HasMinMax is false when every value is NULL or the bounds were not
	// kept (strings longer than MaxStatBytes).
	HasMinMax bool
	// Min and Max bound the non-NULL values under types.Compare for the
	// column's type (floats: NaN is the greatest value, as in PostgreSQL).
	Min, Max types.Value
}

// MaxStatBytes is the longest string (or numeric text) kept as a bound.
const MaxStatBytes = 128

// Segment is an immutable run of a table's rows with its statistics.
type Segment struct {
	// ID names the segment in RowIDs (MakeRowID(ID, offset)).
	ID uint64
	// Rows is the number of rows written, deleted ones included; the
	// statistics cover them all (so they may be wider than the live rows).
	Rows    int64
	Columns []ColumnStats // by column ordinal
	// Records are the segment's batches, deleted rows included (a row's
	// offset is its position in their concatenation); without the rows
	// Deletes names, concatenated over all segments in order, they equal
	// Table.Snapshot(). A reader must skip the deleted rows.
	Records []arrow.Record
	// Deletes is the deleted rows of this snapshot (nil: none).
	Deletes *DeleteVector
}

// Deleted reports whether row offset off of the segment is deleted.
func (s Segment) Deleted(off int64) bool { return s.Deletes.Deleted(off) }

// Live is the number of rows not deleted.
func (s Segment) Live() int64 { return s.Rows - s.Deletes.Count() }

// Segmented is implemented by tables that keep per-segment statistics (the
// durable tables of DB). A filter can skip a segment whose bounds exclude
// every row, e.g. for `c > 10` every segment with Columns[c].HasMinMax &&
// types.Compare(Max, 10) <= 0 and, for any predicate that is false on NULL,
// segments with Nulls == Rows:
//
//	if st, ok := tbl.(storage.Segmented); ok {
//		for _, seg := range st.Segments() { ... seg.Columns[ord] ... seg.Records ... }
//	}
//
// Segments is one consistent snapshot (the same rows as Snapshot at that
// moment); uncommitted rows of the caller's transaction come last as a
// segment with exact statistics.
type Segmented interface {
	Table
	Segments() []Segment
}

// SegmentRower is implemented by Segmented tables that can give their
// segments without the statistics (Columns nil), for a reader that only
// needs the rows: no per-call statistics over a transaction's pending rows.
type SegmentRower interface {
	SegmentRows() []Segment
}
