package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// Roles and privileges: CREATE/ALTER/DROP ROLE, GRANT/REVOKE of roles and
// of table and schema privileges, ownership checks, over the role catalog
// of storage (storage/roles.go). Who runs them is the session's
// RoleContext.

// RoleContext is who runs a statement.
type RoleContext struct {
	Current     uint32 // current_user's OID (storage.OIDBootstrapRole for the bootstrap superuser)
	CurrentName string // current_user's name
	SessionUser string // the session user's name
	Database    string // the current database's name
	// Verifier makes the stored secret of a password (SCRAM-SHA-256).
	Verifier func(pw string) string
}

func authOf(s Session) storage.AuthCatalog { return s.Catalog().Txn }

func errNoRole(name string) error { return pgerr.New("42704", "role \"%s\" does not exist", name) }

// ensureBootstrap records the bootstrap superuser under the name of the
// session that first changes the role catalog, so OID 10 keeps its name
// whoever connects later.
func ensureBootstrap(a *storage.Auth, rc RoleContext) {
	if _, ok := a.RoleByOID(storage.OIDBootstrapRole); ok || rc.Current != storage.OIDBootstrapRole {
		return
	}
	a.PutRole(storage.Role{OID: storage.OIDBootstrapRole, Name: rc.SessionUser, Super: true, Inherit: true,
		CreateRole: true, CreateDB: true, Login: true})
}

func roleOID(a *storage.Auth, name string) (uint32, error) {
	if r, ok := a.RoleByName(name); ok {
		return r.OID, nil
	}
	return 0, errNoRole(name)
}

// roleFor finds a role by name; before the catalog records the bootstrap
// superuser, the session user is it.
func roleFor(a *storage.Auth, rc RoleContext, name string) (storage.Role, bool) {
	if r, ok := a.RoleByName(name); ok {
		return r, true
	}
	if _, ok := a.RoleByOID(storage.OIDBootstrapRole); !ok && name == rc.SessionUser {
		return storage.Role{OID: storage.OIDBootstrapRole, Name: name, Super: true, Inherit: true, Login: true}, true
	}
	return storage.Role{}, false
}

// canCreateRole: superusers and CREATEROLE roles manage roles.
func canCreateRole(a *storage.Auth, role uint32) bool {
	if a.IsSuper(role) {
		return true
	}
	r, ok := a.RoleByOID(role)
	return ok && r.CreateRole
}

func (rc RoleContext) secret(pw string) string {
	if strings.HasPrefix(pw, "SCRAM-SHA-256$") || (len(pw) == 35 && strings.HasPrefix(pw, "md5")) || rc.Verifier == nil {
		return pw
	}
	return rc.Verifier(pw)
}

func applyRoleOptions(r *storage.Role, o sql.RoleOptions, rc RoleContext) {
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&r.Super, o.Super)
	set(&r.CreateDB, o.CreateDB)
	set(&r.CreateRole, o.CreateRole)
	set(&r.Inherit, o.Inherit)
	set(&r.Login, o.Login)
	if o.PasswordNull {
		r.Password = ""
	} else if o.Password != nil {
		r.Password = rc.secret(*o.Password)
	}
}

func createRole(ctx context.Context, s Session, x *sql.CreateRole) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	if !canCreateRole(ac.Auth(), rc.Current) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create role")
	}
	if x.Opts.Super != nil && *x.Opts.Super && !ac.Auth().IsSuper(rc.Current) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to create superusers")
	}
	if strings.HasPrefix(x.Name, "pg_") {
		return "", pgerr.New("42939", "role name \"%s\" is reserved", x.Name).WithDetail("Role names starting with \"pg_\" are reserved.")
	}
	if x.Name == "public" || x.Name == "none" {
		return "", pgerr.New("42939", "role name \"%s\" is reserved", x.Name)
	}
	oid := ac.NewRoleOID()
	err := ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		if _, ok := a.RoleByName(x.Name); ok {
			return pgerr.New("42710", "role \"%s\" already exists", x.Name)
		}
		r := storage.Role{OID: oid, Name: x.Name, Inherit: true, Login: x.User}
		applyRoleOptions(&r, x.Opts, rc)
		a.PutRole(r)
		for _, in := range x.Opts.InRoles {
			g, err := roleOID(a, in)
			if err != nil {
				return err
			}
			a.Members = append(a.Members, storage.Member{Role: g, Member: oid, Grantor: rc.Current})
		}
		for _, m := range x.Opts.Members {
			mo, err := roleOID(a, m)
			if err != nil {
				return err
			}
			a.Members = append(a.Members, storage.Member{Role: oid, Member: mo, Grantor: rc.Current})
		}
		return nil
	})
	return "CREATE ROLE", err
}

func alterRole(ctx context.Context, s Session, x *sql.AlterRole) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	err := ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		r, ok := a.RoleByName(x.Name)
		if !ok {
			return errNoRole(x.Name)
		}
		self := r.OID == rc.Current
		onlyPassword := x.Opts.Super == nil && x.Opts.CreateDB == nil && x.Opts.CreateRole == nil && x.Opts.Inherit == nil &&
			x.Opts.Login == nil && x.Opts.ConnLimit == nil
		switch {
		case a.IsSuper(rc.Current):
		case r.Super || x.Opts.Super != nil:
			return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
		case self && onlyPassword:
		case !canCreateRole(a, rc.Current):
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied")
		}
		applyRoleOptions(&r, x.Opts, rc)
		a.PutRole(r)
		return nil
	})
	return "ALTER ROLE", err
}

func dropRole(ctx context.Context, s Session, x *sql.DropRole) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	if !canCreateRole(ac.Auth(), rc.Current) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to drop role")
	}
	for _, name := range x.Names {
		r, ok := ac.Auth().RoleByName(name)
		if !ok {
			if x.IfExists {
				if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000", Message: fmt.Sprintf("role \"%s\" does not exist, skipping", name)}); err != nil {
					return "", err
				}
				continue
			}
			return "", errNoRole(name)
		}
		if r.OID == rc.Current {
			return "", pgerr.New("55006", "current user cannot be dropped")
		}
		if r.OID == storage.OIDBootstrapRole || r.Name == rc.SessionUser {
			if r.OID == storage.OIDBootstrapRole {
				return "", pgerr.New("55006", "cannot drop role %s because it is required by the database system", name)
			}
			return "", pgerr.New("55006", "session user cannot be dropped")
		}
		if r.Super && !ac.Auth().IsSuper(rc.Current) {
			return "", pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to drop superusers")
		}
		owned, granted := ac.Auth().Depends(r.OID)
		var lines []string
		for _, d := range ac.Auth().DefaultsOf(r.OID) {
			what := "privileges for "
			if d.Role == r.OID {
				what = "owner of "
			}
			line := what + "default privileges on new " + map[byte]string{'r': "relations", 'S': "sequences", 'f': "functions", 'n': "schemas"}[d.Kind] +
				" belonging to role " + s.Catalog().roleName(d.Role)
			if d.Schema != 0 {
				line += " in schema " + strings.TrimPrefix(s.Catalog().describeObject(d.Schema), "schema ")
			}
			lines = append(lines, line)
		}
		for _, o := range owned {
			if d := s.Catalog().describeObject(o); d != "" {
				lines = append(lines, "owner of "+d)
			}
		}
		for _, o := range granted {
			if d := s.Catalog().describeObject(o); d != "" {
				lines = append(lines, "privileges for "+d)
			}
		}
		for _, c := range ac.Auth().ColumnDepends(r.OID) {
			if d := s.Catalog().describeColumn(c); d != "" {
				lines = append(lines, "privileges for "+d)
			}
		}
		if len(lines) > 0 {
			return "", pgerr.New("2BP01", "role \"%s\" cannot be dropped because some objects depend on it", name).
				WithDetail("%s", strings.Join(lines, "\n"))
		}
		oid := r.OID
		if err := ac.AlterAuth(func(a *storage.Auth) error { a.DropRole(oid); return nil }); err != nil {
			return "", err
		}
	}
	return "DROP ROLE", nil
}

func grantRole(ctx context.Context, s Session, x *sql.GrantRole) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	tag := "GRANT ROLE"
	if !x.Grant {
		tag = "REVOKE ROLE"
	}
	a := ac.Auth()
	for _, gname := range x.Roles {
		g, err := roleOID(a, gname)
		if err != nil {
			return "", err
		}
		gr, _ := a.RoleByOID(g)
		admin := false
		for _, m := range a.Members {
			if m.Role == g && m.Member == rc.Current && m.Admin {
				admin = true
			}
		}
		if !a.IsSuper(rc.Current) {
			if gr.Super {
				return "", pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superusers")
			}
			if !canCreateRole(a, rc.Current) && !admin {
				return "", pgerr.New(pgerr.InsufficientPrivilege, "must have admin option on role \"%s\"", gname)
			}
		}
		for _, mname := range x.Members {
			if mname == "" {
				return "", pgerr.New("0LP01", "role \"public\" cannot have explicit members")
			}
			m, err := roleOID(a, mname)
			if err != nil {
				return "", err
			}
			var notice *pgerr.Error
			err = ac.AlterAuth(func(a *storage.Auth) error {
				ensureBootstrap(a, rc)
				idx := -1
				for i, e := range a.Members {
					if e.Role == g && e.Member == m {
						idx = i
					}
				}
				if x.Grant {
					if m == g || a.MemberOf(g, m, false) {
						return pgerr.New("0LP01", "role \"%s\" is a member of role \"%s\"", gname, mname)
					}
					if idx >= 0 {
						if x.Admin && !a.Members[idx].Admin {
							a.Members[idx].Admin = true
							return nil
						}
						notice = &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: fmt.Sprintf("role \"%s\" is already a member of role \"%s\"", mname, gname)}
						return nil
					}
					a.Members = append(a.Members, storage.Member{Role: g, Member: m, Grantor: rc.Current, Admin: x.Admin})
					return nil
				}
				if idx < 0 {
					notice = &pgerr.Error{Severity: "WARNING", Code: "01000", Message: fmt.Sprintf("role \"%s\" is not a member of role \"%s\"", mname, gname)}
					return nil
				}
				if x.Admin {
					a.Members[idx].Admin = false
				} else {
					a.Members = append(a.Members[:idx], a.Members[idx+1:]...)
				}
				return nil
			})
			if err != nil {
				return "", err
			}
			if notice != nil {
				if err := s.Notice(notice); err != nil {
					return "", err
				}
			}
		}
	}
	return tag, nil
}

// checkPublicGrantOption refuses WITH GRANT OPTION to PUBLIC, as
// merge_acl_with_grant.
func checkPublicGrantOption(x *sql.GrantPrivs, grantees []uint32) error {
	if !x.Grant || !x.GrantOption {
		return nil
	}
	for _, g := range grantees {
		if g == 0 {
			return pgerr.New("0LP01", "grant options can only be granted to roles")
		}
	}
	return nil
}

// kindNames name object kinds in "permission denied for ..." messages.
var kindNames = map[byte]string{storage.KindRelation: "table", storage.KindSequence: "sequence",
	storage.KindFunction: "function", storage.KindSchema: "schema"}

// objectKind is o's kind: its own, else the statement's (an older caller's
// GrantObject names none).
func objectKind(x *sql.GrantPrivs, o sql.GrantObject) byte {
	switch {
	case o.Kind != 0:
		return o.Kind
	case x.Schema:
		return storage.KindSchema
	case x.Target != 0:
		return x.Target
	}
	return storage.KindRelation
}

func grantPrivs(ctx context.Context, s Session, x *sql.GrantPrivs) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	tag := "GRANT"
	if !x.Grant {
		tag = "REVOKE"
	}
	a := ac.Auth()
	var grantees []uint32
	for _, g := range x.Grantees {
		if g == "" {
			grantees = append(grantees, 0)
			continue
		}
		r, ok := roleFor(a, rc, g)
		if !ok {
			return "", errNoRole(g)
		}
		grantees = append(grantees, r.OID)
	}
	if x.Defaults != nil {
		return alterDefaults(s, x, grantees)
	}
	for _, o := range x.Objects {
		oid := o.OID
		okind := objectKind(x, o)
		all, public := storage.KindPrivs(okind)
		owner := a.Object(oid).Owner
		if len(x.Cols) > 0 {
			if err := grantColumnPrivs(s, x, o, grantees); err != nil {
				return "", err
			}
			if x.Privs == 0 {
				continue
			}
		}
		grantor, privs := owner, x.Privs
		if x.Target == storage.KindRelation || x.Target == 0 {
			// GRANT ... ON TABLE reaches sequences, with their privileges
			// only, and refuses USAGE of a table, as ExecGrant_Relation.
			switch {
			case okind == storage.KindSequence && x.All:
				privs = storage.AllSequencePrivs
			case okind == storage.KindSequence && privs&^storage.AllSequencePrivs != 0:
				if err := s.Notice(&pgerr.Error{Severity: "WARNING", Code: "0LP01",
					Message: fmt.Sprintf("sequence \"%s\" only supports USAGE, SELECT, and UPDATE privileges", o.Name)}); err != nil {
					return "", err
				}
				privs &= storage.AllSequencePrivs
			case okind == storage.KindRelation && privs&storage.PrivUsage != 0:
				return "", pgerr.New("0LP01", "invalid privilege type USAGE for table")
			}
		}
		asked := privs
		if !a.IsSuper(rc.Current) && !a.MemberOf(rc.Current, owner, false) {
			// As PostgreSQL's restrict_and_check_grant: what the role
			// holds WITH GRANT OPTION, granted in its own name.
			if a.Privileges(rc.Current, oid, all, public) == 0 {
				return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", kindNames[okind], o.Name)
			}
			grantor, privs = rc.Current, privs&a.GrantOptions(rc.Current, oid, all, public)
			w, code := "", "01007"
			switch {
			case privs == 0 && x.Grant:
				w = "no privileges were granted for \"%s\""
			case privs == 0:
				w = "no privileges could be revoked for \"%s\""
				code = "01006"
			case privs != asked && !x.All && x.Grant:
				w = "not all privileges were granted for \"%s\""
			case privs != asked && !x.All:
				w = "not all privileges could be revoked for \"%s\""
				code = "01006"
			}
			if w != "" {
				if err := s.Notice(&pgerr.Error{Severity: "WARNING", Code: code, Message: fmt.Sprintf(w, o.Name)}); err != nil {
					return "", err
				}
			}
			if err := revokeColumnWarnings(s, x, o, privs); err != nil {
				return "", err
			}
		}
		if err := checkPublicGrantOption(x, grantees); err != nil {
			return "", err
		}
		err := ac.AlterAuth(func(a *storage.Auth) error {
			ensureBootstrap(a, rc)
			for _, g := range grantees {
				if x.Grant {
					a.Grant(oid, all, public, g, grantor, privs, x.GrantOption)
					continue
				}
				a.Revoke(oid, all, public, g, grantor, privs, x.GrantOption)
				if okind == storage.KindRelation && privs&columnPrivs != 0 {
					// A table's REVOKE revokes the columns' too, as
					// PostgreSQL's expand_all_col_privileges.
					for attnum := range a.Object(oid).Cols {
						a.RevokeColumn(oid, attnum, g, grantor, privs&columnPrivs, x.GrantOption)
					}
				}
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return tag, nil
}

// grantColumnPrivs is the column part of GRANT/REVOKE on table o: its
// owner (or a superuser) grants in the owner's name; another role only
// what it holds WITH GRANT OPTION on the table or the column, in the name
// of the role holding it, warning as PostgreSQL's restrict_and_check_grant.
func grantColumnPrivs(s Session, x *sql.GrantPrivs, o sql.GrantObject, grantees []uint32) error {
	rc := s.Roles()
	ac := authOf(s)
	a := ac.Auth()
	owner := a.Object(o.OID).Owner
	asOwner := a.IsSuper(rc.Current) || a.MemberOf(rc.Current, owner, false)
	type colGrant struct {
		attnum  int16
		grantor uint32
		privs   uint16
	}
	var todo []colGrant
	for _, cp := range x.Cols {
		for i, attnum := range cp.Attnums {
			if asOwner {
				todo = append(todo, colGrant{attnum, owner, cp.Privs})
				continue
			}
			held := a.Privileges(rc.Current, o.OID, storage.AllTablePrivs, 0) | a.ColumnPrivileges(rc.Current, o.OID, attnum)
			if held&columnPrivs == 0 {
				return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for column \"%s\" of relation \"%s\"", cp.Names[i], o.Name)
			}
			grantor, opts := a.ColumnGrantor(rc.Current, o.OID, attnum, cp.Privs)
			privs := cp.Privs & opts
			w, code := "", "01007"
			switch {
			case privs == 0 && x.Grant:
				w = "no privileges were granted for column \"%s\" of relation \"%s\""
			case privs == 0:
				w, code = "no privileges could be revoked for column \"%s\" of relation \"%s\"", "01006"
			case privs != cp.Privs && x.Grant:
				w = "not all privileges were granted for column \"%s\" of relation \"%s\""
			case privs != cp.Privs:
				w, code = "not all privileges could be revoked for column \"%s\" of relation \"%s\"", "01006"
			}
			if w != "" {
				if err := s.Notice(&pgerr.Error{Severity: "WARNING", Code: code, Message: fmt.Sprintf(w, cp.Names[i], o.Name)}); err != nil {
					return err
				}
			}
			if privs != 0 {
				todo = append(todo, colGrant{attnum, grantor, privs})
			}
		}
	}
	if err := checkPublicGrantOption(x, grantees); err != nil {
		return err
	}
	return ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		for _, cg := range todo {
			for _, g := range grantees {
				if x.Grant {
					a.GrantColumn(o.OID, cg.attnum, g, cg.grantor, cg.privs, x.GrantOption)
				} else {
					a.RevokeColumn(o.OID, cg.attnum, g, cg.grantor, cg.privs, x.GrantOption)
				}
			}
		}
		return nil
	})
}

// recordOwner makes the current role the owner of a new relation (of
// storage key key; nothing to record for the bootstrap superuser, the
// default owner) and gives it the owner's default privileges.
func recordOwner(s Session, oid uint32, key string) error {
	return recordOwnerOf(s, oid, schemaOIDOfKey(s, key), storage.KindRelation)
}

// recordOwnerOf makes the current role the owner of a new object of kind
// in the schema of OID schema and gives it the owner's default privileges.
func recordOwnerOf(s Session, oid, schema uint32, kind byte) error {
	owner := s.Roles().Current
	if owner == 0 {
		owner = storage.OIDBootstrapRole
	}
	if owner == storage.OIDBootstrapRole && len(authOf(s).Auth().Defaults) == 0 {
		return nil
	}
	return authOf(s).AlterAuth(func(a *storage.Auth) error {
		if owner != storage.OIDBootstrapRole {
			a.SetOwner(oid, owner)
		}
		a.ApplyDefaults(oid, owner, schema, kind)
		return nil
	})
}

// schemaOIDOfKey is the OID of the schema of the relation key.
func schemaOIDOfKey(s Session, key string) uint32 {
	id, _ := storage.SplitKey(key)
	return schemaOIDOfID(s, id)
}

// schemaOIDOfID is the OID of the schema of storage id id.
func schemaOIDOfID(s Session, id uint64) uint32 {
	if id == storage.PublicSchemaID {
		return storage.OIDPublicSchema
	}
	if sc, ok := s.Catalog().Txn.SchemaByID(id); ok {
		return sc.OID()
	}
	return 0
}

// alterDefaults is ALTER DEFAULT PRIVILEGES: the current role must be a
// member of each role it names (itself when none).
func alterDefaults(s Session, x *sql.GrantPrivs, grantees []uint32) (string, error) {
	rc := s.Roles()
	ac := authOf(s)
	a := ac.Auth()
	roles := []uint32{rc.Current}
	if len(x.Defaults.Roles) > 0 {
		roles = nil
		for _, n := range x.Defaults.Roles {
			r, ok := roleFor(a, rc, n)
			if !ok {
				return "", errNoRole(n)
			}
			if !a.IsSuper(rc.Current) && !a.MemberOf(rc.Current, r.OID, false) {
				return "", pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", n)
			}
			roles = append(roles, r.OID)
		}
	}
	schemaOIDs := x.Defaults.Schemas
	if len(schemaOIDs) == 0 {
		schemaOIDs = []uint32{0}
	}
	if err := checkPublicGrantOption(x, grantees); err != nil {
		return "", err
	}
	err := ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		for _, r := range roles {
			for _, sc := range schemaOIDs {
				for _, g := range grantees {
					a.AlterDefault(r, sc, x.Defaults.Kind, x.Grant, g, x.Privs, x.GrantOption)
				}
			}
		}
		return nil
	})
	return "ALTER DEFAULT PRIVILEGES", err
}

// checkOwner is PostgreSQL's object ownership check: 42501 "must be owner
// of table t" unless the current role is a superuser or a member of the owner.
func checkOwner(s Session, oid uint32, kind, name string) error {
	rc := s.Roles()
	a := authOf(s).Auth()
	if a.IsSuper(rc.Current) || a.MemberOf(rc.Current, a.Object(oid).Owner, false) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", kind, name)
}

// checkCreateIn is CREATE privilege on the schema a new relation goes in.
func checkCreateIn(s Session, schemaOID uint32, schemaName string) error {
	rc := s.Roles()
	a := authOf(s).Auth()
	if a.IsSuper(rc.Current) {
		return nil
	}
	if a.Privileges(rc.Current, schemaOID, storage.AllSchemaPrivs, 0)&storage.PrivCreate == 0 {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schemaName)
	}
	return nil
}

// describeObject names a relation or schema by OID for DROP ROLE's detail
// ("" if it is gone).
func (c *Catalog) describeObject(oid uint32) string {
	for _, sc := range c.Txn.Schemas() {
		if sc.OID() == oid {
			return "schema " + sc.Name
		}
	}
	for _, t := range c.Txn.Tables() {
		if x, ok := t.(interface{ ObjectID() uint32 }); ok && x.ObjectID() == oid {
			return "table " + storage.BareName(t.Name())
		}
	}
	for _, v := range c.Txn.Views() {
		if storage.FirstUserOID+1+2*uint32(v.ID) == oid {
			return "view " + storage.BareName(v.Name)
		}
	}
	for _, def := range c.Txn.Sequences() {
		if def.ObjectID() == oid {
			return "sequence " + storage.BareName(def.Name)
		}
	}
	for _, f := range c.Txn.Functions() {
		if f.OID() == oid {
			return "function " + sql.FuncSignature(f)
		}
	}
	return "" // dropped (storage forgets it at commit)
}

// roleName is a role's name for messages.
func (c *Catalog) roleName(oid uint32) string {
	if r, ok := c.Txn.Auth().RoleByOID(oid); ok {
		return r.Name
	}
	return fmt.Sprint(oid)
}

// describeColumn names a column for DROP ROLE's detail ("" if gone).
func (c *Catalog) describeColumn(col storage.ColumnRef) string {
	t := c.describeObject(col.Table)
	if !strings.HasPrefix(t, "table ") {
		return ""
	}
	tbl, ok := c.Txn.Lookup(relKeyOfTxn(c.Txn, col.Table))
	if !ok {
		return ""
	}
	for i, d := range tbl.Columns() {
		if d.Attnum == col.Attnum || d.Attnum == 0 && int16(i+1) == col.Attnum {
			return "column " + d.Name + " of " + t
		}
	}
	return ""
}

// checkCreateInKey checks CREATE on the schema of the relation key.
func checkCreateInKey(s Session, key string) error {
	id, _ := storage.SplitKey(key)
	return checkCreateInSchemaID(s, id)
}

// checkCreateInSchemaID checks CREATE on the schema of storage id id.
func checkCreateInSchemaID(s Session, id uint64) error {
	if id == storage.PublicSchemaID {
		// public: CREATE for its owner, pg_database_owner, only (PostgreSQL 15)
		return checkCreateIn(s, 2200, "public")
	}
	sc, ok := s.Catalog().Txn.SchemaByID(id)
	if !ok {
		return nil
	}
	return checkCreateIn(s, sc.OID(), sc.Name)
}

// relOID is the OID of the stored table or view key (0 if none).
func relOID(s Session, key string) uint32 {
	cat := s.Catalog()
	if t, ok := cat.Txn.Lookup(key); ok {
		if o, ok := t.(interface{ ObjectID() uint32 }); ok {
			return o.ObjectID()
		}
	}
	if v, ok := cat.Txn.LookupView(key); ok {
		return storage.FirstUserOID + 1 + 2*uint32(v.ID)
	}
	return 0
}

// changeOwner is ALTER TABLE | VIEW ... OWNER TO role: a superuser, or the
// owner's member who is a member of the new owner, as PostgreSQL's
// ATExecChangeOwner.
func changeOwner(s Session, oid uint32, kind, name, role string) error {
	rc := s.Roles()
	ac := authOf(s)
	a := ac.Auth()
	r, ok := roleFor(a, rc, role)
	if !ok {
		return errNoRole(role)
	}
	if !a.IsSuper(rc.Current) {
		if err := checkOwner(s, oid, kind, name); err != nil {
			return err
		}
		if !a.MemberOf(rc.Current, r.OID, false) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", role)
		}
	}
	return ac.AlterAuth(func(a *storage.Auth) error {
		ensureBootstrap(a, rc)
		a.SetOwner(oid, r.OID)
		return nil
	})
}

// checkSchemaOwner: only the schema's owner (or a superuser) drops or alters it.
func checkSchemaOwner(s Session, sc storage.Schema) error {
	rc := s.Roles()
	a := authOf(s).Auth()
	if a.IsSuper(rc.Current) {
		return nil
	}
	owner := uint32(storage.OIDBootstrapRole)
	if r, ok := roleFor(a, rc, sc.Owner); ok && sc.Owner != "" {
		owner = r.OID
	}
	if a.MemberOf(rc.Current, owner, false) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", sc.Name)
}

// checkCreateSchema: CREATE on the database, which only its owner (the
// bootstrap superuser) and superusers hold.
func checkCreateSchema(s Session) error {
	rc := s.Roles()
	if authOf(s).Auth().IsSuper(rc.Current) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", rc.Database)
}

// recordSchemaOwner keeps the schema's owner (storage.Schema.Owner, a
// name) in the role catalog's access lists too, where privileges are
// computed.
func recordSchemaOwner(s Session, sc storage.Schema) error {
	ac := authOf(s)
	rc := s.Roles()
	owner := uint32(storage.OIDBootstrapRole)
	if r, ok := roleFor(ac.Auth(), rc, sc.Owner); ok && sc.Owner != "" {
		owner = r.OID
	}
	if ac.Auth().Object(sc.OID()).Owner == owner {
		return nil
	}
	return ac.AlterAuth(func(a *storage.Auth) error { ensureBootstrap(a, rc); a.SetOwner(sc.OID(), owner); return nil })
}

// applySchemaDefaults gives a new schema its owner's default privileges.
func applySchemaDefaults(s Session, sc storage.Schema) error {
	ac := authOf(s)
	if len(ac.Auth().Defaults) == 0 {
		return nil
	}
	owner := ac.Auth().Object(sc.OID()).Owner
	return ac.AlterAuth(func(a *storage.Auth) error {
		a.ApplyDefaults(sc.OID(), owner, 0, storage.KindSchema)
		return nil
	})
}

// columnPrivs are the privileges that also exist per column.
const columnPrivs = storage.PrivSelect | storage.PrivInsert | storage.PrivUpdate | storage.PrivReferences

// revokeColumnWarnings: a REVOKE of column privileges by a role that holds
// no grant option on them goes on to each column of the table or
// sequence (system columns first, as pg_attribute numbers them), warning
// for each, as PostgreSQL's ExecGrant_Relation; a role holding no column
// privilege of the relation at all is refused at its first column.
func revokeColumnWarnings(s Session, x *sql.GrantPrivs, o sql.GrantObject, granted uint16) error {
	kind := objectKind(x, o)
	if x.Grant || (kind != storage.KindRelation && kind != storage.KindSequence) || x.Privs&columnPrivs == 0 || granted&columnPrivs != 0 {
		return nil
	}
	var cols []string
	if kind == storage.KindSequence {
		cols = []string{"tableoid", "cmax", "xmax", "cmin", "xmin", "ctid", "last_value", "log_cnt", "is_called"}
	} else if t, ok := s.Catalog().Txn.Lookup(relKeyOf(s, o.OID)); ok {
		cols = append(cols, "tableoid", "cmax", "xmax", "cmin", "xmin", "ctid")
		for _, c := range t.Columns() {
			cols = append(cols, c.Name)
		}
	} else {
		for _, v := range s.Catalog().Txn.Views() { // a view has no system columns
			if storage.FirstUserOID+1+2*uint32(v.ID) == o.OID {
				cols = v.Columns
			}
		}
	}
	a := authOf(s).Auth()
	all, public := storage.KindPrivs(kind)
	held := (a.Privileges(s.Roles().Current, o.OID, all, public) | a.AnyColumnPrivileges(s.Roles().Current, o.OID)) & columnPrivs
	for _, c := range cols {
		if held == 0 {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for column \"%s\" of relation \"%s\"", c, o.Name)
		}
		if err := s.Notice(&pgerr.Error{Severity: "WARNING", Code: "01006",
			Message: fmt.Sprintf("no privileges could be revoked for column \"%s\" of relation \"%s\"", c, o.Name)}); err != nil {
			return err
		}
	}
	return nil
}

// relKeyOf is the storage key of the table of OID oid ("" if none).
func relKeyOf(s Session, oid uint32) string { return relKeyOfTxn(s.Catalog().Txn, oid) }

func relKeyOfTxn(txn storage.Catalog, oid uint32) string {
	for _, t := range txn.Tables() {
		if x, ok := t.(interface{ ObjectID() uint32 }); ok && x.ObjectID() == oid {
			return t.Name()
		}
	}
	return ""
}
