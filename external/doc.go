// Package external reads files joind does not own: the rule for where
// server-side files may be (copy_dirs; files.go), the conversion of
// Parquet values to joind's (parquetvalues.go, shared with COPY ... (FORMAT
// parquet)), and Parquet files as read-only tables (read_parquet;
// parquet.go): a storage.External whose units are the row groups, read
// at scan time, only the columns and row groups a query needs. A foreign
// table of format 'parquet' (file_fdw's CREATE FOREIGN TABLE, joind's
// extension of it) is a ParquetTable seen through Rename (foreign.go): the
// table's columns picked from the file's by name, statistics reordered, so
// row groups are skipped as for read_parquet. Text and CSV foreign tables
// are pgcopy's (the COPY parser lives there), reached from the binder
// through sql.OpenCopyFile. Apache Iceberg tables (iceberg.go,
// icebergwrite.go; docs/iceberg.md) are read through iceberg-go, one unit
// per data file with the manifest's statistics, appended to as new
// snapshots whose metadata file joind's own commit publishes, and changed
// by DELETE and UPDATE as position delete files (icebergdml.go),
// partitioned by Iceberg's transforms and pruned by them
// (icebergpartition.go: storage.UnitPruner); their
// location is a directory or an s3:// prefix (location.go: one file IO
// per kind, and the path helpers both share).
package external
