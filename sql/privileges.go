package sql

import (
	"sort"
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
	Seq  bool   // a sequence (read as a one-row table)
	Func bool   // a function: Priv is EXECUTE, checked as current_user even in a view
	Priv uint16 // storage.Priv*
	// AsOwnerOf, when not 0, is the view whose owner is checked instead of
	// the current role.
	AsOwnerOf uint32
	// Cols are the attribute numbers Priv is needed on, when the role
	// lacks it on the table: each column's access list must grant it
	// (none: any column's), as PostgreSQL's selectedCols, insertedCols
	// and updatedCols. colsKnown marks Cols set by the statement (else a
	// SELECT's come from the columns the statement reads).
	Cols      []int16
	colsKnown bool
	// ifRead drops a SELECT whose relation's columns the statement
	// does not read (a MERGE target's).
	ifRead bool
}

// fillColumnPerms gives each SELECT the columns of its relation the
// statement reads (colUse).
func (b *binder) fillColumnPerms() {
	for i := range b.perms {
		p := &b.perms[i]
		if p.colsKnown || p.Priv != storage.PrivSelect || p.Seq || p.Func {
			continue
		}
		for u := range b.colUse {
			if u.Table == p.OID {
				p.Cols = append(p.Cols, u.Attnum)
			}
		}
		sort.Slice(p.Cols, func(i, j int) bool { return p.Cols[i] < p.Cols[j] })
		p.colsKnown = true
	}
	out := b.perms[:0]
	for _, p := range b.perms {
		if !p.ifRead || len(p.Cols) > 0 {
			out = append(out, p)
		}
	}
	b.perms = out
}

// noteReadCols records SELECT on the columns of rv the statement reads,
// if any (a MERGE target: PostgreSQL's markVarForSelectPriv).
func (b *binder) noteReadCols(rv *pg_query.RangeVar) {
	n := len(b.perms)
	b.notePermRV(rv, storage.PrivSelect)
	if n < len(b.perms) {
		b.perms[n].ifRead = true
	}
}

// noteInsertedCols records INSERT on the columns a MERGE's INSERT gives
// values: those it names, else the first nvals.
func (b *binder) noteInsertedCols(rv *pg_query.RangeVar, names []*pg_query.Node, nvals int) {
	b.notePermCols(rv, storage.PrivInsert, func(defs []storage.ColumnDef) []int16 {
		if len(names) > 0 {
			return attnumsNamed(defs, names)
		}
		var cols []int16
		for i, d := range defs[:min(nvals, len(defs))] {
			cols = append(cols, attnumOf(d, i))
		}
		return cols
	})
}

// notePermCols records priv on the columns cols gives of the table rv
// names.
func (b *binder) notePermCols(rv *pg_query.RangeVar, priv uint16, cols func([]storage.ColumnDef) []int16) {
	r, err := b.resolveRelation(rv)
	if err != nil || r.kind != relTable {
		return
	}
	n := len(b.perms)
	b.notePerm(r, priv)
	if n < len(b.perms) {
		b.perms[n].Cols, b.perms[n].colsKnown = cols(r.table.Columns()), true
	}
}

// attnumsNamed are the attribute numbers of the columns ResTargets name.
func attnumsNamed(defs []storage.ColumnDef, targets []*pg_query.Node) []int16 {
	var cols []int16
	for _, tn := range targets {
		name := tn.GetResTarget().GetName()
		for i, d := range defs {
			if d.Name == name {
				cols = append(cols, attnumOf(d, i))
			}
		}
	}
	return cols
}

// noteUpdatedCols records UPDATE on the columns SET assigns.
func (b *binder) noteUpdatedCols(rv *pg_query.RangeVar, targets []*pg_query.Node) {
	b.notePermCols(rv, storage.PrivUpdate, func(defs []storage.ColumnDef) []int16 { return attnumsNamed(defs, targets) })
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
	case relSequence:
		if r.seq.Temp {
			return
		}
		pc.OID, pc.Seq = r.seq.ObjectID(), true
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
		if !held(auth, who, p) {
			kind := "table"
			switch {
			case p.View:
				kind = "view"
			case p.Seq:
				kind = "sequence"
			case p.Func:
				kind = "function"
			}
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", kind, p.Name)
		}
	}
	return nil
}

// held reports whether who holds p: on the table, or, for privileges that
// exist per column, on each of p's columns (any column when none).
func held(auth *storage.Auth, who uint32, p PermCheck) bool {
	kind := storage.KindRelation
	switch {
	case p.Seq:
		kind = storage.KindSequence
	case p.Func:
		kind = storage.KindFunction
	}
	all, public := storage.KindPrivs(kind)
	need := p.Priv &^ auth.Privileges(who, p.OID, all, public)
	if need == 0 {
		return true
	}
	if p.Seq || p.Func || need&^columnPrivAll != 0 {
		return false
	}
	if len(p.Cols) == 0 {
		return auth.AnyColumnPrivileges(who, p.OID)&need == need
	}
	for _, c := range p.Cols {
		if auth.ColumnPrivileges(who, p.OID, c)&need != need {
			return false
		}
	}
	return true
}
