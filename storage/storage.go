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
}
