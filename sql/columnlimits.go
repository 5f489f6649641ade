package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
)

// PostgreSQL's column limits: a target list holds at most
// MaxTupleAttributeNumber (1664) entries, a table at most
// MaxHeapAttributeNumber (1600) columns; both are 54011. Without them a
// result past 65,535 columns cannot even be described on the wire (the
// RowDescription count is 16 bits).
const (
	maxTargetListEntries = 1664
	maxTableColumns      = 1600
)

const tooManyColumns = "54011"

func errTooManyTargets() error {
	return pgerr.New(tooManyColumns, "target lists can have at most %d entries", maxTargetListEntries)
}

func errTooManyTableColumns() error {
	return pgerr.New(tooManyColumns, "tables can have at most %d columns", maxTableColumns)
}

// checkTableColumnCount is MergeAttributes' limit on CREATE TABLE's column
// definitions.
func checkTableColumnCount(elts []*pg_query.Node) error {
	n := 0
	for _, el := range elts {
		if el.GetColumnDef() != nil {
			n++
		}
	}
	if n > maxTableColumns {
		return errTooManyTableColumns()
	}
	return nil
}
