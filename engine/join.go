package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
)

type arrowRecord = arrow.Record

// buildJoin builds a hash or nested-loop join from the optimizer's choice.
func (b *builder) buildJoin(p *optimizer.Physical, left, right operators.Operator) (operators.Operator, error) {
	return nil, pgerr.New(pgerr.FeatureNotSupported, "joins are not wired yet")
}

// joinNote is the EXPLAIN annotation a join adds at run time (its kernel).
func joinNote(p *optimizer.Physical) string { return "" }
