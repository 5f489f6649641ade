// Package settings is the one registry of joind's run-time settings
// (PostgreSQL's GUC variables): each setting joind acts on is declared
// once in registry.go with its name, type and allowed values, boot value,
// context, GUC_REPORT flag and canonical output form; every other
// PostgreSQL 15 parameter comes from pg15.tsv (pg15.go says how they
// behave); and Values holds one session's current values with
// PostgreSQL's semantics.
//
// Everything that reads or writes a setting goes through here: SET, SET
// LOCAL, SET ... TO DEFAULT, RESET, RESET ALL, SHOW, SHOW ALL (engine),
// current_setting() and set_config() (through types.EvalContext),
// pg_settings (a virtual relation of package pgcatalog reading
// Values.Rows), and the ParameterStatus messages wire sends
// (Values.Reported).
//
// Values follow PostgreSQL's rules: a setting's reset value is the value
// the session started with (a startup-packet parameter or an options
// `-c name=value`, else the boot value); SET/RESET are transactional —
// undone when the transaction or savepoint they ran in rolls back — and
// SET LOCAL lasts until the end of the transaction (guc.c's nest-level
// stack, see Values.Begin). Names with a dot that are not joind's own are
// placeholders (custom options such as myapp.user_id), as in PostgreSQL.
//
// The package imports only types and pgerr, so pgcatalog, sql and engine
// can all read the registry.
package settings
