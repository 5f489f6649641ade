// Package tpch runs TPC-H as a standing test: `joind tpch generate` writes
// SF 0.01, the same files are loaded by COPY into joind and a scratch
// PostgreSQL 15, and each of the 22 queries (package tpch's, with qgen's
// default parameters) runs on both; the answers are compared as
// PostgreSQL's text, row by row, in the order of the query's ORDER BY.
//
// testdata/ratchet.tsv lists the queries joind answers differently today,
// with what differs. The test fails when a query not listed disagrees, and
// when a listed query now agrees, so the list stays true. Rewrite it with
//
//	go test ./regress/tpch/ -update
//
// JOIND_TPCH_SF runs another scale factor (e.g. 1) by hand, and
// JOIND_TPCH_TIMEOUT (e.g. 10m) sets joind's time per query (default 20s:
// a query joind cannot answer in time disagrees); the ratchet holds for
// SF 0.01 only, so other scale factors only report:
//
//	JOIND_TPCH_SF=1 JOIND_TPCH_TIMEOUT=10m go test ./regress/tpch/ -v -timeout 3h
package tpch
