// Package corpus runs the shared corpus of public subquery and join cases
// (sqllogictest-like files whose expected rows were produced by PostgreSQL
// 15) against joind. The corpus lives outside the repository
// (../shared/corpus, or $JOIND_CORPUS_DIR); without it the test skips.
//
// The test is a ratchet: testdata/known_failures.txt lists the cases joind
// does not pass yet. A case failing that is not listed fails the test (a
// regression); a listed case that now passes is reported so the list can
// shrink (run with -update to rewrite it).
package corpus
