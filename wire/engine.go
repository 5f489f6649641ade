package wire

import (
	"context"

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
}

// ResultWriter receives one statement's output. Row values are already
// encoded in text format (nil = NULL).
type ResultWriter interface {
	// Describe announces the columns of a statement that returns rows
	// (RowDescription); it is called before the first Row, even if there are none.
	Describe(cols []ColumnDesc) error
	// Row sends one DataRow. The slices may be reused after Row returns.
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
