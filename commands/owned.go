package commands

import (
	"context"
	"sort"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// DROP OWNED BY and REASSIGN OWNED BY over the objects joind keeps owners
// of (tables, views, schemas), as PostgreSQL's shdepDropOwned and
// shdepReassignOwned: the current role needs the privileges of each role
// named (and of the new owner), and the bootstrap superuser's objects are
// the system's.

// ownedRoles resolves the roles of DROP/REASSIGN OWNED and checks the
// current role has their privileges.
func ownedRoles(s Session, names []string, verb string) ([]uint32, error) {
	rc := s.Roles()
	a := authOf(s).Auth()
	var out []uint32
	for _, n := range names {
		r, ok := roleFor(a, rc, n)
		if !ok {
			return nil, errNoRole(n)
		}
		if !a.IsSuper(rc.Current) && !a.MemberOf(rc.Current, r.OID, true) {
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to %s objects", verb)
		}
		if r.OID == storage.OIDBootstrapRole {
			what := map[string]string{"drop": "drop objects", "reassign": "reassign ownership of objects"}[verb]
			return nil, pgerr.New("2BP01", "cannot %s owned by role %s because they are required by the database system", what, n)
		}
		out = append(out, r.OID)
	}
	return out, nil
}

// ownedObjects are the objects roles own: tables, views and schemas.
type ownedObjects struct {
	tables, views []sql.DropTarget
	schemas       []storage.Schema
}

func owned(s Session, roles []uint32) ownedObjects {
	a := authOf(s).Auth()
	mine := func(oid uint32) bool {
		o := a.Object(oid).Owner
		for _, r := range roles {
			if o == r {
				return true
			}
		}
		return false
	}
	cat := s.Catalog()
	var out ownedObjects
	for _, t := range cat.Txn.Tables() {
		if x, ok := t.(interface{ ObjectID() uint32 }); ok && mine(x.ObjectID()) {
			out.tables = append(out.tables, sql.DropTarget{Name: storage.BareName(t.Name()), Key: t.Name()})
		}
	}
	for _, v := range cat.Txn.Views() {
		if mine(storage.FirstUserOID + 1 + 2*uint32(v.ID)) {
			out.views = append(out.views, sql.DropTarget{Name: storage.BareName(v.Name), Key: v.Name, IsView: true})
		}
	}
	for _, sc := range cat.Txn.Schemas() {
		if mine(sc.OID()) {
			out.schemas = append(out.schemas, sc)
		}
	}
	sort.Slice(out.tables, func(i, j int) bool { return out.tables[i].Key < out.tables[j].Key })
	sort.Slice(out.views, func(i, j int) bool { return out.views[i].Key < out.views[j].Key })
	return out
}

// dropOwned drops what the roles own and revokes what was granted to
// them (on tables, their columns and schemas).
func dropOwned(ctx context.Context, s Session, x *sql.DropOwned) (string, error) {
	roles, err := ownedRoles(s, x.Roles, "drop")
	if err != nil {
		return "", err
	}
	if err := revokeOwned(ctx, s, x.Roles, roles); err != nil {
		return "", err
	}
	err = authOf(s).AlterAuth(func(a *storage.Auth) error {
		for _, r := range roles {
			a.DropDefaultsOf(r)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	objs := owned(s, roles)
	if len(objs.views) > 0 {
		if _, err := dropView(ctx, s, &sql.DropView{Targets: objs.views, IfExists: true, Cascade: x.Cascade, RelName: x.RelName}); err != nil {
			return "", err
		}
	}
	if len(objs.tables) > 0 {
		if _, err := dropTable(ctx, s, &sql.DropTable{Targets: objs.tables, IfExists: true, Cascade: x.Cascade, RelName: x.RelName}); err != nil {
			return "", err
		}
	}
	if len(objs.schemas) > 0 {
		var names []string
		for _, sc := range objs.schemas {
			names = append(names, sc.Name)
		}
		if _, err := dropSchema(ctx, s, &sql.DropSchema{Names: names, Cascade: x.Cascade, RelName: x.RelName}); err != nil {
			return "", err
		}
	}
	return "DROP OWNED", nil
}

// reassignOwned gives what the roles own to the new owner.
func reassignOwned(ctx context.Context, s Session, x *sql.ReassignOwned) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	roles, err := ownedRoles(s, x.Roles, "reassign")
	if err != nil {
		return "", err
	}
	to, ok := roleFor(ac.Auth(), rc, x.To)
	if !ok {
		return "", errNoRole(x.To)
	}
	if a := ac.Auth(); !a.IsSuper(rc.Current) && !a.MemberOf(rc.Current, to.OID, true) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to reassign objects")
	}
	objs := owned(s, roles)
	var oids []uint32
	for _, t := range objs.tables {
		oids = append(oids, relOID(s, t.Key))
	}
	for _, v := range objs.views {
		oids = append(oids, relOID(s, v.Key))
	}
	for _, sc := range objs.schemas {
		sc.Owner = to.Name
		if err := schemas(s.Catalog()).AlterSchema(ctx, sc); err != nil {
			return "", err
		}
		oids = append(oids, sc.OID())
	}
	err = ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		for _, oid := range oids {
			a.SetOwner(oid, to.OID)
		}
		return nil
	})
	return "REASSIGN OWNED", err
}

// revokeOwned revokes what was granted to the roles. PostgreSQL runs a
// REVOKE ALL ... FROM role on each object as the current role
// (RemoveRoleFromObjectACL): a superuser's removes every grant; another
// role's revokes only what it granted, with REVOKE's warnings and errors.
func revokeOwned(ctx context.Context, s Session, names []string, roles []uint32) error {
	rc := s.Roles()
	ac := authOf(s)
	if ac.Auth().IsSuper(rc.Current) {
		return ac.AlterAuth(func(a *storage.Auth) error {
			for _, r := range roles {
				a.RevokeAllFrom(r)
			}
			return nil
		})
	}
	for i, r := range roles {
		schemaObjs, relObjs := grantedObjects(s, r)
		for _, o := range schemaObjs {
			if _, err := grantPrivs(ctx, s, &sql.GrantPrivs{Schema: true, Objects: []sql.GrantObject{o}, Privs: storage.AllSchemaPrivs,
				All: true, Grantees: []string{names[i]}}); err != nil {
				return err
			}
		}
		for _, o := range relObjs {
			if _, err := grantPrivs(ctx, s, &sql.GrantPrivs{Objects: []sql.GrantObject{o}, Privs: storage.AllTablePrivs,
				All: true, Grantees: []string{names[i]}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// grantedObjects are the schemas and relations whose access lists (or
// columns') grant role something, in OID order.
func grantedObjects(s Session, role uint32) (schemaObjs, relObjs []sql.GrantObject) {
	a := authOf(s).Auth()
	cat := s.Catalog()
	granted := map[uint32]bool{}
	_, g := a.Depends(role)
	for _, oid := range g {
		granted[oid] = true
	}
	for _, c := range a.ColumnDepends(role) {
		granted[c.Table] = true
	}
	for _, sc := range cat.Txn.Schemas() {
		if granted[sc.OID()] {
			schemaObjs = append(schemaObjs, sql.GrantObject{OID: sc.OID(), Name: sc.Name})
		}
	}
	for _, t := range cat.Txn.Tables() {
		if x, ok := t.(interface{ ObjectID() uint32 }); ok && granted[x.ObjectID()] {
			relObjs = append(relObjs, sql.GrantObject{OID: x.ObjectID(), Name: storage.BareName(t.Name())})
		}
	}
	for _, v := range cat.Txn.Views() {
		if oid := storage.FirstUserOID + 1 + 2*uint32(v.ID); granted[oid] {
			relObjs = append(relObjs, sql.GrantObject{OID: oid, Name: storage.BareName(v.Name)})
		}
	}
	sort.Slice(relObjs, func(i, j int) bool { return relObjs[i].OID < relObjs[j].OID })
	return schemaObjs, relObjs
}
