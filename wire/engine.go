package wire

import (
	"context"
	"io"

	"github.com/joind/joind/pgerr"
)

// Engine is what wire serves: it opens a Session per client connection. wire
// depends only on this interface, never on the packages behind it.
type Engine interface {
	// NewSession starts a session with the client's startup parameters
	// (user, database, application_name, DateStyle, TimeZone, search_path,
	// and each `-c name=value` of the options parameter, names lower-cased).
	// An error (e.g. an invalid setting) is sent as a FATAL ErrorResponse.
	NewSession(ctx context.Context, params map[string]string) (Session, error)
}

// Statement is one parsed SQL statement of a query string.
type Statement interface {
	// SQL returns the statement's text.
	SQL() string
}

// ColumnDesc is one field of a RowDescription.
type ColumnDesc struct {
	Name     string
	TableOID uint32
	AttrNum  int16
	TypeOID  uint32
	TypeSize int16
	TypeMod  int32
	// Format is the column's format code: 0 text, 1 binary (extended
	// protocol only).
	Format int16
}

// ResultWriter receives one statement's output. Row values are already
// encoded (nil = NULL): in text format for the simple protocol, in the
// portal's result formats for the extended one.
type ResultWriter interface {
	// Describe announces the columns of a statement that returns rows
	// (RowDescription); it is called before the first Row, even if there are none.
	Describe(cols []ColumnDesc) error
	// Row sends one DataRow: a nil value is NULL, an empty non-nil slice the
	// empty string. The slices may be reused after Row returns.
	Row(values [][]byte) error
	// Notice sends a NoticeResponse (Severity NOTICE, WARNING, ...).
	Notice(n *pgerr.Error) error
}

// Session is one client's state: settings, transaction, prepared statements.
// A Session is used by one goroutine at a time.
type Session interface {
	// Parse parses a simple-query string into its statements (none for an
	// empty or comment-only string). A syntax error fails the whole string.
	Parse(query string) ([]Statement, error)
	// Execute runs one statement and returns its command tag ("SELECT 3",
	// "INSERT 0 1", "CREATE TABLE", ...). ctx is cancelled on query cancel
	// and server shutdown.
	Execute(ctx context.Context, st Statement, w ResultWriter) (tag string, err error)
	// TxStatus is the ReadyForQuery status: 'I' idle, 'T' in a transaction
	// block, 'E' in a failed transaction block.
	TxStatus() byte
	// ReportedSettings returns the current values of the settings reported
	// through ParameterStatus (server_version, client_encoding, DateStyle,
	// TimeZone, ...). wire sends all at startup and the changed ones after
	// each statement.
	ReportedSettings() map[string]string
	// Close releases the session; it is called once when the connection ends.
	Close()
}

// ExtendedSession is implemented by sessions that serve the extended query
// protocol (Parse/Bind/Describe/Execute). wire keeps the tables of named
// statements and portals; the session prepares and runs them. A Session
// that does not implement it gets 0A000 for every extended message.
type ExtendedSession interface {
	Session
	// Prepare parses and binds one statement (Parse message). paramOIDs are
	// the client's parameter types (0 = infer); sql may hold at most one
	// statement and may be empty.
	Prepare(sql string, paramOIDs []uint32) (PreparedStatement, error)
}

// PreparedStatement is a statement prepared by the Parse message.
type PreparedStatement interface {
	// ParamOIDs are the parameter types after inference
	// (ParameterDescription).
	ParamOIDs() []uint32
	// Columns describes the rows the statement returns, with text format;
	// nil for a statement that returns none (NoData).
	Columns() []ColumnDesc
	// Bind makes a portal from parameter values (nil = NULL) in the given
	// formats (0 text, 1 binary; already expanded to one code per
	// parameter) and asks for the result columns in resultFormats (expanded
	// to one code per column, or empty for all text).
	Bind(params [][]byte, paramFormats, resultFormats []int16) (Portal, error)
	// Close releases the statement.
	Close()
}

// Portal is a bound statement ready to run (Bind message).
type Portal interface {
	// Columns describes the rows with their result formats; nil if none.
	Columns() []ColumnDesc
	// Execute runs the portal, sending at most maxRows rows (0 = all) to w.
	// Row values are already encoded in the portal's result formats. It
	// returns suspended=true if rows remain (PortalSuspended, no tag); a
	// later Execute continues. An empty statement returns tag "" (sent as
	// EmptyQueryResponse).
	Execute(ctx context.Context, maxRows int, w ResultWriter) (tag string, suspended bool, err error)
	// Close releases the portal (and stops a suspended query).
	Close()
}

// CopyChannel is implemented by the ResultWriter of a statement that may run
// COPY ... FROM STDIN or COPY ... TO STDOUT: it switches the connection into
// the copy sub-protocol.
type CopyChannel interface {
	// CopyIn sends CopyInResponse (format 0 text, 1 binary; one format per
	// column) and returns the client's data: the payloads of its CopyData
	// messages, io.EOF at CopyDone, and a 57014 error at CopyFail. The
	// engine may stop reading early (on a bad row); the rest of the data is
	// then ignored.
	CopyIn(format int16, columns int) (io.Reader, error)
	// CopyOut sends CopyOutResponse; each Write of the returned writer sends
	// one CopyData message, and Close sends CopyDone (on success only).
	CopyOut(format int16, columns int) (io.WriteCloser, error)
}

// Objects is a connection's named prepared statements and portals. SQL's
// PREPARE / EXECUTE / DEALLOCATE and DECLARE / FETCH / MOVE / CLOSE keep
// theirs in the same two tables as Parse, Bind and Close, as PostgreSQL
// does (one namespace each: Parse of a PREPAREd name is 42P05, Execute of
// a DECLAREd cursor runs it).
type Objects interface {
	Statement(name string) (PreparedStatement, bool)
	// AddStatement registers ps under name; false if the name is taken.
	AddStatement(name string, ps PreparedStatement) bool
	// RemoveStatement closes and forgets a statement.
	RemoveStatement(name string)
	// StatementNames are the named statements, sorted.
	StatementNames() []string
	Portal(name string) (Portal, bool)
	// AddPortal registers p under name; false if the name is taken.
	AddPortal(name string, p Portal) bool
	// RemovePortal closes and forgets a portal.
	RemovePortal(name string)
}

// NewObjects returns an empty table of statements and portals, for a
// Session used without a connection (tests).
func NewObjects() Objects { return &extState{} }

// ObjectsUser is implemented by a Session that runs SQL-level prepared
// statements and cursors: wire hands it the connection's Objects once,
// right after NewSession.
type ObjectsUser interface{ UseObjects(Objects) }

// HeldPortal is implemented by a Portal that may outlive its transaction
// (a WITH HOLD cursor): wire does not close it when the transaction ends.
type HeldPortal interface{ Held() bool }

// Deallocation is implemented by a Statement that is DEALLOCATE [PREPARE]
// name | ALL: wire owns the prepared statements, so it runs it itself.
type Deallocation interface {
	Deallocate() (name string, all bool)
}

// QueryBlock is implemented by sessions that run the statements of one
// simple Query message as a single implicit transaction, as PostgreSQL
// does: a later statement's failure undoes the earlier ones. wire calls
// BeginQuery with the number of statements before running them and
// EndQuery after the last one ran or one failed; an EndQuery error (a
// failed commit) is reported like a statement's.
type QueryBlock interface {
	BeginQuery(statements int)
	EndQuery(ctx context.Context, failed bool) error
}

// PipelineBlock is implemented by sessions whose extended-protocol
// statements share one implicit transaction up to Sync, as PostgreSQL's
// do. wire calls Sync for each Sync message before ReadyForQuery; an
// error (a failed commit) is sent as an ErrorResponse.
type PipelineBlock interface {
	Sync(ctx context.Context) error
}
