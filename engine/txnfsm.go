package engine

import (
	"context"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/wire"
)

// The session's transaction state machine, in the shape of CockroachDB's
// conn_fsm: a session is in one txState, everything that can change it is
// a txEvent, and txTable below is the only place that says, for each
// (state, event), the next state and what happens. Session code fires
// events (session.fire) and never assigns the state; ReadyForQuery's
// status is derived from it (txState.status).
//
// The states follow PostgreSQL's transaction block states (xact.c):
// Idle is TBLOCK_DEFAULT with each simple-protocol statement in a
// transaction of its own (session.implicit); ImplicitMulti is
// TBLOCK_IMPLICIT_INPROGRESS (the statements of a multi-statement Query);
// ImplicitPipeline is TBLOCK_STARTED held open by the extended protocol
// until Sync; InBlock and FailedBlock are TBLOCK_INPROGRESS and
// TBLOCK_ABORT. Data that is not a state: savepoints (the storage
// transaction's and the settings' stacks), whether a multi-statement Query
// is running (txFSM.multi), and the state a COPY FROM STDIN returns to.
//
// To add a state or an event: add the constant and its name, add a row to
// txTable for every (state, event) pair that can happen (a pair without a
// row is an internal error when fired), fire the event where it happens,
// and give TestTxFSMTransitions a way to reach the state and fire the
// event: it fails for any row it does not drive.

// txState is a session's transaction state.
type txState uint8

const (
	stIdle txState = iota
	stImplicitMulti
	stImplicitPipeline
	stInBlock
	stFailedBlock
	stCopyIn
	stClosed

	// Targets that txTable names and fire resolves:
	// stNoBlock is Idle, or ImplicitMulti while a multi-statement Query
	// runs (its later statements share a new implicit transaction, as in
	// PostgreSQL); stResume is the state CopyStart left.
	stNoBlock
	stResume
)

var stateNames = [...]string{"Idle", "ImplicitMulti", "ImplicitPipeline", "InBlock", "FailedBlock", "CopyIn", "Closed", "NoBlock", "Resume"}

func (st txState) String() string { return stateNames[st] }

// status is the ReadyForQuery status of a state.
func (st txState) status() byte {
	switch st {
	case stInBlock:
		return 'T'
	case stFailedBlock:
		return 'E'
	}
	return 'I'
}

// txEvent is what can change a session's transaction state.
type txEvent uint8

const (
	evStmtOK      txEvent = iota // a statement succeeded
	evStmtErr                    // a statement (or its bind, or Parse) failed
	evBegin                      // BEGIN / START TRANSACTION
	evCommit                     // COMMIT / END
	evRollback                   // ROLLBACK / ABORT
	evSavepoint                  // SAVEPOINT name
	evRelease                    // RELEASE [SAVEPOINT] name
	evRollbackTo                 // ROLLBACK TO [SAVEPOINT] name
	evExtStmt                    // an extended-protocol statement starts (Execute)
	evSync                       // the extended protocol's Sync
	evQueryOne                   // a simple Query of at most one statement starts
	evQueryMany                  // a simple Query of several statements starts
	evQueryDone                  // a simple Query ended, every statement succeeded
	evQueryFailed                // a simple Query ended after a failure (or a lost client)
	evCopyStart                  // COPY FROM STDIN switches to the copy sub-protocol
	evCopyDone                   // the client's data ended with CopyDone and loaded
	evCopyFail                   // CopyFail, or a bad row
	evClose                      // the connection ends
	numEvents
)

var eventNames = [...]string{"StmtOK", "StmtErr", "Begin", "Commit", "Rollback", "Savepoint", "Release", "RollbackTo",
	"ExtStmt", "Sync", "QueryOne", "QueryMany", "QueryDone", "QueryFailed", "CopyStart", "CopyDone", "CopyFail", "Close"}

func (e txEvent) String() string { return eventNames[e] }

// txArgs are an event's particulars.
type txArgs struct {
	ctx context.Context
	x   *sql.Transaction  // the transaction statement (Begin ... RollbackTo)
	w   wire.ResultWriter // where warnings go
	// txn is the statement's own implicit transaction (StmtOK/StmtErr in
	// Idle), nil otherwise.
	txn *storage.Txn
}

// txAction is what a transition does, after the state has changed. Its
// tag is a transaction statement's command tag; its error is the
// statement's (the caller then fires StmtErr).
type txAction func(s *session, a *txArgs) (tag string, err error)

type txKey struct {
	from txState
	ev   txEvent
}

type txTransition struct {
	to     txState
	action txAction
}

// txTable is every transition of the session state machine.
var txTable = map[txKey]txTransition{
	{stIdle, evStmtOK}:     {stIdle, commitStatement},
	{stIdle, evStmtErr}:    {stIdle, abortStatement},
	{stIdle, evBegin}:      {stInBlock, openBlock},
	{stIdle, evCommit}:     {stIdle, warnNoTxn("COMMIT")},
	{stIdle, evRollback}:   {stIdle, warnNoTxn("ROLLBACK")},
	{stIdle, evSavepoint}:  {stIdle, errNotInBlock},
	{stIdle, evRelease}:    {stIdle, errNotInBlock},
	{stIdle, evRollbackTo}: {stIdle, errNotInBlock},
	{stIdle, evExtStmt}:    {stImplicitPipeline, startImplicit},
	{stIdle, evSync}:       {stIdle, nil},
	{stIdle, evQueryOne}:   {stIdle, nil},
	{stIdle, evQueryMany}:  {stImplicitMulti, startImplicit},
	{stIdle, evQueryDone}:  {stIdle, nil},
	// After a failed statement of a multi-statement Query (already
	// undone by StmtErr), or a lost client.
	{stIdle, evQueryFailed}: {stIdle, nil},
	{stIdle, evCopyStart}:   {stCopyIn, nil},
	{stIdle, evClose}:       {stClosed, nil},

	{stImplicitMulti, evStmtOK}:      {stImplicitMulti, nil},
	{stImplicitMulti, evStmtErr}:     {stIdle, abortImplicit},
	{stImplicitMulti, evBegin}:       {stInBlock, adoptBlock},
	{stImplicitMulti, evCommit}:      {stNoBlock, commitImplicitEarly},
	{stImplicitMulti, evRollback}:    {stNoBlock, abortImplicitEarly},
	{stImplicitMulti, evSavepoint}:   {stImplicitMulti, errNotInBlock},
	{stImplicitMulti, evRelease}:     {stImplicitMulti, errNotInBlock},
	{stImplicitMulti, evRollbackTo}:  {stImplicitMulti, errNotInBlock},
	{stImplicitMulti, evQueryDone}:   {stIdle, commitImplicit},
	{stImplicitMulti, evQueryFailed}: {stIdle, abortImplicit},
	{stImplicitMulti, evCopyStart}:   {stCopyIn, nil},
	{stImplicitMulti, evClose}:       {stClosed, abortImplicit},

	{stImplicitPipeline, evStmtOK}:     {stImplicitPipeline, nil},
	{stImplicitPipeline, evStmtErr}:    {stIdle, abortImplicit},
	{stImplicitPipeline, evBegin}:      {stInBlock, adoptBlock},
	{stImplicitPipeline, evCommit}:     {stNoBlock, commitImplicitEarly},
	{stImplicitPipeline, evRollback}:   {stNoBlock, abortImplicitEarly},
	{stImplicitPipeline, evSavepoint}:  {stImplicitPipeline, errNotInBlock},
	{stImplicitPipeline, evRelease}:    {stImplicitPipeline, errNotInBlock},
	{stImplicitPipeline, evRollbackTo}: {stImplicitPipeline, errNotInBlock},
	{stImplicitPipeline, evExtStmt}:    {stImplicitPipeline, nil},
	{stImplicitPipeline, evSync}:       {stIdle, commitImplicit},
	// A Query before the Sync: PostgreSQL ends the pipeline's
	// transaction with the Query's.
	{stImplicitPipeline, evQueryOne}:  {stImplicitMulti, nil},
	{stImplicitPipeline, evQueryMany}: {stImplicitMulti, nil},
	{stImplicitPipeline, evCopyStart}: {stCopyIn, nil},
	{stImplicitPipeline, evClose}:     {stClosed, abortImplicit},

	{stInBlock, evStmtOK}:      {stInBlock, nil},
	{stInBlock, evStmtErr}:     {stFailedBlock, nil},
	{stInBlock, evBegin}:       {stInBlock, warnAlreadyInBlock},
	{stInBlock, evCommit}:      {stNoBlock, commitBlock},
	{stInBlock, evRollback}:    {stNoBlock, abortBlock("ROLLBACK")},
	{stInBlock, evSavepoint}:   {stInBlock, savepoint},
	{stInBlock, evRelease}:     {stInBlock, release},
	{stInBlock, evRollbackTo}:  {stInBlock, rollbackTo},
	{stInBlock, evExtStmt}:     {stInBlock, nil},
	{stInBlock, evSync}:        {stInBlock, nil},
	{stInBlock, evQueryOne}:    {stInBlock, nil},
	{stInBlock, evQueryMany}:   {stInBlock, nil},
	{stInBlock, evQueryDone}:   {stInBlock, nil},
	{stInBlock, evQueryFailed}: {stInBlock, nil},
	{stInBlock, evCopyStart}:   {stCopyIn, nil},
	{stInBlock, evClose}:       {stClosed, abortBlock("")},

	// Everything but COMMIT, ROLLBACK and ROLLBACK TO fails with 25P02
	// (other statements before they run: session.execBound).
	{stFailedBlock, evStmtErr}:     {stFailedBlock, nil},
	{stFailedBlock, evBegin}:       {stFailedBlock, errInFailedBlock},
	{stFailedBlock, evCommit}:      {stNoBlock, abortBlock("ROLLBACK")},
	{stFailedBlock, evRollback}:    {stNoBlock, abortBlock("ROLLBACK")},
	{stFailedBlock, evSavepoint}:   {stFailedBlock, errInFailedBlock},
	{stFailedBlock, evRelease}:     {stFailedBlock, errInFailedBlock},
	{stFailedBlock, evRollbackTo}:  {stInBlock, rollbackTo},
	{stFailedBlock, evExtStmt}:     {stFailedBlock, nil},
	{stFailedBlock, evSync}:        {stFailedBlock, nil},
	{stFailedBlock, evQueryOne}:    {stFailedBlock, nil},
	{stFailedBlock, evQueryMany}:   {stFailedBlock, nil},
	{stFailedBlock, evQueryDone}:   {stFailedBlock, nil},
	{stFailedBlock, evQueryFailed}: {stFailedBlock, nil},
	{stFailedBlock, evClose}:       {stClosed, abortBlock("")},

	// The COPY statement's own StmtOK/StmtErr follows in the state it
	// returns to.
	{stCopyIn, evCopyDone}: {stResume, nil},
	{stCopyIn, evCopyFail}: {stResume, nil},
}

// txFSM is a session's state and the data its transitions keep.
type txFSM struct {
	state txState
	// multi: a simple Query of several statements is running.
	multi bool
	// resume is the state a COPY FROM STDIN returns to.
	resume txState
	// trace, if set (tests), sees every transition taken.
	trace func(from txState, ev txEvent, to txState)
}

// fire takes the transition for ev from the current state and runs its
// action.
func (s *session) fire(ev txEvent, a *txArgs) (string, error) {
	from := s.fsm.state
	tr, ok := txTable[txKey{from, ev}]
	if !ok {
		return "", pgerr.New(pgerr.InternalError, "transaction state machine: no transition for %s in state %s", ev, from)
	}
	switch ev {
	case evQueryMany:
		s.fsm.multi = true
	case evQueryDone, evQueryFailed:
		s.fsm.multi = false
	case evCopyStart:
		s.fsm.resume = from
	}
	to := tr.to
	switch to {
	case stNoBlock:
		to = stIdle
		if s.fsm.multi {
			to = stImplicitMulti
		}
	case stResume:
		to = s.fsm.resume
	}
	s.fsm.state = to
	if s.fsm.trace != nil {
		s.fsm.trace(from, ev, to)
	}
	if a == nil {
		a = &txArgs{}
	}
	if a.ctx == nil {
		a.ctx = context.Background()
	}
	if tr.action == nil {
		return "", nil
	}
	return tr.action(s, a)
}

// fireTx fires the event of a transaction statement.
func (s *session) fireTx(ctx context.Context, x *sql.Transaction, w wire.ResultWriter) (string, error) {
	ev, ok := map[sql.TxKind]txEvent{sql.TxBegin: evBegin, sql.TxCommit: evCommit, sql.TxRollback: evRollback,
		sql.TxSavepoint: evSavepoint, sql.TxRelease: evRelease, sql.TxRollbackTo: evRollbackTo}[x.Kind]
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "transaction statement not supported")
	}
	return s.fire(ev, &txArgs{ctx: ctx, x: x, w: w})
}

// The actions.

func warn(a *txArgs, msg string) error {
	if a.w == nil {
		return nil
	}
	return a.w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25000", Message: msg})
}

// commit commits t; the WITH HOLD cursors it declared read their rest
// first (cursor.go), and an error there fails the commit, which undoes t.
func (s *session) commit(ctx context.Context, t *storage.Txn) error {
	if err := s.holdCursors(ctx); err != nil {
		t.Rollback()
		return err
	}
	if err := s.temp.CheckOnCommit(); err != nil {
		t.Rollback()
		return err
	}
	start := time.Now()
	err := t.Commit(ctx)
	s.eng.opts.Stats.CommitDone(time.Since(start), err == nil)
	return err
}

// commitStatement commits a statement's implicit transaction; it is
// durable when this returns, before the client sees CommandComplete.
func commitStatement(s *session, a *txArgs) (string, error) {
	if a.txn != nil {
		if err := s.commit(a.ctx, a.txn); err != nil {
			s.localAbort()
			return "", err
		}
	}
	s.localCommit(a.ctx)
	return "", nil
}

func abortStatement(s *session, a *txArgs) (string, error) {
	if a.txn != nil {
		a.txn.Rollback()
	}
	s.localAbort()
	return "", nil
}

// startImplicit opens an implicit transaction several statements share;
// its storage transaction begins with the first statement (curTxn).
func startImplicit(s *session, a *txArgs) (string, error) {
	s.txStart = time.Now()
	s.settings.Begin()
	return "", nil
}

func commitImplicit(s *session, a *txArgs) (string, error) {
	t := s.txn
	s.txn = nil
	if t != nil {
		if err := s.commit(a.ctx, t); err != nil {
			s.localAbort()
			return "", err
		}
	}
	s.localCommit(a.ctx)
	return "", nil
}

func abortImplicit(s *session, a *txArgs) (string, error) {
	if s.txn != nil {
		s.txn.Rollback()
		s.txn = nil
	}
	s.localAbort()
	return "", nil
}

// commitImplicitEarly is COMMIT written in an implicit transaction: it
// commits what came before, with PostgreSQL's warning; a later statement
// starts a new implicit transaction.
func commitImplicitEarly(s *session, a *txArgs) (string, error) {
	if _, err := commitImplicit(s, a); err != nil {
		return "", err
	}
	s.reopenImplicit()
	return "COMMIT", warn(a, "there is no transaction in progress")
}

func abortImplicitEarly(s *session, a *txArgs) (string, error) {
	abortImplicit(s, a)
	s.reopenImplicit()
	return "ROLLBACK", warn(a, "there is no transaction in progress")
}

// reopenImplicit starts the implicit transaction of the rest of a
// multi-statement Query.
func (s *session) reopenImplicit() {
	if s.fsm.state == stImplicitMulti {
		startImplicit(s, nil)
	}
}

func warnNoTxn(tag string) txAction {
	return func(s *session, a *txArgs) (string, error) {
		return tag, warn(a, "there is no transaction in progress")
	}
}

// beginTag is the command tag of BEGIN or START TRANSACTION.
func beginTag(x *sql.Transaction) string {
	if x.Start {
		return "START TRANSACTION"
	}
	return "BEGIN"
}

// openBlock is BEGIN outside any transaction.
func openBlock(s *session, a *txArgs) (string, error) {
	s.txn = s.eng.catalog.Begin()
	s.txStart = time.Now()
	s.settings.Begin()
	return beginTag(a.x), s.applyModes(a.x.Modes)
}

// adoptBlock is BEGIN in an implicit transaction: it becomes the block
// (what ran before it is part of the block).
func adoptBlock(s *session, a *txArgs) (string, error) {
	return beginTag(a.x), s.applyModes(a.x.Modes)
}

// warnAlreadyInBlock is BEGIN in a block: its modes still apply, as in
// PostgreSQL.
func warnAlreadyInBlock(s *session, a *txArgs) (string, error) {
	if err := warn(a, "there is already a transaction in progress"); err != nil {
		return "", err
	}
	return beginTag(a.x), s.applyModes(a.x.Modes)
}

func commitBlock(s *session, a *txArgs) (string, error) {
	t := s.txn
	s.txn = nil
	if err := s.commit(a.ctx, t); err != nil {
		s.localAbort()
		return "", err
	}
	s.localCommit(a.ctx)
	s.reopenImplicit()
	return "COMMIT", nil
}

// abortBlock discards the block's transaction (ROLLBACK, COMMIT of a
// failed block, session end).
func abortBlock(tag string) txAction {
	return func(s *session, a *txArgs) (string, error) {
		if s.txn != nil {
			s.txn.Rollback()
			s.txn = nil
		}
		s.localAbort()
		s.reopenImplicit()
		return tag, nil
	}
}

func savepoint(s *session, a *txArgs) (string, error) {
	s.txn.Savepoint(a.x.Savepoint)
	s.localSavepoint(a.x.Savepoint)
	return "SAVEPOINT", nil
}

func release(s *session, a *txArgs) (string, error) {
	if err := s.txn.Release(a.x.Savepoint); err != nil {
		return "", err
	}
	s.localRelease(a.x.Savepoint)
	return "RELEASE", nil
}

func rollbackTo(s *session, a *txArgs) (string, error) {
	if err := s.txn.RollbackTo(a.x.Savepoint); err != nil {
		return "", err
	}
	s.localRollbackTo(a.x.Savepoint)
	return "ROLLBACK", nil
}

func errNotInBlock(s *session, a *txArgs) (string, error) {
	what := map[sql.TxKind]string{sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE SAVEPOINT", sql.TxRollbackTo: "ROLLBACK TO SAVEPOINT"}[a.x.Kind]
	return "", pgerr.New("25P01", "%s can only be used in transaction blocks", what)
}

func errInFailedBlock(s *session, a *txArgs) (string, error) { return "", errAborted() }

func errAborted() error {
	return pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// inTransactionBlock is PostgreSQL's IsTransactionBlock: statements that
// cannot run in a transaction block (DISCARD ALL) fail in these states.
func (st txState) inTransactionBlock() bool {
	return st == stInBlock || st == stFailedBlock || st == stImplicitMulti
}

// endsFailedBlock reports whether st may run in a failed transaction block.
func endsFailedBlock(st sql.Statement) bool {
	t, ok := st.(*sql.Transaction)
	return ok && (t.Kind == sql.TxRollback || t.Kind == sql.TxCommit || t.Kind == sql.TxRollbackTo)
}
