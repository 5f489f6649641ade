package types

import (
	"context"
	"time"
)

// EvalContext carries the session state some functions and casts need.
type EvalContext struct {
	TimeZone *time.Location // session TimeZone (nil = UTC)
	Now      time.Time      // transaction start time: now(), current_date, ...
	// StatementNow is the statement's start: statement_timestamp() (zero:
	// Now).
	StatementNow time.Time
	// Format is the session's output/input settings (DateStyle, IntervalStyle,
	// extra_float_digits) used by casts to and from text; nil = defaults.
	Format *Format
	// Settings answers current_setting() and set_config() (nil: no
	// session, every name is unrecognized).
	Settings SettingsAccess
	// Sequences answers nextval(), currval(), setval() and lastval() (nil:
	// no session; they fail with 0A000).
	Sequences SequenceAccess
	// Ctx is the running statement's context: functions that wait
	// (pg_sleep) end when it is cancelled (nil: they cannot be).
	Ctx context.Context
	// Domains checks a value against a domain's constraints at execution
	// (nil: no session; a CHECK reached that way is 0A000).
	Domains DomainChecker
}

// SettingsAccess is the session's run-time settings as functions see them.
type SettingsAccess interface {
	// Current is SHOW's text of a setting; ok is false for an unknown name
	// when missingOK.
	Current(name string, missingOK bool) (v string, ok bool, err error)
	// SetConfig sets (value nil: resets) a setting and returns its new text.
	SetConfig(name string, value *string, local bool) (string, error)
}

// Overload is one resolved built-in function or operator (PostgreSQL's
// pg_proc/pg_operator row). The binder resolves names to an Overload and casts
// arguments to Args; operators call Eval.
type Overload struct {
	Name   string // "+", "=", "upper", "~~" (LIKE), ...
	Args   []Type
	Result Type
	// Strict overloads return NULL when any argument is NULL without calling
	// Eval (PostgreSQL's STRICT); non-strict ones see NULL arguments.
	Strict bool
	// Volatile overloads (random()) must not be constant-folded.
	Volatile bool
	// Stable overloads (now(), timestamptz arithmetic: PostgreSQL's
	// provolatile 's') may be folded for one statement but are not
	// evaluated while planning, so their errors arise only at run time.
	Stable bool
	// Leakproof overloads raise no error for any argument (PostgreSQL's
	// pg_proc.proleakproof: int4eq, texteq, date_lt; not int4div or
	// numeric_mul), so the optimizer may evaluate them on rows PostgreSQL's
	// plan would not reach, e.g. a correlated subquery's condition below a
	// join, on every inner row.
	Leakproof bool
	// SideEffects overloads (set_config) change what later calls see, so
	// calls must run one row at a time, in row order. They are volatile.
	SideEffects bool
	// SetReturning overloads (generate_series) yield rows, not a value:
	// the binder places them in a FunctionScan or a ProjectSet, and Eval
	// only reports misuse.
	SetReturning bool
	Eval         func(ctx *EvalContext, args []Value) (Value, error)
	// Rows, when set, computes a set-returning overload's rows (one built
	// outside this package: pgcatalog's catalog functions); RowSet calls it.
	Rows func(ctx *EvalContext, args []Value) ([]Value, error)
	// AnyArgs marks the arguments declared "any" (concat, format,
	// json_build_object): each takes its argument's own type, so an
	// untyped parameter there gets none (PostgreSQL: 42P18).
	AnyArgs []bool
}

// AggOverload is one resolved aggregate function.
type AggOverload struct {
	Name   string // "count", "sum", ...
	Args   []Type // empty for count(*)
	Result Type
	// New returns an empty accumulator for one group.
	New func() Accumulator
	// AnyOrder accumulators take a call's rows in any order despite its
	// WITHIN GROUP ordering (hypothetical-set aggregates: aggordered.go).
	AnyOrder bool
	// AnyArgs marks the arguments declared "any" (count's), as
	// Overload.AnyArgs.
	AnyArgs []bool
}

// Accumulator folds the values of one group. Add receives the aggregate's
// argument values for one row (NULLs included: strict aggregates skip rows
// whose arguments are NULL themselves). Result may be called once, at the end.
type Accumulator interface {
	Add(args []Value) error
	// Merge folds another accumulator of the same overload into this one
	// (partial aggregation across partitions).
	Merge(other Accumulator) error
	Result() (Value, error)
}
