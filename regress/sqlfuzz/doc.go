// Package sqlfuzz is a differential and metamorphic fuzzer over the SQL
// joind supports: generated schemas, data and queries run on joind and on
// PostgreSQL 15, and every answer must agree; metamorphic relations are
// checked on joind alone.
//
// # Generator
//
// Schemas (schema.go, values.go): 2-3 tables fz_t0.. with 2-5 columns of
// every type in types.ConcreteIDs (int2/4/8, float4/8, numeric and
// numeric(p,s), bool, text, varchar(n), char(n), date, timestamp,
// timestamptz, interval). Column names k0/k1 repeat with one type across
// tables (joins, USING, set operations find partners). Data is NULL-heavy
// (a per-column NULL rate of 0-100%), duplicate-heavy (each column draws
// from a random subset of its type's pool) and full of edge values: 0, -0,
// NaN and ±Infinity, min/max integers, empty and 300-character strings,
// unicode, LIKE metacharacters, BC and far-future dates, infinite dates
// and timestamps, huge intervals. Both servers get the same INSERTs, and
// every load is verified (each table read back from both) before queries
// run on it.
//
// Expressions (gen.go) are typed from joind's own catalog (catalog.go:
// types.Operators, types.Functions, types.Aggregates, types.CanCast): to
// make an expression of type T the generator picks an operator or function
// overload returning T and generates its arguments by their parameter
// types, or a cast from a type castable to T, CASE, COALESCE/NULLIF/
// GREATEST/LEAST, a scalar subquery, or for boolean AND/OR/NOT, IS [NOT]
// NULL/TRUE/FALSE/UNKNOWN, IS [NOT] DISTINCT FROM, [NOT] BETWEEN
// [SYMMETRIC], [NOT] IN lists, LIKE/ILIKE [ESCAPE], EXISTS, IN (subquery).
// A function added to types/ is generated with no change here. Arrays:
// int4[] and text[] values (array literals with NULLs, quoting, two
// dimensions and lower bounds other than 1, or ARRAY[...] of element
// expressions) feed the array functions and operators, whose polymorphic
// signatures types.Functions and types.Operators list instanced at int4
// and text; no column is an array. Leaves are
// columns, group keys, aggregate calls (DISTINCT, FILTER) or literals in
// every spelling ('x'::T, CAST('x' AS T), T 'x', bare numbers, unknown
// strings). Only parameter domains the catalog cannot express are hinted
// by name (argHint: field and zone names, lengths for repeat/lpad, regex
// patterns). Clock- and random-dependent functions are never generated.
//
// Queries: SELECT [DISTINCT] over 1-3 FROM items (tables, derived tables)
// joined INNER/LEFT/RIGHT/FULL/CROSS/comma with ON (mostly a same-typed
// equality) or USING; WHERE; GROUP BY (plain, or ROLLUP / CUBE / GROUPING SETS
// over its keys) and HAVING with aggregates; UNION/
// INTERSECT/EXCEPT [ALL]; WITH; correlated and uncorrelated subqueries;
// ORDER BY/LIMIT/OFFSET; window calls over one table (window.go: every
// window function and window aggregates with FILTER, PARTITION BY, ROWS /
// RANGE / GROUPS frames with offsets and EXCLUDE), ordered either by every
// column and its text, so tied rows are identical, or by one key with only
// tie-independent functions, so the multiset of answers is determined.
//
// # Comparison rules (run.go)
//
// Both servers run each query over the simple protocol; values are
// compared as PostgreSQL text (floats exactly: joind promises PostgreSQL's
// shortest-exact output), with result column type OIDs.
//
//   - Rows are compared as a multiset, except a query wrapped as SELECT *
//     FROM (q) s ORDER BY <every column>, <every column::text> [LIMIT/
//     OFFSET], whose text order is fully determined and compared in order.
//     ORDER BY ... LIMIT over an open order compares the row count only.
//   - Where a server may output any of several equal values that print
//     differently (GROUP BY, DISTINCT, set operations, min/max: numeric
//     1.5 and 1.50, float -0 and 0, interval '1 mon' and '30 days', bpchar
//     'a ' and 'a'), a text mismatch that disappears once such values are
//     normalized counts as agree-modulo-representative.
//   - Aggregation order: stored floats are binary fractions, and float
//     sum/avg only aggregates bare float columns, so sums are exact in any
//     order; string_agg is compared through length() (ORDER BY inside an
//     aggregate is 0A000 in joind).
//   - Errors: joind XX000 is always a failure; joind 0A000 is counted
//     (joind-0A000), as is PostgreSQL 0A000 (pg-0A000); both failing with
//     the same SQLSTATE class is both-error, with different classes a
//     disagreement (but see AllowErrorPrecedence). One side failing is a
//     disagreement, except a data exception (class 22/21, 54000) where
//     evaluation order is open (WHERE, ON, CASE, AND/OR, subqueries,
//     LIMIT, empty inputs; everywhere under AllowOneSidedDataErrors).
//   - Timeouts (20s) and lost connections reconnect and reload the schema;
//     a joind connection lost while PostgreSQL answered is a disagreement.
//
// # Metamorphic checks (metamorphic.go)
//
// On joind alone, for a random FROM and predicate p: ternary logic
// partitioning (count(*), the rows, and min/max/count/sum of a column over
// F equal the combination of WHERE p, WHERE NOT p and WHERE p IS NULL) and
// NoREC (count(*) WHERE p equals sum(CASE WHEN p THEN 1 ELSE 0 END) and
// the count of rows whose projected p is true). A check where a query
// fails is skipped; XX000 is a failure.
//
// # Shrinking (shrink.go)
//
// A failure is shrunk automatically: AST mutations (drop a clause, an
// output column, a CTE; a join to one side; a set operation to one arm;
// an expression to a same-typed child, a literal or NULL; an aggregate's
// DISTINCT/FILTER) are kept while the failure reproduces with the same
// signature (same verdict and SQLSTATEs), then table rows are dropped in
// halves and one by one. The failure prints its seed, the DDL and data
// after shrinking, and the minimal query, ready for a regress file.
//
// # Running
//
// go test ./regress/sqlfuzz/ runs a bounded, seeded run (3000 queries,
// 300 with -short; a few minutes at most). Environment:
//
//	JOIND_FUZZ_SEED=n          first round's seed (round i uses n+i; printed with each failure)
//	JOIND_FUZZ_QUERIES=n       number of generated queries
//	JOIND_FUZZ_DURATION=30m    run for a duration (queries unbounded unless also set)
//	JOIND_FUZZ_PER_SCHEMA=n    queries per generated schema (default 150)
//	JOIND_FUZZ_KNOBS=K=false   generator/compare knobs (Knobs; FINDINGS.md)
//	JOIND_FUZZ_JOIND_DSN, JOIND_FUZZ_PG_DSN   use running servers instead of starting them
//	JOIND_FUZZ_WORKERS=n       n worker pairs of connections in parallel (tables fz<i>_*, seeds +i*1e9)
//	JOIND_FUZZ_MAX_FAILURES=n  a worker stops after n (shrunk) failures (default 10)
//	JOIND_FUZZ_VERBOSE=1       show a sample query for each frequent both-error kind
//
// Each round ends with a role script (roles.go): CREATE ROLE, GRANT and
// REVOKE on the round's tables, their columns, a sequence and roles, SET
// ROLE and the statements those decide, each statement's outcome (rows, or
// SQLSTATE and message) compared with PostgreSQL's; a difference is a ROLES
// failure printing the script. The roles are the worker's (fz_r0, ...;
// PostgreSQL's are the cluster's, so a shared oracle sees them come and go).
//
// With -v it prints progress every 30s and the final counts: queries,
// queries/second, time spent in each server, and one count per verdict.
package sqlfuzz
