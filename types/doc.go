// Package types is joind's SQL type system: the supported types and their
// modifiers, the Value representation, PostgreSQL-exact text input and output,
// casts with PostgreSQL's cast contexts, the built-in function, operator and
// aggregate registry with PostgreSQL's overload resolution rules, and the
// comparison and hashing used for sorting, grouping and joins.
//
// It exists so that every other package (binder, operators, storage, wire)
// agrees on one definition of what a value is and how it behaves; the
// behavioural oracle is PostgreSQL 15 and the tests' golden files come from it.
//
// Numeric columns are Arrow Decimal64/Decimal128 (numeric(p,s), p ≤ 18 /
// p ≤ 38) or an exact binary form (unconstrained numeric); decimal.go says
// why and how.
//
// float8's libm functions (sin, acosh, pow, cbrt, ...) call the C library
// through cgo (libm.go), as PostgreSQL does, so their last digits agree.
//
// It is a leaf package: it may import only the standard library (and C's
// libm), arrow-go, cockroachdb/apd and joind's pgerr. It must never import the binder,
// planner, operators, storage, wire or engine.
package types
