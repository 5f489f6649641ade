package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Privileges a statement needs, as PostgreSQL's range table entries'
// requiredPerms: the binder notes one PermCheck per stored relation it
// reads or writes, and the session checks them all (CheckPerms) before the
// statement runs, against the role catalog of its transaction. A relation
// read through a view is checked as the view's owner.

// PermCheck is one privilege on one relation.
type PermCheck struct {
	OID  uint32 // the relation
	Name string // its bare name, for the message
	View bool
	Priv uint16 // storage.Priv*
	// AsOwnerOf, when not 0, is the view whose owner is checked instead of
	// the current role.
	AsOwnerOf uint32
}

// notePerm records that the statement needs priv on the relation r.
func (b *binder) notePerm(r resolvedRel, priv uint16) {
	if r.temp || r.key == "" {
		return // temporary tables are the session's; system catalogs are PUBLIC's
	}
	pc := PermCheck{Name: storage.BareName(r.key), Priv: priv}
	switch r.kind {
	case relView:
		pc.OID, pc.View = pgcatalog.ViewOID(r.view), true
	case relTable:
		pc.OID = pgcatalog.RelationOID(r.table)
	default:
		return
	}
	if n := len(b.expandingOIDs); n > 0 {
		pc.AsOwnerOf = b.expandingOIDs[n-1]
	}
	b.perms = append(b.perms, pc)
}

// notePermRV records priv on the relation rv names (when it resolves).
func (b *binder) notePermRV(rv *pg_query.RangeVar, priv uint16) {
	if r, err := b.resolveRelation(rv); err == nil {
		b.notePerm(r, priv)
	}
}

// mentionsColumns reports whether any of ns references a column: an
// UPDATE or DELETE that reads its target's columns needs SELECT on it.
func mentionsColumns(ns ...*pg_query.Node) bool {
	for _, n := range ns {
		if n != nil && strings.Contains(n.String(), "column_ref") {
			return true
		}
	}
	return false
}

// CheckPerms checks perms for role in auth: the first missing privilege is
// 42501 "permission denied for table t", as PostgreSQL's aclcheck_error.
func CheckPerms(auth *storage.Auth, role uint32, perms []PermCheck) error {
	if auth.IsSuper(role) {
		return nil
	}
	for _, p := range perms {
		who := role
		if p.AsOwnerOf != 0 {
			who = auth.Object(p.AsOwnerOf).Owner
		}
		if auth.Privileges(who, p.OID, storage.AllTablePrivs, 0)&p.Priv != p.Priv {
			kind := "table"
			if p.View {
				kind = "view"
			}
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", kind, p.Name)
		}
	}
	return nil
}
