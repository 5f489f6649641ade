package storage

import "sort"

// Default privileges (ALTER DEFAULT PRIVILEGES, pg_default_acl): per
// role, for the whole database (Schema 0) or one schema, the access list
// new objects of a kind ('r' relations, 'S' sequences, 'f' functions,
// 'n' schemas) that role creates
// start with. They live in the role catalog (Auth.Defaults), so they are
// durable and transactional as grants are.

// DefaultACL is one pg_default_acl row.
type DefaultACL struct {
	Role   uint32    `json:"role"`
	Schema uint32    `json:"schema,omitempty"`
	Kind   byte      `json:"kind"`
	ACL    []ACLItem `json:"acl"`
}

// hardDefault is the access list an object of kind of an owner has
// without default privileges (acldefault): PUBLIC's default first.
func hardDefault(owner uint32, kind byte) []ACLItem {
	all, public := KindPrivs(kind)
	out := []ACLItem{}
	if public != 0 {
		out = append(out, ACLItem{Grantee: 0, Grantor: owner, Privs: public})
	}
	return append(out, ACLItem{Grantee: owner, Grantor: owner, Privs: all})
}

func (a *Auth) defaultIndex(role, schema uint32, kind byte) int {
	for i, d := range a.Defaults {
		if d.Role == role && d.Schema == schema && d.Kind == kind {
			return i
		}
	}
	return -1
}

// AlterDefault grants (or revokes) privs for grantee in role's default
// access list of kind in schema (0: all schemas), as PostgreSQL's
// SetDefaultACL: the database-wide list starts from the hard-wired
// default and is dropped when it is that again; a schema's list starts
// empty, adds to the database-wide one and is dropped when empty.
func (a *Auth) AlterDefault(role, schema uint32, kind byte, grant bool, grantee uint32, privs uint16, opt bool) {
	var acl []ACLItem
	i := a.defaultIndex(role, schema, kind)
	switch {
	case i >= 0:
		acl = append([]ACLItem(nil), a.Defaults[i].ACL...)
	case schema == 0:
		acl = hardDefault(role, kind)
	}
	if grant {
		acl = grantItems(acl, grantee, role, privs, opt)
	} else {
		acl = revokeItems(acl, grantee, role, privs, opt)
	}
	sortACL(acl)
	drop := len(acl) == 0 || schema == 0 && sameACL(acl, hardDefault(role, kind))
	defs := append([]DefaultACL(nil), a.Defaults...)
	switch {
	case drop && i >= 0:
		defs = append(defs[:i], defs[i+1:]...)
	case drop:
	case i >= 0:
		defs[i].ACL = acl
	default:
		defs = append(defs, DefaultACL{Role: role, Schema: schema, Kind: kind, ACL: acl})
	}
	a.Defaults = defs
}

// sortACL orders acl as PostgreSQL's aclitemsort (grantee, grantor,
// privileges), as default access lists and what they give are stored.
func sortACL(acl []ACLItem) {
	sort.SliceStable(acl, func(i, j int) bool {
		x, y := acl[i], acl[j]
		if x.Grantee != y.Grantee {
			return x.Grantee < y.Grantee
		}
		if x.Grantor != y.Grantor {
			return x.Grantor < y.Grantor
		}
		return x.Privs < y.Privs
	})
}

func sameACL(x, y []ACLItem) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// ApplyDefaults gives a new object oid of kind, owned by owner, in schema
// (0 for a schema itself) the default privileges of its owner: the
// database-wide list (or the hard-wired default) merged with the
// schema's; the hard-wired default itself stays implicit (acl NULL).
func (a *Auth) ApplyDefaults(oid, owner, schema uint32, kind byte) {
	acl := hardDefault(owner, kind)
	if i := a.defaultIndex(owner, 0, kind); i >= 0 {
		acl = append([]ACLItem(nil), a.Defaults[i].ACL...)
	}
	if i := a.defaultIndex(owner, schema, kind); schema != 0 && i >= 0 {
		for _, it := range a.Defaults[i].ACL {
			acl = grantItems(acl, it.Grantee, it.Grantor, it.Privs, false)
			if it.GrantOpt != 0 {
				acl = grantItems(acl, it.Grantee, it.Grantor, it.GrantOpt, true)
			}
		}
	}
	sortACL(acl)
	if sameACL(acl, hardDefault(owner, kind)) {
		return
	}
	o := a.Object(oid)
	o.ACL, o.Set = acl, true
	a.setObject(oid, o)
}

// DefaultsOf lists the default access lists naming role (as their role
// or in their items), for DROP ROLE.
func (a *Auth) DefaultsOf(role uint32) []DefaultACL {
	var out []DefaultACL
	for _, d := range a.Defaults {
		if d.Role == role || holds(d.ACL, role) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Schema < out[j].Schema })
	return out
}

// DropDefaultsOf drops role's default access lists and its items in the
// others' (DROP OWNED), and a database-wide list left the hard-wired
// default.
func (a *Auth) DropDefaultsOf(role uint32) {
	var defs []DefaultACL
	for _, d := range a.Defaults {
		if d.Role == role {
			continue
		}
		var acl []ACLItem
		for _, it := range d.ACL {
			if it.Grantee != role {
				acl = append(acl, it)
			}
		}
		if len(acl) > 0 && !(d.Schema == 0 && sameACL(acl, hardDefault(d.Role, d.Kind))) {
			d.ACL = acl
			defs = append(defs, d)
		}
	}
	a.Defaults = defs
}
