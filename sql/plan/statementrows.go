package plan

import "github.com/apache/arrow-go/v18/arrow"

// StatementRows is the RETURNING rows of a data-modifying statement in
// WITH, which runs before the statement that reads them: Recs is set when
// it has run (sql.ModifyingWith), and read when the reader is built.
type StatementRows struct {
	Name string
	Cols []Column
	Recs []arrow.Record
}

func (n *StatementRows) Columns() []Column           { return n.Cols }
func (n *StatementRows) Children() []Node            { return nil }
func (n *StatementRows) WithChildren([]Node) Node    { return n }
func (n *StatementRows) Expressions() []Expr         { return nil }
func (n *StatementRows) WithExpressions([]Expr) Node { return n }
