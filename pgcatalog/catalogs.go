package pgcatalog

// The system relations are declared in one order (pg_class lists them in
// it): pg_catalog's tables and views, pg_settings, pg_cursors and
// pg_prepared_statements, information_schema.
func init() {
	declarePgCatalog()
	declarePgSettings()
	declarePgCursors()
	declarePgStatActivity()
	declareInformationSchema()
	declareSequences()
	declareBuiltinRoutines()
	declareStats()
	declareDefaultACL() // roles.go
}
