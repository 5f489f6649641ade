// Package tpch is joind's TPC-H kit: a data generator producing dbgen's
// .tbl files, the schema, and the 22 queries with qgen's default
// parameters. It backs `joind tpch` and the TPC-H test in regress/.
//
// # The generator
//
// Generator is a port of TPC-H dbgen (the C reference, and go-tpc's Go port
// of dbgen 2.4.0, Apache-2.0, were the references; the code is joind's).
// Its rows are dbgen's byte for byte, at integer scale factors and, as
// dbgen's -s, fractional ones below 1: dbgen then keeps scale 1 and
// multiplies each scaled table's base row count by the factor (in
// thousandths), so key ranges shrink with the tables. SF 0.01 has 60,175
// lineitems, 15,000 orders, 1,500 customers, 2,000 parts, 8,000 partsupps,
// 100 suppliers, 25 nations and 5 regions; SF 1 has 6,001,215 lineitems.
//
// One difference from dbgen's files, on purpose: lines do not end with a
// '|'. dbgen writes one after the last column; PostgreSQL's COPY ...
// (DELIMITER '|') reads it as an extra empty column and rejects the row, so
// these files load into PostgreSQL and joind as they are.
//
// dbgen draws every column from one of 48 random streams and advances each
// stream to a fixed number of draws per row, so a row depends only on its
// table's streams and its row number. The generator keeps that state per
// table generation (no global state): tables generate independently and in
// parallel, WriteRange starts at any row by skipping whole rows, as dbgen's
// parallel -C/-S does, and WriteParallel generates one table's chunks on
// several goroutines. Comments are slices of dbgen's 300 MiB text
// pool, built once per Generator on first use.
//
// dists.dss, embedded, is TPC's distributions file from dbgen 2.14.0.
//
// # Schema and queries
//
// schema.sql is dbgen's dss.ddl in lower case (integer keys, decimal(15,2),
// char(n), varchar(n), date), without PRIMARY KEY (joind answers 0A000).
// queries/q01.sql … q22.sql are qgen's templates with its default
// substitutions (qgen -d, the specification's validation parameters), in
// PostgreSQL syntax: qgen's `interval '90' day (3)` is written
// `interval '90' day` (PostgreSQL rejects a precision there), and qgen's
// row counts (:n) become LIMIT. Q11's FRACTION is the SF 1 value; Query
// rescales it as qgen does.
package tpch
