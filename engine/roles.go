package engine

import (
	"context"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/wire"
)

// Who a session is: its session user (who connected, or SET SESSION
// AUTHORIZATION's) and current role (SET ROLE), as OIDs of the role
// catalog (storage/roles.go); a user the catalog does not know is the
// bootstrap superuser, as every user was before roles existed. Each
// statement's privileges (sql.PermCheck) are checked here before it runs.

// resolveRoles sets the session's roles from its user name.
func (s *session) resolveRoles() {
	s.role, s.sessionRole = storage.OIDBootstrapRole, storage.OIDBootstrapRole
	if r, ok := s.eng.catalog.Auth().RoleByName(s.user); ok {
		s.role, s.sessionRole = r.OID, r.OID
	}
	s.authRole = s.sessionRole
}

// auth is the role catalog the running statement sees.
func (s *session) auth() *storage.Auth {
	if s.cur != nil {
		return s.cur.Txn.Auth()
	}
	return s.eng.catalog.Auth()
}

// currentRoleName is current_user.
func (s *session) currentRoleName() string {
	if r, ok := s.auth().RoleByOID(s.role); ok {
		return r.Name
	}
	return s.user
}

// Roles implements commands.Session.
func (c *command) Roles() commands.RoleContext {
	return commands.RoleContext{Current: c.s.role, SessionUser: c.s.user, Verifier: c.s.eng.opts.PasswordVerifier}
}

// checkPrivileges refuses a statement its role may not run: server-side
// COPY files first (DoCopy checks them before opening the table), then
// every relation's privileges.
func (s *session) checkPrivileges(st sql.Statement, perms []sql.PermCheck) error {
	a := s.auth()
	if a.IsSuper(s.role) {
		return nil
	}
	if x, ok := st.(*sql.Copy); ok && x.Filename != "" {
		role, verb := uint32(4569), "pg_read_server_files role to COPY from a file"
		if !x.From {
			role, verb = 4570, "pg_write_server_files role to COPY to a file"
		}
		if !a.MemberOf(s.role, role, true) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser or have privileges of the %s", verb).
				WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
		}
	}
	return sql.CheckPerms(a, s.role, perms)
}

// setRole runs SET ROLE / RESET ROLE / SET SESSION AUTHORIZATION.
func (s *session) setRole(x *sql.SetRole, w wire.ResultWriter) (string, error) {
	if x.Local {
		return "", pgerr.New(pgerr.FeatureNotSupported, "SET LOCAL ROLE is not supported")
	}
	a := s.auth()
	if x.Session {
		if x.Name == "" { // RESET SESSION AUTHORIZATION
			s.sessionRole, s.role = s.authRole, s.authRole
			if r, ok := a.RoleByOID(s.authRole); ok {
				s.user = r.Name
			}
			return "SET", nil
		}
		r, ok := a.RoleByName(x.Name)
		if !ok {
			return "", pgerr.New("42704", "role \"%s\" does not exist", x.Name)
		}
		if r.OID != s.authRole && !a.IsSuper(s.authRole) {
			return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set session authorization")
		}
		s.sessionRole, s.role, s.user = r.OID, r.OID, r.Name
		return "SET", nil
	}
	if x.Name == "" {
		s.role = s.sessionRole
		return "SET", nil
	}
	r, ok := a.RoleByName(x.Name)
	if !ok {
		return "", pgerr.New("22023", "role \"%s\" does not exist", x.Name)
	}
	if !a.IsSuper(s.sessionRole) && !a.MemberOf(s.sessionRole, r.OID, false) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set role \"%s\"", x.Name)
	}
	s.role = r.OID
	return "SET", nil
}

// LookupRole is the role catalog for authentication (wire.AuthConfig.Lookup):
// user's stored secret and whether it may log in; closed once the catalog
// has roles, so unknown users are refused as PostgreSQL refuses them.
func (e *Engine) LookupRole(user string) (secret string, login, found, closed bool) {
	a := e.catalog.Auth()
	_, closed = a.RoleByOID(storage.OIDBootstrapRole)
	r, ok := a.RoleByName(user)
	if !ok {
		return "", false, false, closed
	}
	return r.Password, r.Login, true, closed
}

// BootstrapUsers creates the --users users that are not roles yet, as
// superusers that may log in with the given secrets (plain passwords
// become SCRAM verifiers); the first is the bootstrap superuser (OID 10)
// of a catalog without one.
func (e *Engine) BootstrapUsers(names []string, secrets map[string]string) error {
	if len(names) == 0 {
		return nil
	}
	txn := e.catalog.Begin()
	changed := false
	for _, name := range names {
		if _, ok := txn.Auth().RoleByName(name); ok {
			continue
		}
		secret := secrets[name]
		if e.opts.PasswordVerifier != nil && !isVerifier(secret) {
			secret = e.opts.PasswordVerifier(secret)
		}
		oid := uint32(storage.OIDBootstrapRole)
		if _, ok := txn.Auth().RoleByOID(storage.OIDBootstrapRole); ok {
			oid = txn.NewRoleOID()
		}
		r := storage.Role{OID: oid, Name: name, Super: true, Inherit: true, CreateRole: true, CreateDB: true, Login: true, Password: secret}
		if err := txn.AlterAuth(func(a *storage.Auth) error { a.PutRole(r); return nil }); err != nil {
			txn.Rollback()
			return err
		}
		changed = true
	}
	if !changed {
		txn.Rollback()
		return nil
	}
	return txn.Commit(context.Background())
}

func isVerifier(s string) bool {
	return len(s) > 14 && s[:14] == "SCRAM-SHA-256$" || len(s) == 35 && s[:3] == "md5"
}
