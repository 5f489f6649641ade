// Package oracle starts a scratch PostgreSQL 15 cluster for tests. Real
// PostgreSQL is joind's behavioural oracle: the regress suites' expected
// files come from it, and differential tests compare joind's answers with
// its answers.
//
// It is test support only. It may import the standard library and pgx; it
// must not import any joind package, so that the oracle can never be
// influenced by the code under test.
package oracle
