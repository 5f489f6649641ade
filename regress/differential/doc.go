// Package differential holds randomized differential tests: the same
// generated tables and queries run on joind and on a real PostgreSQL 15, and
// every answer must agree. The NOT IN test (notin_test.go) covers every
// shape of [NOT] IN / [NOT] EXISTS / op ANY / op ALL that the optimizer
// unnests into (null-aware) joins.
//
// Runs are seeded and bounded for CI; set JOIND_DIFF_ITERATIONS for longer
// runs and JOIND_DIFF_SEED to replay one. A disagreement prints the seed,
// the tables and the query, so it can become a fixed regress case.
package differential
