// Package external reads files joind does not own: the rule for where
// server-side files may be (copy_dirs; files.go), the conversion of
// Parquet values to joind's (parquetvalues.go, shared with COPY ... (FORMAT
// parquet)), and Parquet files as read-only tables (read_parquet;
// parquet.go): a storage.External whose units are the row groups, read
// at scan time, only the columns and row groups a query needs.
package external
