package distsim

import (
	"context"
	"fmt"

	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Cutting the optimizer's physical plan into fragments (docs/distributed.md,
// "Mapping the physical plan"): a fragment is a maximal subtree without an
// exchange; each Gather or Repartition below it is an input fragment.

// PlanFragment is one fragment of a physical plan.
type PlanFragment struct {
	Root *optimizer.Physical
	// Below is the exchange this fragment's output goes through (OpGather
	// or OpRepartition; for the top fragment, none: OpScan).
	Below  optimizer.Op
	Inputs []*PlanFragment
}

// Cut cuts p at its exchanges.
func Cut(p *optimizer.Physical) *PlanFragment {
	if p.Op == optimizer.OpGather || p.Op == optimizer.OpRepartition {
		// The root's exchange: the coordinator's, above one fragment.
		f := Cut(p.Inputs[0])
		f.Below = p.Op
		return &PlanFragment{Root: p, Below: optimizer.OpScan, Inputs: []*PlanFragment{f}}
	}
	top := &PlanFragment{Root: p, Below: optimizer.OpScan}
	var walk func(n *optimizer.Physical)
	walk = func(n *optimizer.Physical) {
		for _, in := range n.Inputs {
			if in.Op == optimizer.OpGather || in.Op == optimizer.OpRepartition {
				f := Cut(in.Inputs[0])
				f.Below = in.Op
				top.Inputs = append(top.Inputs, f)
				continue
			}
			walk(in)
		}
	}
	walk(p)
	return top
}

// PlanShape plans query over tables dp (id, g, x) and db (g, y), all int8,
// with partitions partitions and hash joins of mode joinMode
// (optimizer.Options.JoinMode: "" chooses by size), and returns the plan, its fragments and the
// simulation's fragment for its one hash join: the join kind and the key
// and scope columns (as column ordinals of dp, the probe, and db, the
// build) the optimizer chose.
func PlanShape(query string, partitions int, joinMode string) (*optimizer.Physical, *PlanFragment, Fragment, error) {
	cat := storage.NewMemoryCatalog()
	ctx := context.Background()
	i8 := types.Int8Type
	if _, err := cat.Create(ctx, "dp", []storage.ColumnDef{{Name: "id", Type: i8, Attnum: 1}, {Name: "g", Type: i8, Attnum: 2}, {Name: "x", Type: i8, Attnum: 3}}); err != nil {
		return nil, nil, Fragment{}, err
	}
	if _, err := cat.Create(ctx, "db", []storage.ColumnDef{{Name: "g", Type: i8, Attnum: 1}, {Name: "y", Type: i8, Attnum: 2}}); err != nil {
		return nil, nil, Fragment{}, err
	}
	raws, err := sql.Parse(query)
	if err != nil {
		return nil, nil, Fragment{}, err
	}
	st, err := sql.Bind(raws[0], cat, &sql.BindOptions{})
	if err != nil {
		return nil, nil, Fragment{}, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, nil, Fragment{}, fmt.Errorf("%s: not a query", query)
	}
	phys, err := optimizer.Plan(q.Plan, q.IDs, optimizer.Options{Partitions: partitions, JoinMode: joinMode})
	if err != nil {
		return nil, nil, Fragment{}, err
	}
	var joins []*optimizer.Physical
	var find func(n *optimizer.Physical)
	find = func(n *optimizer.Physical) {
		if n.Op == optimizer.OpHashJoin {
			joins = append(joins, n)
		}
		for _, in := range n.Inputs {
			find(in)
		}
	}
	find(phys)
	if len(joins) != 1 {
		return phys, Cut(phys), Fragment{}, fmt.Errorf("%s: %d hash joins in the plan", query, len(joins))
	}
	fr, err := joinFragment(joins[0])
	return phys, Cut(phys), fr, err
}

// joinFragment is the simulation's fragment of hash join j.
func joinFragment(j *optimizer.Physical) (Fragment, error) {
	jp := j.Join
	fr := Fragment{ProbeScope: -1, BuildScope: -1}
	switch jp.Type {
	case plan.AntiJoin:
		fr.Op = "anti"
	case plan.SemiJoin:
		fr.Op = "semi"
	case plan.InnerJoin:
		fr.Op = "inner"
	default:
		return fr, fmt.Errorf("join type %d is not a simulated shape", jp.Type)
	}
	// The plan's sides are (build, probe); the simulation's probe is dp.
	dpKeys, dbKeys := jp.ProbeKeys, jp.BuildKeys
	if t, _, _ := keyColumn(j.Inputs[0], jp.BuildKeys[0]); t == "dp" {
		dpKeys, dbKeys = jp.BuildKeys, jp.ProbeKeys
	}
	ords := func(keys []plan.Expr, want string) ([]int, error) {
		var out []int
		for _, k := range keys {
			var t string
			var o int
			var ok bool
			for _, side := range j.Inputs {
				if t, o, ok = keyColumn(side, k); ok && t == want {
					break
				}
			}
			if !ok || t != want {
				return nil, fmt.Errorf("join key %s is not a column of %s", plan.FormatExpr(k), want)
			}
			out = append(out, o)
		}
		return out, nil
	}
	p, err := ords(dpKeys, "dp")
	if err != nil {
		return fr, err
	}
	b, err := ords(dbKeys, "db")
	if err != nil {
		return fr, err
	}
	values := len(p)
	if jp.NullAware && jp.ValueKeys > 0 {
		values = jp.ValueKeys
	}
	if values != 1 || len(p) > 2 {
		return fr, fmt.Errorf("%d value keys and %d scope keys: not a simulated shape", values, len(p)-values)
	}
	fr.ProbeKey, fr.BuildKey = p[0], b[0]
	if len(p) == 2 {
		fr.ProbeScope, fr.BuildScope = p[1], b[1]
	}
	return fr, nil
}

// keyColumn is the table and column ordinal a key column reads, found
// below n (ok false: not a plain column of one scan).
func keyColumn(n *optimizer.Physical, k plan.Expr) (string, int, bool) {
	r, ok := k.(*plan.ColRef)
	if !ok {
		return "", 0, false
	}
	if pr, ok := n.Logical.(*plan.Project); ok {
		for i, c := range pr.Cols {
			if c.ID == r.ID {
				k = pr.Exprs[i] // the column the projection passes on
			}
		}
	}
	if s, ok := n.Logical.(*plan.Scan); ok {
		for i, c := range s.Cols {
			if c.ID == r.ID {
				return storage.BareName(s.Table.Name()), s.Ordinals[i], true
			}
		}
	}
	for _, in := range n.Inputs {
		if t, o, ok := keyColumn(in, k); ok {
			return t, o, true
		}
	}
	return "", 0, false
}
