package optimizer

import "github.com/joind/joind/sql/plan"

// setRowsPerCall is the rows a set-returning call is estimated to yield,
// PostgreSQL's default prorows (1000).
const setRowsPerCall = 1000

// functionScanName is what EXPLAIN prints after "Function Scan on":
// PostgreSQL's function name, then the alias when it differs.
func functionScanName(x *plan.FunctionScan) string {
	name := x.Funcs[0].Name()
	if len(x.Funcs) > 1 {
		return x.Alias
	}
	if x.Alias != "" && x.Alias != name {
		return name + " " + x.Alias
	}
	return name
}

// pruneProjectSet keeps every function of x (each decides how many rows
// an input row yields) and of its input the columns needed above or read
// by the functions' arguments.
func pruneProjectSet(x *plan.ProjectSet, need colSet) plan.Node {
	childNeed := colSet{}
	for _, c := range x.Input.Columns() {
		if need.has(c.ID) {
			childNeed.add(c.ID)
		}
	}
	for _, e := range x.Expressions() {
		addAll(childNeed, exprCols(e))
	}
	c := *x
	c.Input = prune(x.Input, childNeed)
	return &c
}
