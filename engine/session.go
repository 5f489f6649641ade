package engine

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// session is one client's state. It is used by one goroutine at a time
// (wire.Session's contract), so it needs no locks of its own.
type session struct {
	eng *Engine
	// settings are the session's run-time settings; their transaction
	// levels follow the statement's (settings.go).
	settings *settings.Values
	user     string
	database string
	// loginRole is the OID of the role that connected (session_user's and
	// current_user's are sessionRole and currentRole: roles.go).
	loginRole uint32
	// stmtPerms are the privileges the statement being run needs (Bind's
	// BindOptions.Perms; a Query keeps its own).
	stmtPerms []sql.PermCheck
	pid       int32 // the process id the client was sent (pg_backend_pid)
	// fsm is the transaction state (txnfsm.go); only fire changes it.
	fsm txFSM
	// temp are the session's temporary tables (commands.TempTables; its
	// transaction follows the session's, temp.go).
	temp *commands.TempTables
	// txStart is when the open transaction block began: now() inside it.
	txStart time.Time
	// params are the $n values of the statement running (extended protocol).
	params []types.Value
	// resultFormats are the result formats of the portal running a
	// command that returns rows (RETURNING); nil: text.
	resultFormats []int16
	// txn is the transaction the state's statements share: the block's
	// (InBlock, FailedBlock) or the implicit one of ImplicitMulti and
	// ImplicitPipeline (begun by their first statement); nil in Idle.
	// implicit is the own transaction of the Idle statement being bound,
	// cur the catalog the running statement writes through (see txn.go).
	txn      *storage.Txn
	implicit *storage.Txn
	cur      *commands.Catalog
	// binding is the catalog of the statement being bound (bind), for
	// the domain checks of constants the binder folds (domaincheck.go).
	binding *commands.Catalog
	// objs are the connection's prepared statements and portals, which
	// PREPARE and DECLARE share with the extended protocol (wire's, once
	// UseObjects hands them over); cursors are the DECLAREd ones in
	// declaration order (cursor.go).
	objs             wire.Objects
	cursors          []*cursor
	cursorSeq        int64
	cursorSavepoints []cursorSavepoint
	// moves maps, per table a cursor reads, the RowIDs of rows the
	// transaction updated to their new versions' (cursor_lock.go).
	moves map[string]map[storage.RowID]storage.RowID
	// seqs are the session's currval/lastval state (commands.SeqState).
	seqs *commands.SeqState
	// explaining is set while EXPLAIN ANALYZE runs a data-modifying
	// statement (explaindml.go).
	explaining *explainCapture
	// stmtSegments counts the segments the running statement's scans read
	// (stats.go; atomic: scans run on their partitions' goroutines).
	stmtSegments atomic.Int64
}

var _ wire.Session = (*session)(nil)

// statement is a parsed, not yet bound statement.
type statement struct{ raw *sql.RawStatement }

func (s *statement) SQL() string { return s.raw.SQL() }

func newSession(e *Engine, params map[string]string) *session {
	s := &session{eng: e, temp: commands.NewTempTables(e.log), objs: wire.NewObjects(), seqs: commands.NewSeqState()}
	s.user = params["user"]
	s.database = params["database"]
	if s.user == "" {
		s.user = "joind"
	}
	s.settings = settings.New(s.user)
	s.resolveRoles() // roles.go
	return s
}

// startupIgnored are the startup-packet parameters that are connection
// attributes, not settings.
var startupIgnored = map[string]bool{"user": true, "database": true, "replication": true}

// applyStartup applies the client's startup parameters (options -c k=v
// arrive here already split by wire): they are the session's reset values.
// They are applied in name order, so a bad one is reported the same way
// every time.
func (s *session) applyStartup(params map[string]string) error {
	keys := make([]string, 0, len(params))
	for k := range params {
		if !startupIgnored[k] && !strings.HasPrefix(k, "_pq_.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := s.settings.Startup(k, params[k]); err != nil {
			return err
		}
	}
	return nil
}

// Parse implements wire.Session.
func (s *session) Parse(query string) ([]wire.Statement, error) {
	raws, err := sql.Parse(query)
	if err != nil {
		// A syntax error fails the transaction like any statement's.
		_, _ = s.fire(evStmtErr, nil)
		return nil, err
	}
	out := make([]wire.Statement, len(raws))
	for i, r := range raws {
		out[i] = wrapStatement(r)
	}
	return out, nil
}

// TxStatus implements wire.Session.
func (s *session) TxStatus() byte { return s.fsm.state.status() }

// ReportedSettings implements wire.Session.
func (s *session) ReportedSettings() map[string]string { return s.settings.Reported() }

// UseObjects implements wire.ObjectsUser.
func (s *session) UseObjects(o wire.Objects) { s.objs = o }

// Close implements wire.Session.
func (s *session) Close() {
	s.dropImplicit()
	_, _ = s.fire(evClose, nil)
	s.temp.Close()
	s.eng.sessions.Add(-1)
}

// Execute implements wire.Session.
func (s *session) Execute(ctx context.Context, st wire.Statement, w wire.ResultWriter) (string, error) {
	raw := st.(*statement).raw
	ectx := s.evalContext()
	start := s.beginStatementStats()
	opts := s.bindOptions(ectx, nil)
	bound, bindErr := s.bind(raw, s.bindCatalog(), opts)
	s.stmtPerms = opts.Perms
	tag, err := s.execBound(ctx, bound, bindErr, ectx, w)
	s.finishStatement(raw, bound, start, tag, err)
	return tag, err
}

// execBound runs a bound statement (or reports its bind error) and fires
// its events; the simple and the extended protocol share it.
func (s *session) execBound(ctx context.Context, bound sql.Statement, bindErr error, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if x, ok := bound.(*sql.Transaction); ok && bindErr == nil {
		// A transaction statement is its own event; it needs no
		// transaction of its own.
		s.dropImplicit()
		tag, err := s.fireTx(ctx, x, w)
		if err != nil {
			_, _ = s.fire(evStmtErr, &txArgs{ctx: ctx})
			return "", err
		}
		return tag, nil
	}
	txn, implicit := s.statementTxn()
	s.beginStatementSettings()
	s.takeSnapshot(txn, bound, bindErr)
	s.cur = s.catalogOf(txn)
	tag, err := s.execIn(ctx, bound, bindErr, ectx, w)
	s.cur = nil
	a := &txArgs{ctx: ctx, txn: implicit}
	if err != nil {
		_, _ = s.fire(evStmtErr, a)
		return "", err
	}
	if _, err := s.fire(evStmtOK, a); err != nil {
		return "", err
	}
	return tag, nil
}

func (s *session) execIn(ctx context.Context, bound sql.Statement, bindErr error, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if s.fsm.state == stFailedBlock {
		return "", errAborted()
	}
	if bindErr == nil {
		bindErr = s.cur.Err() // a segment file the statement reads is unreadable
	}
	if bindErr != nil {
		return "", bindErr
	}
	perms := s.stmtPerms
	if q, ok := bound.(*sql.Query); ok {
		perms = q.Perms
	}
	if err := s.checkPrivileges(bound, perms); err != nil { // roles.go
		return "", err
	}
	ctx, cancel, err := s.withStatementTimeout(ctx)
	if err != nil {
		return "", err
	}
	defer cancel()
	tag, err := s.run(ctx, bound, ectx, w)
	if err != nil {
		err = s.translateCancel(ctx, err)
	}
	return tag, err
}

// evalContext is what a statement's expressions see: now() is the start of
// the transaction — the BEGIN block's, or this statement's — as in PostgreSQL.
func (s *session) evalContext() *types.EvalContext {
	f := s.format()
	stmt := time.Now()
	now := stmt
	if s.fsm.state != stIdle && !s.txStart.IsZero() {
		now = s.txStart
	}
	return &types.EvalContext{TimeZone: f.TimeZone, Now: now, StatementNow: stmt, Format: f, Settings: &settingsAccess{s: s},
		Sequences: s.seqs.Access(context.Background(), func() *commands.Catalog { return s.cur },
			func() bool { return s.settings.Get("transaction_read_only") == "on" }, s.currentRole),
		Domains: domainChecker{s: s}}
}

// format is the session's output format for FormatText.
func (s *session) format() *types.Format {
	return &types.Format{
		DateStyle:        s.settings.Get("DateStyle"),
		IntervalStyle:    s.settings.Get("IntervalStyle"),
		ExtraFloatDigits: int(settings.Int64(s.settings.Get("extra_float_digits"))),
		TimeZone:         s.zone(),
		ByteaOutput:      s.settings.Get("bytea_output"),
		Enums:            s.blockEnums(),
		Reg:              &regNames{s: s},
	}
}

// blockEnums is the open transaction's own enum changes: ALTER TYPE ...
// ADD VALUE / RENAME VALUE are seen by the transaction that made them
// only (nil outside a transaction, whose statements change nothing
// before they commit).
func (s *session) blockEnums() types.EnumView {
	switch s.fsm.state {
	case stInBlock, stFailedBlock, stImplicitMulti, stImplicitPipeline:
		if s.txn != nil {
			return s.txn
		}
	}
	return nil
}

// zone is the session TimeZone (UTC if the setting does not load).
func (s *session) zone() *time.Location {
	loc, err := loadZone(s.settings.Get("TimeZone"))
	if err != nil {
		return time.UTC
	}
	return loc
}

// errStatementTimeout marks the cancellation cause of statement_timeout.
var errStatementTimeout = errors.New("statement timeout")

func (s *session) withStatementTimeout(ctx context.Context) (context.Context, context.CancelFunc, error) {
	d := s.statementTimeout()
	if d == 0 {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, cancel, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, d, errStatementTimeout)
	return ctx, cancel, nil
}

// translateCancel turns a context error into PostgreSQL's cancel errors.
func (s *session) translateCancel(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	if errors.Is(context.Cause(ctx), errStatementTimeout) {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || pgerr.Code(err) == pgerr.QueryCanceled {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return err
}
