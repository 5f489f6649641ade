package pgregress

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Outcome is what one server answered to one statement.
type Outcome struct {
	Err     *pgconn.PgError // the server's error, nil on success
	Lost    error           // the connection broke or the statement timed out
	Tag     string
	Columns int
	Names   []string   // column names
	Rows    [][]string // text values; "\x00NULL" for NULL
}

const nullText = "\x00NULL"

// Run executes one step on conn through the simple query protocol.
func Run(ctx context.Context, conn *pgconn.PgConn, st Step) Outcome {
	if st.CopyData != nil {
		tag, err := conn.CopyFrom(ctx, strings.NewReader(*st.CopyData), st.SQL)
		return outcome(tag.String(), 0, nil, err)
	}
	results, err := conn.Exec(ctx, st.SQL).ReadAll()
	if err != nil || len(results) == 0 {
		return outcome("", 0, nil, err)
	}
	r := results[len(results)-1]
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = make([]string, len(row))
		for j, v := range row {
			if v == nil {
				rows[i][j] = nullText
			} else {
				rows[i][j] = string(v)
			}
		}
	}
	o := outcome(r.CommandTag.String(), len(r.FieldDescriptions), rows, r.Err)
	for _, f := range r.FieldDescriptions {
		o.Names = append(o.Names, f.Name)
	}
	return o
}

func outcome(tag string, cols int, rows [][]string, err error) Outcome {
	o := Outcome{Tag: tag, Columns: cols, Rows: rows}
	var pe *pgconn.PgError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		o.Err = pe
	default:
		o.Lost = err
	}
	return o
}

// Class is how a statement's two outcomes compare.
type Class int

const (
	Agree       Class = iota
	RowsDiffer        // both succeeded with different rows or tags
	JoindError        // joind failed where PostgreSQL succeeded
	PgError           // PostgreSQL failed where joind succeeded
	ErrorDiffer       // both failed, with different SQLSTATEs
	Hang              // joind did not answer within the statement timeout
	Crash             // joind's connection or process died
	numClasses
)

var classNames = [...]string{"agree", "rows differ", "joind error", "pg error", "error differs", "hang", "crash"}

func (c Class) String() string { return classNames[c] }

// Classify compares joind's outcome with PostgreSQL's for statement sql.
// Rows compare in order when the statement's top level has ORDER BY, as a
// multiset otherwise.
func Classify(sql string, joind, pg Outcome) Class {
	switch {
	case joind.Lost != nil && errors.Is(joind.Lost, context.DeadlineExceeded):
		return Hang
	case joind.Lost != nil:
		return Crash
	case pg.Lost != nil:
		// PostgreSQL itself timed out: count it as a PostgreSQL failure.
		if joind.Err != nil {
			return Agree
		}
		return PgError
	case joind.Err != nil && pg.Err != nil:
		if joind.Err.Code == pg.Err.Code {
			return Agree
		}
		return ErrorDiffer
	case joind.Err != nil:
		return JoindError
	case pg.Err != nil:
		return PgError
	}
	if joind.Tag != pg.Tag || joind.Columns != pg.Columns || len(joind.Rows) != len(pg.Rows) {
		return RowsDiffer
	}
	a, b := joind.Rows, pg.Rows
	if !Ordered(sql) {
		a, b = sorted(a), sorted(b)
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return RowsDiffer
		}
	}
	return Agree
}

func sorted(rows [][]string) [][]string {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(x, y []string) int { return slices.Compare(x, y) })
	return out
}

// Ordered reports whether a statement's result order is fixed: a SELECT
// (or VALUES, or set operation) whose top level has ORDER BY.
func Ordered(sql string) bool {
	tree, err := pg_query.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return false
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	return sel != nil && len(sel.SortClause) > 0
}

// Excluded reports statements left out of the agreement count: EXPLAIN
// output is each server's own plan.
func Excluded(sql string) bool {
	tree, err := pg_query.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return false
	}
	return tree.Stmts[0].Stmt.GetExplainStmt() != nil
}

// Feature names a joind failure for the "top missing features" list.
func Feature(o Outcome) string {
	if o.Err == nil {
		return ""
	}
	msg := o.Err.Message
	return fmt.Sprintf("%s %s", o.Err.Code, msg)
}
