// Package tpchgen holds one test: joind's TPC-H generator (`joind tpch
// table`, package tpch of the main module) writes the same bytes as go-tpc's
// port of dbgen (github.com/pingcap/go-tpc v1.0.7, tpch/dbgen), at SF 1:
// the six smaller tables whole, orders and lineitem for their first
// orders. It lives in the bench module so go-tpc (and its dependencies)
// never enter joind's; it runs the joind binary, importing no joind package.
//
//	cd bench && go test ./tpchgen/
package tpchgen
