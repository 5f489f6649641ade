package pgcatalog

import (
	"strings"
	"time"

	"github.com/joind/joind/types"
)

// pg_cursors and pg_prepared_statements are views of the session's open
// cursors and prepared statements, which the engine keeps (Env.Objects).

// CursorInfo is one open cursor, as pg_cursors shows it.
type CursorInfo struct {
	Name, Statement              string
	Holdable, Binary, Scrollable bool
	Created                      time.Time
}

// PreparedInfo is one prepared statement, as pg_prepared_statements
// shows it.
type PreparedInfo struct {
	Name, Statement string
	Prepared        time.Time
	ParamTypes      []types.Type
	FromSQL         bool
}

// SessionObjects lists a session's cursors and prepared statements.
type SessionObjects interface {
	Cursors() []CursorInfo
	PreparedStatements() []PreparedInfo
}

// pgTime is t as a column tagged timestamptz holds it: a timestamptz
// value, microseconds since 1970-01-01 UTC (types.Value's layout).
func pgTime(t time.Time) int64 { return t.UnixMicro() }

func declarePgCursors() {
	declare(pc, "pg_cursors", 12077, 'v', func(s *Snapshot) []pgCursorsRow {
		if s.env.Objects == nil {
			return nil
		}
		var out []pgCursorsRow
		for _, c := range s.env.Objects.Cursors() {
			out = append(out, pgCursorsRow{Name: c.Name, Statement: c.Statement, IsHoldable: c.Holdable,
				IsBinary: c.Binary, IsScrollable: c.Scrollable, CreationTime: pgTime(c.Created)})
		}
		return out
	})
	declare(pc, "pg_prepared_statements", 12095, 'v', func(s *Snapshot) []pgPreparedStatementsRow {
		if s.env.Objects == nil {
			return nil
		}
		var out []pgPreparedStatementsRow
		for _, p := range s.env.Objects.PreparedStatements() {
			names := make([]string, len(p.ParamTypes))
			for i, t := range p.ParamTypes {
				names[i] = arrayElem(FormatType(t.OID(), -1, true))
			}
			out = append(out, pgPreparedStatementsRow{Name: p.Name, Statement: p.Statement, PrepareTime: pgTime(p.Prepared),
				ParameterTypes: "{" + strings.Join(names, ",") + "}", FromSQL: p.FromSQL})
		}
		return out
	})
}

// arrayElem quotes an array element as PostgreSQL's array output does
// when it holds a space, a delimiter, a quote or a backslash, or is empty
// or NULL.
func arrayElem(v string) string {
	if v != "" && !strings.EqualFold(v, "NULL") && !strings.ContainsAny(v, " \t\n\r\v\f{},\"\\") {
		return v
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// pgCursorsRow is a row of pg_catalog.pg_cursors.
type pgCursorsRow struct {
	Name         string `pg:"name"`
	Statement    string `pg:"statement"`
	IsHoldable   bool   `pg:"is_holdable"`
	IsBinary     bool   `pg:"is_binary"`
	IsScrollable bool   `pg:"is_scrollable"`
	CreationTime int64  `pg:"creation_time" type:"timestamptz"`
}

// pgPreparedStatementsRow is a row of pg_catalog.pg_prepared_statements
// (parameter_types is regtype[] in PostgreSQL; catalog arrays are text
// here, arrays.go).
type pgPreparedStatementsRow struct {
	Name           string `pg:"name"`
	Statement      string `pg:"statement"`
	PrepareTime    int64  `pg:"prepare_time" type:"timestamptz"`
	ParameterTypes string `pg:"parameter_types"`
	FromSQL        bool   `pg:"from_sql"`
	GenericPlans   int64  `pg:"generic_plans"`
	CustomPlans    int64  `pg:"custom_plans"`
}
