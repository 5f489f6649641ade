package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// runModifyingWith runs a statement with data-modifying WITH queries: each
// sub-statement once, in WITH order, its RETURNING rows kept for the main
// statement's CTE Scans instead of sent, then the main statement (its tag
// is the statement's). See sql.ModifyingWith for why their order cannot
// be observed.
func (s *session) runModifyingWith(ctx context.Context, x *sql.ModifyingWith, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	for _, sub := range x.Subs {
		if err := s.readOnlyErr(sub.Stmt); err != nil {
			return "", err
		}
	}
	// The sub-statements restart together after a concurrent update.
	_, _, err := s.restarting(ctx, func() (string, bool, error) {
		for _, sub := range x.Subs {
			c := &capturingCommand{command: command{s: s, ectx: ectx, w: w}}
			if _, ok, err := commands.Execute(ctx, c, sub.Stmt); err != nil || !ok {
				if err == nil {
					err = pgerr.New(pgerr.InternalError, "engine: WITH query %q is not a command", sub.Name)
				}
				return "", true, err
			}
			if sub.Rows != nil {
				sub.Rows.Recs = c.recs
			}
		}
		return "", true, nil
	})
	if err != nil {
		return "", err
	}
	defer func() {
		for _, sub := range x.Subs {
			if sub.Rows != nil {
				sub.Rows.Recs = nil
			}
		}
	}()
	return s.run(ctx, x.Main, ectx, w)
}

// capturingCommand is a command whose RETURNING rows are kept, not sent.
type capturingCommand struct {
	command
	recs []arrow.Record
}

func (c *capturingCommand) SendRows(_ []plan.Column, recs []arrow.Record) error {
	c.recs = append(c.recs, recs...)
	return nil
}
