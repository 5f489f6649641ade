package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// CREATE TYPE ... AS ENUM, ALTER TYPE ... ADD VALUE / RENAME VALUE and DROP
// TYPE, as PostgreSQL's typecmds.c and pg_enum.c: labels get their
// pg_enum sort orders as EnumValuesCreate and AddEnumLabel assign them
// (1..n, then one past an end or the midpoint of two neighbours, the
// labels renumbered when float4 has no midpoint left), and an order key
// (types.EnumKeyBetween) that stored values keep for good.

func createEnum(ctx context.Context, s Session, x *sql.CreateEnum) (string, error) {
	keys := types.EnumKeys(len(x.Labels))
	u := storage.UserType{Schema: x.Schema, Name: x.Name, Kind: 'e'}
	seen := map[string]bool{}
	dup := ""
	for i, l := range x.Labels {
		if seen[l] && dup == "" {
			dup = l
		}
		seen[l] = true
		u.Labels = append(u.Labels, types.EnumLabel{Label: l, Key: keys[i], SortOrder: float32(i + 1)})
	}
	created, err := s.Catalog().Txn.CreateType(ctx, u)
	if err != nil {
		return "", err
	}
	if dup != "" {
		return "", pgerr.New("23505", "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"").
			WithDetail("Key (enumtypid, enumlabel)=(%d, %s) already exists.", created.OID(), dup)
	}
	return "CREATE TYPE", nil
}

func alterEnum(ctx context.Context, s Session, x *sql.AlterEnum) (string, error) {
	u := x.Type
	labels := append([]types.EnumLabel(nil), u.Labels...)
	find := func(l string) int {
		for i := range labels {
			if labels[i].Label == l {
				return i
			}
		}
		return -1
	}
	if x.Old != "" {
		i := find(x.Old)
		if i < 0 {
			return "", pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", x.Old)
		}
		if x.New != x.Old && find(x.New) >= 0 {
			return "", pgerr.New("42710", "enum label \"%s\" already exists", x.New)
		}
		labels[i].Label = x.New
	} else {
		if find(x.New) >= 0 {
			if x.IfNotExists {
				return "ALTER TYPE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42710",
					Message: fmt.Sprintf("enum label \"%s\" already exists, skipping", x.New)})
			}
			return "", pgerr.New("42710", "enum label \"%s\" already exists", x.New)
		}
		var err error
		if labels, err = addEnumLabel(labels, x.New, x.Neighbor, x.After); err != nil {
			return "", err
		}
	}
	u.Labels = labels
	if _, err := s.Catalog().Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	return "ALTER TYPE", nil
}

// addEnumLabel is AddEnumLabel: labels (in order) with label added at the
// end, or before / after neighbor.
func addEnumLabel(labels []types.EnumLabel, label, neighbor string, after bool) ([]types.EnumLabel, error) {
	n := len(labels)
	if neighbor == "" {
		order := float32(1)
		key := types.EnumKeyBetween("", "")
		if n > 0 {
			order = maxSortOrder(labels) + 1
			key = types.EnumKeyBetween(labels[n-1].Key, "")
		}
		return append(labels, types.EnumLabel{Label: label, Key: key, SortOrder: order}), nil
	}
	at := -1
	for i := range labels {
		if labels[i].Label == neighbor {
			at = i
		}
	}
	if at < 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", neighbor)
	}
	// The key: between the neighbour and the label on the other side.
	lo, hi := "", ""
	if after {
		lo = labels[at].Key
		if at+1 < n {
			hi = labels[at+1].Key
		}
	} else {
		hi = labels[at].Key
		if at > 0 {
			lo = labels[at-1].Key
		}
	}
	key := types.EnumKeyBetween(lo, hi)
	// The sort order, in sort-order terms (which match key order).
	for {
		byOrder := append([]types.EnumLabel(nil), labels...)
		sort.Slice(byOrder, func(i, j int) bool { return byOrder[i].SortOrder < byOrder[j].SortOrder })
		nbr := -1
		for i := range byOrder {
			if byOrder[i].Label == neighbor {
				nbr = i
			}
		}
		other := nbr - 1
		if after {
			other = nbr + 1
		}
		var order float32
		switch {
		case other < 0:
			order = byOrder[nbr].SortOrder - 1
		case other >= n:
			order = byOrder[nbr].SortOrder + 1
		default:
			a, b := byOrder[nbr].SortOrder, byOrder[other].SortOrder
			mid := (a + b) / 2
			if mid == a || mid == b {
				renumberEnum(labels)
				continue
			}
			order = mid
		}
		out := append(labels, types.EnumLabel{Label: label, Key: key, SortOrder: order})
		sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
		return out, nil
	}
}

func maxSortOrder(labels []types.EnumLabel) float32 {
	m := labels[0].SortOrder
	for _, l := range labels[1:] {
		if l.SortOrder > m {
			m = l.SortOrder
		}
	}
	return m
}

// renumberEnum is RenumberEnumType: sort orders 1..n in the current order.
func renumberEnum(labels []types.EnumLabel) {
	idx := make([]int, len(labels))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return labels[idx[i]].SortOrder < labels[idx[j]].SortOrder })
	for rank, i := range idx {
		labels[i].SortOrder = float32(rank + 1)
	}
}

// typeColumn is a table column whose type is a user type or its array.
type typeColumn struct {
	table  storage.Table
	column string
	array  bool
}

// columnsOfType lists the stored tables' columns of type u (or u[]), by
// table name then column order.
func columnsOfType(cat *Catalog, u storage.UserType) []typeColumn {
	var out []typeColumn
	for _, tb := range cat.Txn.Tables() {
		for _, c := range tb.Columns() {
			t := c.Type
			if t.UserOID != u.OID() && t.Domain != u.OID() {
				continue
			}
			out = append(out, typeColumn{table: tb, column: c.Name, array: t.ID == types.Array})
		}
	}
	return out
}

func dropType(ctx context.Context, s Session, x *sql.DropType) (string, error) {
	for _, m := range x.Missing {
		if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("type \"%s\" does not exist, skipping", m)}); err != nil {
			return "", err
		}
	}
	cat := s.Catalog()
	var deps []typeColumn
	var lines []string
	var domains []storage.UserType             // domains over a dropped type
	over := func(d, u storage.UserType) bool { // d is a domain right over u
		if d.Base.Domain != 0 {
			return d.Base.Domain == u.OID()
		}
		return d.Base.UserOID == u.OID()
	}
	// The named types, then the domains over them, found as they are met.
	queue := append([]storage.UserType(nil), x.Types...)
	for qi := 0; qi < len(queue); qi++ {
		u := queue[qi]
		for _, d := range cat.Txn.UserTypes() {
			if d.Kind == 'd' && over(d, u) {
				domains = append(domains, d)
				queue = append(queue, d)
				if x.Cascade {
					lines = append(lines, "drop cascades to type "+d.Name)
				} else {
					lines = append(lines, fmt.Sprintf("type %s depends on type %s", d.Name, u.Name))
				}
			}
		}
		var own []dependentLine // in PostgreSQL's order (usertypes_composite.go)
		for _, c := range columnsOfType(cat, u) {
			deps = append(deps, c)
			name := u.Name
			if c.array {
				name += "[]"
			}
			line := fmt.Sprintf("column %s of table %s depends on type %s", c.column, storage.BareName(c.table.Name()), name)
			if x.Cascade {
				line = fmt.Sprintf("drop cascades to column %s of table %s", c.column, storage.BareName(c.table.Name()))
			}
			own = append(own, columnDependent(u, c, line))
		}
		lines = append(lines, sortDependents(append(own, compositeDependents(cat, u, x.Cascade)...))...)
	}
	if len(lines) > 0 && !x.Cascade {
		return "", pgerr.New(codeDependentObjects, "cannot drop type %s because other objects depend on it", x.Types[0].Name).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(lines) > 0 {
		n := &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: lines[0]}
		if len(lines) > 1 {
			n.Message = fmt.Sprintf("drop cascades to %d other objects", len(lines))
			n.Detail = strings.Join(lines, "\n")
		}
		if err := s.Notice(n); err != nil {
			return "", err
		}
		for _, d := range deps {
			tb, ok := cat.Txn.Lookup(d.table.Name())
			if !ok {
				continue
			}
			cols, ord := columns(tb, d.column)
			if ord < 0 {
				continue
			}
			if err := dropColumnConstraints(ctx, s, tb, d.column, true); err != nil {
				return "", err
			}
			if err := cat.Txn.DropIndexesOn(ctx, tb, d.column); err != nil {
				return "", err
			}
			if err := cat.Txn.Alter(ctx, tb, tb.Name(), append(cols[:ord], cols[ord+1:]...)); err != nil {
				return "", err
			}
		}
	}
	for _, u := range append(domains, x.Types...) {
		if x.Cascade {
			if err := dropCompositeAttrs(ctx, cat, u); err != nil {
				return "", err
			}
		}
		if err := cat.Txn.DropType(ctx, u.ID); err != nil {
			return "", err
		}
	}
	if x.Domain {
		return "DROP DOMAIN", nil
	}
	return "DROP TYPE", nil
}

func renameType(ctx context.Context, s Session, x *sql.RenameType) (string, error) {
	u := x.Type
	u.Name = x.New
	if _, err := s.Catalog().Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	if x.Domain {
		return "ALTER DOMAIN", nil
	}
	return "ALTER TYPE", nil
}

func createDomain(ctx context.Context, s Session, x *sql.CreateDomain) (string, error) {
	u := storage.UserType{Schema: x.Schema, Name: x.Name, Kind: 'd', Base: x.Base, NotNull: x.NotNull,
		Default: x.Default, Checks: x.Checks}
	if _, err := s.Catalog().Txn.CreateType(ctx, u); err != nil {
		return "", err
	}
	return "CREATE DOMAIN", nil
}
