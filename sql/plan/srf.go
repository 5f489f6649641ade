package plan

import (
	"fmt"
	"strings"

	"github.com/joind/joind/types"
)

// SetFunc is one call of a set-returning function (generate_series): its
// resolved overload and arguments, already cast to the overload's types.
type SetFunc struct {
	Func *types.Overload
	Args []Expr
}

// FunctionScan is FROM f(...) or ROWS FROM (f(...), g(...)) [WITH
// ORDINALITY]: the functions run side by side, row i of the scan holding
// each one's i-th value (NULL once a function is exhausted) until all are
// exhausted. Cols holds one column per function, then the int8 ordinality
// column when Ordinality is set.
type FunctionScan struct {
	Funcs      []SetFunc
	Ordinality bool
	Alias      string // the FROM item's name: its alias, else the first function's name
	Cols       []Column
}

// ProjectSet is PostgreSQL's ProjectSet: for each input row it evaluates
// the set-returning functions of a SELECT list over that row, in lockstep
// as FunctionScan's do, and emits the input row once per result row with
// the functions' values appended (FuncCols, one per function), then Exprs'
// (ExprCols): the list's computed expressions that read no function, which
// PostgreSQL evaluates on every step, the last one too (every function
// exhausted, no row emitted), so volatile ones (nextval) run once more per
// input row and errors arise even for a row that yields nothing.
type ProjectSet struct {
	Input    Node
	Funcs    []SetFunc
	FuncCols []Column
	Exprs    []Expr
	ExprCols []Column
}

// Name is the function's lower-case name, as EXPLAIN prints it.
func (f SetFunc) Name() string { return f.Func.Name }

func (n *FunctionScan) Columns() []Column { return n.Cols }
func (n *ProjectSet) Columns() []Column {
	in := n.Input.Columns()
	return append(append(in[:len(in):len(in)], n.FuncCols...), n.ExprCols...)
}

func (n *FunctionScan) Children() []Node         { return nil }
func (n *ProjectSet) Children() []Node           { return []Node{n.Input} }
func (n *FunctionScan) WithChildren([]Node) Node { return n }
func (n *ProjectSet) WithChildren(k []Node) Node { c := *n; c.Input = k[0]; return &c }
func (n *FunctionScan) Expressions() []Expr      { return setFuncArgs(n.Funcs) }
func (n *ProjectSet) Expressions() []Expr {
	return append(setFuncArgs(n.Funcs), n.Exprs...)
}
func (n *FunctionScan) WithExpressions(k []Expr) Node {
	c := *n
	c.Funcs = withSetFuncArgs(n.Funcs, k)
	return &c
}
func (n *ProjectSet) WithExpressions(k []Expr) Node {
	c := *n
	split := len(k) - len(n.Exprs)
	c.Funcs = withSetFuncArgs(n.Funcs, k[:split])
	if len(n.Exprs) > 0 {
		c.Exprs = k[split:len(k):len(k)]
	}
	return &c
}

// setFuncArgs lists the arguments of every function, one after another.
func setFuncArgs(fs []SetFunc) []Expr {
	var out []Expr
	for _, f := range fs {
		out = append(out, f.Args...)
	}
	return out
}

// withSetFuncArgs is fs over the arguments k, in setFuncArgs' order.
func withSetFuncArgs(fs []SetFunc, k []Expr) []SetFunc {
	out := make([]SetFunc, len(fs))
	for i, f := range fs {
		out[i] = SetFunc{Func: f.Func, Args: k[:len(f.Args):len(f.Args)]}
		k = k[len(f.Args):]
	}
	return out
}

func (f *treeFormatter) setFuncs(fs []SetFunc) string {
	parts := make([]string, len(fs))
	for i, sf := range fs {
		parts[i] = fmt.Sprintf("%s(%s)", sf.Name(), f.exprs(sf.Args))
	}
	return strings.Join(parts, ", ")
}
