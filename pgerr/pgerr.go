package pgerr

import (
	"errors"
	"fmt"
)

// SQLSTATE codes used across joind.
const (
	SuccessfulCompletion      = "00000"
	CardinalityViolation      = "21000"
	DataException             = "22000"
	NullValueNotAllowed       = "22004"
	StringDataRightTrunc      = "22001"
	NumericValueOutOfRange    = "22003"
	InvalidDatetimeFormat     = "22007"
	DatetimeFieldOverflow     = "22008"
	DivisionByZero            = "22012"
	IntervalFieldOverflow     = "22015"
	InvalidParameterValue     = "22023"
	InvalidTextRepresentation = "22P02"
	ArraySubscriptError       = "2202E"
	InvalidEscapeSequence     = "22025"
	NotNullViolation          = "23502"
	InvalidCursorState        = "24000"
	InvalidTransactionState   = "25000"
	InFailedTransaction       = "25P02"
	InvalidSQLStatementName   = "26000"
	InvalidAuthorization      = "28000"
	InvalidPassword           = "28P01"
	InvalidCatalogName        = "3D000"
	SyntaxError               = "42601"
	InsufficientPrivilege     = "42501"
	UndefinedColumn           = "42703"
	UndefinedTable            = "42P01"
	UndefinedFunction         = "42883"
	UndefinedObject           = "42704"
	DuplicateTable            = "42P07"
	DuplicateColumn           = "42701"
	DuplicateAlias            = "42712"
	AmbiguousColumn           = "42702"
	AmbiguousFunction         = "42725"
	DatatypeMismatch          = "42804"
	GroupingError             = "42803"
	InvalidColumnReference    = "42P10"
	WrongObjectType           = "42809"
	IndeterminateDatatype     = "42P18"
	CannotCoerce              = "42846"
	InvalidFunctionDefinition = "42P13"
	FeatureNotSupported       = "0A000"
	OutOfMemory               = "53200"
	ProgramLimitExceeded      = "54000"
	NameTooLong               = "42622"
	QueryCanceled             = "57014"
	AdminShutdown             = "57P01"
	ProtocolViolation         = "08P01"
	InternalError             = "XX000"
	ConfigFileError           = "F0000"
	StatementTooComplex       = "54001"
)

// Error is an error with a SQLSTATE and the fields of an ErrorResponse.
type Error struct {
	Code     string // SQLSTATE
	Message  string // lower-case, no trailing period, as PostgreSQL words it
	Detail   string
	Hint     string
	Position int // 1-based character offset into the query text; 0 = none
	// Where is the CONTEXT line, e.g. COPY's `COPY t, line 3, column b: "x"`.
	Where    string
	Severity string // "" means ERROR
	cause    error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.cause }

// New returns an error with the given SQLSTATE and formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap attaches a SQLSTATE to cause, keeping it reachable through errors.Is/As.
func Wrap(cause error, code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), cause: cause}
}

// WithPosition returns a copy of e pointing at a 1-based character position.
func (e *Error) WithPosition(pos int) *Error {
	c := *e
	c.Position = pos
	return &c
}

// WithDetail returns a copy of e with a DETAIL line.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.Detail = fmt.Sprintf(format, args...)
	return &c
}

// WithWhere returns a copy of e with a CONTEXT line.
func (e *Error) WithWhere(where string) *Error {
	c := *e
	c.Where = where
	return &c
}

// WithHint returns a copy of e with a HINT line.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.Hint = fmt.Sprintf(format, args...)
	return &c
}

// As returns err as a *Error: its own if it carries one, else an internal
// error (XX000) wrapping it.
func As(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Code: InternalError, Message: err.Error(), cause: err}
}

// Code returns the SQLSTATE of err (XX000 if it has none).
func Code(err error) string { return As(err).Code }
