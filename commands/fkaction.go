package commands

import (
	"context"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The row versions an UPDATE, DELETE or MERGE replaces, read by RowID
// before they are deleted, and the referenced side of FOREIGN KEYs over
// them: NO ACTION / RESTRICT fail, CASCADE / SET NULL / SET DEFAULT
// rewrite the referencing rows (which may cascade further).

// rowsByID returns the rows ids of t (live in the transaction), one
// record per run of consecutive rows, in the order of ids.
func rowsByID(t storage.Table, ids []storage.RowID) ([]arrow.Record, error) {
	sg, ok := t.(storage.Segmented)
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "table %q has no row ids", t.Name())
	}
	type seg struct {
		recs   []arrow.Record
		starts []int64
	}
	segs := map[uint64]*seg{}
	for _, s := range sg.Segments() {
		x := &seg{recs: s.Records}
		var off int64
		for _, r := range s.Records {
			x.starts = append(x.starts, off)
			off += r.NumRows()
		}
		segs[s.ID] = x
	}
	var out []arrow.Record
	var cur arrow.Record
	var from, to int64 // the run cur[from, to)
	flush := func() {
		if cur != nil {
			out = append(out, cur.NewSlice(from, to))
			cur = nil
		}
	}
	for _, id := range ids {
		s := segs[id.Segment()]
		if s == nil {
			return nil, pgerr.New(pgerr.InternalError, "row %d of table %q is gone", id, t.Name())
		}
		off := id.Offset()
		k := sort.Search(len(s.starts), func(i int) bool { return s.starts[i] > off }) - 1
		if k < 0 || off-s.starts[k] >= s.recs[k].NumRows() {
			return nil, pgerr.New(pgerr.InternalError, "row %d of table %q is gone", id, t.Name())
		}
		r, row := s.recs[k], off-s.starts[k]
		if cur == r && row == to {
			to++
			continue
		}
		flush()
		cur, from, to = r, row, row+1
	}
	flush()
	return out, nil
}

// liveRows calls fn with each live row of t and its RowID.
func liveRows(t storage.Table, fn func(r arrow.Record, row int, id storage.RowID)) error {
	sg, ok := t.(storage.Segmented)
	if !ok {
		return pgerr.New(pgerr.InternalError, "table %q has no row ids", t.Name())
	}
	for _, s := range sg.Segments() {
		var off int64
		for _, r := range s.Records {
			for i := 0; i < int(r.NumRows()); i++ {
				if !s.Deleted(off + int64(i)) {
					fn(r, i, storage.MakeRowID(s.ID, off+int64(i)))
				}
			}
			off += r.NumRows()
		}
	}
	return nil
}

// CheckReferenced is the referenced side of the FOREIGN KEYs on t, for a
// statement that replaced the rows old of t (DELETE: newer is nil; UPDATE:
// newer[i] is old[i]'s new version, row for row), after the new rows were
// added. As PostgreSQL's RI triggers, an UPDATE row whose key did not
// change is left alone; for a removed or changed key held by referencing
// rows, NO ACTION fails with 23503 unless another row of t has the key
// now, RESTRICT fails, CASCADE deletes the referencing rows (DELETE) or
// gives them the new key (UPDATE), SET NULL / SET DEFAULT set their key.
func CheckReferenced(ctx context.Context, s Session, t storage.Table, old, newer []arrow.Record) error {
	if len(old) == 0 {
		return nil
	}
	cat := s.Catalog()
	refs := referencing(cat, map[string]bool{t.Name(): true}, cat.IsTemp(t))
	for _, c := range storage.ConstraintsOf(t) {
		if c.Kind == storage.ConForeign && c.RefTable == t.Name() {
			refs = append(refs, fkRef{t.Name(), t, c})
		}
	}
	if len(refs) == 0 {
		return nil
	}
	defs := t.Columns()
	ob, err := concat(defs, old)
	if err != nil {
		return err
	}
	var nb arrow.Record
	if newer != nil {
		if nb, err = concat(defs, newer); err != nil {
			return err
		}
	}
	for _, r := range refs {
		child := r.tb
		if r.table == t.Name() {
			child, _ = cat.txnOf(t).Lookup(t.Name())
		}
		if child == nil {
			continue
		}
		if err := referencedAction(ctx, s, t, child, r.con, ob, nb); err != nil {
			return err
		}
	}
	return nil
}

// referencedAction applies c (a FOREIGN KEY of child on parent) to the
// replaced rows ob of parent (nb: their new versions, nil for DELETE).
func referencedAction(ctx context.Context, s Session, parent, child storage.Table, c storage.Constraint, ob, nb arrow.Record) error {
	cat, f := s.Catalog(), s.Format()
	pdefs, cdefs := parent.Columns(), child.Columns()
	pords, err := storage.ColumnOrdinals(pdefs, c.RefCols)
	if err != nil {
		return err
	}
	cords, err := storage.ColumnOrdinals(cdefs, c.Cols)
	if err != nil {
		return err
	}
	action := c.OnDelete
	if nb != nil {
		action = c.OnUpdate
	}
	// The removed keys (text) → the row of ob that had it.
	gone := map[string]int{}
	for i := 0; i < int(ob.NumRows()); i++ {
		k, ok := keyString(ob, i, pords, pdefs)
		if !ok {
			continue
		}
		if nb != nil {
			if nk, ok := keyString(nb, i, pords, pdefs); ok && nk == k {
				continue // key unchanged: no trigger fires
			}
		}
		if _, dup := gone[k]; !dup {
			gone[k] = i
		}
	}
	if len(gone) == 0 {
		return nil
	}
	// The referencing rows holding a removed key.
	var ids []storage.RowID
	var which []int // their ob row
	if err := liveRows(child, func(r arrow.Record, row int, id storage.RowID) {
		if k, ok := keyString(r, row, cords, cdefs); ok {
			if i, hit := gone[k]; hit {
				ids = append(ids, id)
				which = append(which, i)
			}
		}
	}); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	switch action {
	case storage.FKNoAction, storage.FKRestrict:
		for _, i := range which {
			if action == storage.FKNoAction {
				still, err := keyPresent(parent, c, ob, i, pords, pdefs)
				if err != nil {
					return err
				}
				if still {
					continue
				}
			}
			return pgerr.New(codeForeignKeyViolation, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"",
				storage.BareName(parent.Name()), c.Name, storage.BareName(child.Name())).
				WithDetail("Key %s is still referenced from table \"%s\".", storage.KeyText(pdefs, pords, ob, i, f), storage.BareName(child.Name()))
		}
		return nil
	}
	crows, err := rowsByID(child, ids)
	if err != nil {
		return err
	}
	cold, err := concat(cdefs, crows)
	if err != nil {
		return err
	}
	if err := cat.Delete(ctx, child, ids); err != nil {
		return err
	}
	if action == storage.FKCascade && nb == nil {
		return CheckReferenced(ctx, s, child, []arrow.Record{cold}, nil)
	}
	// The referencing rows' new versions: the key columns replaced.
	cols := make([]arrow.Array, len(cdefs))
	for j := range cdefs {
		cols[j] = cold.Column(j)
	}
	var defaults arrow.Record
	if action == storage.FKSetDefault {
		q, err := sql.DefaultQuery(child, cords, []arrow.Record{cold}, cat, nil)
		if err != nil {
			return err
		}
		out, err := s.Collect(ctx, q)
		if err != nil {
			return err
		}
		qdefs := make([]storage.ColumnDef, len(cords))
		for k, o := range cords {
			qdefs[k] = cdefs[o]
		}
		if defaults, err = concat(qdefs, out); err != nil {
			return err
		}
	}
	// ON DELETE SET NULL / SET DEFAULT (cols) sets only those.
	set := map[int]bool{}
	for k, o := range cords {
		set[k] = nb != nil || len(c.DeleteSetCols) == 0 || slices.Contains(c.DeleteSetCols, cdefs[o].Name)
	}
	for k, o := range cords {
		if !set[k] {
			continue
		}
		switch action {
		case storage.FKCascade:
			vals := make([]types.Value, len(which))
			for n, i := range which {
				vals[n] = types.GetValue(nb.Column(pords[k]), pdefs[pords[k]].Type, i)
			}
			cols[o] = valuesArray(cdefs[o].Type, vals)
		case storage.FKSetNull:
			vals := make([]types.Value, len(which))
			for n := range vals {
				vals[n] = types.NullValue
			}
			cols[o] = valuesArray(cdefs[o].Type, vals)
		case storage.FKSetDefault:
			cols[o] = defaults.Column(k)
		default:
			return pgerr.New(pgerr.InternalError, "unknown foreign key action %q", action)
		}
	}
	fields := make([]arrow.Field, len(cdefs))
	for j, d := range cdefs {
		fields[j] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
	}
	cnew := array.NewRecord(arrow.NewSchema(fields, nil), cols, cold.NumRows())
	if action == storage.FKSetDefault {
		// A default equal to the removed key still references it
		// (PostgreSQL's ri_set looks again).
		for n := range which {
			if k, ok := keyString(cnew, n, cords, cdefs); ok {
				if i, hit := gone[k]; hit {
					return pgerr.New(codeForeignKeyViolation, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"",
						storage.BareName(parent.Name()), c.Name, storage.BareName(child.Name())).
						WithDetail("Key %s is still referenced from table \"%s\".", storage.KeyText(pdefs, pords, ob, i, f), storage.BareName(child.Name()))
				}
			}
		}
	}
	if _, err := addRows(ctx, s, child, []arrow.Record{cnew}, []arrow.Record{cold}, ids); err != nil {
		return err
	}
	return CheckReferenced(ctx, s, child, []arrow.Record{cold}, []arrow.Record{cnew})
}

// keyPresent reports whether parent still has row i of ob's key on c's
// referenced columns (another row took it, or the UPDATE kept it).
func keyPresent(parent storage.Table, c storage.Constraint, ob arrow.Record, i int, pords []int, pdefs []storage.ColumnDef) (bool, error) {
	pix, ok := parent.(storage.Indexed)
	var pkey storage.IndexDef
	for _, d := range storage.IndexesOf(parent) {
		if d.Unique && sameCols(d.Cols, c.RefCols) {
			pkey = d
		}
	}
	if !ok || pkey.Name == "" {
		return false, pgerr.New(pgerr.InternalError, "the key of table %q that foreign key %q references has no index", parent.Name(), c.Name)
	}
	key := make([]types.Value, len(pkey.Cols))
	for j, kc := range pkey.Cols {
		for m, rc := range c.RefCols {
			if rc == kc {
				key[j] = types.GetValue(ob.Column(pords[m]), pdefs[pords[m]].Type, i)
			}
		}
	}
	m, err := pix.IndexLookup(pkey, storage.EqualRange(key))
	return len(m) > 0, err
}

// valuesArray builds an array of type t from vals.
func valuesArray(t types.Type, vals []types.Value) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, t.ArrowType())
	defer b.Release()
	for _, v := range vals {
		types.AppendValue(b, t, v)
	}
	return b.NewArray()
}
