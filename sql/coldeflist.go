package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
)

// checkColumnDefinitionLists makes PostgreSQL's checks of the column
// definition lists of a FROM function (f(...) AS t(a int, ...), or one per
// function inside ROWS FROM), after its arguments are bound as
// transformRangeFunction does. A list is only allowed for a function
// returning "record"; of joind's, json[b]_to_record[set] do (their lists
// are bound by bindJSONToRecord, jsonrecord.go), so every other list that
// passes the shape checks is PostgreSQL's 42601 of addRangeTableEntryForFunction
// (another message for a function with OUT parameters, outParams).
func (b *binder) checkColumnDefinitionLists(rf *pg_query.RangeFunction, outParams bool) error {
	notRecord := func(loc int32) error {
		if outParams {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "a column definition list is redundant for a function with OUT parameters"), loc)
		}
		return b.errAt(pgerr.New(pgerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\""), loc)
	}
	if len(rf.Coldeflist) > 0 {
		loc := nodeLocation(rf.Coldeflist[0])
		if len(rf.Functions) != 1 {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "ROWS FROM() with multiple functions cannot have a column definition list").
				WithHint("Put a separate column definition list for each function inside ROWS FROM()."), loc)
		}
		if rf.Ordinality {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
				WithHint("Put the column definition list inside ROWS FROM()."), loc)
		}
		return notRecord(loc)
	}
	for _, fn := range rf.Functions {
		if fl := fn.GetList().GetItems(); len(fl) > 1 {
			if defs := fl[1].GetList().GetItems(); len(defs) > 0 {
				return notRecord(nodeLocation(defs[0]))
			}
		}
	}
	return nil
}
