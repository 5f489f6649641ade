package commands

import (
	"context"
	"log/slog"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// Temporary tables (CREATE TEMP TABLE) belong to one session: they live in
// an in-memory storage.DB of the session's own, made at the first CREATE
// TEMP TABLE and closed at disconnect, so nothing of them reaches the data
// directory or another session. Statements see them through a Catalog:
// pg_temp in front of the permanent tables, as in PostgreSQL's search
// path. The temporary tables' transaction follows the statement's or
// block's (begun when first needed; the session commits or rolls it back
// with its own and mirrors its savepoints), and ON COMMIT DELETE ROWS /
// DROP run at each commit, as PostgreSQL's tablecmds.c runs them.

// TempTables is a session's temporary-table state. The session calls
// Commit, Abort, Savepoint, Release and RollbackTo at its transaction's
// boundaries and Close at disconnect.
type TempTables struct {
	log *slog.Logger
	db  *storage.DB  // nil until the first temporary table
	txn *storage.Txn // the current transaction's (nil: not begun)
	// onCommit holds the tables with ON COMMIT DELETE ROWS or DROP.
	onCommit map[string]sql.OnCommit
	// savepoints are the savepoints made while txn was open, innermost
	// last: a ROLLBACK TO one made before it undoes all of txn.
	savepoints []string
}

// NewTempTables returns a session's (empty) temporary tables; log receives
// their storage's messages.
func NewTempTables(log *slog.Logger) *TempTables { return &TempTables{log: log} }

// current returns the temporary tables' transaction, beginning it if
// there are temporary tables (nil: none).
func (t *TempTables) current() *storage.Txn {
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
func (t *TempTables) create(ctx context.Context, name string, cols []storage.ColumnDef, oc sql.OnCommit) (storage.Table, error) {
	if err := t.ensure(); err != nil {
		return nil, err
	}
	tb, err := t.current().Create(ctx, name, cols)
	if err != nil {
		return nil, err
	}
	if oc != sql.PreserveRows {
		t.onCommit[name] = oc
	}
	return tb, nil
}

// ensure makes the session's temporary storage at its first temporary
// table or sequence.
func (t *TempTables) ensure() error {
	if t.db == nil {
		// Ids from 1<<30 give temporary tables object ids (OIDs in
		// RowDescription) no permanent table has.
		db, err := storage.Open("", storage.Options{NoSync: true, NoCompaction: true, Logger: t.log, FirstID: 1 << 30})
		if err != nil {
			return err
		}
		t.db, t.onCommit = db, map[string]sql.OnCommit{}
	}
	return nil
}

// End commits (commit) or rolls back the temporary tables' transaction,
// running the ON COMMIT actions first.
func (t *TempTables) End(ctx context.Context, commit bool) {
	txn := t.txn
	t.txn, t.savepoints = nil, nil
	if txn == nil {
		return
	}
	if !commit {
		txn.Rollback()
		t.pruneOnCommit()
		return
	}
	names := make([]string, 0, len(t.onCommit))
	for n := range t.onCommit {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tb, ok := txn.Lookup(n)
		if !ok {
			continue
		}
		if t.onCommit[n] == sql.DropOnCommit {
			_ = txn.Drop(ctx, n)
			delete(t.onCommit, n)
		} else {
			_ = txn.Truncate(ctx, []storage.Table{tb})
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.log.Error("temporary tables: commit failed", "err", err)
	}
	t.pruneOnCommit()
}

// CheckOnCommit is PostgreSQL's check of the ON COMMIT DELETE ROWS
// truncation before a commit (heap_truncate_check_FKs for temporary
// tables): a table emptied at commit may not be referenced by a FOREIGN
// KEY of a temporary table that is not, or the commit would leave rows
// referencing nothing; the commit then fails (and rolls back) with 0A000.
func (t *TempTables) CheckOnCommit() error {
	if t.txn == nil {
		return nil // the transaction touched no temporary table
	}
	emptied := map[string]bool{}
	for n, oc := range t.onCommit {
		if _, ok := t.txn.Lookup(n); ok && oc != sql.DropOnCommit {
			emptied[n] = true
		}
	}
	if len(emptied) == 0 {
		return nil
	}
	var refs []storage.Table
	for _, tb := range t.txn.Tables() {
		if !emptied[tb.Name()] {
			refs = append(refs, tb)
		}
	}
	sort.Slice(refs, func(i, j int) bool { return tableOID(refs[i]) < tableOID(refs[j]) })
	for _, tb := range refs {
		for _, c := range storage.ConstraintsOf(tb) {
			if c.Kind == storage.ConForeign && emptied[c.RefTable] {
				return pgerr.New(pgerr.FeatureNotSupported, "unsupported ON COMMIT and foreign key combination").
					WithDetail("Table \"%s\" references \"%s\", but they do not have the same ON COMMIT setting.", tb.Name(), c.RefTable)
			}
		}
	}
	return nil
}

// pruneOnCommit forgets the ON COMMIT actions of tables that no longer
// exist (created in a transaction that rolled back, dropped).
func (t *TempTables) pruneOnCommit() {
	if len(t.onCommit) == 0 {
		return
	}
	txn := t.db.Begin()
	defer txn.Rollback()
	for n := range t.onCommit {
		if _, ok := txn.Lookup(n); !ok {
			delete(t.onCommit, n)
		}
	}
}

// Close drops every temporary table (session end).
func (t *TempTables) Close() {
	if t.txn != nil {
		t.txn.Rollback()
		t.txn = nil
	}
	if t.db != nil {
		_ = t.db.Close()
		t.db = nil
	}
}

// Discard is DISCARD TEMP: drop the session's temporary tables.
func (t *TempTables) Discard(ctx context.Context) error {
	txn := t.current()
	if txn == nil {
		return nil
	}
	for _, tb := range txn.Tables() {
		if err := txn.Drop(ctx, tb.Name()); err != nil {
			return err
		}
	}
	for _, s := range txn.Sequences() {
		if err := txn.DropSequence(ctx, s.Name); err != nil {
			return err
		}
	}
	return nil
}

// Savepoint mirrors a savepoint of the session's transaction.
func (t *TempTables) Savepoint(name string) {
	if t.txn != nil {
		t.txn.Savepoint(name)
		t.savepoints = append(t.savepoints, name)
	}
}

// Release mirrors RELEASE SAVEPOINT.
func (t *TempTables) Release(name string) {
	if t.txn != nil && t.txn.Release(name) == nil {
		t.popSavepoint(name, false)
	}
}

// RollbackTo mirrors ROLLBACK TO SAVEPOINT.
func (t *TempTables) RollbackTo(name string) {
	if t.txn == nil {
		return
	}
	if t.txn.RollbackTo(name) == nil {
		t.popSavepoint(name, true)
		return
	}
	// The savepoint is older than the temporary tables' transaction:
	// everything in it came after the savepoint.
	t.End(context.Background(), false)
}

// popSavepoint forgets the savepoints above name (and name itself unless
// keep).
func (t *TempTables) popSavepoint(name string, keep bool) {
	for i := len(t.savepoints) - 1; i >= 0; i-- {
		if t.savepoints[i] == name {
			if keep {
				i++
			}
			t.savepoints = t.savepoints[:i]
			return
		}
	}
}

// Catalog is what a session's statements bind with and write through: its
// temporary tables in front of the transaction's permanent ones
// (sql.TempCatalog), as PostgreSQL's search path puts pg_temp first.
type Catalog struct {
	*storage.Txn // the permanent tables; views are always permanent
	tt           *TempTables
}

var _ sql.TempCatalog = (*Catalog)(nil)

// NewCatalog returns the catalog of a statement running in txn: a new
// statement of the temporary tables' transaction, if there is one, in
// front of txn.
func NewCatalog(txn *storage.Txn, tt *TempTables) *Catalog {
	if t := tt.current(); t != nil {
		t.NewStatement()
	}
	return &Catalog{Txn: txn, tt: tt}
}

func (c *Catalog) temp() *storage.Txn { return c.tt.current() }

// Lookup finds a temporary table first, then a permanent one.
func (c *Catalog) Lookup(name string) (storage.Table, bool) {
	if t := c.temp(); t != nil {
		if tb, ok := t.Lookup(name); ok {
			return tb, true
		}
	}
	return c.Txn.Lookup(name)
}

// LookupIn implements sql.TempCatalog.
func (c *Catalog) LookupIn(schema, name string) (storage.Table, bool) {
	if schema == "pg_temp" {
		if t := c.temp(); t != nil {
			return t.Lookup(name)
		}
		return nil, false
	}
	return c.Txn.Lookup(name)
}

// IsTemp implements sql.TempCatalog.
func (c *Catalog) IsTemp(tb storage.Table) bool {
	t := c.temp()
	return t != nil && t.Holds(tb)
}

// Drop drops the temporary table of that name if there is one.
func (c *Catalog) Drop(ctx context.Context, name string) error {
	if t := c.temp(); t != nil {
		if _, ok := t.Lookup(name); ok {
			return t.Drop(ctx, name)
		}
	}
	return c.Txn.Drop(ctx, name)
}

// Append writes to whichever catalog holds the table.
func (c *Catalog) Append(ctx context.Context, tb storage.Table, batch arrow.Record) error {
	if c.IsTemp(tb) {
		return c.temp().Append(ctx, tb, batch)
	}
	return c.Txn.Append(ctx, tb, batch)
}

// Delete deletes rows of whichever catalog holds the table.
func (c *Catalog) Delete(ctx context.Context, tb storage.Table, ids []storage.RowID) error {
	if c.IsTemp(tb) {
		return c.temp().Delete(ctx, tb, ids)
	}
	return c.Txn.Delete(ctx, tb, ids)
}

// LockRows locks rows of a temporary or permanent table (SELECT ... FOR
// UPDATE: storage.Txn.LockRows).
func (c *Catalog) LockRows(ctx context.Context, tb storage.Table, ids []storage.RowID) ([]bool, error) {
	return c.txnOf(tb).LockRows(ctx, tb, ids)
}

// AppendedRows is where tb's rows appended by the transaction are
// (storage.Txn.AppendedRows).
func (c *Catalog) AppendedRows(tb storage.Table) (seg uint64, n int64, ok bool) {
	return c.txnOf(tb).AppendedRows(tb)
}

// Truncate truncates temporary and permanent tables alike.
func (c *Catalog) Truncate(ctx context.Context, tables []storage.Table) error {
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
func (c *Catalog) TempTables() ([]storage.Table, bool) {
	t := c.temp()
	if t == nil {
		return nil, false
	}
	return t.Tables(), true
}
