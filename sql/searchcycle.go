package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// WITH RECURSIVE's SEARCH and CYCLE clauses, as PostgreSQL's
// rewriteSearchAndCycle: the query gains a sequence column (SEARCH) and a
// cycle mark and path (CYCLE), which the recursive union computes
// (operators/searchcycle.go). The recursive term sees them as columns of
// the working table (not expanded by *), and returns the sequence and path
// of the working-table row each of its rows extends as extra, hidden
// outputs (carrySearchCycle), so the union can extend them.

// searchCycleSpec is the plan of cte's SEARCH and CYCLE clauses over the
// query's columns (names, of the non-recursive term's types lc), with the
// columns they add; nil without either clause. checkSearchCycle has
// validated the clauses.
func (b *binder) searchCycleSpec(names []string, lc []plan.Column, cte *pg_query.CommonTableExpr) (*plan.SearchCycle, []plan.Column, error) {
	sc, cc := cte.SearchClause, cte.CycleClause
	if sc == nil && cc == nil {
		return nil, nil, nil
	}
	spec := &plan.SearchCycle{Base: len(lc)}
	var extra []plan.Column
	indexes := func(list []*pg_query.Node) ([]int, []types.Type) {
		var out []int
		var ts []types.Type
		for _, n := range list {
			i := slices.Index(names, n.GetString_().GetSval())
			out = append(out, i)
			ts = append(ts, lc[i].Type)
		}
		return out, ts
	}
	if sc != nil {
		spec.Search, spec.BreadthFirst = true, sc.SearchBreadthFirst
		var ts []types.Type
		spec.SearchCols, ts = indexes(sc.SearchColList)
		var t types.Type
		if spec.BreadthFirst {
			t = searchCycleRecord(append([]types.Type{types.Int8Type}, ts...))
		} else {
			t = types.ArrayOf(searchCycleRecord(ts))
		}
		extra = append(extra, plan.Column{Name: sc.SearchSeqColumn, Type: t})
	}
	if cc != nil {
		spec.Cycle = true
		var ts []types.Type
		spec.CycleCols, ts = indexes(cc.CycleColList)
		for _, t := range ts {
			// PostgreSQL fails where ROW(cols) = ANY(path) first runs.
			if err := b.checkEquality(t, -1); err != nil {
				return nil, nil, err
			}
		}
		var err error
		if spec.MarkType, spec.MarkValue, spec.MarkDefault, err = b.cycleMark(cc); err != nil {
			return nil, nil, err
		}
		extra = append(extra, plan.Column{Name: cc.CycleMarkColumn, Type: spec.MarkType},
			plan.Column{Name: cc.CyclePathColumn, Type: types.ArrayOf(searchCycleRecord(ts))})
	}
	return spec, extra, nil
}

// searchCycleRecord is the anonymous record type of the rewritten query's
// ROW(...) over fields of types ts. Its fields have no names, so, as in
// PostgreSQL, no field of a sequence or path record can be selected.
func searchCycleRecord(ts []types.Type) types.Type {
	return types.RecordOf(types.RecordDesc{Fields: make([]string, len(ts)), Types: ts})
}

// cycleMark is CYCLE's mark type and values: TO v DEFAULT d resolved to
// their common type (which needs an inequality operator), else boolean
// true and false.
func (b *binder) cycleMark(cc *pg_query.CTECycleClause) (types.Type, types.Value, types.Value, error) {
	if cc.CycleMarkValue == nil || cc.CycleMarkDefault == nil {
		return types.BoolType, types.BoolValue(true), types.BoolValue(false), nil
	}
	t, err := b.cycleMarkType(cc)
	if err != nil {
		return types.Type{}, types.Value{}, types.Value{}, err
	}
	value := func(n *pg_query.Node) (types.Value, error) {
		e, err := b.bindExpr(&scope{}, n)
		if err != nil {
			return types.Value{}, err
		}
		if e, err = b.coerce(e, t, coerceImplicit, nodeLocation(n)); err != nil {
			return types.Value{}, err
		}
		c, ok := e.(*plan.Const)
		if !ok {
			return types.Value{}, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "a CYCLE mark value that is not a constant is not supported"), nodeLocation(n))
		}
		return c.Val, nil
	}
	v, err := value(cc.CycleMarkValue)
	if err != nil {
		return types.Type{}, types.Value{}, types.Value{}, err
	}
	d, err := value(cc.CycleMarkDefault)
	return t, v, d, err
}

// carrySearchCycle is the recursive term sel returning, after its own
// outputs, the sequence and path of the working-table row it extends
// (referenced through the self-reference's name).
func carrySearchCycle(sel *pg_query.SelectStmt, name string, cte *pg_query.CommonTableExpr) *pg_query.SelectStmt {
	rel := selfReferenceName(sel.FromClause, name)
	out := proto.Clone(sel).(*pg_query.SelectStmt)
	carry := func(col string) {
		out.TargetList = append(out.TargetList, pg_query.MakeResTargetNodeWithVal(
			pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(rel), pg_query.MakeStrNode(col)}, -1), -1))
	}
	if cte.SearchClause != nil {
		carry(cte.SearchClause.SearchSeqColumn)
	}
	if cte.CycleClause != nil {
		carry(cte.CycleClause.CyclePathColumn)
	}
	return out
}

// selfReferenceName is the name the recursive reference to name has in a
// FROM list, directly or in a join (its alias, if any), "" when none.
func selfReferenceName(from []*pg_query.Node, name string) string {
	for _, n := range from {
		switch x := n.GetNode().(type) {
		case *pg_query.Node_RangeVar:
			if x.RangeVar.Schemaname == "" && x.RangeVar.Relname == name {
				if x.RangeVar.Alias != nil {
					return x.RangeVar.Alias.Aliasname
				}
				return name
			}
		case *pg_query.Node_JoinExpr:
			if r := selfReferenceName([]*pg_query.Node{x.JoinExpr.Larg, x.JoinExpr.Rarg}, name); r != "" {
				return r
			}
		}
	}
	return ""
}

// carriedCount is how many hidden outputs carrySearchCycle adds.
func carriedCount(spec *plan.SearchCycle) int {
	n := 0
	if spec != nil && spec.Search {
		n++
	}
	if spec != nil && spec.Cycle {
		n++
	}
	return n
}
