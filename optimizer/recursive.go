package optimizer

import "github.com/joind/joind/sql/plan"

// recursiveRowsFactor is the guess of how many times a recursive query's
// non-recursive rows it produces in all (the iteration count is unknown).
const recursiveRowsFactor = 10

// planRecursive plans a WITH RECURSIVE query (plan.RecursiveUnion) and the
// working-table scan inside its recursive term. The union runs as one
// partition over both terms gathered: each iteration reads the previous
// one's rows whole, and the recursive term is planned once here — the
// executor builds its operators again per iteration, never replanning.
func planRecursive(p *Physical) {
	switch p.Logical.(type) {
	case *plan.RecursiveUnion:
		p.Op = OpRecursiveUnion
		p.Rows = p.Inputs[0].Rows * recursiveRowsFactor
		p.Inputs[0] = gather(p.Inputs[0])
		p.Inputs[1] = gather(p.Inputs[1])
	case *plan.WorkTableScan:
		p.Op = OpWorkTableScan
		p.Rows = 100
	case *plan.StatementRows:
		// A data-modifying WITH query's RETURNING rows (sql.ModifyingWith).
		p.Op = OpStatementRows
		p.Rows = 1000
	}
}

// Reopenable reports whether the operators of p may be opened again, one
// run after another, and give a fresh run each time: only streaming
// operators that keep no state between runs. A recursive term made of them
// (the usual WorkTable Scan under filters and projections) is built once
// for all iterations; any other is built again per iteration.
func Reopenable(p *Physical) bool {
	switch p.Op {
	case OpWorkTableScan, OpFilter, OpProject, OpValues, OpAppend:
	default:
		return false
	}
	for _, in := range p.Inputs {
		if !Reopenable(in) {
			return false
		}
	}
	return true
}
