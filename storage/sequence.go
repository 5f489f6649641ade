package storage

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Sequences. A sequence's definition (CREATE/ALTER/DROP SEQUENCE) is
// catalog metadata, transactional like a view's; its counter is not:
// nextval and setval change it at once, for every session, and a rolled
// back nextval is not returned again (PostgreSQL's rule). The counter lives
// in memory (seqRun, per sequence), and is made durable ahead of use as
// PostgreSQL's WAL does it: a nextval that has no logged values left
// commits, through the committer, a mark 32 values (plus the cache) ahead —
// "the sequence has reached this value" — and only then hands out its
// value. After a crash the sequence continues after the mark, so a value is
// never handed out twice; the unused values of the mark are a gap, as in
// PostgreSQL.
//
// A transaction's own counter (seqChange.run): a sequence it created, or
// restarted (ALTER SEQUENCE ... RESTART, TRUNCATE ... RESTART IDENTITY),
// counts in memory for that transaction alone — PostgreSQL's new
// relfilenode, which only the transaction sees — and is never marked: its
// state is published by the transaction's commit (a checkpoint, wal.go,
// whose manifest records the mark the counter would have logged, so the
// values it handed out are durable with the commit), and discarded by its
// rollback, when the shared counter goes on as if the restart never was.
// INVARIANTS: a committed sequence's shared counter (seqRun in db.seqRuns)
// only moves by marks and by commits that change the sequence (a new
// epoch); a transaction's own counter enters db.seqRuns only once its
// commit is published (seqEntry.run), and the entry's durable state is
// then the counter's own mark (seqRun.mark), at or past every value it
// handed out.

// Sequence is a sequence's definition.
type Sequence struct {
	Name string
	// ID is the storage id (from the tables' id space: OID = ObjectID).
	ID uint64
	// Type is AS smallint/integer/bigint (Int2, Int4, Int8).
	Type                              types.ID
	Start, Increment, Min, Max, Cache int64
	Cycle                             bool
	// OwnedTable and OwnedColumn: OWNED BY table.column (serial and
	// identity columns own theirs); "" = none. Dropping the table drops
	// the sequence.
	OwnedTable, OwnedColumn string
	// Comment is COMMENT ON SEQUENCE's text ("" = none).
	Comment string
	// Temp marks a session's temporary sequence (set by the catalog that
	// lists it; not stored).
	Temp bool
}

// ObjectID is the sequence's OID, from the same space as the tables'.
func (s Sequence) ObjectID() uint32 { return FirstUserOID + 2*uint32(s.ID) }

// SequenceState is a sequence's counter as SELECT * FROM s shows it.
type SequenceState struct {
	LastValue int64
	LogCnt    int64
	IsCalled  bool
}

// SequenceCatalog is implemented by the catalogs that keep sequences (a
// DB's transactions).
type SequenceCatalog interface {
	LookupSequence(name string) (Sequence, bool)
	Sequences() []Sequence
	// CreateSequence adds def (its ID is assigned); 42P07 if the name is
	// taken by any relation.
	CreateSequence(ctx context.Context, def Sequence) (Sequence, error)
	// AlterSequence replaces the definition of name by def (def.Name may
	// differ: RENAME TO); restart, when set, restarts the counter at it
	// (RESTART) when the transaction commits.
	AlterSequence(ctx context.Context, name string, def Sequence, restart *int64) error
	DropSequence(ctx context.Context, name string) error
	// NextVal advances the sequence by up to cache values: first is the
	// value to return, last the last value fetched (first == last unless
	// CACHE > 1; the session hands out the rest, PostgreSQL's per-backend
	// cache).
	NextVal(ctx context.Context, name string) (first, last int64, err error)
	// SetVal sets the counter (setval): is_called false makes the next
	// nextval return v itself.
	SetVal(ctx context.Context, name string, v int64, isCalled bool) error
	// SequenceState is the counter now.
	SequenceState(name string) (SequenceState, bool)
}

var _ SequenceCatalog = (*Txn)(nil)

// seqLogVals is PostgreSQL's SEQ_LOG_VALS: how many values a durable mark
// reserves beyond the ones asked for.
const seqLogVals = 32

// seqEntry is a committed sequence: its definition and its durable
// counter (the last mark). Immutable once published.
type seqEntry struct {
	def    Sequence
	last   int64
	called bool
	// epoch counts the commits that changed the definition or restarted
	// the counter; a counter in memory (seqRun) of an older epoch is
	// started afresh from the entry — or, unless restarted, continues
	// under the new definition. In memory only.
	epoch     uint64
	restarted bool // the epoch's commit set the counter (CREATE, RESTART)
	// run is the counter the epoch's commit published (a transaction's
	// own, which goes on as the shared one); nil: start from last.
	run *seqRun
}

// seqChange is a transaction's pending change to one sequence name.
type seqChange struct {
	def  *Sequence // nil: dropped (or renamed away)
	base *seqEntry // the committed entry under the name when first changed (nil: none)
	// from is the id of the committed sequence whose counter the new
	// definition keeps (ALTER, RENAME); 0: a new sequence.
	from uint64
	// run is the transaction's own counter of a sequence it created or
	// restarted: used by its nextval calls, never marked (the sequence,
	// or its restart, exists only if the transaction commits, and then
	// with the run's state). A restart starts a new run, so a savepoint's
	// copy of the change keeps the counter it had (ROLLBACK TO undoes the
	// restart, not the nextval calls, as PostgreSQL's does).
	run *seqRun
}

// seqMark is a durable reservation: sequence id's counter has reached
// last (is_called) as of epoch.
type seqMark struct {
	epoch  uint64
	last   int64
	called bool
}

// seqRun is a sequence's counter in memory.
type seqRun struct {
	mu     sync.Mutex
	epoch  uint64
	last   int64
	called bool
	logCnt int64 // values that may be handed out without a new mark
	// mark is, for a transaction's own counter, the mark it would have
	// logged last (PostgreSQL's WAL of its new relfilenode): what its
	// commit makes durable.
	mark seqMark
}

// ownRun is a transaction's own counter starting at v (not called).
func ownRun(v int64) *seqRun {
	return &seqRun{last: v, mark: seqMark{last: v}}
}

var errSeqStale = errors.New("sequence changed")

func cloneSeqs(m map[string]seqChange) map[string]seqChange {
	if m == nil {
		return nil
	}
	out := make(map[string]seqChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// seqDef is the definition the transaction sees under name.
func (t *Txn) seqDef(name string) *Sequence {
	t.noteRead(name)
	if ch, ok := t.p.seqs[name]; ok {
		return ch.def
	}
	if e := t.version().seqs[name]; e != nil {
		return &e.def
	}
	return nil
}

// LookupSequence implements SequenceCatalog.
func (t *Txn) LookupSequence(name string) (Sequence, bool) {
	if d := t.seqDef(name); d != nil {
		return *d, true
	}
	return Sequence{}, false
}

// Sequences implements SequenceCatalog; they are listed by name.
func (t *Txn) Sequences() []Sequence {
	t.readAll = true
	var out []Sequence
	for name, e := range t.version().seqs {
		if _, changed := t.p.seqs[name]; !changed {
			out = append(out, e.def)
		}
	}
	for _, ch := range t.p.seqs {
		if ch.def != nil {
			out = append(out, *ch.def)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (t *Txn) setSeq(name string, ch seqChange) {
	if t.p.seqs == nil {
		t.p.seqs = map[string]seqChange{}
	}
	if old, ok := t.p.seqs[name]; ok {
		ch.base = old.base
	} else {
		ch.base = t.version().seqs[name]
	}
	if ch.def == nil && ch.base == nil {
		delete(t.p.seqs, name)
		return
	}
	t.p.seqs[name] = ch
}

// CreateSequence implements SequenceCatalog.
func (t *Txn) CreateSequence(ctx context.Context, def Sequence) (Sequence, error) {
	if t.done {
		return Sequence{}, errDone
	}
	if t.relationTaken(def.Name) {
		return Sequence{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", def.Name)
	}
	def.ID = t.db.nextID.Add(1) - 1
	d := def
	t.setSeq(def.Name, seqChange{def: &d, run: ownRun(def.Start)})
	return def, nil
}

// AlterSequence implements SequenceCatalog.
func (t *Txn) AlterSequence(ctx context.Context, name string, def Sequence, restart *int64) error {
	if t.done {
		return errDone
	}
	old := t.seqDef(name)
	if old == nil {
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if def.Name != name && t.relationTaken(def.Name) {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", def.Name)
	}
	def.ID = old.ID
	prev := t.p.seqs[name]
	ch := seqChange{from: prev.from, run: prev.run}
	if _, changed := t.p.seqs[name]; !changed {
		ch.from = old.ID
	}
	if restart != nil {
		ch.run = ownRun(*restart)
	}
	d := def
	ch.def = &d
	if def.Name != name {
		t.setSeq(name, seqChange{})
	}
	t.setSeq(def.Name, ch)
	return nil
}

// DropSequence implements SequenceCatalog.
func (t *Txn) DropSequence(ctx context.Context, name string) error {
	if t.done {
		return errDone
	}
	if t.seqDef(name) == nil {
		return pgerr.New(pgerr.UndefinedTable, "sequence %q does not exist", name)
	}
	t.setSeq(name, seqChange{})
	return nil
}

// pendingRun is the transaction's own counter of a sequence it created or
// restarted (nil: the shared counter of a committed sequence counts).
func (t *Txn) pendingRun(name string) (*seqRun, *Sequence) {
	if ch, ok := t.p.seqs[name]; ok && ch.def != nil && ch.run != nil {
		return ch.run, ch.def
	}
	return nil, nil
}

// errAlteredHere refuses the counter of a committed sequence the
// transaction has altered without restarting it: PostgreSQL's transaction
// would count from the shared counter's state under the new parameters
// while other sessions wait on its lock, which joind's shared counter
// cannot give it before COMMIT without handing out values twice. A change
// that leaves the counter's parameters as they are (RENAME, OWNED BY,
// COMMENT: PostgreSQL rewrites no sequence data for those) keeps the
// shared counter usable; a restart gives the transaction its own
// (pendingRun).
func (t *Txn) errAlteredHere(fn, name string) error {
	if ch, ok := t.p.seqs[name]; ok && ch.def != nil && ch.from != 0 && ch.run == nil {
		if e := t.db.publishedSeq(ch.from); e != nil && sameCounter(e.def, *ch.def) {
			return nil
		}
		return pgerr.New(pgerr.FeatureNotSupported, "%s() of a sequence altered in the same transaction is not supported", fn)
	}
	return nil
}

// sameCounter reports whether a and b count alike.
func sameCounter(a, b Sequence) bool {
	return a.Type == b.Type && a.Start == b.Start && a.Increment == b.Increment && a.Min == b.Min &&
		a.Max == b.Max && a.Cache == b.Cache && a.Cycle == b.Cycle
}

// published finds sequence id in the latest committed version.
func (db *DB) publishedSeq(id uint64) *seqEntry {
	for _, e := range db.cs.load().seqs {
		if e.def.ID == id {
			return e
		}
	}
	return nil
}

// runFor is the in-memory counter of a committed sequence, started from
// the entry's durable state when none is current.
func (db *DB) runFor(e *seqEntry) *seqRun {
	db.seqMu.Lock()
	defer db.seqMu.Unlock()
	if db.seqRuns == nil {
		db.seqRuns = map[uint64]*seqRun{}
	}
	r := db.seqRuns[e.def.ID]
	switch {
	case (r == nil || r.epoch < e.epoch) && e.run != nil:
		// The counter a transaction counted on goes on (its commit
		// published it; nothing else holds it now).
		r = e.run
		r.mu.Lock()
		r.epoch = e.epoch
		r.mu.Unlock()
		db.seqRuns[e.def.ID] = r
	case r == nil || r.epoch < e.epoch && e.restarted:
		r = &seqRun{epoch: e.epoch, last: e.last, called: e.called}
		db.seqRuns[e.def.ID] = r
	case r.epoch < e.epoch:
		// ALTER without RESTART: the counter goes on (values it handed
		// out stay handed out) under the new definition, whose first
		// nextval logs a mark of its own.
		r.mu.Lock()
		r.epoch, r.logCnt = e.epoch, 0
		r.mu.Unlock()
	}
	return r
}

// fetch is PostgreSQL's nextval_internal on a counter: it returns the
// value to hand out, the last value of the cache, the value to log
// (when logit) and the counter's new state.
func fetch(def *Sequence, r *seqRun) (result, last, logged int64, logit bool, log int64, err error) {
	incby, maxv, minv, cache := def.Increment, def.Max, def.Min, def.Cache
	if cache < 1 {
		cache = 1
	}
	next := r.last
	result, last = r.last, r.last
	nfetch := cache
	log = r.logCnt
	var rescnt int64
	if !r.called {
		rescnt++
		nfetch--
	}
	if log < nfetch || !r.called {
		nfetch += seqLogVals
		log = nfetch
		logit = true
	}
	for nfetch > 0 {
		if incby > 0 {
			if (maxv >= 0 && next > maxv-incby) || (maxv < 0 && next+incby > maxv) {
				if rescnt > 0 {
					break
				}
				if !def.Cycle {
					return 0, 0, 0, false, 0, pgerr.New("2200H", "nextval: reached maximum value of sequence \"%s\" (%d)", def.Name, maxv)
				}
				next = minv
			} else {
				next += incby
			}
		} else {
			if (minv < 0 && next < minv-incby) || (minv >= 0 && next+incby < minv) {
				if rescnt > 0 {
					break
				}
				if !def.Cycle {
					return 0, 0, 0, false, 0, pgerr.New("2200H", "nextval: reached minimum value of sequence \"%s\" (%d)", def.Name, minv)
				}
				next = maxv
			} else {
				next += incby
			}
		}
		nfetch--
		if rescnt < cache {
			log--
			rescnt++
			last = next
			if rescnt == 1 {
				result = next
			}
		}
	}
	log -= nfetch
	return result, last, next, logit, log, nil
}

// NextVal implements SequenceCatalog.
func (t *Txn) NextVal(ctx context.Context, name string) (int64, int64, error) {
	if run, def := t.pendingRun(name); run != nil {
		run.mu.Lock()
		defer run.mu.Unlock()
		result, last, logged, logit, log, err := fetch(def, run)
		if err != nil {
			return 0, 0, err
		}
		if logit {
			run.mark = seqMark{last: logged, called: true}
		}
		run.last, run.called, run.logCnt = last, true, log
		return result, last, nil
	}
	d := t.seqDef(name)
	if d == nil {
		return 0, 0, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if err := t.errAlteredHere("nextval", name); err != nil {
		return 0, 0, err
	}
	for {
		e := t.db.publishedSeq(d.ID)
		if e == nil {
			return 0, 0, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		r := t.db.runFor(e)
		result, last, err := t.db.advance(ctx, e, r)
		if err == errSeqStale {
			continue
		}
		return result, last, err
	}
}

// advance takes the next values of a committed sequence's counter, logging
// a mark first when the counter has no logged values left.
func (db *DB) advance(ctx context.Context, e *seqEntry, r *seqRun) (int64, int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.epoch != e.epoch {
		return 0, 0, errSeqStale
	}
	result, last, logged, logit, log, err := fetch(&e.def, r)
	if err != nil {
		return 0, 0, err
	}
	if logit {
		if err := db.mark(e.def.ID, seqMark{epoch: e.epoch, last: logged, called: true}); err != nil {
			return 0, 0, err
		}
	}
	r.last, r.called, r.logCnt = last, true, log
	return result, last, nil
}

// mark commits a durable reservation through the committer.
func (db *DB) mark(id uint64, m seqMark) error {
	p := newPending()
	p.seqMarks = map[uint64]seqMark{id: m}
	return db.submit(&commitReq{p: p})
}

// SetVal implements SequenceCatalog.
func (t *Txn) SetVal(ctx context.Context, name string, v int64, isCalled bool) error {
	check := func(d *Sequence) error {
		if v < d.Min || v > d.Max {
			return pgerr.New(pgerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)", v, d.Name, d.Min, d.Max)
		}
		return nil
	}
	if run, def := t.pendingRun(name); run != nil {
		if err := check(def); err != nil {
			return err
		}
		run.mu.Lock()
		run.last, run.called, run.logCnt = v, isCalled, 0
		run.mark = seqMark{last: v, called: isCalled}
		run.mu.Unlock()
		return nil
	}
	d := t.seqDef(name)
	if d == nil {
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if err := check(d); err != nil {
		return err
	}
	if err := t.errAlteredHere("setval", name); err != nil {
		return err
	}
	for {
		e := t.db.publishedSeq(d.ID)
		if e == nil {
			return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		r := t.db.runFor(e)
		err := func() error {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.epoch != e.epoch {
				return errSeqStale
			}
			if err := t.db.mark(e.def.ID, seqMark{epoch: e.epoch, last: v, called: isCalled}); err != nil {
				return err
			}
			r.last, r.called, r.logCnt = v, isCalled, 0
			return nil
		}()
		if err == errSeqStale {
			continue
		}
		return err
	}
}

// SequenceState implements SequenceCatalog.
func (t *Txn) SequenceState(name string) (SequenceState, bool) {
	if run, _ := t.pendingRun(name); run != nil {
		run.mu.Lock()
		defer run.mu.Unlock()
		return SequenceState{LastValue: run.last, LogCnt: run.logCnt, IsCalled: run.called}, true
	}
	d := t.seqDef(name)
	if d == nil {
		return SequenceState{}, false
	}
	e := t.db.publishedSeq(d.ID)
	if e == nil {
		return SequenceState{}, false
	}
	r := t.db.runFor(e)
	r.mu.Lock()
	defer r.mu.Unlock()
	return SequenceState{LastValue: r.last, LogCnt: r.logCnt, IsCalled: r.called}, true
}

// validateSeqs checks p's sequence changes and marks against work; a
// change conflicting with a concurrent commit fails the commit whole. A
// mark of a sequence changed since (another epoch) is stale: the nextval
// that made it starts again.
func validateSeqs(work *version, p *pending) error {
	for id, m := range p.seqMarks {
		e := seqByID(work, id)
		if e == nil || e.epoch != m.epoch {
			return errSeqStale
		}
	}
	for name, ch := range p.seqs {
		cur := work.seqs[name]
		if (cur == nil) != (ch.base == nil) || cur != nil && (cur.def.ID != ch.base.def.ID || cur.epoch != ch.base.epoch) {
			if ch.base == nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
			return pgerr.New(codeSerialization, "could not serialize access: sequence %q was changed by a concurrent transaction", name)
		}
		if ch.def == nil {
			continue
		}
		if ch.from != 0 && seqByID(work, ch.from) == nil {
			return concurrentDrop(name)
		}
		if tb, taken := work.tables[name]; taken {
			if _, dropping := p.dropped[tb.id]; !dropping {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
		if _, taken := work.views[name]; taken {
			if vc, changed := p.views[name]; !changed || vc.def != nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
		for _, tb := range p.created {
			if tb.name == name {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
	}
	for _, tb := range p.created {
		if _, isSeq := work.seqs[tb.name]; isSeq {
			if ch, changed := p.seqs[tb.name]; !changed || ch.def != nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", BareName(tb.name))
			}
		}
	}
	for name, vc := range p.views {
		if _, isSeq := work.seqs[name]; isSeq && vc.def != nil {
			if ch, changed := p.seqs[name]; !changed || ch.def != nil {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
			}
		}
	}
	return nil
}

func seqByID(v *version, id uint64) *seqEntry {
	for _, e := range v.seqs {
		if e.def.ID == id {
			return e
		}
	}
	return nil
}

// applySeqs applies p's sequence changes and marks to work (the map is
// copied: published versions share it).
func applySeqs(work *version, p *pending) {
	if len(p.seqs) == 0 && len(p.seqMarks) == 0 {
		return
	}
	next := make(map[string]*seqEntry, len(work.seqs)+len(p.seqs))
	for k, e := range work.seqs {
		next[k] = e
	}
	for id, m := range p.seqMarks {
		e := seqByID(work, id)
		n := *e
		n.last, n.called = m.last, m.called
		next[e.def.Name] = &n
	}
	// The counters the new definitions keep, before any name is removed.
	carried := map[uint64]*seqEntry{}
	for _, ch := range p.seqs {
		if ch.def != nil && ch.from != 0 {
			carried[ch.from] = seqByID(work, ch.from)
		}
	}
	for name, ch := range p.seqs {
		if ch.def == nil {
			delete(next, name)
		}
	}
	for name, ch := range p.seqs {
		if ch.def == nil {
			continue
		}
		e := &seqEntry{def: *ch.def, epoch: 1, restarted: true}
		if old := carried[ch.from]; old != nil {
			e.restarted = false
			e.last, e.called, e.epoch = old.last, old.called, old.epoch+1
		}
		if ch.run != nil {
			// The transaction's own counter (created or restarted)
			// replaces the shared one.
			ch.run.mu.Lock()
			e.last, e.called, e.restarted, e.run = ch.run.mark.last, ch.run.mark.called, true, ch.run
			ch.run.mu.Unlock()
		}
		next[name] = e
	}
	work.seqs = next
}

// seqJSON is a sequence's manifest entry: its definition and durable mark.
type seqJSON struct {
	Name        string `json:"name"`
	ID          uint64 `json:"id"`
	TypeOID     uint32 `json:"type_oid"`
	Start       int64  `json:"start"`
	Increment   int64  `json:"increment"`
	Min         int64  `json:"min"`
	Max         int64  `json:"max"`
	Cache       int64  `json:"cache"`
	Cycle       bool   `json:"cycle,omitempty"`
	OwnedTable  string `json:"owned_table,omitempty"`
	OwnedColumn string `json:"owned_column,omitempty"`
	Comment     string `json:"comment,omitempty"`
	Last        int64  `json:"last"`
	Called      bool   `json:"called,omitempty"`
}

func sortedSeqs(v *version) []seqJSON {
	out := make([]seqJSON, 0, len(v.seqs))
	for _, e := range v.seqs {
		d := e.def
		out = append(out, seqJSON{Name: d.Name, ID: d.ID, TypeOID: types.Type{ID: d.Type, Typmod: -1}.OID(), Start: d.Start,
			Increment: d.Increment, Min: d.Min, Max: d.Max, Cache: d.Cache, Cycle: d.Cycle,
			OwnedTable: d.OwnedTable, OwnedColumn: d.OwnedColumn, Comment: d.Comment, Last: e.last, Called: e.called})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func decodeSeqs(v *version, seqs []seqJSON) error {
	if len(seqs) == 0 {
		return nil
	}
	v.seqs = make(map[string]*seqEntry, len(seqs))
	for _, s := range seqs {
		if _, dup := v.seqs[s.Name]; dup {
			return fmt.Errorf("sequence %q listed twice", s.Name)
		}
		if _, dup := v.tables[s.Name]; dup {
			return fmt.Errorf("%q is both a table and a sequence", s.Name)
		}
		if _, dup := v.views[s.Name]; dup {
			return fmt.Errorf("%q is both a view and a sequence", s.Name)
		}
		id, ok := typeByOID[s.TypeOID]
		if !ok || id != types.Int2 && id != types.Int4 && id != types.Int8 {
			return fmt.Errorf("sequence %q has type OID %d", s.Name, s.TypeOID)
		}
		// A restarted server's counter continues after the mark: every
		// value up to it may have been handed out.
		v.seqs[s.Name] = &seqEntry{def: Sequence{Name: s.Name, ID: s.ID, Type: id, Start: s.Start, Increment: s.Increment,
			Min: s.Min, Max: s.Max, Cache: s.Cache, Cycle: s.Cycle, OwnedTable: s.OwnedTable, OwnedColumn: s.OwnedColumn, Comment: s.Comment},
			last: s.Last, called: s.Called, epoch: 1}
	}
	return nil
}
