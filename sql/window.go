package sql

import (
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Window functions, as PostgreSQL's parse_agg.c (transformWindowFuncCall)
// and parse_clause.c (transformWindowDefinitions, transformFrameOffset):
// calls with OVER are collected per query level and become plan.Window
// nodes above the level's aggregation and HAVING, below its projection.

// The FrameOptions bits of a pg_query WindowDef (parsenodes.h).
const (
	frameRange             = 0x00002
	frameRows              = 0x00004
	frameGroups            = 0x00008
	frameStartUnboundedPre = 0x00020
	frameEndUnboundedFol   = 0x00100
	frameStartCurrent      = 0x00200
	frameEndCurrent        = 0x00400
	frameStartOffsetPre    = 0x00800
	frameEndOffsetPre      = 0x01000
	frameStartOffsetFol    = 0x02000
	frameEndOffsetFol      = 0x04000
	frameExcludeCurrent    = 0x08000
	frameExcludeGroup      = 0x10000
	frameExcludeTies       = 0x20000
	frameDefaults          = frameRange | frameStartUnboundedPre | frameEndCurrent
)

// winState collects the window functions and named windows of one level.
type winState struct {
	named []*winSpec
	calls []*winCall
	// inDef / inArgs are set while binding a window definition or a
	// window function's arguments (a window call there is an error).
	inDef, inArgs bool
	// deferred is the first error of binding a window's PARTITION BY,
	// ORDER BY or frame: PostgreSQL transforms window definitions after
	// WHERE, HAVING, ORDER BY, GROUP BY, DISTINCT and LIMIT
	// (transformWindowDefinitions), so their errors come first.
	deferred error
}

// bindWindowDefDeferred is bindWindowDef whose error waits in w.deferred
// (see there); the window is then empty, for binding to go on.
func (b *binder) bindWindowDefDeferred(s *scope, wd *pg_query.WindowDef) *winSpec {
	spec, err := b.bindWindowDef(s, wd)
	if err != nil {
		if s.win.deferred == nil {
			s.win.deferred = err
		}
		return &winSpec{frameOpts: frameDefaults, loc: wd.Location}
	}
	return spec
}

// winSpec is a bound window: partitioning, ordering and raw frame.
type winSpec struct {
	name       string
	partition  []plan.Expr
	order      []plan.SortKey
	frameOpts  int32
	start, end *pg_query.Node
	loc        int32
}

type winCall struct {
	fn   plan.WindowFunc
	spec *winSpec
	col  plan.Column
	loc  int32
}

// builtinWindowFuncs are PostgreSQL's window functions (prokind 'w').
var builtinWindowFuncs = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// isWindowFuncName reports whether name is a built-in window function.
func isWindowFuncName(name string) bool { return builtinWindowFuncs[name] }

// errWindowNeedsOver is PostgreSQL's error for a window function called
// without OVER (once its arguments match a signature).
func (b *binder) errWindowNeedsOver(s *scope, fc *pg_query.FuncCall, name string) error {
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return err
	}
	if _, err := b.windowFuncArgs(name, args, fc.Location); err != nil {
		return err
	}
	return b.errAt(pgerr.New(pgerr.WrongObjectType, "window function %s requires an OVER clause", name), fc.Location)
}

// bindWindowDefs binds the level's WINDOW clause (every definition, used
// or not, as PostgreSQL does).
func (b *binder) bindWindowDefs(s *scope, defs []*pg_query.Node) error {
	for _, n := range defs {
		wd := n.GetWindowDef()
		for _, w := range s.win.named {
			if w.name == wd.Name {
				return b.errAt(pgerr.New("42P20", "window \"%s\" is already defined", wd.Name), wd.Location)
			}
		}
		spec := b.bindWindowDefDeferred(s, wd)
		spec.name = wd.Name
		s.win.named = append(s.win.named, spec)
	}
	return nil
}

func (w *winState) lookup(name string) *winSpec {
	for _, x := range w.named {
		if x.name == name {
			return x
		}
	}
	return nil
}

// bindWindowDef binds one window specification, resolving a reference to a
// named window with PostgreSQL's copy rules.
func (b *binder) bindWindowDef(s *scope, wd *pg_query.WindowDef) (*winSpec, error) {
	saved := s.win.inDef
	s.win.inDef = true
	defer func() { s.win.inDef = saved }()
	spec := &winSpec{frameOpts: wd.FrameOptions, start: wd.StartOffset, end: wd.EndOffset, loc: wd.Location}
	var ref *winSpec
	if wd.Refname != "" {
		if ref = s.win.lookup(wd.Refname); ref == nil {
			return nil, b.errAt(pgerr.New(pgerr.UndefinedObject, "window \"%s\" does not exist", wd.Refname), wd.Location)
		}
		if len(wd.PartitionClause) > 0 {
			return nil, b.errAt(pgerr.New("42P20", "cannot override PARTITION BY clause of window \"%s\"", wd.Refname), wd.Location)
		}
		if len(ref.order) > 0 && len(wd.OrderClause) > 0 {
			return nil, b.errAt(pgerr.New("42P20", "cannot override ORDER BY clause of window \"%s\"", wd.Refname), wd.Location)
		}
		if ref.frameOpts != frameDefaults {
			e := pgerr.New("42P20", "cannot copy window \"%s\" because it has a frame clause", wd.Refname)
			if wd.Name == "" && len(wd.OrderClause) == 0 && wd.FrameOptions == frameDefaults {
				e = e.WithHint("Omit the parentheses in this OVER clause.")
			}
			return nil, b.errAt(e, wd.Location)
		}
		spec.partition, spec.order = ref.partition, ref.order
	}
	for _, pn := range wd.PartitionClause {
		e, err := b.bindExpr(s, pn)
		if err != nil {
			return nil, err
		}
		if err := b.checkEquality(e.Type(), nodeLocation(pn)); err != nil {
			return nil, err
		}
		spec.partition = append(spec.partition, b.resolveUnknown(e))
	}
	for _, on := range wd.OrderClause {
		e, desc, nf, err := b.bindSortExpr(s, on.GetSortBy())
		if err != nil {
			return nil, err
		}
		spec.order = append(spec.order, plan.SortKey{Expr: e, Desc: desc, NullsFirst: nf})
	}
	if wd.FrameOptions&frameGroups != 0 && len(spec.order) == 0 {
		return nil, b.errAt(pgerr.New("42P20", "GROUPS mode requires an ORDER BY clause"), wd.Location)
	}
	if wd.FrameOptions&frameRange != 0 && wd.FrameOptions&(frameStartOffsetPre|frameStartOffsetFol|frameEndOffsetPre|frameEndOffsetFol) != 0 &&
		len(spec.order) != 1 {
		return nil, b.errAt(pgerr.New("42P20", "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column"), wd.Location)
	}
	return spec, nil
}

// bindWindowCall binds fc, a call with OVER, and returns a reference to
// its output column.
func (b *binder) bindWindowCall(s *scope, fc *pg_query.FuncCall, name string) (plan.Expr, error) {
	switch {
	case s.agg != nil && s.agg.inAgg:
		return nil, b.errAt(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot contain window function calls"), fc.Location)
	case s.win != nil && s.win.inArgs:
		return nil, b.errAt(pgerr.New("42P20", "window function calls cannot be nested"), fc.Location)
	case s.win != nil && s.win.inDef:
		return nil, b.errAt(pgerr.New("42P20", "window functions are not allowed in window definitions"), fc.Location)
	case s.win == nil || (s.exprKind != "SELECT" && s.exprKind != "ORDER BY"):
		what := s.exprKind
		if what == "" {
			what = "this context"
		}
		return nil, b.errAt(pgerr.New("42P20", "window functions are not allowed in %s", what), fc.Location)
	}
	isAgg := isAggregateName(name)
	if !isAgg && !isWindowFuncName(name) {
		args, err := b.bindList(s, fc.Args)
		if err != nil {
			return nil, err
		}
		if _, err := types.ResolveFunction(name, exprTypes(args)); err != nil {
			// The catalog's functions (pg_typeof, version) are not in types.
			if _, ok, cerr := b.catalogFunc(name, args, fc.Location); !ok || cerr != nil {
				return nil, b.wrapAt(err, fc.Location)
			}
		}
		return nil, b.errAt(pgerr.New(pgerr.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name), fc.Location)
	}
	switch {
	case fc.AggDistinct:
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "DISTINCT is not implemented for window functions"), fc.Location)
	case len(fc.AggOrder) > 0:
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions"), fc.Location)
	case fc.AggFilter != nil && !isAgg:
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions"), fc.Location)
	}
	s.win.inArgs = true
	args, err := b.bindList(s, fc.Args)
	var filter plan.Expr
	if err == nil && fc.AggFilter != nil {
		savedKind := s.exprKind
		s.exprKind = "FILTER"
		filter, err = b.bindExpr(s, fc.AggFilter)
		s.exprKind = savedKind
		if err == nil {
			filter, err = b.coerceToBool(filter, "FILTER")
		}
	}
	s.win.inArgs = false
	if err != nil {
		return nil, err
	}
	var spec *winSpec
	if fc.Over.Name != "" {
		if spec = s.win.lookup(fc.Over.Name); spec == nil {
			return nil, b.errAt(pgerr.New(pgerr.UndefinedObject, "window \"%s\" does not exist", fc.Over.Name), fc.Over.Location)
		}
	} else {
		spec = b.bindWindowDefDeferred(s, fc.Over)
	}
	call := &winCall{spec: spec, loc: fc.Location}
	call.fn.Args, call.fn.Filter = args, filter
	var result types.Type
	if isAgg {
		ov, err := b.resolveAggregateCall(fc, name, args)
		if err != nil {
			return nil, err
		}
		call.fn.Agg, result = ov, ov.Result
	} else {
		if result, err = b.windowFuncArgs(name, call.fn.Args, fc.Location); err != nil {
			return nil, err
		}
		call.fn.Name = name
	}
	call.col = plan.Column{ID: b.ids.Next(), Name: name, Type: result}
	s.win.calls = append(s.win.calls, call)
	return &plan.ColRef{ID: call.col.ID, T: result, Name: name}, nil
}

// windowFuncArgs checks and converts a built-in window function's
// arguments (pg_proc's signatures) and returns its result type.
func (b *binder) windowFuncArgs(name string, args []plan.Expr, loc int32) (types.Type, error) {
	noFunc := func() (types.Type, error) {
		ts := make([]types.Type, len(args))
		for i, a := range args {
			ts[i] = a.Type()
		}
		return types.Type{}, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), loc)
	}
	toInt4 := func(i int) error {
		e, err := b.coerce(args[i], types.Int4Type, coerceImplicit, b.locOf(args[i]))
		if err == errCannotCoerce {
			_, err = noFunc()
		}
		args[i] = e
		return err
	}
	switch name {
	case "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(args) != 0 {
			// With arguments these are hypothetical-set aggregates.
			return types.Type{}, b.errAt(pgerr.New(pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name), loc)
		}
	}
	switch name {
	case "row_number", "rank", "dense_rank":
		if len(args) != 0 {
			return noFunc()
		}
		return types.Int8Type, nil
	case "percent_rank", "cume_dist":
		if len(args) != 0 {
			return noFunc()
		}
		return types.Float8Type, nil
	case "ntile":
		if len(args) != 1 {
			return noFunc()
		}
		return types.Int4Type, toInt4(0)
	case "first_value", "last_value":
		if len(args) != 1 {
			return noFunc()
		}
	case "nth_value":
		if len(args) != 2 {
			return noFunc()
		}
		if err := toInt4(1); err != nil {
			return types.Type{}, err
		}
	case "lag", "lead":
		if len(args) < 1 || len(args) > 3 {
			return noFunc()
		}
		if len(args) >= 2 {
			if err := toInt4(1); err != nil {
				return types.Type{}, err
			}
		}
		if len(args) == 3 {
			// lag(anycompatible, integer, anycompatible)
			t, err := b.commonType(name, []plan.Expr{args[0], args[2]})
			if err != nil {
				return types.Type{}, err
			}
			for _, i := range []int{0, 2} {
				if args[i], err = b.coerceCommon(name, args[i], t); err != nil {
					return types.Type{}, err
				}
			}
			return t, nil
		}
	}
	args[0] = b.resolveUnknown(args[0])
	return args[0].Type(), nil
}

// regroupWindows rewrites the level's window expressions over the
// aggregation's output (ungrouped columns are errors there too).
func (w *winState) regroup(rg *regrouper) error {
	rw := func(es []plan.Expr) error {
		for i, e := range es {
			x, err := rg.rewrite(e)
			if err != nil {
				return err
			}
			es[i] = x
		}
		return nil
	}
	done := map[*winSpec]bool{}
	spec := func(sp *winSpec) error {
		if done[sp] {
			return nil
		}
		done[sp] = true
		sp.partition = append([]plan.Expr(nil), sp.partition...)
		if err := rw(sp.partition); err != nil {
			return err
		}
		sp.order = append([]plan.SortKey(nil), sp.order...)
		for i := range sp.order {
			x, err := rg.rewrite(sp.order[i].Expr)
			if err != nil {
				return err
			}
			sp.order[i].Expr = x
		}
		return nil
	}
	for _, sp := range w.named {
		if err := spec(sp); err != nil {
			return err
		}
	}
	for _, c := range w.calls {
		if err := spec(c.spec); err != nil {
			return err
		}
		if err := rw(c.fn.Args); err != nil {
			return err
		}
		if c.fn.Filter != nil {
			x, err := rg.rewrite(c.fn.Filter)
			if err != nil {
				return err
			}
			c.fn.Filter = x
		}
	}
	return nil
}

// buildWindows puts the level's window functions over node: one Window
// node per distinct (PARTITION BY, ORDER BY), each function with its frame.
func (b *binder) buildWindows(s *scope, node plan.Node) (plan.Node, error) {
	if s.win == nil || len(s.win.calls) == 0 {
		return node, nil
	}
	var nodes []*plan.Window
	for _, c := range s.win.calls {
		var w *plan.Window
		for _, x := range nodes {
			if exprsEqual(x.PartitionBy, c.spec.partition) && sortKeysEqual(x.OrderBy, c.spec.order) {
				w = x
				break
			}
		}
		if w == nil {
			w = &plan.Window{PartitionBy: c.spec.partition, OrderBy: c.spec.order}
			nodes = append(nodes, w)
		}
		fr, err := b.bindFrame(s, c.spec)
		if err != nil {
			return nil, err
		}
		c.fn.Frame = fr
		w.Funcs = append(w.Funcs, c.fn)
		w.Cols = append(w.Cols, c.col)
	}
	// Windows of one PARTITION BY, longest ORDER BY first: a window whose
	// ORDER BY begins another's then reads that one's sorted output.
	partKey := func(w *plan.Window) string {
		var ks []string
		for _, e := range w.PartitionBy {
			ks = append(ks, plan.FormatExpr(e))
		}
		return strings.Join(ks, "\x00")
	}
	sort.SliceStable(nodes, func(i, j int) bool {
		ki, kj := partKey(nodes[i]), partKey(nodes[j])
		if ki != kj {
			return ki < kj
		}
		return len(nodes[i].OrderBy) > len(nodes[j].OrderBy)
	})
	for _, w := range nodes {
		w.Input = node
		w.Cols = append(append([]plan.Column(nil), node.Columns()...), w.Cols...)
		node = w
	}
	return node, nil
}

func sortKeysEqual(a, b []plan.SortKey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Desc != b[i].Desc || a[i].NullsFirst != b[i].NullsFirst || !exprEqual(a[i].Expr, b[i].Expr) {
			return false
		}
	}
	return true
}

// bindFrame binds a window's frame clause (transformFrameOffset).
func (b *binder) bindFrame(s *scope, sp *winSpec) (plan.Frame, error) {
	o := sp.frameOpts
	var fr plan.Frame
	switch {
	case o&frameRows != 0:
		fr.Mode = plan.FrameRows
	case o&frameGroups != 0:
		fr.Mode = plan.FrameGroups
	}
	switch {
	case o&frameExcludeCurrent != 0:
		fr.Exclude = plan.ExcludeCurrentRow
	case o&frameExcludeGroup != 0:
		fr.Exclude = plan.ExcludeGroup
	case o&frameExcludeTies != 0:
		fr.Exclude = plan.ExcludeTies
	}
	fr.Start.Kind = boundKind(o, plan.UnboundedPreceding, []boundBit{
		{frameStartCurrent, plan.CurrentRow}, {frameStartOffsetPre, plan.OffsetPreceding}, {frameStartOffsetFol, plan.OffsetFollowing}})
	fr.End.Kind = boundKind(o, plan.CurrentRow, []boundBit{
		{frameEndUnboundedFol, plan.UnboundedFollowing}, {frameEndOffsetPre, plan.OffsetPreceding}, {frameEndOffsetFol, plan.OffsetFollowing}})
	var err error
	if fr.Start.Offset, err = b.bindFrameOffset(s, sp, &fr, sp.start); err != nil {
		return fr, err
	}
	if fr.End.Offset, err = b.bindFrameOffset(s, sp, &fr, sp.end); err != nil {
		return fr, err
	}
	return fr, nil
}

// boundBit is a FrameOptions bit naming a frame bound's kind.
type boundBit struct {
	bit  int32
	kind plan.BoundKind
}

// boundKind is the kind the first set bit names, else dflt.
func boundKind(o int32, dflt plan.BoundKind, bits []boundBit) plan.BoundKind {
	for _, b := range bits {
		if o&b.bit != 0 {
			return b.kind
		}
	}
	return dflt
}

// bindFrameOffset binds a frame offset: a bigint for ROWS and GROUPS; for
// RANGE, the offset type of the ORDER BY key's in_range support.
func (b *binder) bindFrameOffset(s *scope, sp *winSpec, fr *plan.Frame, n *pg_query.Node) (plan.Expr, error) {
	if n == nil {
		return nil, nil
	}
	savedKind, savedDef := s.exprKind, s.win.inDef
	s.win.inDef = true
	defer func() { s.exprKind, s.win.inDef = savedKind, savedDef }()
	if fr.Mode != plan.FrameRange {
		what := "ROWS"
		if fr.Mode == plan.FrameGroups {
			what = "GROUPS"
		}
		if c := n.GetAConst(); c != nil && c.Isnull {
			return &plan.Const{Val: types.NullValue, T: types.Int8Type}, nil
		}
		return b.bindLimitExpr(s, n, what)
	}
	e, err := b.bindExpr(s, n)
	if err != nil {
		return nil, err
	}
	key := sp.order[0].Expr
	keyT, offT, ok := rangeTypes(key.Type(), e.Type())
	if !ok {
		msg := pgerr.New(pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", typeName(key.Type()))
		if e.Type().ID != types.Unknown && keyT.ID != 0 {
			msg = pgerr.New(pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
				typeName(key.Type()), typeName(e.Type())).WithHint("Cast the offset value to an appropriate type.")
		}
		return nil, b.errAt(msg, b.locOf(e))
	}
	if e.Type().ID == types.Unknown && keyT.ID == types.Int8 {
		// An unknown offset takes the key's own type (the in_range
		// support with matching types is preferred), then widens.
		if e, err = b.coerce(e, key.Type(), coerceImplicit, b.locOf(e)); err != nil {
			return nil, err
		}
	}
	if e, err = b.coerce(e, offT, coerceImplicit, b.locOf(e)); err != nil {
		return nil, err
	}
	if fr.RangeKey == nil {
		if fr.RangeKey, err = b.coerce(key, keyT, coerceImplicit, b.locOf(key)); err != nil {
			return nil, err
		}
		if fr.Add, err = types.ResolveOperator("+", keyT, offT); err != nil {
			return nil, b.wrapAt(err, b.locOf(e))
		}
		if fr.Sub, err = types.ResolveOperator("-", keyT, offT); err != nil {
			return nil, b.wrapAt(err, b.locOf(e))
		}
	}
	return e, nil
}

// rangeTypes is the in_range support of a RANGE key of type key with an
// offset of type off: the type key ± offset is computed in and the offset's
// type. keyT.ID is 0 when the key type has no support at all.
func rangeTypes(key, off types.Type) (keyT, offT types.Type, ok bool) {
	unknown := off.ID == types.Unknown
	switch key.ID {
	case types.Int2, types.Int4, types.Int8:
		return types.Int8Type, types.Int8Type, unknown || off.ID == types.Int2 || off.ID == types.Int4 || off.ID == types.Int8
	case types.Numeric:
		t := types.Type{ID: types.Numeric, Typmod: -1}
		return t, t, unknown || off.ID == types.Int2 || off.ID == types.Int4 || off.ID == types.Int8 || off.ID == types.Numeric
	case types.Float4, types.Float8:
		return types.Float8Type, types.Float8Type, unknown || off.ID == types.Float4 || off.ID == types.Float8 ||
			off.ID == types.Int2 || off.ID == types.Int4 || off.ID == types.Int8 || off.ID == types.Numeric
	case types.Date, types.Timestamp:
		iv := types.Type{ID: types.Interval, Typmod: -1}
		return types.Type{ID: types.Timestamp, Typmod: -1}, iv, unknown || off.ID == types.Interval
	case types.TimestampTZ:
		iv := types.Type{ID: types.Interval, Typmod: -1}
		return types.Type{ID: types.TimestampTZ, Typmod: -1}, iv, unknown || off.ID == types.Interval
	case types.Interval:
		iv := types.Type{ID: types.Interval, Typmod: -1}
		return iv, iv, unknown || off.ID == types.Interval
	}
	return types.Type{}, types.Type{}, false
}

// noWindowIn rejects a window function's result in a clause evaluated
// before windows (GROUP BY 1 naming a window function's output).
func (b *binder) noWindowIn(s *scope, e plan.Expr, clause string) error {
	if s.win == nil || e == nil {
		return nil
	}
	for _, id := range plan.ColumnRefs(e, nil) {
		for _, c := range s.win.calls {
			if c.col.ID == id {
				return b.errAt(pgerr.New("42P20", "window functions are not allowed in %s", clause), c.loc)
			}
		}
	}
	return nil
}
