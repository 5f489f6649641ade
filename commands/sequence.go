package commands

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// CREATE/ALTER/DROP SEQUENCE, the sequences serial and identity columns
// own (created with their table, dropped with it, restarted by TRUNCATE
// ... RESTART IDENTITY), and a session's sequence state: currval, lastval
// and the values a CACHE > 1 fetched ahead (PostgreSQL's SeqTable).

func seqCatalog(cat *Catalog) storage.SequenceCatalog { return cat }

// The statement's catalog keeps the session's temporary sequences in
// front of the permanent ones, as it does tables (pg_temp first).
var _ storage.SequenceCatalog = (*Catalog)(nil)

// tempSeq is the temporary storage's transaction if it has sequence name.
func (c *Catalog) tempSeq(name string) *storage.Txn {
	if t := c.temp(); t != nil {
		if _, ok := t.LookupSequence(name); ok {
			return t
		}
	}
	return nil
}

// LookupSequence implements storage.SequenceCatalog.
func (c *Catalog) LookupSequence(name string) (storage.Sequence, bool) {
	if t := c.tempSeq(name); t != nil {
		d, _ := t.LookupSequence(name)
		d.Temp = true
		return d, true
	}
	return c.Txn.LookupSequence(name)
}

// Sequences implements storage.SequenceCatalog: temporary ones first.
func (c *Catalog) Sequences() []storage.Sequence {
	var out []storage.Sequence
	if t := c.temp(); t != nil {
		for _, d := range t.Sequences() {
			d.Temp = true
			out = append(out, d)
		}
	}
	return append(out, c.Txn.Sequences()...)
}

// CreateSequence implements storage.SequenceCatalog.
func (c *Catalog) CreateSequence(ctx context.Context, def storage.Sequence) (storage.Sequence, error) {
	if !def.Temp {
		return c.Txn.CreateSequence(ctx, def)
	}
	if err := c.tt.ensure(); err != nil {
		return storage.Sequence{}, err
	}
	d, err := c.temp().CreateSequence(ctx, def)
	d.Temp = true
	return d, err
}

// AlterSequence implements storage.SequenceCatalog.
func (c *Catalog) AlterSequence(ctx context.Context, name string, def storage.Sequence, restart *int64) error {
	if t := c.tempSeq(name); t != nil {
		return t.AlterSequence(ctx, name, def, restart)
	}
	return c.Txn.AlterSequence(ctx, name, def, restart)
}

// DropSequence implements storage.SequenceCatalog.
func (c *Catalog) DropSequence(ctx context.Context, name string) error {
	if t := c.tempSeq(name); t != nil {
		return t.DropSequence(ctx, name)
	}
	return c.Txn.DropSequence(ctx, name)
}

// NextVal implements storage.SequenceCatalog.
func (c *Catalog) NextVal(ctx context.Context, name string) (int64, int64, error) {
	if t := c.tempSeq(name); t != nil {
		return t.NextVal(ctx, name)
	}
	return c.Txn.NextVal(ctx, name)
}

// SetVal implements storage.SequenceCatalog.
func (c *Catalog) SetVal(ctx context.Context, name string, v int64, isCalled bool) error {
	if t := c.tempSeq(name); t != nil {
		return t.SetVal(ctx, name, v, isCalled)
	}
	return c.Txn.SetVal(ctx, name, v, isCalled)
}

// SequenceState implements storage.SequenceCatalog.
func (c *Catalog) SequenceState(name string) (storage.SequenceState, bool) {
	if t := c.tempSeq(name); t != nil {
		return t.SequenceState(name)
	}
	return c.Txn.SequenceState(name)
}

func createSequence(ctx context.Context, s Session, x *sql.CreateSequence) (string, error) {
	cat := s.Catalog()
	if x.IfNotExists && (relationExists(cat, x.Def.Name, x.Def.Temp) || hasSequence(cat, x.Def.Name)) {
		return "CREATE SEQUENCE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "42P07",
			Message: fmt.Sprintf("relation \"%s\" already exists, skipping", x.Def.Name)})
	}
	if !x.Def.Temp {
		if err := checkCreateInKey(s, x.Def.Name); err != nil { // roles.go
			return "", err
		}
	}
	made, err := seqCatalog(cat).CreateSequence(ctx, x.Def)
	if err != nil || made.Temp {
		return "CREATE SEQUENCE", err
	}
	return "CREATE SEQUENCE", recordSequenceOwner(s, made)
}

// recordSequenceOwner makes the current role the owner of a new sequence
// (serial ones too: the table's creator owns them) with its default
// privileges.
func recordSequenceOwner(s Session, def storage.Sequence) error {
	return recordOwnerOf(s, def.ObjectID(), schemaOIDOfKey(s, def.Name), storage.KindSequence) // roles.go
}

func hasSequence(cat *Catalog, name string) bool {
	_, ok := seqCatalog(cat).LookupSequence(name)
	return ok
}

func alterSequence(ctx context.Context, s Session, x *sql.AlterSequence) (string, error) {
	if x.Missing {
		return "ALTER SEQUENCE", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("relation \"%s\" does not exist, skipping", x.Name)})
	}
	cat := s.Catalog()
	if cur, ok := seqCatalog(cat).LookupSequence(x.Name); ok && !cur.Temp {
		if err := checkOwner(s, cur.ObjectID(), "sequence", storage.BareName(x.Name)); err != nil { // roles.go
			return "", err
		}
	}
	if x.Def.Name != x.Name {
		if _, ok := cat.LookupIn("public", x.Def.Name); ok || hasSequence(cat, x.Def.Name) {
			return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", x.Def.Name)
		}
	}
	if err := seqCatalog(cat).AlterSequence(ctx, x.Name, x.Def, x.Restart); err != nil {
		return "", err
	}
	// PostgreSQL forgets this session's cached values of an altered sequence.
	if !x.KeepCache {
		s.Sequences().forget(x.Def.ObjectID())
	}
	if x.Tag != "" {
		return x.Tag, nil
	}
	return "ALTER SEQUENCE", nil
}

// seqUsers lists the columns whose DEFAULT calls nextval on seq, as
// PostgreSQL's dependency messages name them.
func seqUsers(cat *Catalog, seq string) []string {
	def, _ := seqCatalog(cat).LookupSequence(seq)
	call := sql.NextvalDefault(def.ObjectID())
	var out []string
	temps, _ := cat.TempTables()
	for _, tb := range append(temps, cat.Txn.Tables()...) {
		for _, c := range tb.Columns() {
			if c.Identity == 0 && strings.Contains(c.Default, call) {
				out = append(out, fmt.Sprintf("default value for column %s of table %s", c.Name, storage.BareName(tb.Name())))
			}
		}
	}
	return out
}

func dropSequence(ctx context.Context, s Session, x *sql.DropSequence) (string, error) {
	cat := s.Catalog()
	sc := seqCatalog(cat)
	var present []string
	for _, t := range x.Targets {
		switch {
		case t.IsSeq:
			present = append(present, t.Key)
		case t.IsView:
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", t.Name).WithHint("Use DROP VIEW to remove a view.")
		case t.Key != "":
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", t.Name).WithHint("Use DROP TABLE to remove a table.")
		default:
			if err := dropMissing(s, x.IfExists, "sequence", t); err != nil {
				return "", err
			}
		}
	}
	for _, name := range present {
		if def, ok := sc.LookupSequence(name); ok && !def.Temp {
			if err := checkOwner(s, def.ObjectID(), "sequence", storage.BareName(name)); err != nil { // roles.go
				return "", err
			}
		}
	}
	if err := dropDependents(ctx, s, "sequence", present, x.Cascade, x.RelName); err != nil {
		return "", err
	}
	for _, name := range present {
		if users := seqUsers(cat, name); len(users) > 0 {
			if x.Cascade {
				// Dropping the DEFAULTs needs ALTER TABLE's machinery.
				return "", pgerr.New(pgerr.FeatureNotSupported, "DROP SEQUENCE ... CASCADE of a sequence a column DEFAULT uses is not supported")
			}
			shown := x.RelName(name)
			return "", pgerr.New("2BP01", "cannot drop sequence %s because other objects depend on it", shown).
				WithDetail("%s depends on sequence %s", strings.Join(users, " depends on sequence "+shown+"\n"), shown).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		def, _ := sc.LookupSequence(name)
		if def.OwnedTable != "" {
			if tb, ok := cat.Txn.Lookup(def.OwnedTable); ok {
				for _, c := range tb.Columns() {
					if c.Name == def.OwnedColumn && c.Identity != 0 {
						return "", pgerr.New("2BP01", "cannot drop sequence %s because column %s of table %s requires it", x.RelName(name), c.Name, x.RelName(tb.Name())).
							WithHint("You can drop column %s of table %s instead.", c.Name, x.RelName(tb.Name()))
					}
				}
			}
		}
		if err := sc.DropSequence(ctx, name); err != nil {
			return "", err
		}
		s.Sequences().forget(def.ObjectID())
	}
	return "DROP SEQUENCE", nil
}

// createOwnedSequences creates the sequences of a new table's serial and
// identity columns and sets each column's DEFAULT to its nextval.
func createOwnedSequences(ctx context.Context, cat *Catalog, seqs []storage.Sequence, cols []storage.ColumnDef) error {
	for _, def := range seqs {
		made, err := seqCatalog(cat).CreateSequence(ctx, def)
		if err != nil {
			return err
		}
		for i := range cols {
			if cols[i].Name == def.OwnedColumn {
				cols[i].Default = sql.NextvalDefault(made.ObjectID())
			}
		}
	}
	return nil
}

// dropOwnedSequences drops the sequences owned by a dropped table's
// columns, as PostgreSQL's auto dependency does.
func dropOwnedSequences(ctx context.Context, cat *Catalog, table string, temp bool) error {
	sc := seqCatalog(cat)
	for _, def := range sc.Sequences() {
		if def.OwnedTable == table && def.Temp == temp {
			if err := sc.DropSequence(ctx, def.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// restartOwnedSequences is TRUNCATE ... RESTART IDENTITY: every sequence
// a column of the tables owns restarts at its START (the transaction
// counts from there; the others when it commits). As PostgreSQL's
// ResetSequence, the session's cached values go, its currval stays.
func restartOwnedSequences(ctx context.Context, cat *Catalog, tables []storage.Table, st *SeqState) error {
	sc := seqCatalog(cat)
	type owner struct {
		name string
		temp bool
	}
	owners := map[owner]bool{}
	for _, tb := range tables {
		owners[owner{tb.Name(), cat.IsTemp(tb)}] = true
	}
	for _, def := range sc.Sequences() {
		if owners[owner{def.OwnedTable, def.Temp}] {
			start := def.Start
			if err := sc.AlterSequence(ctx, def.Name, def, &start); err != nil {
				return err
			}
			st.forget(def.ObjectID())
		}
	}
	return nil
}

// truncate empties tables (x's and those its CASCADE adds).
func truncate(ctx context.Context, s Session, x *sql.Truncate, tables []storage.Table) (string, error) {
	cat := s.Catalog()
	if err := cat.Truncate(ctx, tables); err != nil {
		return "", err
	}
	if x.RestartSeqs {
		if err := restartOwnedSequences(ctx, cat, tables, s.Sequences()); err != nil {
			return "", err
		}
	}
	return "TRUNCATE TABLE", nil
}

// SeqState is a session's sequence state: for each sequence it used, the
// value currval returns and the last value its cache holds; and the
// sequence lastval reads. DISCARD SEQUENCES (and DISCARD ALL) clear it.
type SeqState struct {
	mu   sync.Mutex
	elms map[uint32]*seqElm
	last *seqElm
}

type seqElm struct {
	last, cached, increment int64
	valid                   bool // currval is defined
}

// NewSeqState returns a session's empty sequence state.
func NewSeqState() *SeqState { return &SeqState{elms: map[uint32]*seqElm{}} }

// Discard forgets everything (DISCARD SEQUENCES).
func (st *SeqState) Discard() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.elms, st.last = map[uint32]*seqElm{}, nil
}

// forget drops the values cached ahead for a sequence (ALTER SEQUENCE).
func (st *SeqState) forget(oid uint32) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e := st.elms[oid]; e != nil {
		e.cached = e.last
	}
}

// Access is the sequence functions' view of the session for one statement;
// cat is the catalog the statement runs over when they are called,
// readOnly whether its transaction is read-only (nextval and setval then
// fail with 25006, as in PostgreSQL).
func (st *SeqState) Access(ctx context.Context, cat func() *Catalog, readOnly func() bool, role func() uint32) types.SequenceAccess {
	return &seqAccess{ctx: ctx, st: st, cat: cat, readOnly: readOnly, role: role}
}

// seqAccess serializes its calls on the session's state (partitions call
// from several goroutines; the transaction is one session's).
type seqAccess struct {
	ctx      context.Context
	st       *SeqState
	cat      func() *Catalog
	readOnly func() bool
	role     func() uint32 // current_user (nil: the bootstrap superuser)
}

// permitted checks that current_user holds one of privs on the sequence
// def, as nextval_internal's pg_class_aclcheck: 42501 "permission denied
// for sequence s" (a temporary sequence is its session's).
func (a *seqAccess) permitted(cat *Catalog, def storage.Sequence, privs uint16) error {
	if def.Temp || a.role == nil {
		return nil
	}
	auth := cat.Txn.Auth()
	if auth.Privileges(a.role(), def.ObjectID(), storage.AllSequencePrivs, 0)&privs != 0 {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for sequence %s", storage.BareName(def.Name))
}

// writable refuses a change to a permanent sequence in a read-only
// transaction (a temporary one may change, as in PostgreSQL).
func (a *seqAccess) writable(fn string, def storage.Sequence) error {
	if !def.Temp && a.readOnly != nil && a.readOnly() {
		return pgerr.New("25006", "cannot execute %s() in a read-only transaction", fn)
	}
	return nil
}

var errNoCatalog = pgerr.New(pgerr.FeatureNotSupported, "sequence functions are not supported here")

// resolve finds the sequence of an OID (a regclass argument).
func (a *seqAccess) resolve(oid uint32) (*Catalog, storage.Sequence, error) {
	cat := a.cat()
	if cat == nil {
		return nil, storage.Sequence{}, errNoCatalog
	}
	for _, def := range seqCatalog(cat).Sequences() {
		if def.ObjectID() == oid {
			return cat, def, nil
		}
	}
	for _, tb := range cat.Tables() {
		if x, ok := tb.(interface{ ObjectID() uint32 }); ok && x.ObjectID() == oid {
			return nil, storage.Sequence{}, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", storage.BareName(tb.Name()))
		}
	}
	return nil, storage.Sequence{}, pgerr.New(pgerr.InternalError, "could not open relation with OID %d", oid)
}

func (a *seqAccess) NextVal(oid uint32) (int64, error) { return a.nextVal(oid, true) }

func (a *seqAccess) IdentityNextVal(oid uint32) (int64, error) { return a.nextVal(oid, false) }

// nextVal is nextval_internal; check is whether the caller's USAGE or
// UPDATE privilege is checked (not for an identity column's default).
func (a *seqAccess) nextVal(oid uint32, check bool) (int64, error) {
	st := a.st
	st.mu.Lock()
	defer st.mu.Unlock()
	cat, def, err := a.resolve(oid)
	if err != nil {
		return 0, err
	}
	if check {
		if err := a.permitted(cat, def, storage.PrivUsage|storage.PrivUpdate); err != nil {
			return 0, err
		}
	}
	if err := a.writable("nextval", def); err != nil {
		return 0, err
	}
	e := st.elms[oid]
	if e != nil && e.last != e.cached {
		// A value fetched ahead by this session's cache.
		e.last += e.increment
		e.valid = true
		st.last = e
		return e.last, nil
	}
	first, last, err := seqCatalog(cat).NextVal(a.ctx, def.Name)
	if err != nil {
		return 0, err
	}
	if e == nil {
		e = &seqElm{}
		st.elms[oid] = e
	}
	e.last, e.cached, e.increment, e.valid = first, last, def.Increment, true
	st.last = e
	return first, nil
}

func (a *seqAccess) CurrVal(oid uint32) (int64, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	cat, def, err := a.resolve(oid)
	if err != nil {
		return 0, err
	}
	if err := a.permitted(cat, def, storage.PrivSelect|storage.PrivUsage); err != nil {
		return 0, err
	}
	e := a.st.elms[oid]
	if e == nil || !e.valid {
		return 0, pgerr.New("55000", "currval of sequence \"%s\" is not yet defined in this session", def.Name)
	}
	return e.last, nil
}

func (a *seqAccess) SetVal(oid uint32, v int64, isCalled bool) (int64, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	cat, def, err := a.resolve(oid)
	if err != nil {
		return 0, err
	}
	if err := a.permitted(cat, def, storage.PrivUpdate); err != nil {
		return 0, err
	}
	if err := a.writable("setval", def); err != nil {
		return 0, err
	}
	if err := seqCatalog(cat).SetVal(a.ctx, def.Name, v, isCalled); err != nil {
		return 0, err
	}
	e := a.st.elms[oid]
	if e == nil {
		e = &seqElm{increment: def.Increment}
		a.st.elms[oid] = e
	}
	if isCalled {
		e.last, e.valid = v, true
	}
	e.cached = e.last
	return v, nil
}

func (a *seqAccess) LastVal() (int64, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	e := a.st.last
	if e == nil {
		return 0, pgerr.New("55000", "lastval is not yet defined in this session")
	}
	for oid, x := range a.st.elms {
		if x == e {
			cat, def, err := a.resolve(oid)
			if err != nil {
				return 0, pgerr.New("55000", "lastval is not yet defined in this session")
			}
			if err := a.permitted(cat, def, storage.PrivSelect|storage.PrivUsage); err != nil {
				return 0, err
			}
		}
	}
	return e.last, nil
}

// Resolve is regclass input for a name given at run time.
func (a *seqAccess) Resolve(name string) (uint32, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	cat := a.cat()
	if cat == nil {
		return 0, errNoCatalog
	}
	parts := sql.SplitQualifiedName(name)
	if len(parts) == 2 && parts[0] != "public" && parts[0] != "pg_catalog" {
		return 0, pgerr.New("3F000", "schema \"%s\" does not exist", parts[0])
	}
	if len(parts) <= 2 {
		rel := parts[len(parts)-1]
		if def, ok := seqCatalog(cat).LookupSequence(rel); ok {
			return def.ObjectID(), nil
		}
		if tb, ok := cat.Lookup(rel); ok {
			if x, ok := tb.(interface{ ObjectID() uint32 }); ok {
				return x.ObjectID(), nil
			}
		}
	}
	return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
}
