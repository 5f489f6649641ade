package operators

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Compiled is a scalar expression prepared for evaluation over batches whose
// columns are `input` (ColRefs resolve to positions there, or to env.Outer).
// A Compiled is safe for concurrent Eval calls from several partitions.
type Compiled struct {
	root node
	typ  types.Type
	env  *Env
}

// Compile prepares e for evaluation over batches with the given columns.
func Compile(e plan.Expr, input []plan.Column, env *Env) (*Compiled, error) {
	return compile(e, input, env, false)
}

func compile(e plan.Expr, input []plan.Column, env *Env, generic bool) (*Compiled, error) {
	if env == nil {
		env = &Env{}
	}
	pos := make(map[plan.ColumnID]int, len(input))
	for i, c := range input {
		if _, dup := pos[c.ID]; !dup {
			pos[c.ID] = i
		}
	}
	cp := &compiler{input: input, pos: pos, env: env, generic: generic}
	n, err := cp.compile(e)
	if err != nil {
		return nil, err
	}
	return &Compiled{root: n, typ: e.Type(), env: env}, nil
}

// CompileQual is Compile for a condition whose NULL rejects a row as FALSE
// does (WHERE, HAVING, a join's ON): like PostgreSQL's implicit-AND qual
// list, its top-level AND stops at the first argument that is not TRUE,
// so `nullif(a, 0) > 0 AND 10 / a > 1` never divides by zero. A rejected
// row's value may then be NULL where FALSE was due, which a qual cannot
// tell apart.
func CompileQual(e plan.Expr, input []plan.Column, env *Env) (*Compiled, error) {
	c, err := Compile(e, input, env)
	if err != nil {
		return nil, err
	}
	markQual(c.root)
	return c, nil
}

// markQual makes an AND at the top of a qual (and the ANDs directly under
// it) settle a row on NULL too.
func markQual(n node) {
	if l, ok := n.(*logicNode); ok && l.and {
		l.qual = true
		for _, a := range l.args {
			markQual(a)
		}
	}
}

// Type is the SQL type of the expression's values.
func (c *Compiled) Type() types.Type { return c.typ }

// Eval evaluates the expression for every row of rec, returning an array of
// rec.NumRows() values of the expression's Arrow type.
func (c *Compiled) Eval(ctx context.Context, rec arrow.Record) (arrow.Array, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	v, err := c.root.eval(&evalState{ctx: ctx, env: c.env}, newBatch(rec.Columns(), n))
	if err != nil {
		return nil, err
	}
	return v.materialize(c.typ, n), nil
}

// EvalColumns is Eval over bare columns of n rows (used by operators that
// assemble batches without a schema).
func (c *Compiled) EvalColumns(ctx context.Context, cols []arrow.Array, n int) (arrow.Array, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	v, err := c.root.eval(&evalState{ctx: ctx, env: c.env}, newBatch(cols, n))
	if err != nil {
		return nil, err
	}
	return v.materialize(c.typ, n), nil
}

// EvalConst evaluates an expression that reads no input columns (VALUES rows,
// LIMIT counts, function-scan arguments).
func (c *Compiled) EvalConst(ctx context.Context) (types.Value, error) {
	if err := checkCtx(ctx); err != nil {
		return types.NullValue, err
	}
	v, err := c.root.eval(&evalState{ctx: ctx, env: c.env}, newBatch(nil, 1))
	if err != nil {
		return types.NullValue, err
	}
	return v.get(c.typ, 0), nil
}

type evalState struct {
	ctx context.Context
	env *Env
}

// node is one compiled expression node. eval returns b.n rows (or a constant).
type node interface {
	eval(st *evalState, b *batch) (vec, error)
}

type compiler struct {
	input []plan.Column
	pos   map[plan.ColumnID]int
	env   *Env
	// generic compiles without any vectorized kernel: every call, cast,
	// IN list and conditional takes the row-by-row reference path (the
	// differential tests compare the two).
	generic bool
}

func (cp *compiler) compileAll(es []plan.Expr) ([]node, error) {
	out := make([]node, len(es))
	for i, e := range es {
		n, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func (cp *compiler) compile(e plan.Expr) (node, error) {
	switch e := e.(type) {
	case *plan.ColRef:
		if p, ok := cp.pos[e.ID]; ok {
			return &colNode{pos: p}, nil
		}
		if _, ok := cp.env.Outer[e.ID]; ok {
			return &outerNode{id: e.ID}, nil
		}
		return nil, pgerr.New(pgerr.InternalError, "operators: column %s (id %d) is not in the input", e.Name, e.ID)
	case *plan.Const:
		return &constNode{v: e.Val}, nil
	case *plan.Param:
		return &paramNode{idx: e.Index}, nil
	case *plan.Call:
		args, err := cp.compileAll(e.Args)
		if err != nil {
			return nil, err
		}
		if e.Func == nil || e.Func.Eval == nil {
			return nil, pgerr.New(pgerr.InternalError, "operators: call without an implementation")
		}
		return cp.newCallNode(e.Func, args), nil
	case *plan.Cast:
		in, err := cp.compile(e.Input)
		if err != nil {
			return nil, err
		}
		from := e.Input.Type()
		// A cast to an array of a domain checks each element: never the identity.
		if from == e.T || (from.ID == e.T.ID && from.Elem == e.T.Elem && e.T.Typmod == -1 && from.ID != types.Char && e.T.ElemDomain == 0) {
			return in, nil
		}
		n := &castNode{in: in, from: from, to: e.T, explicit: e.Explicit}
		if !cp.generic {
			n.kern = pickCast(from, e.T, e.Explicit, cp.env.Eval)
		}
		return n, nil
	case *plan.And:
		if n, err := cp.inList(e.Args, true); n != nil || err != nil {
			return n, err
		}
		args, err := cp.compileAll(e.Args)
		if err != nil {
			return nil, err
		}
		return &logicNode{args: args, and: true}, nil
	case *plan.Or:
		if n, err := cp.inList(e.Args, false); n != nil || err != nil {
			return n, err
		}
		args, err := cp.compileAll(e.Args)
		if err != nil {
			return nil, err
		}
		return &logicNode{args: args, and: false}, nil
	case *plan.Not:
		a, err := cp.compile(e.Arg)
		if err != nil {
			return nil, err
		}
		return &notNode{arg: a}, nil
	case *plan.IsNull:
		a, err := cp.compile(e.Arg)
		if err != nil {
			return nil, err
		}
		return &isNullNode{arg: a, negate: e.Negate}, nil
	case *plan.BoolTest:
		a, err := cp.compile(e.Arg)
		if err != nil {
			return nil, err
		}
		return &boolTestNode{arg: a, kind: e.Kind}, nil
	case *plan.IsDistinct:
		l, err := cp.compile(e.Left)
		if err != nil {
			return nil, err
		}
		r, err := cp.compile(e.Right)
		if err != nil {
			return nil, err
		}
		return &distinctNode{l: l, r: r, lt: e.Left.Type(), rt: e.Right.Type(), eq: e.Eq, negate: e.Negate}, nil
	case *plan.Case:
		n := &caseNode{t: e.T, typed: !cp.generic}
		for _, w := range e.Whens {
			c, err := cp.compile(w.Cond)
			if err != nil {
				return nil, err
			}
			r, err := cp.compile(w.Result)
			if err != nil {
				return nil, err
			}
			n.conds = append(n.conds, c)
			n.results = append(n.results, r)
		}
		if e.Else != nil {
			el, err := cp.compile(e.Else)
			if err != nil {
				return nil, err
			}
			n.els = el
		}
		n.eager = n.typed && n.safeConds()
		return n, nil
	case *plan.Coalesce:
		args, err := cp.compileAll(e.Args)
		if err != nil {
			return nil, err
		}
		return &coalesceNode{args: args, t: e.T, typed: !cp.generic}, nil
	case *plan.NullIf:
		l, err := cp.compile(e.Left)
		if err != nil {
			return nil, err
		}
		r, err := cp.compile(e.Right)
		if err != nil {
			return nil, err
		}
		return &nullIfNode{l: l, r: r, lt: e.Left.Type(), rt: e.Right.Type(), eq: e.Eq}, nil
	case *plan.Subquery:
		return cp.compileSubquery(e)
	case nil:
		return nil, pgerr.New(pgerr.InternalError, "operators: nil expression")
	}
	return nil, pgerr.New(pgerr.InternalError, "operators: unsupported expression %T", e)
}

// ---- leaves ----

type colNode struct{ pos int }

func (n *colNode) eval(_ *evalState, b *batch) (vec, error) { return vec{arr: b.col(n.pos)}, nil }

type outerNode struct{ id plan.ColumnID }

func (n *outerNode) eval(st *evalState, _ *batch) (vec, error) {
	v, ok := st.env.Outer[n.id]
	if !ok {
		return vec{}, pgerr.New(pgerr.InternalError, "operators: outer column %d has no value", n.id)
	}
	return constVec(v), nil
}

type constNode struct{ v types.Value }

func (n *constNode) eval(*evalState, *batch) (vec, error) { return constVec(n.v), nil }

type paramNode struct{ idx int }

func (n *paramNode) eval(st *evalState, _ *batch) (vec, error) {
	if n.idx < 1 || n.idx > len(st.env.Params) {
		return vec{}, pgerr.New("42P02", "there is no parameter $%d", n.idx)
	}
	return constVec(st.env.Params[n.idx-1]), nil
}

// ---- function calls ----

type callNode struct {
	fn   *types.Overload
	args []node
	fast fastFunc // nil: generic per-row path
}

func (cp *compiler) newCallNode(fn *types.Overload, args []node) *callNode {
	n := &callNode{fn: fn, args: args}
	if !cp.generic {
		n.fast = pickFast(fn, cp.env.Eval)
	}
	return n
}

func (n *callNode) eval(st *evalState, b *batch) (vec, error) {
	argv := make([]vec, len(n.args))
	allConst := true
	for i, a := range n.args {
		v, err := a.eval(st, b)
		if err != nil {
			return vec{}, err
		}
		argv[i] = v
		allConst = allConst && v.isConst()
	}
	if allConst && !n.fn.Volatile {
		vals := make([]types.Value, len(argv))
		for i, v := range argv {
			vals[i] = v.c
		}
		r, err := n.call(st, vals)
		return constVec(r), err
	}
	if n.fast != nil {
		if arr, ok, err := n.fast(argv, b.n); ok || err != nil {
			return vec{arr: arr}, err
		}
	}
	return n.generic(st, argv, b.n)
}

func (n *callNode) call(st *evalState, vals []types.Value) (types.Value, error) {
	if n.fn.Strict {
		for _, v := range vals {
			if v.Null {
				return types.NullValue, nil
			}
		}
	}
	return n.fn.Eval(st.env.Eval, vals)
}

func (n *callNode) generic(st *evalState, argv []vec, rows int) (vec, error) {
	if n.fn.Result.ArrowType().ID() == arrow.STRING && n.fn.Result.ID != types.Numeric {
		return n.genericText(st, argv, rows)
	}
	bld := newBuilder(n.fn.Result, rows)
	err := n.eachRow(st, argv, rows, func(r types.Value) { types.AppendValue(bld, n.fn.Result, r) })
	if err != nil {
		bld.Release()
		return vec{}, err
	}
	return vec{arr: bld.NewArray()}, nil
}

// eachRow calls the function on each row of argv and hands emit its
// result (NULL without a call for a strict function's NULL argument),
// checking for cancel every rowCancelEvery rows.
func (n *callNode) eachRow(st *evalState, argv []vec, rows int, emit func(types.Value)) error {
	vals := make([]types.Value, len(argv))
	for i := 0; i < rows; i++ {
		if i%rowCancelEvery == rowCancelEvery-1 {
			if err := checkCtx(st.ctx); err != nil {
				return err
			}
		}
		null := false
		for k, v := range argv {
			vals[k] = v.get(n.fn.Args[k], i)
			null = null || vals[k].Null
		}
		if null && n.fn.Strict {
			emit(types.Value{Null: true})
			continue
		}
		r, err := n.fn.Eval(st.env.Eval, vals)
		if err != nil {
			return err
		}
		emit(r)
	}
	return nil
}

// genericText is generic for a text result. It keeps the strings the
// function returned and copies them once into a buffer of the exact size,
// checking for cancel as it copies: an Arrow builder grows by doubling, and
// for a batch of wide values (a function over 100 kB strings) each doubling
// zeroes and copies hundreds of megabytes in one step no cancel check can
// interrupt.
func (n *callNode) genericText(st *evalState, argv []vec, rows int) (vec, error) {
	strs := make([]string, 0, rows)
	valid := make([]bool, 0, rows)
	total := 0
	err := n.eachRow(st, argv, rows, func(r types.Value) {
		strs = append(strs, r.S)
		valid = append(valid, !r.Null)
		total += len(r.S)
	})
	if err != nil {
		return vec{}, err
	}
	if total > math.MaxInt32 {
		return vec{}, pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
			WithDetail("Cannot enlarge a text batch of %d bytes.", total)
	}
	arr, err := buildStrings(st.ctx, strs, valid, total)
	return vec{arr: arr}, err
}

// textCopyCancelEvery is how many bytes buildStrings copies between cancel
// checks.
const textCopyCancelEvery = 4 << 20

// buildStrings makes an Arrow string array of strs (NULL where !valid),
// whose lengths sum to total.
func buildStrings(ctx context.Context, strs []string, valid []bool, total int) (arrow.Array, error) {
	rows := len(strs)
	data := memory.NewResizableBuffer(mem)
	data.Resize(total)
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize(arrow.Int32Traits.BytesRequired(rows + 1))
	bitmap := memory.NewResizableBuffer(mem)
	bitmap.Resize(int(bitutil.BytesForBits(int64(rows))))
	release := func() { data.Release(); offsets.Release(); bitmap.Release() }
	off := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	bits := bitmap.Bytes()
	dst := data.Bytes()
	pos, sinceCheck, nulls := 0, 0, 0
	for i, s := range strs {
		off[i] = int32(pos)
		if !valid[i] {
			nulls++
			bitutil.ClearBit(bits, i)
			continue
		}
		bitutil.SetBit(bits, i)
		pos += copy(dst[pos:], s)
		if sinceCheck += len(s); sinceCheck >= textCopyCancelEvery {
			sinceCheck = 0
			if err := checkCtx(ctx); err != nil {
				release()
				return nil, err
			}
		}
	}
	off[rows] = int32(pos)
	d := array.NewData(arrow.BinaryTypes.String, rows, []*memory.Buffer{bitmap, offsets, data}, nil, nulls, 0)
	release()
	defer d.Release()
	return array.NewStringData(d), nil
}

// ---- casts ----

type castNode struct {
	in       node
	from, to types.Type
	explicit bool     // CAST/:: rather than an implicit or assignment cast
	kern     castFunc // nil: the generic per-row path
}

func (n *castNode) eval(st *evalState, b *batch) (vec, error) {
	v, err := n.in.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	if v.isConst() {
		r, err := castValue(st.env.Eval, v.c, n.from, n.to, n.explicit)
		return constVec(r), err
	}
	if n.kern != nil {
		if arr, ok, err := n.kern(v.arr, b.n); ok || err != nil {
			return vec{arr: arr}, err
		}
	}
	bld := newBuilder(n.to, b.n)
	for i := 0; i < b.n; i++ {
		x := v.get(n.from, i)
		if x.Null {
			bld.AppendNull()
			continue
		}
		r, err := castValue(st.env.Eval, x, n.from, n.to, n.explicit)
		if err != nil {
			return vec{}, err
		}
		types.AppendValue(bld, n.to, r)
	}
	return vec{arr: bld.NewArray()}, nil
}

// ---- boolean logic ----

// logicNode is AND (and=true) or OR. Later arguments are evaluated only on
// the rows earlier ones left undecided, so `x <> 0 AND 1/x > 0` never divides
// by zero, as in PostgreSQL.
type logicNode struct {
	args []node
	and  bool
	// qual: NULL settles a row as FALSE does (CompileQual).
	qual bool
}

func (n *logicNode) eval(st *evalState, b *batch) (vec, error) {
	// decided: the value that settles a row (FALSE for AND, TRUE for OR).
	decided, neutral := triFalse, triTrue
	if !n.and {
		decided, neutral = triTrue, triFalse
	}
	if v, ok, err := n.evalBitwise(st, b); ok || err != nil {
		return v, err
	}
	state := make([]tri, b.n)
	for i := range state {
		state[i] = neutral
	}
	var pending []int // rows still undecided; nil = all
	cur := b
	for _, a := range n.args {
		if cur.n == 0 {
			break
		}
		v, err := a.eval(st, cur)
		if err != nil {
			return vec{}, err
		}
		if v.isConst() && pending == nil {
			s := triAt(v, 0)
			if s == decided {
				return constVec(triValue(decided)), nil
			}
			if s == triNull && n.qual {
				return constVec(triValue(triNull)), nil
			}
			if s == triNull {
				for i := range state {
					state[i] = triNull
				}
			}
			continue
		}
		var next []int
		nextAll := true
		for k := 0; k < cur.n; k++ {
			r := k
			if pending != nil {
				r = pending[k]
			}
			s := triAt(v, k)
			if s == decided || (s == triNull && n.qual) {
				state[r] = s
				if nextAll {
					nextAll = false
					next = make([]int, 0, cur.n)
					for j := 0; j < k; j++ {
						if pending != nil {
							next = append(next, pending[j])
						} else {
							next = append(next, j)
						}
					}
				}
				continue
			}
			if s == triNull {
				state[r] = triNull
			}
			if !nextAll {
				next = append(next, r)
			}
		}
		if !nextAll {
			pending = next
			cur = b.sub(pending)
		}
	}
	return vec{arr: triArray(state)}, nil
}

type notNode struct{ arg node }

func (n *notNode) eval(st *evalState, b *batch) (vec, error) {
	v, err := n.arg.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	if v.isConst() {
		if v.c.Null {
			return v, nil
		}
		return constVec(types.BoolValue(v.c.I == 0)), nil
	}
	a := v.arr.(*array.Boolean)
	vals := make([]bool, b.n)
	var valid []bool
	if a.NullN() > 0 {
		valid = make([]bool, b.n)
	}
	for i := range vals {
		vals[i] = !a.Value(i)
		if valid != nil {
			valid[i] = a.IsValid(i)
		}
	}
	return vec{arr: boolArray(vals, valid)}, nil
}

type isNullNode struct {
	arg    node
	negate bool
}

func (n *isNullNode) eval(st *evalState, b *batch) (vec, error) {
	v, err := n.arg.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	if v.isConst() {
		return constVec(types.BoolValue(v.c.Null != n.negate)), nil
	}
	vals := make([]bool, b.n)
	hasNulls := v.arr.NullN() > 0
	for i := range vals {
		vals[i] = (hasNulls && v.arr.IsNull(i)) != n.negate
	}
	return vec{arr: boolArray(vals, nil)}, nil
}

type boolTestNode struct {
	arg  node
	kind plan.BoolTestKind
}

func (n *boolTestNode) test(s tri) bool {
	switch n.kind {
	case plan.IsTrue:
		return s == triTrue
	case plan.IsNotTrue:
		return s != triTrue
	case plan.IsFalse:
		return s == triFalse
	case plan.IsNotFalse:
		return s != triFalse
	case plan.IsUnknown:
		return s == triNull
	}
	return s != triNull
}

func (n *boolTestNode) eval(st *evalState, b *batch) (vec, error) {
	v, err := n.arg.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	if v.isConst() {
		return constVec(types.BoolValue(n.test(triAt(v, 0)))), nil
	}
	vals := make([]bool, b.n)
	for i := range vals {
		vals[i] = n.test(triAt(v, i))
	}
	return vec{arr: boolArray(vals, nil)}, nil
}

// ---- comparisons that see NULLs ----

type distinctNode struct {
	l, r   node
	lt, rt types.Type
	eq     *types.Overload
	negate bool
}

func (n *distinctNode) eval(st *evalState, b *batch) (vec, error) {
	lv, err := n.l.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	rv, err := n.r.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	rows := b.n
	if lv.isConst() && rv.isConst() {
		rows = 1
	}
	vals := make([]bool, rows)
	args := make([]types.Value, 2)
	for i := 0; i < rows; i++ {
		args[0], args[1] = lv.get(n.lt, i), rv.get(n.rt, i)
		var distinct bool
		switch {
		case args[0].Null && args[1].Null:
			distinct = false
		case args[0].Null || args[1].Null:
			distinct = true
		default:
			r, err := n.eq.Eval(st.env.Eval, args)
			if err != nil {
				return vec{}, err
			}
			distinct = r.Null || r.I == 0
		}
		vals[i] = distinct != n.negate
	}
	if rows == 1 && lv.isConst() && rv.isConst() {
		return constVec(types.BoolValue(vals[0])), nil
	}
	return vec{arr: boolArray(vals, nil)}, nil
}

type nullIfNode struct {
	l, r   node
	lt, rt types.Type
	eq     *types.Overload
}

func (n *nullIfNode) eval(st *evalState, b *batch) (vec, error) {
	lv, err := n.l.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	rv, err := n.r.eval(st, b)
	if err != nil {
		return vec{}, err
	}
	rows := b.n
	if lv.isConst() && rv.isConst() {
		rows = 1
	}
	bld := newBuilder(n.lt, rows)
	args := make([]types.Value, 2)
	for i := 0; i < rows; i++ {
		args[0], args[1] = lv.get(n.lt, i), rv.get(n.rt, i)
		if !args[0].Null && !args[1].Null {
			r, err := n.eq.Eval(st.env.Eval, args)
			if err != nil {
				return vec{}, err
			}
			if !r.Null && r.I != 0 {
				bld.AppendNull()
				continue
			}
		}
		appendVec(bld, n.lt, lv, i)
	}
	arr := bld.NewArray()
	if rows == 1 && lv.isConst() && rv.isConst() {
		return constVec(types.GetValue(arr, n.lt, 0)), nil
	}
	return vec{arr: arr}, nil
}

// ---- lazy conditionals ----

// caseNode evaluates each WHEN condition only on the rows no earlier branch
// took, and each result only on the rows whose condition was TRUE, so a
// branch's errors (division by zero, bad casts) arise only where PostgreSQL
// would evaluate it.
type caseNode struct {
	conds, results []node
	els            node
	t              types.Type
	typed          bool // assemble with scatterTyped
	eager          bool // conditions are safe: evalEager
}

func (n *caseNode) eval(st *evalState, b *batch) (vec, error) {
	if n.eager && b.n > 0 {
		return n.evalEager(st, b)
	}
	var pieces []piece
	var pending []int // rows of b not yet taken; nil = all
	cur := b
	for k, c := range n.conds {
		if cur.n == 0 {
			break
		}
		cv, err := c.eval(st, cur)
		if err != nil {
			return vec{}, err
		}
		var taken, rest []int // indices into cur
		if cv.isConst() {
			if triAt(cv, 0) != triTrue {
				continue
			}
			taken = nil // all of cur
		} else {
			for i := 0; i < cur.n; i++ {
				if triAt(cv, i) == triTrue {
					taken = append(taken, i)
				} else {
					rest = append(rest, i)
				}
			}
			if len(taken) == 0 {
				continue
			}
			if len(rest) == 0 {
				taken = nil
			}
		}
		sub := cur
		if taken != nil {
			sub = cur.sub(taken)
		}
		rv, err := n.results[k].eval(st, sub)
		if err != nil {
			return vec{}, err
		}
		pieces = append(pieces, piece{v: rv, rows: mapRows(pending, taken, cur.n)})
		if taken == nil {
			cur = &batch{n: 0}
			break
		}
		pending = mapRows(pending, rest, cur.n)
		cur = b.sub(pending)
	}
	if cur.n > 0 && n.els != nil {
		ev, err := n.els.eval(st, cur)
		if err != nil {
			return vec{}, err
		}
		pieces = append(pieces, piece{v: ev, rows: mapRows(pending, nil, cur.n)})
	}
	if len(pieces) == 0 {
		return constVec(types.NullValue), nil
	}
	if len(pieces) == 1 && pieces[0].v.isConst() && len(pieces[0].rows) == b.n {
		return pieces[0].v, nil
	}
	return vec{arr: scatter(n.t, b.n, pieces, n.typed)}, nil
}

// mapRows translates rows of a sub-batch (sel; nil = all n of them) into rows
// of the root batch, given the sub-batch's own rows (pending; nil = identity).
func mapRows(pending, sel []int, n int) []int {
	out := make([]int, 0, n)
	if sel == nil {
		if pending == nil {
			for i := 0; i < n; i++ {
				out = append(out, i)
			}
			return out
		}
		return append(out, pending...)
	}
	for _, s := range sel {
		if pending == nil {
			out = append(out, s)
		} else {
			out = append(out, pending[s])
		}
	}
	return out
}

type coalesceNode struct {
	args  []node
	t     types.Type
	typed bool // assemble with scatterTyped
}

func (n *coalesceNode) eval(st *evalState, b *batch) (vec, error) {
	var pieces []piece
	var pending []int
	cur := b
	for _, a := range n.args {
		if cur.n == 0 {
			break
		}
		v, err := a.eval(st, cur)
		if err != nil {
			return vec{}, err
		}
		if v.isConst() {
			if v.c.Null {
				continue
			}
			if pending == nil {
				return v, nil
			}
			pieces = append(pieces, piece{v: v, rows: mapRows(pending, nil, cur.n)})
			cur = &batch{n: 0}
			break
		}
		if v.arr.NullN() == 0 {
			if pending == nil {
				return v, nil
			}
			pieces = append(pieces, piece{v: v, rows: mapRows(pending, nil, cur.n)})
			cur = &batch{n: 0}
			break
		}
		var got, rest []int
		for i := 0; i < cur.n; i++ {
			if v.arr.IsNull(i) {
				rest = append(rest, i)
			} else {
				got = append(got, i)
			}
		}
		if len(got) > 0 {
			// v covers all of cur; keep only its non-NULL rows.
			pieces = append(pieces, piece{v: vec{arr: takeArray(v.arr, got)}, rows: mapRows(pending, got, cur.n)})
		}
		pending = mapRows(pending, rest, cur.n)
		cur = b.sub(pending)
	}
	if len(pieces) == 0 {
		return constVec(types.NullValue), nil
	}
	return vec{arr: scatter(n.t, b.n, pieces, n.typed)}, nil
}

// ---- subqueries ----

type subqueryNode struct {
	sq     *plan.Subquery
	lhs    []node
	lhsT   []types.Type
	outer  []node // values of sq.OuterRefs, read from the input row
	outerT []types.Type
	ops    []*types.Overload
	anyNeq bool // row-valued <> : rows differ when any element differs

	once    sync.Once
	cached  [][]types.Value
	cacheEr error
}

func (cp *compiler) compileSubquery(e *plan.Subquery) (node, error) {
	n := &subqueryNode{sq: e, ops: e.Ops}
	var err error
	if n.lhs, err = cp.compileAll(e.LHS); err != nil {
		return nil, err
	}
	for _, l := range e.LHS {
		n.lhsT = append(n.lhsT, l.Type())
	}
	for _, id := range e.OuterRefs {
		if p, ok := cp.pos[id]; ok {
			n.outer = append(n.outer, &colNode{pos: p})
			n.outerT = append(n.outerT, cp.input[p].Type)
			continue
		}
		if _, ok := cp.env.Outer[id]; ok {
			// A reference to a query further out: its value is fixed here.
			n.outer = append(n.outer, &outerNode{id: id})
			n.outerT = append(n.outerT, types.UnknownType)
			continue
		}
		return nil, pgerr.New(pgerr.InternalError, "operators: outer column %d of a subquery is not in the input", id)
	}
	if e.Kind == plan.AnySubquery || e.Kind == plan.AllSubquery {
		if len(e.Ops) != len(e.LHS) || len(e.LHS) == 0 {
			return nil, pgerr.New(pgerr.InternalError, "operators: subquery comparison has %d operators for %d columns", len(e.Ops), len(e.LHS))
		}
		n.anyNeq = len(e.Ops) > 1 && e.Ops[0].Name == "<>"
	}
	if st := cp.env.Subqueries; st == nil {
		return nil, pgerr.New(pgerr.InternalError, "operators: subquery expression without a subquery runner")
	}
	return n, nil
}

func (n *subqueryNode) limit() int {
	switch n.sq.Kind {
	case plan.ExistsSubquery:
		return 1
	case plan.ScalarSubquery:
		return 2
	}
	return -1
}

func (n *subqueryNode) run(st *evalState, outer map[plan.ColumnID]types.Value) ([][]types.Value, error) {
	rows, err := st.env.Subqueries.RunSubquery(st.ctx, n.sq.Plan, outer, n.limit())
	if err != nil {
		return nil, err
	}
	if n.sq.Kind == plan.ScalarSubquery && len(rows) > 1 {
		return nil, pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
	}
	return rows, nil
}

func (n *subqueryNode) eval(st *evalState, b *batch) (vec, error) {
	correlated := len(n.outer) > 0
	var rows [][]types.Value
	if !correlated {
		n.once.Do(func() { n.cached, n.cacheEr = n.run(st, st.env.Outer) })
		if n.cacheEr != nil {
			return vec{}, n.cacheEr
		}
		rows = n.cached
		if n.sq.Kind == plan.ExistsSubquery || n.sq.Kind == plan.ScalarSubquery || n.sq.Kind == plan.ArraySubquery {
			v, err := n.result(rows)
			return constVec(v), err
		}
	}
	lhs := make([]vec, len(n.lhs))
	for i, l := range n.lhs {
		v, err := l.eval(st, b)
		if err != nil {
			return vec{}, err
		}
		lhs[i] = v
	}
	var outs []vec
	if correlated {
		outs = make([]vec, len(n.outer))
		for i, o := range n.outer {
			v, err := o.eval(st, b)
			if err != nil {
				return vec{}, err
			}
			outs[i] = v
		}
	}
	bld := newBuilder(n.sq.T, b.n)
	lvals := make([]types.Value, len(lhs))
	for i := 0; i < b.n; i++ {
		if correlated {
			if i%64 == 0 {
				if err := checkCtx(st.ctx); err != nil {
					return vec{}, err
				}
			}
			outer := make(map[plan.ColumnID]types.Value, len(st.env.Outer)+len(outs))
			for id, v := range st.env.Outer {
				outer[id] = v
			}
			for k, id := range n.sq.OuterRefs {
				outer[id] = outs[k].get(n.outerT[k], i)
			}
			var err error
			if rows, err = n.run(st, outer); err != nil {
				return vec{}, err
			}
		}
		if n.sq.Kind == plan.ExistsSubquery || n.sq.Kind == plan.ScalarSubquery || n.sq.Kind == plan.ArraySubquery {
			v, err := n.result(rows)
			if err != nil {
				return vec{}, err
			}
			types.AppendValue(bld, n.sq.T, v)
			continue
		}
		for k, l := range lhs {
			lvals[k] = l.get(n.lhsT[k], i)
		}
		s, err := n.compare(st, lvals, rows)
		if err != nil {
			return vec{}, err
		}
		types.AppendValue(bld, n.sq.T, triValue(s))
	}
	return vec{arr: bld.NewArray()}, nil
}

// result is the value of an EXISTS or scalar subquery over its rows.
func (n *subqueryNode) result(rows [][]types.Value) (types.Value, error) {
	if n.sq.Kind == plan.ExistsSubquery {
		return types.BoolValue(len(rows) > 0), nil
	}
	if n.sq.Kind == plan.ArraySubquery {
		return arraySubqueryValue(rows, n.sq.Plan.Columns()[0].Type) // arrayunnest.go
	}
	if len(rows) == 0 || len(rows[0]) == 0 {
		return types.NullValue, nil
	}
	return rows[0][0], nil
}

// compare computes `lhs op ANY/ALL (rows)` with three-valued logic.
func (n *subqueryNode) compare(st *evalState, lhs []types.Value, rows [][]types.Value) (tri, error) {
	isAny := n.sq.Kind == plan.AnySubquery
	res := triFalse
	if !isAny {
		res = triTrue
	}
	args := make([]types.Value, 2)
	for _, row := range rows {
		// Row comparison: AND of the element comparisons (OR for <>).
		rs := triTrue
		if n.anyNeq {
			rs = triFalse
		}
		for k, op := range n.ops {
			args[0], args[1] = lhs[k], row[k]
			var e tri
			if args[0].Null || args[1].Null {
				e = triNull
			} else {
				r, err := op.Eval(st.env.Eval, args)
				if err != nil {
					return triNull, err
				}
				e = triAt(constVec(r), 0)
			}
			if n.anyNeq {
				if e == triTrue {
					rs = triTrue
					break
				}
				if e == triNull {
					rs = triNull
				}
			} else {
				if e == triFalse {
					rs = triFalse
					break
				}
				if e == triNull {
					rs = triNull
				}
			}
		}
		if isAny {
			if rs == triTrue {
				return triTrue, nil
			}
		} else if rs == triFalse {
			return triFalse, nil
		}
		if rs == triNull {
			res = triNull
		}
	}
	return res, nil
}

// String describes the compiled expression (debugging).
func (c *Compiled) String() string { return fmt.Sprintf("compiled(%T)", c.root) }
