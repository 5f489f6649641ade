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
//
//   - The object ids PostgreSQL assigns (oids.go), the types joind exposes
//     in pg_type (pgtype.go), and the relation list every catalog derives
//     from (relations.go).
//
//   - The reg* types' input and output functions (regtypes.go) and the
//     system-information functions (funcs.go: format_type, pg_get_expr,
//     pg_table_is_visible, obj_description, ...), declared with their
//     argument and result types; package sql binds calls to them.
//
//   - The one deparser of ruleutils.c's kind (ruleutils_query.go):
//     pg_get_viewdef, pg_views.definition and information_schema.views
//     print a view's stored query as PostgreSQL prints the analysed one
//     (get_query_def's layout, columns qualified, literals typed, implicit
//     casts shown, isSimpleNode's parentheses in pretty mode), and CHECK
//     constraints' pg_get_constraintdef goes through its expressions; a
//     shape it has no rule for prints the stored text.
//
//   - The disk sizes (dbsize.go): pg_relation_size and its kin over the
//     data directory's files, as storage.TableSizer / storage.DirSizer
//     report them.
//
//   - pg_settings (pg_settings.go), a view of the one settings registry
//     (package settings) that SET, SHOW, RESET, ParameterStatus and
//     current_setting/set_config read too.
//
//   - The built-ins (pgproc.go, pgproc_rows.go, pgtype.go): pg_proc,
//     pg_aggregate, pg_operator, pg_cast, pg_language and pg_type list
//     what joind's own registry has (package types' functions, aggregates,
//     operators, casts and types), each with PostgreSQL 15's row for it,
//     read from pgdata/*.tsv, which pgdata/generate.sh copies from a stock
//     cluster; so do pg_get_keywords and pg_get_function_arguments.
//     pg_type adds PostgreSQL's pseudo-types and every relation's row type
//     (usertypes_composite.go), pg_attribute the system columns (ctid ...
//     tableoid), pg_depend plpgsql's members, which pg_describe_object
//     names (describe.go).
//
//   - Set-returning catalog functions called in FROM (setfuncs.go).
//
// OID columns are of type oid, and the reg* types are real types
// (types/regtypes.go) whose names regtypes.go reads and prints. joind has
// no int2vector, oidvector or pg_node_tree types, and most catalog
// arrays are text in PostgreSQL's array syntax ("{a,b}", ArrayItems reads
// them); a row field of slice type is a real array column.
//
// The package reads storage only through its interfaces (storage.Catalog,
// TempLister, TableSizer, DirSizer) and the session through Env; it imports storage, settings,
// types and pgerr, and package sql imports it.
package pgcatalog
