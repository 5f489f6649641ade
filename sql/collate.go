package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// joind compares strings bytewise: the C collation, which is also what the
// database default (C.UTF-8) does for UTF-8 text. So COLLATE "C", "POSIX",
// "ucs_basic", "C.utf8" and "default" change nothing and are accepted; any other collation would
// order or compare differently and is 0A000. PostgreSQL rejects two
// different explicit collations meeting in one operation (42P21); joind
// does not derive collations, so a statement naming more than one is 0A000.

// checkCollation validates the collation a COLLATE clause (or a column's
// COLLATE) names; loc positions the error.
func (b *binder) checkCollation(names []*pg_query.Node, loc int32) error {
	var parts []string
	for _, n := range names {
		parts = append(parts, n.GetString_().GetSval())
	}
	name := parts[len(parts)-1]
	if len(parts) > 2 || len(parts) == 2 && parts[0] != "pg_catalog" {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "collation \"%s\" is not supported", strings.Join(parts, ".")), loc)
	}
	switch name {
	case "C", "POSIX", "ucs_basic", "C.utf8", "default":
	default:
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "collation \"%s\" is not supported", name), loc)
	}
	if b.collation != "" && b.collation != name {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "a statement using different collations (\"%s\" and \"%s\") is not supported", b.collation, name), loc)
	}
	b.collation = name
	return nil
}

// bindCollate binds expr COLLATE name: the collation must be one joind
// has, and the type collatable (PostgreSQL's 42804 otherwise).
func (b *binder) bindCollate(s *scope, cc *pg_query.CollateClause) (plan.Expr, error) {
	e, err := b.bindExpr(s, cc.Arg)
	if err != nil {
		return nil, err
	}
	switch t := e.Type(); t.ID {
	case types.Text, types.Varchar, types.Char, types.Name, types.Unknown:
	default:
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", typeName(t)), cc.Location)
	}
	if err := b.checkCollation(cc.Collname, cc.Location); err != nil {
		return nil, err
	}
	return e, nil
}
