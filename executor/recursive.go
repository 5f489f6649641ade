package executor

import (
	"github.com/joind/joind/operators"
	"github.com/joind/joind/operators/join"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// buildRecursiveUnion builds a WITH RECURSIVE query: the non-recursive term
// once, and the recursive term once when its operators can be reopened per
// iteration, else from its one physical plan again for every iteration;
// its WorkTable Scans read the union's working table.
func (b *builder) buildRecursiveUnion(p *optimizer.Physical) (operators.Operator, error) {
	x := p.Logical.(*plan.RecursiveUnion)
	nonRec, err := b.build(p.Inputs[0])
	if err != nil {
		return nil, err
	}
	wt := &operators.WorkTable{}
	rb := *b
	rb.workTables = map[*plan.WorkTable]*operators.WorkTable{x.WorkTable: wt}
	for k, v := range b.workTables {
		rb.workTables[k] = v
	}
	// Built now, so a plan error surfaces before any row is returned.
	term, err := rb.build(p.Inputs[1])
	if err != nil {
		return nil, err
	}
	// Later builds run during execution, on the goroutine reading this
	// union, so they record nothing in the maps the statement's other
	// builders share (EXPLAIN's notes keep the first build's).
	ib := rb
	ib.inst, ib.joins = nil, map[*optimizer.Physical]*join.HashJoin{}
	recursive := func() (operators.Operator, error) { return ib.build(p.Inputs[1]) }
	if optimizer.Reopenable(p.Inputs[1]) {
		recursive = func() (operators.Operator, error) { return term, nil }
	}
	return operators.NewRecursiveUnion(nonRec, recursive, wt, x.All, x.Cols, x.SearchCycle, b.env)
}

// buildWorkTableScan reads the working table of the recursive union whose
// recursive term p is in.
func (b *builder) buildWorkTableScan(p *optimizer.Physical) (operators.Operator, error) {
	x := p.Logical.(*plan.WorkTableScan)
	wt, ok := b.workTables[x.WorkTable]
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "executor: WorkTable Scan on %s outside its recursive union", x.WorkTable.Name)
	}
	return operators.NewWorkTableScan(wt, x.Cols), nil
}
