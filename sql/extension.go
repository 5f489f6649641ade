package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
)

// bindCreateExtension is CREATE EXTENSION. joind's one extension,
// pg_stat_statements, is built in and present in every database (its
// views are pgcatalog's), so creating it is what PostgreSQL says where
// it already exists: an error, or with IF NOT EXISTS a notice. Any other
// extension is not available, as on a server without its files.
func bindCreateExtension(x *pg_query.CreateExtensionStmt) (Statement, error) {
	if x.Extname == "file_fdw" || x.Extname == Iceberg {
		return bindCreateFileFdw(x) // foreign.go, iceberg.go
	}
	if x.Extname != "pg_stat_statements" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "extension \"%s\" is not available", x.Extname).
			WithHint("The extension must first be installed on the system where PostgreSQL is running.")
	}
	exists := pgerr.New("42710", "extension \"%s\" already exists", x.Extname)
	if !x.IfNotExists {
		return nil, exists
	}
	exists.Severity = "NOTICE"
	exists.Message += ", skipping"
	return &NoOp{Tag: "CREATE EXTENSION", Notice: exists}, nil
}
