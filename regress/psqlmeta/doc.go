// Package psqlmeta checks psql's describe commands (\dt, \d, \d NAME, \dn,
// \l, \df, \dT) and the catalog queries drivers and BI tools send against
// joind, comparing psql's output with PostgreSQL 15's for the same tables;
// TestClientQueryReplay replays client catalog queries (replay_test.go) on
// both and compares the answers. It is a test-only package: it imports
// regress, regress/joindtest and
// regress/oracle, and nothing imports it.
package psqlmeta
