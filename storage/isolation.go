package storage

import (
	"github.com/joind/joind/pgerr"
)

// Isolation is a transaction's isolation level, as PostgreSQL's
// transaction_isolation setting names them.
type Isolation uint8

const (
	// ReadCommitted (and READ UNCOMMITTED, which PostgreSQL runs as it):
	// each statement reads the latest committed version.
	ReadCommitted Isolation = iota
	// RepeatableRead: one snapshot, taken at the transaction's first
	// statement that needs one, read by every statement of the
	// transaction (plus its own changes).
	RepeatableRead
	// Serializable: RepeatableRead's snapshot plus the commit check of
	// serialCheck.
	Serializable
)

// ParseIsolation reads a transaction_isolation value.
func ParseIsolation(s string) Isolation {
	switch s {
	case "repeatable read":
		return RepeatableRead
	case "serializable":
		return Serializable
	}
	return ReadCommitted
}

// TakeSnapshot marks the statement now running (its snapshot pinned by
// Begin or NewStatement before it was bound) as one that needs a snapshot,
// as PostgreSQL's every statement but transaction control, SET and SHOW:
// under REPEATABLE READ and SERIALIZABLE the first such statement's
// snapshot becomes the transaction's, and later NewStatements keep it.
// iso is the level in effect (PostgreSQL fixes it at this point too).
func (t *Txn) TakeSnapshot(iso Isolation) {
	if t.done || t.taken {
		return
	}
	t.taken, t.iso = true, iso
	if iso >= RepeatableRead {
		// Background compaction waits for it (compactOnce): a RowID it
		// reads stays valid to its end.
		t.db.fixedSnaps.Add(1)
		t.fixed = true
	}
}

// SnapshotTaken reports whether a statement of the transaction has taken
// its snapshot (after which PostgreSQL refuses to change the isolation
// level).
func (t *Txn) SnapshotTaken() bool { return t.taken }

// InSavepoint reports whether a savepoint is open (PostgreSQL's
// subtransaction, in which the isolation level cannot change either).
func (t *Txn) InSavepoint() bool { return len(t.savepoints) > 0 }

// catalogEntry resolves a table name for a transaction with a fixed
// snapshot as PostgreSQL does: in the latest committed catalog (its
// catalog snapshot), while the rows still come from the transaction's
// snapshot — so a table created since reads as empty and one dropped since
// does not exist. A table once resolved stays what it was: PostgreSQL holds
// its lock to the transaction's end, so no one could have dropped or
// replaced it meanwhile.
func (t *Txn) catalogEntry(name string) *tableState {
	if cs, ok := t.resolved[name]; ok {
		return cs
	}
	cs := t.db.cs.load().tables[name]
	if cs == nil {
		return nil
	}
	if t.resolved == nil {
		t.resolved = map[string]*tableState{}
	}
	t.resolved[name] = cs
	return cs
}

// catalogView is catalogEntry for a view.
func (t *Txn) catalogView(name string) *View {
	if v, ok := t.resolvedViews[name]; ok {
		return v
	}
	v := t.db.cs.load().views[name]
	if v == nil {
		return nil
	}
	if t.resolvedViews == nil {
		t.resolvedViews = map[string]*View{}
	}
	t.resolvedViews[name] = v
	return v
}

// noteRead records that the transaction read name (a table or view, or
// its absence) from its snapshot, for serialCheck.
func (t *Txn) noteRead(name string) {
	if t.reads == nil {
		t.reads = map[string]bool{}
	}
	t.reads[name] = true
}

// serialCheck is what a SERIALIZABLE transaction read, checked when it
// commits.
//
// INVARIANT (serializability, conservative): a SERIALIZABLE transaction
// that changes anything commits only if no table or view it read — by
// name, including names it found absent; every name when it listed the
// catalog — was created, dropped, appended to, truncated or replaced by a
// commit published after its snapshot. Such a transaction therefore reads
// exactly what it would read at its commit point, and, as the committer
// applies commits one at a time, the SERIALIZABLE writers are equivalent
// to running one by one in commit order, each read-only one at its
// snapshot. This aborts more often than PostgreSQL's SSI (any concurrent
// change to a read table, not only a dangerous structure) and never admits
// a non-serializable commit. Reads are by table, so an insert into a read
// table counts (PostgreSQL's predicate locks on a sequential scan cover
// the whole relation too).
type serialCheck struct {
	snap  *version
	names map[string]bool
	all   bool // the catalog was listed: any table or view added conflicts
}

func (c *serialCheck) check(work *version) error {
	same := func(name string) bool {
		a, b := c.snap.tables[name], work.tables[name]
		if (a == nil) != (b == nil) || a != nil && (a.id != b.id || a.gen != b.gen) {
			return false
		}
		return c.snap.views[name] == work.views[name]
	}
	for name := range c.names {
		if !same(name) {
			return errSerialization()
		}
	}
	if c.all {
		if len(c.snap.tables) != len(work.tables) || len(c.snap.views) != len(work.views) {
			return errSerialization()
		}
		for name := range work.tables {
			if !same(name) {
				return errSerialization()
			}
		}
		for name := range work.views {
			if !same(name) {
				return errSerialization()
			}
		}
	}
	return nil
}

// errSerialization is PostgreSQL's SSI failure at commit.
func errSerialization() error {
	return &pgerr.Error{Code: codeSerialization,
		Message: "could not serialize access due to read/write dependencies among transactions",
		Detail:  "Reason code: Canceled on identification as a pivot, during commit attempt.",
		Hint:    "The transaction might succeed if retried."}
}
