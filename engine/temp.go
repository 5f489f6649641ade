package engine

import (
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// Temporary tables (CREATE TEMP TABLE) belong to one session: they live in
// an in-memory storage.DB of the session's own, made at the first CREATE
// TEMP TABLE and closed at disconnect, so nothing of them reaches the data
// directory or another session. Statements see them through a
// sessionCatalog: pg_temp in front of the permanent tables, as in
// PostgreSQL's search path. The temporary tables' transaction follows the
// statement's or block's (begun when first needed, committed or rolled
// back with it, savepoints mirrored), and ON COMMIT DELETE ROWS / DROP run
// at each commit.

// tempTables is a session's temporary-table state.
type tempTables struct {
	db  *storage.DB  // nil until the first temporary table
	txn *storage.Txn // the current transaction's (nil: not begun)
	// onCommit holds the tables with ON COMMIT DELETE ROWS or DROP.
	onCommit map[string]sql.OnCommit
	// savepoints are the savepoints made while txn was open, innermost
	// last: a ROLLBACK TO one made before it undoes all of txn.
	savepoints []string
}

// current returns the temporary tables' transaction, beginning it if
// there are temporary tables (nil: none).
func (t *tempTables) current() *storage.Txn {
	if t.db == nil {
		return nil
	}
	if t.txn == nil {
		t.txn = t.db.Begin()
		t.savepoints = nil
	}
	return t.txn
}

// create makes a temporary table in the current transaction.
func (s *session) createTemp(ctx context.Context, name string, cols []storage.ColumnDef, oc sql.OnCommit) (storage.Table, error) {
	if s.temp.db == nil {
		// Ids from 1<<30 give temporary tables object ids (OIDs in
		// RowDescription) no permanent table has.
		db, err := storage.Open("", storage.Options{NoSync: true, NoCompaction: true, Logger: s.eng.log, FirstID: 1 << 30})
		if err != nil {
			return nil, err
		}
		s.temp.db, s.temp.onCommit = db, map[string]sql.OnCommit{}
	}
	t, err := s.temp.current().Create(ctx, name, cols)
	if err != nil {
		return nil, err
	}
	if oc != sql.PreserveRows {
		s.temp.onCommit[name] = oc
	}
	return t, nil
}

// endTemp commits or rolls back the temporary tables' transaction, running
// the ON COMMIT actions first.
func (s *session) endTemp(ctx context.Context, commit bool) {
	t := s.temp.txn
	s.temp.txn, s.temp.savepoints = nil, nil
	if t == nil {
		return
	}
	if !commit {
		t.Rollback()
		s.pruneOnCommit()
		return
	}
	names := make([]string, 0, len(s.temp.onCommit))
	for n := range s.temp.onCommit {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tb, ok := t.Lookup(n)
		if !ok {
			continue
		}
		if s.temp.onCommit[n] == sql.DropOnCommit {
			_ = t.Drop(ctx, n)
			delete(s.temp.onCommit, n)
		} else {
			_ = t.Truncate(ctx, []storage.Table{tb})
		}
	}
	if err := t.Commit(ctx); err != nil {
		s.eng.log.Error("temporary tables: commit failed", "err", err)
	}
	s.pruneOnCommit()
}

// pruneOnCommit forgets the ON COMMIT actions of tables that no longer
// exist (created in a transaction that rolled back, dropped).
func (s *session) pruneOnCommit() {
	if len(s.temp.onCommit) == 0 {
		return
	}
	t := s.temp.db.Begin()
	defer t.Rollback()
	for n := range s.temp.onCommit {
		if _, ok := t.Lookup(n); !ok {
			delete(s.temp.onCommit, n)
		}
	}
}

// closeTemp drops every temporary table (session end).
func (s *session) closeTemp() {
	if s.temp.txn != nil {
		s.temp.txn.Rollback()
		s.temp.txn = nil
	}
	if s.temp.db != nil {
		_ = s.temp.db.Close()
		s.temp.db = nil
	}
}

// discardTemp is DISCARD TEMP: drop the session's temporary tables.
func (s *session) discardTemp(ctx context.Context) error {
	t := s.temp.current()
	if t == nil {
		return nil
	}
	for _, tb := range t.Tables() {
		if err := t.Drop(ctx, tb.Name()); err != nil {
			return err
		}
	}
	return nil
}

// Session-local transactional state — settings and temporary tables —
// ends with the transaction it belongs to.

func (s *session) localCommit(ctx context.Context) {
	s.settings.Commit()
	s.endTemp(ctx, true)
}

func (s *session) localAbort() {
	s.settings.Abort()
	s.endTemp(context.Background(), false)
}

func (s *session) localSavepoint(name string) {
	s.settings.Savepoint(name)
	if s.temp.txn != nil {
		s.temp.txn.Savepoint(name)
		s.temp.savepoints = append(s.temp.savepoints, name)
	}
}

func (s *session) localRelease(name string) {
	s.settings.Release(name)
	if s.temp.txn != nil && s.temp.txn.Release(name) == nil {
		s.popTempSavepoint(name, false)
	}
}

func (s *session) localRollbackTo(name string) {
	s.settings.RollbackTo(name)
	if s.temp.txn == nil {
		return
	}
	if s.temp.txn.RollbackTo(name) == nil {
		s.popTempSavepoint(name, true)
		return
	}
	// The savepoint is older than the temporary tables' transaction:
	// everything in it came after the savepoint.
	s.endTemp(context.Background(), false)
}

// popTempSavepoint forgets the savepoints above name (and name itself
// unless keep).
func (s *session) popTempSavepoint(name string, keep bool) {
	for i := len(s.temp.savepoints) - 1; i >= 0; i-- {
		if s.temp.savepoints[i] == name {
			if keep {
				i++
			}
			s.temp.savepoints = s.temp.savepoints[:i]
			return
		}
	}
}

// sessionCatalog is what a session's statements bind with and write
// through: its temporary tables in front of the transaction's permanent
// ones (sql.TempCatalog).
type sessionCatalog struct {
	*storage.Txn // the permanent tables; views are always permanent
	s            *session
}

var _ sql.TempCatalog = (*sessionCatalog)(nil)

func (s *session) catalogOf(t *storage.Txn) *sessionCatalog {
	if t == nil {
		return nil
	}
	if tt := s.temp.current(); tt != nil {
		tt.NewStatement()
	}
	return &sessionCatalog{Txn: t, s: s}
}

func (c *sessionCatalog) temp() *storage.Txn { return c.s.temp.current() }

// Lookup finds a temporary table first, then a permanent one.
func (c *sessionCatalog) Lookup(name string) (storage.Table, bool) {
	if t := c.temp(); t != nil {
		if tb, ok := t.Lookup(name); ok {
			return tb, true
		}
	}
	return c.Txn.Lookup(name)
}

// LookupIn implements sql.TempCatalog.
func (c *sessionCatalog) LookupIn(schema, name string) (storage.Table, bool) {
	if schema == "pg_temp" {
		if t := c.temp(); t != nil {
			return t.Lookup(name)
		}
		return nil, false
	}
	return c.Txn.Lookup(name)
}

// IsTemp implements sql.TempCatalog.
func (c *sessionCatalog) IsTemp(tb storage.Table) bool {
	t := c.temp()
	return t != nil && t.Holds(tb)
}

// Drop drops the temporary table of that name if there is one.
func (c *sessionCatalog) Drop(ctx context.Context, name string) error {
	if t := c.temp(); t != nil {
		if _, ok := t.Lookup(name); ok {
			return t.Drop(ctx, name)
		}
	}
	return c.Txn.Drop(ctx, name)
}

// Append writes to whichever catalog holds the table.
func (c *sessionCatalog) Append(ctx context.Context, tb storage.Table, batch arrow.Record) error {
	if c.IsTemp(tb) {
		return c.temp().Append(ctx, tb, batch)
	}
	return c.Txn.Append(ctx, tb, batch)
}

// Truncate truncates temporary and permanent tables alike.
func (c *sessionCatalog) Truncate(ctx context.Context, tables []storage.Table) error {
	var temp, perm []storage.Table
	for _, tb := range tables {
		if c.IsTemp(tb) {
			temp = append(temp, tb)
		} else {
			perm = append(perm, tb)
		}
	}
	if len(temp) > 0 {
		if err := c.temp().Truncate(ctx, temp); err != nil {
			return err
		}
	}
	if len(perm) > 0 {
		return c.Txn.Truncate(ctx, perm)
	}
	return nil
}

// TempTables implements pgcatalog.TempLister: the system catalogs list the
// temporary tables in the session's temporary schema.
func (c *sessionCatalog) TempTables() ([]storage.Table, bool) {
	t := c.temp()
	if t == nil {
		return nil, false
	}
	return t.Tables(), true
}
