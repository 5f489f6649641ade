package types

// QuoteIdent is PostgreSQL's quote_identifier, for packages that deparse
// names (pgcatalog's pg_get_* functions) — the one implementation.
func QuoteIdent(s string) string { return quoteIdent(s) }
