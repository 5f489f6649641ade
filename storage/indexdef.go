package storage

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Indexes: a table's index definitions live in its metadata (manifest field
// "indexes") and change in a transaction like any other write; the index
// data is the per-segment sorted runs of index.go, built when first used.
// A PRIMARY KEY or UNIQUE constraint (constraint.go) is served by an index
// of the constraint's name that IndexesOf derives from it, as PostgreSQL
// backs such constraints with an index.

// Index methods (pg_am.amname) joind accepts.
const (
	MethodBtree = "btree"
	MethodHash  = "hash"
)

// IndexDef is one index of a table.
type IndexDef struct {
	Name string `json:"name"`
	// Cols are the key columns by name, in key order (indkey).
	Cols    []string `json:"cols"`
	Unique  bool     `json:"unique,omitempty"`
	Primary bool     `json:"primary,omitempty"`
	Method  string   `json:"method"`
	// Constraint marks the index of a PRIMARY KEY or UNIQUE constraint
	// (derived by IndexesOf, never stored): it is dropped with the
	// constraint, not by DROP INDEX.
	Constraint bool `json:"-"`
	// ID is the index's storage id (its OID is ObjectID), set by the catalog.
	ID uint64 `json:"id"`
}

// ObjectID is the index's OID (pg_class.oid): numbered like tables'.
func (d IndexDef) ObjectID() uint32 { return FirstUserOID + 2*uint32(d.ID) }

// Indexed is implemented by tables that keep indexes (the tables of a DB,
// permanent or temporary).
type Indexed interface {
	Table
	// Indexes lists the table's own indexes (CREATE INDEX) in creation order.
	Indexes() []IndexDef
	// IndexLookup returns the table's live rows whose key on the columns of
	// def lies in kr (NULL keys never match), as batches with the matching
	// rows' positions: each batch's rows in key order.
	IndexLookup(def IndexDef, kr KeyRange) ([]IndexMatch, error)
	// FindDuplicate returns the first row of batch (rows of the table's
	// schema) whose key on def's columns equals the key of a live row of
	// the table (committed snapshot plus the transaction's pending rows) or
	// of an earlier row of batch; ok is false if there is none. Keys with a
	// NULL are never duplicates.
	FindDuplicate(def IndexDef, batch arrow.Record) (row int, ok bool, err error)
}

// IndexMatch is the rows of one batch an index lookup found: their
// positions in Record and their RowIDs.
type IndexMatch struct {
	Record arrow.Record
	Rows   []int
	IDs    []RowID
}

// IndexesOf returns every index of tb: those backing its PRIMARY KEY and
// UNIQUE constraints, then its own, by OID.
func IndexesOf(tb Table) []IndexDef {
	out := constraintIndexes(ConstraintsOf(tb))
	if ix, ok := tb.(Indexed); ok {
		out = append(out, ix.Indexes()...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// idxPending is a transaction's index changes: the replaced index lists of
// tables (committed ones, or ones it created).
type idxPending struct {
	db  *DB
	set map[uint64][]IndexDef
	// base is each replaced list as the transaction first read it: the
	// commit fails if another transaction changed it meanwhile.
	base map[uint64][]IndexDef
	// checked is the gen of each committed table at the transaction's
	// first uniqueness check of its rows (a unique index created, rows
	// added under one): the committer re-checks if it changed.
	checked map[uint64]uint64
	// checkedSegs are the table's segments at that first check: every
	// later statement's snapshot holds those still committed, so the
	// transaction's rows were checked against them and the committer
	// re-checks only the segments committed since (immutable sets).
	checkedSegs map[uint64]map[*segment]bool
}

func (ip *idxPending) clone() *idxPending {
	if ip == nil {
		return nil
	}
	n := &idxPending{db: ip.db, set: map[uint64][]IndexDef{}, base: map[uint64][]IndexDef{}, checked: map[uint64]uint64{}}
	for k, v := range ip.set {
		n.set[k] = v
	}
	for k, v := range ip.base {
		n.base[k] = v
	}
	for k, v := range ip.checked {
		n.checked[k] = v
	}
	if len(ip.checkedSegs) > 0 {
		n.checkedSegs = make(map[uint64]map[*segment]bool, len(ip.checkedSegs))
		for k, v := range ip.checkedSegs {
			n.checkedSegs[k] = v
		}
	}
	return n
}

func (ip *idxPending) empty() bool { return ip == nil || len(ip.set) == 0 }

func (t *Txn) idx() *idxPending {
	if t.p.idx == nil {
		t.p.idx = &idxPending{db: t.db, set: map[uint64][]IndexDef{}, base: map[uint64][]IndexDef{}, checked: map[uint64]uint64{}}
	}
	return t.p.idx
}

// Indexes implements Indexed.
func (tt *txnTable) Indexes() []IndexDef {
	p := tt.txn.p
	if p.idx != nil {
		if l, ok := p.idx.set[tt.id]; ok {
			return l
		}
	}
	if c := p.created[tt.id]; c != nil {
		return nil
	}
	if ts := tt.txn.version().byID[tt.id]; ts != nil {
		return ts.indexes
	}
	return nil
}

// committedIndexes is the table's index list in the transaction's snapshot.
func (tt *txnTable) committedIndexes() []IndexDef {
	if tt.txn.p.created[tt.id] != nil {
		return nil
	}
	if ts := tt.txn.version().byID[tt.id]; ts != nil {
		return ts.indexes
	}
	return nil
}

// relationTaken reports whether name is a view, sequence or index the
// transaction sees (they share PostgreSQL's relation namespace with tables).
func (t *Txn) relationTaken(name string) bool {
	if t.view(name) != nil || t.viewDef(name) != nil || t.seqDef(name) != nil {
		return true
	}
	_, _, ok := t.LookupIndex(name)
	return ok
}

// IndexKey is the relation key of index d of the table keyed table: an
// index lives in its table's schema, its definition keeps the bare name.
func IndexKey(table string, d IndexDef) string {
	sid, _ := SplitKey(table)
	return TableKey(sid, d.Name)
}

// LookupIndex finds an index (its own or a constraint's) by relation key.
func (t *Txn) LookupIndex(key string) (Table, IndexDef, bool) {
	for _, tb := range t.tablesQuiet() {
		for _, d := range IndexesOf(tb) {
			if IndexKey(tb.Name(), d) == key {
				return tb, d, true
			}
		}
	}
	return nil, IndexDef{}, false
}

// tablesQuiet lists the tables without counting as a read of the whole
// catalog (a SERIALIZABLE transaction's check).
func (t *Txn) tablesQuiet() []Table {
	ra := t.readAll
	out := t.Tables()
	t.readAll = ra
	return out
}

// CreateIndex adds def to tb (def.ID is assigned). The name must be free
// among relations (42P07); a unique index first checks that the rows the
// transaction sees have no duplicate key (23505, "could not create unique
// index"), and the committer checks again if others added rows since.
func (t *Txn) CreateIndex(ctx context.Context, tb Table, def IndexDef) (IndexDef, error) {
	if t.done {
		return def, errDone
	}
	tt, err := t.own(tb)
	if err != nil {
		return def, err
	}
	if t.relationTaken(IndexKey(tt.name, def)) {
		return def, pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", def.Name)
	}
	ords, err := ColumnOrdinals(tt.cols, def.Cols)
	if err != nil {
		return def, err
	}
	if def.Method == "" {
		def.Method = MethodBtree
	}
	if def.Unique {
		if err := tt.checkUnique(def.Name, ords); err != nil {
			return def, err
		}
	}
	def.ID = t.db.nextID.Add(1) - 1
	t.setIndexes(tt, append(append([]IndexDef(nil), tt.Indexes()...), def))
	if def.Unique {
		t.noteChecked(tt)
	}
	return def, nil
}

func (t *Txn) setIndexes(tt *txnTable, l []IndexDef) {
	ip := t.idx()
	if _, ok := ip.base[tt.id]; !ok && t.p.created[tt.id] == nil {
		ip.base[tt.id] = tt.committedIndexes()
	}
	ip.set[tt.id] = l
}

// DropIndex removes the table's own index keyed name (42704 if there is none).
func (t *Txn) DropIndex(ctx context.Context, name string) error {
	return t.changeIndex(name, func(l []IndexDef, i int) []IndexDef {
		return append(append([]IndexDef(nil), l[:i]...), l[i+1:]...)
	})
}

// RenameIndex renames the table's own index keyed name to the bare name
// to, in the same schema (42P07 if to is taken).
func (t *Txn) RenameIndex(ctx context.Context, name, to string) error {
	sid, _ := SplitKey(name)
	if toKey := TableKey(sid, to); name != toKey && t.relationTaken(toKey) {
		return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", to)
	}
	return t.changeIndex(name, func(l []IndexDef, i int) []IndexDef {
		n := append([]IndexDef(nil), l...)
		n[i].Name = to
		return n
	})
}

func (t *Txn) changeIndex(name string, f func([]IndexDef, int) []IndexDef) error {
	if t.done {
		return errDone
	}
	for _, tb := range t.tablesQuiet() {
		tt := tb.(*txnTable)
		l := tt.Indexes()
		for i, d := range l {
			if IndexKey(tt.name, d) == name {
				t.setIndexes(tt, f(l, i))
				return nil
			}
		}
	}
	return pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", BareName(name))
}

// Reindex forgets the built runs of tb's segments, so the next lookup
// rebuilds them (REINDEX; the runs are never stale, segments being
// immutable, so this only costs the rebuild).
func (t *Txn) Reindex(tb Table) {
	tt, ok := tb.(*txnTable)
	if !ok {
		return
	}
	if cs := tt.committed(); cs != nil {
		for _, s := range cs.segs {
			s.dropRuns()
		}
	}
	delete(t.pruns, tt.id)
}

// checkUnique fails if the rows the transaction sees have two equal keys
// on ords (CREATE UNIQUE INDEX over existing rows).
func (tt *txnTable) checkUnique(name string, ords []int) error {
	return duplicatedIn(name, tt.cols, ords, tt.Snapshot())
}

// duplicatedIn fails with PostgreSQL's CREATE UNIQUE INDEX error if two
// rows of recs have equal keys on ords.
func duplicatedIn(name string, cols []ColumnDef, ords []int, recs []arrow.Record) error {
	r := buildRun(recs, ords, keyTypes(cols, ords))
	for i := 1; i < len(r.order); i++ {
		if r.sameKey(i-1, i) {
			ri, row := r.locate(r.order[i])
			return pgerr.New(codeUniqueViolation, "could not create unique index \"%s\"", name).
				WithDetail("Key %s is duplicated.", KeyText(cols, ords, r.recs[ri], row, nil))
		}
	}
	return nil
}

// pendingRun returns the runs over the transaction's pending rows of tt.
func (tt *txnTable) pendingRuns(ords []int) []*run {
	recs := tt.txn.p.appends[tt.id]
	if len(recs) == 0 {
		return nil
	}
	t := tt.txn
	if t.pruns == nil {
		t.pruns = map[uint64]map[string]*pendingRuns{}
	}
	byKey := t.pruns[tt.id]
	if byKey == nil {
		byKey = map[string]*pendingRuns{}
		t.pruns[tt.id] = byKey
	}
	k := colsKey(ords)
	pr := byKey[k]
	if pr == nil || !pr.covers(recs) {
		pr = &pendingRuns{}
		byKey[k] = pr
	}
	pr.extend(recs, ords, keyTypes(tt.cols, ords))
	return pr.runs
}

// liveRun is a run of one segment with the segment's deleted rows: its
// offsets are those of the segment from base on.
type liveRun struct {
	r    *run
	seg  uint64
	base int64
	dels *DeleteVector
}

func (lr liveRun) live(off int32) bool { return !lr.dels.Deleted(lr.base + int64(off)) }

// containsLive reports whether a live row has key (full key, no NULL).
func (lr liveRun) containsLive(key []types.Value) bool {
	lo, hi := lr.r.span(EqualRange(key))
	for i := lo; i < hi; i++ {
		if lr.live(lr.r.order[i]) {
			return true
		}
	}
	return false
}

// runs returns every run of the rows tt sees on key ords, with the rows
// deleted in its snapshot or by its transaction.
func (tt *txnTable) runs(ords []int) ([]liveRun, error) {
	var out []liveRun
	mine := tt.txn.p.deletes[tt.id]
	if cs := tt.committed(); cs != nil {
		for _, s := range cs.segs {
			r, err := s.indexRun(tt.txn.db, cs.cols, ords)
			if err != nil {
				return nil, err
			}
			out = append(out, liveRun{r: r, seg: s.id, dels: union(cs.dels[s.id], mine[s.id])})
		}
	}
	seg := tt.txn.p.appendSeg[tt.id]
	var base int64
	for _, r := range tt.pendingRuns(ords) {
		out = append(out, liveRun{r: r, seg: seg, base: base, dels: mine[seg]})
		base += r.starts[len(r.recs)]
	}
	return out, nil
}

// IndexLookup implements Indexed.
func (tt *txnTable) IndexLookup(def IndexDef, kr KeyRange) ([]IndexMatch, error) {
	ords, err := ColumnOrdinals(tt.cols, def.Cols)
	if err != nil {
		return nil, err
	}
	runs, err := tt.runs(ords)
	if err != nil {
		return nil, err
	}
	var out []IndexMatch
	for _, lr := range runs {
		r := lr.r
		lo, hi := r.span(kr)
		if lo >= hi {
			continue
		}
		// Group the matches by batch, keeping key order within each.
		byRec := map[int]int{} // record index → position in out
		for _, off := range r.order[lo:hi] {
			if !lr.live(off) {
				continue
			}
			ri, row := r.locate(off)
			pos, ok := byRec[ri]
			if !ok {
				pos = len(out)
				byRec[ri] = pos
				out = append(out, IndexMatch{Record: r.recs[ri]})
			}
			out[pos].Rows = append(out[pos].Rows, row)
			out[pos].IDs = append(out[pos].IDs, MakeRowID(lr.seg, lr.base+int64(off)))
		}
	}
	return out, nil
}

// FindDuplicate implements Indexed. It reads the statement's snapshot, less
// the rows deleted by commits made since (PostgreSQL's unique check sees
// a committed delete whatever the snapshot: a REPEATABLE READ transaction
// may insert a key whose row a concurrent commit deleted). Rows committed
// since are the committer's re-check (validateUnique).
func (tt *txnTable) FindDuplicate(def IndexDef, batch arrow.Record) (int, bool, error) {
	ords, err := ColumnOrdinals(tt.cols, def.Cols)
	if err != nil {
		return 0, false, err
	}
	runs, err := tt.runs(ords)
	if err != nil {
		return 0, false, err
	}
	if now := tt.txn.db.cs.load().byID[tt.id]; now != nil && tt.committed() != nil {
		for i := range runs {
			if d := now.dels[runs[i].seg]; d != nil && now.segment(runs[i].seg) != nil && runs[i].seg != tt.txn.p.appendSeg[tt.id] {
				runs[i].dels = union(runs[i].dels, d)
			}
		}
	}
	row := firstDuplicate(runs, batch, ords, keyTypes(tt.cols, ords))
	return row, row >= 0, nil
}

// firstDuplicate returns the first row of batch whose key is on a live row
// of runs or on an earlier row of batch (-1: none).
func firstDuplicate(runs []liveRun, batch arrow.Record, ords []int, typs []types.Type) int {
	own := buildRun([]arrow.Record{batch}, ords, typs)
	first := -1
	note := func(row int) {
		if first < 0 || row < first {
			first = row
		}
	}
	// Within the batch: the later of two equal keys (runs keep equal keys
	// in row order).
	for i := 1; i < len(own.order); i++ {
		if own.sameKey(i-1, i) {
			note(int(own.order[i]))
		}
	}
	key := make([]types.Value, len(ords))
	for i := range own.order {
		row := int(own.order[i])
		if first >= 0 && row >= first {
			continue
		}
		switch {
		case own.ints != nil:
			key[0] = types.Value{I: own.ints[i]}
		case own.strs != nil:
			key[0] = types.Value{S: own.strs[i]}
		default:
			for c, o := range ords {
				key[c] = types.GetValue(batch.Column(o), typs[c], row)
			}
			if keyHasNull(key) {
				continue
			}
		}
		for _, lr := range runs {
			if lr.containsLive(key) {
				note(row)
				break
			}
		}
	}
	return first
}

// validateIndexes is the committer's check of a transaction's index
// changes against work: the index lists it replaced are unchanged, the
// names it gives are free, and the keys its unique indexes cover are still
// unique if others changed the table's rows since it checked them.
func validateIndexes(work *version, p *pending) error {
	ip := p.idx
	if ip == nil {
		return nil
	}
	for id, base := range ip.base {
		t := work.byID[id]
		if t == nil {
			continue // the drop check reports it
		}
		if !sameIndexes(t.indexes, base) {
			return pgerr.New(codeSerialization, "could not serialize access: the indexes of relation \"%s\" were changed by a concurrent transaction", BareName(t.name))
		}
	}
	if err := indexNamesFree(work, p); err != nil {
		return err
	}
	for id, gen := range ip.checked {
		t := work.byID[id]
		if t == nil || t.gen == gen || p.truncated[id] {
			continue
		}
		l := t.indexes
		if s, ok := ip.set[id]; ok {
			l = s
		}
		for _, d := range l {
			if d.Unique {
				if err := recheckUnique(ip.db, t, d, !isOld(d, ip, id), p.appends[id], p.deletes[id], ip.checkedSegs[id]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// recheckUnique checks, in the committer, unique index d of t (work's
// state, less the rows dels deletes: the committing transaction's
// deletes): all of its rows if the transaction created d, and the rows
// the transaction adds against them — against the segments not in checked
// (those of its first check, which its statements checked already).
func recheckUnique(db *DB, t *tableState, d IndexDef, whole bool, adds []arrow.Record, dels map[uint64]*DeleteVector, checked map[*segment]bool) error {
	ords, err := ColumnOrdinals(t.cols, d.Cols)
	if err != nil {
		return err
	}
	typs := keyTypes(t.cols, ords)
	var runs []liveRun
	var live []arrow.Record
	for _, s := range t.segs {
		if !whole && checked[s] {
			continue // the transaction's rows were checked against it
		}
		r, err := s.indexRun(db, t.cols, ords)
		if err != nil {
			return err
		}
		dv := union(t.dels[s.id], dels[s.id])
		runs = append(runs, liveRun{r: r, seg: s.id, dels: dv})
		if whole {
			live = append(live, liveRecords(r.recs, dv)...)
		}
	}
	if len(t.fresh) > 0 {
		runs = append(runs, liveRun{r: buildRun(t.fresh, ords, typs)})
		live = append(live, t.fresh...)
	}
	if whole {
		if err := duplicatedIn(d.Name, t.cols, ords, live); err != nil {
			return err
		}
	}
	for _, rec := range adds {
		if row := firstDuplicate(runs, rec, ords, typs); row >= 0 {
			return UniqueViolation(d.Name, t.cols, ords, rec, row, nil)
		}
	}
	return nil
}

// indexNamesFree fails if a name the transaction gives an index is taken
// in work by a table, a view or another index.
func indexNamesFree(work *version, p *pending) error {
	mine := map[uint64]bool{}
	var names []string
	for id, l := range p.idx.set {
		mine[id] = true
		table := p.nameOf(id)
		if t := work.byID[id]; t != nil && p.created[id] == nil {
			table = t.name
		}
		for _, d := range l {
			if !isOld(d, p.idx, id) {
				names = append(names, IndexKey(table, d))
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	taken := map[string]bool{}
	for name, t := range work.tables {
		if _, dropping := p.dropped[t.id]; dropping {
			continue // its name and its indexes' are free once it goes
		}
		taken[name] = true
		if !mine[t.id] {
			for _, d := range t.indexes {
				taken[IndexKey(name, d)] = true
			}
		}
	}
	for name := range work.views {
		taken[name] = true
	}
	for _, n := range names {
		if taken[n] {
			return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", BareName(n))
		}
	}
	return nil
}

// noteChecked records the gen of tt's committed rows at the transaction's
// first uniqueness check of them (the committer re-checks if it changed).
func (t *Txn) noteChecked(tt *txnTable) {
	if t.p.created[tt.id] != nil {
		return
	}
	ip := t.idx()
	if _, seen := ip.checked[tt.id]; seen {
		return
	}
	if ts := t.version().byID[tt.id]; ts != nil {
		ip.checked[tt.id] = ts.gen
		segs := make(map[*segment]bool, len(ts.segs))
		for _, s := range ts.segs {
			segs[s] = true
		}
		if ip.checkedSegs == nil {
			ip.checkedSegs = map[uint64]map[*segment]bool{}
		}
		ip.checkedSegs[tt.id] = segs
	}
}

// checkAppend enforces tt's unique indexes on batch before it is added.
func (t *Txn) checkAppend(tt *txnTable, batch arrow.Record) error {
	// The first row with a duplicate on any index fails, as PostgreSQL
	// inserts row by row (constraints' indexes too: constraint.go).
	first, at := -1, IndexDef{}
	for _, d := range IndexesOf(tt) {
		if !d.Unique {
			continue
		}
		t.noteChecked(tt)
		row, _, err := tt.FindDuplicate(d, batch)
		if err != nil {
			return err
		}
		if row >= 0 && (first < 0 || row < first) {
			first, at = row, d
		}
	}
	if first >= 0 {
		ords, _ := ColumnOrdinals(tt.cols, at.Cols)
		e := pgerr.As(UniqueViolation(at.Name, tt.cols, ords, batch, first, t.errFmt))
		return pgerr.Wrap(duplicateRow{first}, e.Code, "%s", e.Message).WithDetail("%s", e.Detail)
	}
	return nil
}

// duplicateRow carries the row of the batch a unique violation of Append
// names (AppendedRow).
type duplicateRow struct{ row int }

func (d duplicateRow) Error() string { return "duplicate key in row " + strconv.Itoa(d.row) }

// AppendedRow returns the row of its batch that Append's error names (a
// unique violation), so COPY can say which input line it was.
func AppendedRow(err error) (int, bool) {
	var d duplicateRow
	if errors.As(err, &d) {
		return d.row, true
	}
	return 0, false
}

func sameIndexes(a, b []IndexDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// applyIndexes installs the transaction's replaced index lists.
func applyIndexes(work *version, touched map[uint64]bool, p *pending) {
	if p.idx == nil {
		return
	}
	for id, l := range p.idx.set {
		if t := mutable(work, touched, id); t != nil {
			t.indexes = l
			t.enc = nil
		}
	}
}

// isOld reports whether d was in the table's committed index list when the
// transaction first changed it.
func isOld(d IndexDef, ip *idxPending, id uint64) bool {
	base, ok := ip.base[id]
	if !ok {
		return false // a table the transaction created
	}
	for _, b := range base {
		if b.ID == d.ID {
			return true
		}
	}
	return false
}

// RenameIndexColumns renames key columns of tb's own indexes (ALTER TABLE
// RENAME COLUMN: ren maps old names to new; constraints' indexes follow
// their constraints).
func (t *Txn) RenameIndexColumns(ctx context.Context, tb Table, ren map[string]string) error {
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	l := append([]IndexDef(nil), tt.Indexes()...)
	changed := false
	for i := range l {
		cols := append([]string(nil), l[i].Cols...)
		for c, name := range cols {
			if n, ok := ren[name]; ok {
				cols[c], changed = n, true
			}
		}
		l[i].Cols = cols
	}
	if changed {
		t.setIndexes(tt, l)
	}
	return nil
}

// DropIndexesOn drops tb's own indexes with column col in their key, as
// PostgreSQL drops them with the column (ALTER TABLE DROP COLUMN).
func (t *Txn) DropIndexesOn(ctx context.Context, tb Table, col string) error {
	tt, err := t.own(tb)
	if err != nil {
		return err
	}
	var keep []IndexDef
	for _, d := range tt.Indexes() {
		if !slices.Contains(d.Cols, col) {
			keep = append(keep, d)
		}
	}
	if len(keep) != len(tt.Indexes()) {
		t.setIndexes(tt, keep)
	}
	return nil
}
