// Package pgregress plays PostgreSQL's own regression files
// (../shared/pg-regress: PostgreSQL 15.18's src/test/regress sql/, data/)
// statement by statement on joind and on a scratch PostgreSQL 15, and
// classifies each statement: agree (same outcome, same SQLSTATE, same rows,
// as a multiset unless the statement's top level has ORDER BY), rows differ,
// joind error where PostgreSQL succeeds, PostgreSQL error where joind
// succeeds, both failing with different SQLSTATEs, hang, crash. EXPLAIN is
// left out of the count.
//
// Each file runs on a fresh joind and a fresh PostgreSQL database, after
// test_setup.sql (as in pg_regress's schedule), with pg_regress's session
// settings on both (TimeZone PST8PDT, DateStyle 'Postgres, MDY',
// IntervalStyle postgres_verbose). The script reader (script.go) follows
// psql: statements split where psql splits them, psql variables, \set,
// \getenv, \gset and COPY FROM STDIN data; display-only meta-commands are
// dropped.
//
// testdata/ratchet.tsv lists the files CI plays and each one's agreeing
// statements; the test fails when a file agrees on fewer statements than
// it records, so the measure never goes down. After an improvement:
//
//	go test ./regress/pgregress/ -update
//
// JOIND_PGREGRESS_FILES=all (or a comma-separated list of names) plays other
// files too and reports them without the ratchet; JOIND_PGREGRESS_VERBOSE=1
// logs every statement that does not agree, with both outcomes.
package pgregress
