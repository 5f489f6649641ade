// Package sql turns PostgreSQL SQL text into joind statements: Parse splits
// and parses a query string with pg_query (PostgreSQL's own grammar), and
// Bind resolves names, types, operators and functions against the catalog,
// producing the typed logical plan of package sql/plan (for queries) or the
// statement types of stmt.go (DDL, DML, utility).
//
// Binding follows PostgreSQL's parse analysis closely — the same scoping
// rules, implicit column names, type resolution (via package types) and the
// same error messages, SQLSTATEs and cursor positions — because clients and
// the regression suite compare them byte for byte.
//
// Relation names resolve in one place (names.go) over the session's
// search path: resolveRelation / lookupTable for a name that must exist,
// tableName / createTarget for one being created; both yield storage keys
// (storage.TableKey), which the bound statements carry.
//
// sql imports pgerr, types, storage and sql/plan. It must not import the
// optimizer, operators, engine or wire packages: it knows nothing about how
// a plan runs.
package sql
