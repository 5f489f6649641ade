// Command peerbench measures joind side by side with PostgreSQL 15 and DuckDB
// in one run on one machine, and reports each workload as medians and as
// ratios (joind/DuckDB, joind/PostgreSQL). Shared machines drift, so only
// ratios measured in the same run are meant to be compared.
//
// It lives in a module of its own (github.com/joind/joind/bench) so that
// DuckDB's cgo library never enters joind's binary and joind's `go test ./...`
// never descends here. It must not import any joind package: joind is
// exercised only over the PostgreSQL wire protocol, exactly as a user would.
//
// Every peer gets the same tables from the same SQL, generated server-side
// with generate_series, and every answer is also computed in Go from the
// generation formulas (expected.go), so a wrong answer is caught even when
// only one peer runs.
package main
