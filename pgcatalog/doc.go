// Package pgcatalog is joind's PostgreSQL compatibility surface: what
// clients (psql's \d family, JDBC/ODBC/SQLAlchemy metadata, BI tools) read
// about the database rather than from it.
//
//   - The virtual system relations of pg_catalog and information_schema,
//     each declared once (tables.go's declare) by its name, OID, kind and a
//     row struct whose tagged fields are its columns, named and typed, in
//     PostgreSQL 15's order, with a generator of those rows over a Snapshot
//     of the catalog. Nothing is stored: a relation's rows are computed
//     when a statement first scans it.
//   - The object ids PostgreSQL assigns (oids.go), the types joind exposes
//     in pg_type (pgtype.go), and the relation list every catalog derives
//     from (relations.go).
//   - The reg* casts' input and output functions (regtypes.go) and the
//     system-information functions (funcs.go: format_type, pg_get_expr,
//     pg_table_is_visible, obj_description, ...), declared with their
//     argument and result types; package sql binds calls to them.
//   - pg_settings (pg_settings.go), a view of the one settings registry
//     (package settings) that SET, SHOW, RESET, ParameterStatus and
//     current_setting/set_config read too.
//
// joind has no oid, name, "char", array or pg_node_tree types: an OID is
// an int8, name and "char" are text, and catalog arrays are text in
// PostgreSQL's array syntax ("{a,b}", ArrayItems reads them).
//
// The package reads storage only through its interfaces (storage.Catalog,
// TempLister) and the session through Env; it imports storage, settings,
// types and pgerr, and package sql imports it.
package pgcatalog
