package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// setRowsPerCall is the rows a set-returning call is estimated to yield
// when its arguments are not constants: PostgreSQL's prorows (1000).
const setRowsPerCall = 1000

// setRows estimates the rows of functions run in lockstep: the longest.
// An integer generate_series over constants yields a known count, as
// PostgreSQL's support function (generate_series_int4_support) computes.
func setRows(fs []plan.SetFunc) float64 {
	rows := 0.0
	for _, f := range fs {
		rows = max(rows, setCallRows(f))
	}
	return max(rows, 1)
}

func setCallRows(f plan.SetFunc) float64 {
	if t := f.Func.Result.ID; t != types.Int4 && t != types.Int8 {
		return setRowsPerCall
	}
	vals := make([]float64, 3)
	vals[2] = 1
	for i, a := range f.Args {
		c, ok := a.(*plan.Const)
		if !ok {
			return setRowsPerCall
		}
		if c.Val.Null {
			return 0
		}
		vals[i] = float64(c.Val.I)
	}
	if vals[2] == 0 {
		return setRowsPerCall
	}
	return max(0, (vals[1]-vals[0])/vals[2]+1)
}

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
