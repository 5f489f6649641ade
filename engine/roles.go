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

// resolveRoles sets the session's login role from its user name.
func (s *session) resolveRoles() {
	s.loginRole = storage.OIDBootstrapRole
	if r, ok := s.eng.catalog.Auth().RoleByName(s.user); ok {
		s.loginRole = r.OID
	}
}

// sessionUser is session_user: the setting session_authorization (SET
// SESSION AUTHORIZATION's role, else who connected).
func (s *session) sessionUser() string {
	if name := s.settings.Get("session_authorization"); name != "" {
		return name
	}
	return s.user
}

// sessionRole is session_user's OID.
func (s *session) sessionRole() uint32 {
	name := s.sessionUser()
	if name == s.user {
		return s.loginRole
	}
	if r, ok := s.auth().RoleByName(name); ok {
		return r.OID
	}
	return s.loginRole
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
	if r, ok := s.auth().RoleByOID(s.currentRole()); ok {
		return r.Name
	}
	return s.sessionUser()
}

// Roles implements commands.Session.
func (c *command) Roles() commands.RoleContext {
	return commands.RoleContext{Current: c.s.currentRole(), CurrentName: c.s.currentRoleName(), SessionUser: c.s.sessionUser(),
		Database: c.s.database, Verifier: c.s.eng.opts.PasswordVerifier}
}

// checkPrivileges refuses a statement its role may not run: server-side
// COPY files first (DoCopy checks them before opening the table), then
// every relation's privileges.
func (s *session) checkPrivileges(st sql.Statement, perms []sql.PermCheck) error {
	a := s.auth()
	role := s.currentRole()
	if a.IsSuper(role) {
		return nil
	}
	if x, ok := st.(*sql.Copy); ok && x.Filename != "" {
		fileRole, verb := uint32(4569), "pg_read_server_files role to COPY from a file"
		if !x.From {
			fileRole, verb = 4570, "pg_write_server_files role to COPY to a file"
		}
		if !a.MemberOf(role, fileRole, true) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser or have privileges of the %s", verb).
				WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
		}
	}
	return sql.CheckPerms(a, role, perms)
}

// setRole runs SET [LOCAL] ROLE / RESET ROLE: the setting "role" holds the
// name, so a rolled-back SET ROLE is undone as PostgreSQL's.
func (s *session) setRole(x *sql.SetRole, w wire.ResultWriter) (string, error) {
	if x.SessionAuth {
		return s.setSessionAuthorization(x)
	}
	if x.Name == "" {
		if _, err := s.settings.Reset("role", x.Local); err != nil {
			return "", err
		}
		if x.Reset {
			return "RESET", nil
		}
		return "SET", nil
	}
	a := s.auth()
	r, ok := a.RoleByName(x.Name)
	if !ok {
		return "", pgerr.New("22023", "role \"%s\" does not exist", x.Name)
	}
	if !a.IsSuper(s.sessionRole()) && !a.MemberOf(s.sessionRole(), r.OID, false) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set role \"%s\"", x.Name)
	}
	if _, err := s.settings.Set("role", x.Name, x.Local); err != nil {
		return "", err
	}
	return "SET", nil
}

// currentRole is current_user's OID: SET ROLE's role, else the session user.
func (s *session) currentRole() uint32 {
	if name := s.settings.Get("role"); name != "none" && name != "" {
		if r, ok := s.auth().RoleByName(name); ok {
			return r.OID
		}
	}
	return s.sessionRole()
}

// setSessionAuthorization runs SET [LOCAL] SESSION AUTHORIZATION name |
// DEFAULT / RESET SESSION AUTHORIZATION: a superuser who connected may
// become any role, anyone else only itself (PostgreSQL's
// check_session_authorization asks the authenticated user, not the
// current session user). Both it and SET ROLE are settings, so a
// rolled-back one is undone; the role goes back to NONE, as PostgreSQL's.
func (s *session) setSessionAuthorization(x *sql.SetRole) (string, error) {
	tag := "SET"
	if x.Reset {
		tag = "RESET"
	}
	name := x.Name
	if name == "" {
		name = s.user
	}
	a := s.auth()
	if name != s.user {
		r, ok := a.RoleByName(name)
		if !ok {
			return "", pgerr.New("22023", "role \"%s\" does not exist", name)
		}
		if r.OID != s.loginRole && !a.IsSuper(s.loginRole) {
			return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set session authorization \"%s\"", name)
		}
	}
	if _, err := s.settings.Set("session_authorization", name, x.Local); err != nil {
		return "", err
	}
	if _, err := s.settings.Reset("role", x.Local); err != nil {
		return "", err
	}
	return tag, nil
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

// IsSuperuser says whether user is a superuser role (wire's reserved
// connection slots); a user the catalog does not know is the bootstrap
// superuser only while no role exists.
func (e *Engine) IsSuperuser(user string) bool {
	a := e.catalog.Auth()
	if r, ok := a.RoleByName(user); ok {
		return r.Super
	}
	_, closed := a.RoleByOID(storage.OIDBootstrapRole)
	return !closed
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
