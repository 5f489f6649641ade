package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// RETURNING of INSERT, UPDATE and DELETE: a projection over the statement's
// rows. The statements' Source queries end with these columns.

// bindReturning binds a RETURNING list in s (whose items show the rows the
// statement writes: the new row of INSERT and UPDATE, the old row of
// DELETE) and puts a Project computing it over input: input's columns keep
// their IDs, followed by one column per RETURNING output. It returns the
// new node and the RETURNING columns (nil, input unchanged, for no list).
func (b *binder) bindReturning(s *scope, input plan.Node, list []*pg_query.Node) (plan.Node, []plan.Column, error) {
	if len(list) == 0 {
		return input, nil, nil
	}
	s.agg, s.exprKind = nil, "RETURNING"
	var targets []*target
	for _, tn := range list {
		rt := tn.GetResTarget()
		if len(rt.Indirection) > 0 {
			return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "subscripts are not supported"), rt.Location)
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && isStar(cr) {
			ts, err := b.expandStar(s, cr)
			if err != nil {
				return nil, nil, err
			}
			targets = append(targets, ts...)
			continue
		}
		e, err := b.bindExpr(s, rt.Val)
		if err != nil {
			return nil, nil, err
		}
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
		}
		targets = append(targets, &target{expr: e, name: name, loc: nodeLocation(rt.Val)})
	}
	p := passThrough(input)
	var cols []plan.Column
	for _, t := range targets {
		e := b.resolveUnknown(t.expr)
		col := plan.Column{ID: b.ids.Next(), Name: t.name, Type: e.Type()}
		if ref, ok := e.(*plan.ColRef); ok {
			if o, ok := b.colOrigin[ref.ID]; ok {
				col.TableOID, col.AttNum = o.TableOID, o.AttNum
			}
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, col)
		cols = append(cols, col)
	}
	return p, cols, nil
}

// passThrough is a Project over n yielding n's columns under their own IDs,
// so expressions bound over n's columns stay valid above it.
func passThrough(n plan.Node) *plan.Project {
	p := &plan.Project{Input: n}
	for _, c := range n.Columns() {
		p.Exprs = append(p.Exprs, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
		p.Cols = append(p.Cols, c)
	}
	return p
}

// rowItem is the namespace item of the row a statement writes, named name,
// whose columns are cols (one per table column, in table order).
func rowItem(name string, cols []plan.Column, notNull []bool) *nsItem {
	it := &nsItem{name: name, relVisible: true, colsVisible: true, stored: true}
	for i, c := range cols {
		it.cols = append(it.cols, nsColumn{name: c.Name, table: name, notNull: notNull[i],
			expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}})
	}
	return it
}
