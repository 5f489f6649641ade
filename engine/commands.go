package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// command is the session as package commands sees it while it runs one
// DDL/DML statement (commands.Session).
type command struct {
	s    *session
	ectx *types.EvalContext
	w    wire.ResultWriter
}

func (c *command) Catalog() *commands.Catalog { return c.s.cur }

func (c *command) Collect(ctx context.Context, q *sql.Query) ([]arrow.Record, error) {
	return c.s.collect(ctx, q, c.ectx)
}

func (c *command) Format() *types.Format { return c.s.format() }

func (c *command) Notice(n *pgerr.Error) error { return c.w.Notice(n) }

func (c *command) Sequences() *commands.SeqState { return c.s.seqs }

// readOnlyErr refuses a statement that writes in a read-only transaction
// (transaction_read_only on); commands.ReadOnlyErr says which do.
func (s *session) readOnlyErr(st sql.Statement) error {
	if s.settings.Get("transaction_read_only") != "on" {
		return nil
	}
	return commands.ReadOnlyErr(s.cur, st)
}
