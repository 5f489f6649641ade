package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// ALTER TABLE in storage. A column's identity is its attnum (PostgreSQL's
// pg_attribute.attnum): assigned at CREATE TABLE / ADD COLUMN, never reused,
// kept by RENAME and ALTER TYPE. Every segment records the attnums it holds
// (segment.layout), so a definition change that keeps the rows is
// metadata-only: a segment written before ADD COLUMN lacks the attnum and
// reads it as the column's Missing value (attmissingval), and a dropped
// column stays in the older segments, unread, under a hidden entry
// (tableState.dropped, pg_attribute's attisdropped rows).
//
// A change the stored rows must follow (ALTER TYPE, a volatile DEFAULT of a
// new column) is a rewrite: the transaction hides the committed rows
// (as TRUNCATE does) and holds every row again in the new layout, so the
// commit writes them as new segments named by its one manifest — the old
// or the new table survives a crash, never a mix.
//
// A commit changing a table's definition conflicts (40001) with a
// concurrent commit that wrote the table in the old definition, and a
// rewrite with any concurrent commit that changed its rows: PostgreSQL would
// have made one wait for the other's lock.

// Attributed is implemented by tables that keep dropped columns (the
// durable tables of DB): the hidden entries PostgreSQL lists in
// pg_attribute with attisdropped.
type Attributed interface {
	DroppedColumns() []ColumnDef
}

// DroppedColumns implements Attributed.
func (tt *txnTable) DroppedColumns() []ColumnDef {
	if d := tt.txn.def(tt.id); d != nil {
		return d.dropped
	}
	return nil
}

// droppedName is the name PostgreSQL gives a dropped column.
func droppedName(attnum int16) string {
	return fmt.Sprintf("........pg.dropped.%d........", attnum)
}

// assignAttnums numbers columns from 1 (CREATE TABLE).
func assignAttnums(cols []ColumnDef) []ColumnDef {
	out := make([]ColumnDef, len(cols))
	for i, c := range cols {
		c.Attnum, c.Missing = int16(i+1), nil
		out[i] = c
	}
	return out
}

// def is the definition of table id the transaction sees.
func (t *Txn) def(id uint64) *tableState {
	if c := t.p.created[id]; c != nil {
		return c
	}
	if a := t.p.altered[id]; a != nil {
		return a
	}
	return t.version().byID[id]
}

// noteSchema records the definition generation of the committed table a
// write of the transaction is made against (checked at commit).
func (t *Txn) noteSchema(tt *txnTable) {
	if t.p.created[tt.id] != nil {
		return
	}
	if _, ok := t.p.schema[tt.id]; ok {
		return
	}
	if cs := t.version().byID[tt.id]; cs != nil {
		t.p.schema[tt.id] = cs.ddl
	}
}

// Alter changes tb's definition in the transaction, keeping its rows: the
// table is renamed to name, and cols lists its live columns in order. A
// column of cols with Attnum 0 is new (it reads as its Missing value in the
// rows already stored); a current column left out of cols is dropped.
// Columns keep their types: a type change is a Rewrite.
func (t *Txn) Alter(ctx context.Context, tb Table, name string, cols []ColumnDef) error {
	return t.alter(tb, name, cols, nil, false)
}

// Rewrite changes tb's definition as Alter does and replaces all its rows
// by recs (in the layout of cols): the commit writes them as new segments.
func (t *Txn) Rewrite(ctx context.Context, tb Table, name string, cols []ColumnDef, recs []arrow.Record) error {
	return t.alter(tb, name, cols, recs, true)
}

func (t *Txn) alter(tb Table, name string, cols []ColumnDef, recs []arrow.Record, rewrite bool) error {
	if t.done {
		return errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	cur := t.def(tt.id)
	if name != cur.name {
		if t.view(name) != nil || t.viewDef(name) != nil {
			return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
		}
	}
	nd, err := cur.redefine(name, cols, rewrite)
	if err != nil {
		return err
	}
	if rewrite {
		sc := arrowSchema(nd.cols)
		out := make([]arrow.Record, 0, len(recs))
		for _, r := range recs {
			if int(r.NumCols()) != len(nd.cols) {
				return pgerr.New(pgerr.InternalError, "rewrite of %q: batch has %d columns, table has %d", BareName(tt.name), r.NumCols(), len(nd.cols))
			}
			for i, c := range nd.cols {
				if !arrow.TypeEqual(r.Column(i).DataType(), c.Type.ArrowType()) {
					return pgerr.New(pgerr.InternalError, "rewrite of %q: column %q has Arrow type %s, want %s", BareName(tt.name), c.Name, r.Column(i).DataType(), c.Type.ArrowType())
				}
			}
			if r.NumRows() > 0 {
				out = append(out, arrowRecordWithSchema(sc, r))
			}
		}
		if t.p.created[tt.id] == nil {
			if _, ok := t.p.rewrite[tt.id]; !ok && !t.p.truncated[tt.id] {
				t.p.rewrite[tt.id] = t.version().byID[tt.id].gen
			}
			t.p.truncated[tt.id] = true
		}
		t.p.appends[tt.id] = out
	} else if pend := t.p.appends[tt.id]; len(pend) > 0 {
		// The transaction's own rows follow the definition at once.
		conv := make([]arrow.Record, len(pend))
		for i, r := range pend {
			conv[i] = conform(r, cur.cols, nd.cols)
		}
		t.p.appends[tt.id] = conv
	}
	if t.p.created[tt.id] != nil {
		t.p.created[tt.id] = nd
	} else {
		t.p.altered[tt.id] = nd
	}
	return nil
}

// redefine returns a copy of t's definition (no rows) with the new name
// and live columns: new columns numbered after every attnum ever used,
// columns left out hidden as dropped.
func (t *tableState) redefine(name string, cols []ColumnDef, rewrite bool) (*tableState, error) {
	next := int16(1)
	old := map[int16]ColumnDef{}
	for _, c := range t.cols {
		old[c.Attnum] = c
		next = max(next, c.Attnum+1)
	}
	for _, c := range t.dropped {
		next = max(next, c.Attnum+1)
	}
	nd := &tableState{id: t.id, name: name, dropped: append([]ColumnDef(nil), t.dropped...), comment: t.comment, foreign: t.foreign, cons: t.cons, indexes: t.indexes}
	kept := map[int16]bool{}
	for _, c := range cols {
		if c.Attnum == 0 {
			c.Attnum = next
			next++
		} else {
			o, ok := old[c.Attnum]
			if !ok || kept[c.Attnum] {
				return nil, pgerr.New(pgerr.InternalError, "alter of %q: no column %d", BareName(t.name), c.Attnum)
			}
			if !rewrite && o.Type != c.Type {
				return nil, pgerr.New(pgerr.InternalError, "alter of %q: column %q changes type without a rewrite", BareName(t.name), c.Name)
			}
			c.Missing = o.Missing
			kept[c.Attnum] = true
		}
		if rewrite {
			c.Missing = nil // every row is stored again
		}
		nd.cols = append(nd.cols, c)
	}
	for _, c := range t.cols {
		if !kept[c.Attnum] {
			nd.dropped = append(nd.dropped, ColumnDef{Name: droppedName(c.Attnum), Type: c.Type, Attnum: c.Attnum})
		}
	}
	sortCols(nd.dropped)
	return nd, nil
}

func sortCols(cols []ColumnDef) {
	for i := 1; i < len(cols); i++ {
		for j := i; j > 0 && cols[j].Attnum < cols[j-1].Attnum; j-- {
			cols[j], cols[j-1] = cols[j-1], cols[j]
		}
	}
}

// validateAlters checks a transaction's definition changes and the
// definitions its writes were made against, before applyPending changes
// anything.
func validateAlters(work *version, p *pending) error {
	for id, g := range p.schema {
		if t := work.byID[id]; t != nil && t.ddl != g {
			return pgerr.New(codeSerialization, "could not serialize access: relation \"%s\" was altered by a concurrent transaction", BareName(t.name))
		}
	}
	for id, g := range p.rewrite {
		if t := work.byID[id]; t != nil && t.gen != g {
			return pgerr.New(codeSerialization, "could not serialize access: relation \"%s\" was changed by a concurrent transaction", BareName(t.name))
		}
	}
	renamedFrom := map[string]bool{}
	for id, d := range p.altered {
		t := work.byID[id]
		if t == nil {
			return concurrentDrop(d.name)
		}
		if d.name != t.name {
			renamedFrom[t.name] = true
		}
	}
	for id, d := range p.altered {
		if other, taken := work.tables[d.name]; taken && other.id != id && !renamedFrom[d.name] {
			if _, dropping := p.dropped[other.id]; !dropping {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(d.name))
			}
		}
		if _, isView := work.views[d.name]; isView {
			return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(d.name))
		}
	}
	return nil
}

// renamedAway reports whether p renames committed table t (freeing its name).
func renamedAway(p *pending, t *tableState) bool {
	d := p.altered[t.id]
	return d != nil && d.name != t.name
}

// applyAlters installs the transaction's definitions (after its drops, so
// a name a dropped table had may be taken).
func applyAlters(work *version, touched map[uint64]bool, p *pending) {
	var renamed []*tableState
	for id, d := range p.altered {
		t := mutable(work, touched, id)
		if t == nil {
			continue // dropped by the transaction after the change
		}
		if t.name != d.name {
			if work.tables[t.name] == t {
				delete(work.tables, t.name)
			}
			renamed = append(renamed, t)
		}
		t.name, t.cols, t.dropped, t.comment, t.foreign, t.ddl, t.enc = d.name, d.cols, d.dropped, d.comment, d.foreign, t.ddl+1, nil
		registerRowType(t) // rowtype.go
	}
	for _, t := range renamed {
		work.tables[t.name] = t
	}
}

// sameLayout reports whether records laid out as from read as to without
// any change (same attnums, types, names and nullability).
func sameLayout(from, to []ColumnDef) bool {
	if len(from) != len(to) {
		return false
	}
	for i := range from {
		if from[i].Attnum != to[i].Attnum || from[i].Type != to[i].Type || from[i].Name != to[i].Name || from[i].NotNull != to[i].NotNull {
			return false
		}
	}
	return true
}

// conform lays r (columns from) out as to: columns by attnum, a column r
// lacks as its Missing value (NULL if none).
func conform(r arrow.Record, from, to []ColumnDef) arrow.Record {
	if sameLayout(from, to) {
		return r
	}
	at := make(map[int16]int, len(from))
	for i, c := range from {
		at[c.Attnum] = i
	}
	n := r.NumRows()
	out := make([]arrow.Array, len(to))
	for i, c := range to {
		if j, ok := at[c.Attnum]; ok {
			out[i] = r.Column(j)
			continue
		}
		out[i] = constantArray(c, n)
	}
	return array.NewRecord(arrowSchema(to), out, n)
}

// constantArray is n copies of c's Missing value.
func constantArray(c ColumnDef, n int64) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, c.Type.ArrowType())
	defer b.Release()
	v := types.NullValue
	if c.Missing != nil {
		v = *c.Missing
	}
	b.Reserve(int(n))
	for i := int64(0); i < n; i++ {
		types.AppendValue(b, c.Type, v)
	}
	a := b.NewArray()
	a.NullN()
	return a
}

// statsFor lays a segment's statistics out as cols: a column the segment
// lacks has its Missing value in every row.
func (s *segment) statsFor(cols []ColumnDef) []colStats {
	if sameAttnums(s.layout, cols) {
		return s.stats
	}
	at := make(map[int16]int, len(s.layout))
	for i, c := range s.layout {
		at[c.Attnum] = i
	}
	out := make([]colStats, len(cols))
	for i, c := range cols {
		if j, ok := at[c.Attnum]; ok {
			out[i] = s.stats[j]
			continue
		}
		if c.Missing == nil || c.Missing.Null {
			out[i] = colStats{nulls: s.rows}
			continue
		}
		v := *c.Missing
		out[i] = colStats{has: true, min: v, max: v}
		out[i].sketch.add(types.Hash(v, c.Type))
	}
	return out
}

func sameAttnums(a, b []ColumnDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Attnum != b[i].Attnum {
			return false
		}
	}
	return true
}

// layoutKey identifies a target layout for segment.records' cache.
func layoutKey(cols []ColumnDef) string {
	var sb strings.Builder
	for _, c := range cols {
		sb.WriteString(strconv.Itoa(int(c.Attnum)))
		sb.WriteByte(':')
		sb.WriteString(c.Name)
		if c.NotNull {
			sb.WriteByte('!')
		}
		// An attnum a rolled-back ADD COLUMN used comes back in the next
		// one, with a type and Missing value of its own.
		fmt.Fprintf(&sb, ":%d:%d", c.Type.ID, c.Type.Typmod)
		if c.Missing != nil {
			sb.WriteByte('=')
			sb.Write(encodeValue(*c.Missing, c.Type))
		}
		sb.WriteByte(',')
	}
	return sb.String()
}

// attrsJSON lists a table's live and dropped columns by attnum for the
// manifest.
func (t *tableState) attrsJSON() []columnJSON {
	all := append(append([]ColumnDef(nil), t.cols...), t.dropped...)
	sortCols(all)
	dropped := map[int16]bool{}
	for _, c := range t.dropped {
		dropped[c.Attnum] = true
	}
	out := make([]columnJSON, 0, len(all))
	for _, c := range all {
		cj := columnJSON{Name: c.Name, OID: c.Type.CatalogOID(), Typmod: c.Type.Typmod, NotNull: c.NotNull, Default: c.Default, Attnum: c.Attnum, Dropped: dropped[c.Attnum], Comment: c.Comment, Identity: c.Identity}
		if c.Missing != nil {
			cj.HasMissing, cj.Missing = true, encodeValue(*c.Missing, c.Type)
		}
		out = append(out, cj)
	}
	return out
}

// segmentAttnums is a segment's attnums for the manifest: nil when they
// are 1..n (as every segment of a table never altered, and all segments
// of manifests written before attnums existed).
func segmentAttnums(layout []ColumnDef) []int16 {
	identity := true
	for i, c := range layout {
		if c.Attnum != int16(i+1) {
			identity = false
		}
	}
	if identity {
		return nil
	}
	out := make([]int16, len(layout))
	for i, c := range layout {
		out[i] = c.Attnum
	}
	return out
}

// segmentLayout resolves a segment's attnums (nil: 1..n) against a
// table's columns, live and dropped.
func segmentLayout(attnums []int16, n int, byAttnum map[int16]ColumnDef) ([]ColumnDef, error) {
	if attnums == nil {
		attnums = make([]int16, n)
		for i := range attnums {
			attnums[i] = int16(i + 1)
		}
	}
	out := make([]ColumnDef, len(attnums))
	for i, a := range attnums {
		c, ok := byAttnum[a]
		if !ok {
			return nil, fmt.Errorf("holds column %d, which the table never had", a)
		}
		out[i] = c
	}
	return out, nil
}

// RenameView renames a view, keeping its place in creation order (ID),
// which orders the dependents PostgreSQL lists.
func (t *Txn) RenameView(ctx context.Context, name, newName string) error {
	if t.done {
		return errDone
	}
	old := t.viewDef(name)
	if old == nil {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	if t.view(newName) != nil || t.viewDef(newName) != nil {
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", newName)
	}
	nv := copyView(*old)
	nv.Name = newName
	t.setView(name, nil)
	t.setView(newName, nv)
	return nil
}

// Commented is implemented by tables that keep COMMENT ON TABLE's text.
type Commented interface {
	Comment() string
}

// Comment implements Commented.
func (tt *txnTable) Comment() string {
	if d := tt.txn.def(tt.id); d != nil {
		return d.comment
	}
	return ""
}

// SetComment sets tb's COMMENT ON TABLE text ("" removes it).
func (t *Txn) SetComment(ctx context.Context, tb Table, comment string) error {
	return t.redefineAs(tb, func(nd *tableState) { nd.comment = comment })
}

// redefineAs gives tb, in this transaction, a new definition: its current
// one with change applied (columns and rows kept).
func (t *Txn) redefineAs(tb Table, change func(*tableState)) error {
	if t.done {
		return errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	cur := t.def(tt.id)
	nd, err := cur.redefine(cur.name, cur.cols, false)
	if err != nil {
		return err
	}
	change(nd)
	if t.p.created[tt.id] != nil {
		t.p.created[tt.id] = nd
	} else {
		t.p.altered[tt.id] = nd
	}
	return nil
}
