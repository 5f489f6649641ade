package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
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
	if x := c.s.explaining; x != nil && x.source == q {
		return c.s.collectExplained(ctx, q, c.ectx) // explaindml.go
	}
	return c.s.collect(ctx, q, c.ectx)
}

func (c *command) Format() *types.Format { return c.s.format() }

func (c *command) Notice(n *pgerr.Error) error { return c.w.Notice(n) }

func (c *command) Sequences() *commands.SeqState { return c.s.seqs }

func (c *command) RowMoves(t storage.Table) func(from, to []storage.RowID) { return c.s.rowMoves(t) }

// readOnlyErr refuses a statement that writes in a read-only transaction
// (transaction_read_only on); commands.ReadOnlyErr says which do.
func (s *session) readOnlyErr(st sql.Statement) error {
	if s.settings.Get("transaction_read_only") != "on" {
		return nil
	}
	return commands.ReadOnlyErr(s.cur, st)
}

// SendRows sends a command's result rows (RETURNING): a RowDescription,
// then each row in the portal's result formats (text for a simple Query).
func (c *command) SendRows(cols []plan.Column, recs []arrow.Record) error {
	if err := c.w.Describe(describe(cols)); err != nil {
		return err
	}
	enc := newRowEncoder(cols, c.s.resultFormats, c.s.format())
	for _, rec := range recs {
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := c.w.Row(enc.Encode(rec, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
