package pgcatalog

import (
	"sort"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The role catalog as clients read it: pg_authid, pg_roles, pg_user,
// pg_auth_members, relacl, pg_get_userbyid and the has_*_privilege
// functions, all over storage's Auth (storage/roles.go).

// Auth is the role catalog the statement sees (empty for a catalog
// without one).
func (s *Snapshot) Auth() *storage.Auth {
	if ac, ok := s.cat.(storage.AuthCatalog); ok {
		return ac.Auth()
	}
	return &storage.Auth{}
}

// CurrentRole is current_user's OID.
func (s *Snapshot) CurrentRole() uint32 {
	if s.env.Role == 0 {
		return OIDBootstrapUser
	}
	return s.env.Role
}

func (s *Snapshot) currentRoleName() string {
	if s.env.CurrentRole != "" {
		return s.env.CurrentRole
	}
	return s.RoleName(s.CurrentRole())
}

// roleRows are pg_authid's rows: the bootstrap superuser, then the stored roles.
func (s *Snapshot) roleRows() []pgRoleRow {
	a := s.Auth()
	out := []pgRoleRow{}
	if _, ok := a.RoleByOID(OIDBootstrapUser); !ok {
		out = append(out, pgRoleRow{Rolname: Name(s.user()), Rolsuper: true, Rolinherit: true, Rolcreaterole: true, Rolcreatedb: true,
			Rolcanlogin: true, Rolreplication: true, Rolconnlimit: -1, Rolpassword: "********", Rolbypassrls: true, Oid: OIDBootstrapUser})
	}
	all := append(append([]storage.Role(nil), storage.PredefinedRoles...), a.Roles...)
	sort.Slice(all, func(i, j int) bool { return all[i].OID < all[j].OID })
	for _, r := range all {
		row := pgRoleRow{Rolname: Name(r.Name), Rolsuper: r.Super, Rolinherit: r.Inherit, Rolcreaterole: r.CreateRole,
			Rolcreatedb: r.CreateDB, Rolcanlogin: r.Login, Rolconnlimit: -1, Rolpassword: "********", Oid: OID(r.OID)}
		if r.OID == OIDBootstrapUser {
			row.Rolreplication, row.Rolbypassrls = true, true
		}
		out = append(out, row)
	}
	return out
}

func (s *Snapshot) authMembersRows() []pgAuthMembersRow {
	var out []pgAuthMembersRow
	for _, m := range s.Auth().Members {
		out = append(out, pgAuthMembersRow{Roleid: OID(m.Role), Member: OID(m.Member), Grantor: OID(m.Grantor), AdminOption: m.Admin})
	}
	return out
}

func (s *Snapshot) userRows() []pgUserRow {
	var out []pgUserRow
	for _, r := range s.roleRows() {
		if r.Rolcanlogin {
			out = append(out, pgUserRow{Usename: r.Rolname, Usesysid: r.Oid, Usecreatedb: r.Rolcreatedb, Usesuper: r.Rolsuper,
				Userepl: r.Rolreplication, Usebypassrls: r.Rolbypassrls, Passwd: "********"})
		}
	}
	return out
}

// aclName is a role's name as aclitemout writes it ("" for PUBLIC).
func (s *Snapshot) aclName(oid uint32) string {
	if oid == 0 {
		return ""
	}
	n := s.RoleName(oid)
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
	}
	return n
}

// ACLText is an explicit access list's aclitem[] text; nil for the default.
func (s *Snapshot) ACLText(oid uint32, all, public uint16) *string {
	o := s.Auth().Objects[oid]
	if !o.Set {
		return nil
	}
	return s.aclItemsText(o.ACL)
}

// columnACLText is a column's attacl text (nil: none granted).
func (s *Snapshot) columnACLText(oid uint32, attnum int16) *string {
	acl, ok := s.Auth().Objects[oid].Cols[attnum]
	if !ok {
		return nil
	}
	return s.aclItemsText(acl)
}

// aclItemsText is an aclitem[]'s text.
func (s *Snapshot) aclItemsText(acl []storage.ACLItem) *string {
	var items []string
	for _, it := range acl {
		var b strings.Builder
		b.WriteString(s.aclName(it.Grantee))
		b.WriteByte('=')
		for i := 0; i < 16; i++ {
			bit := uint16(1) << i
			if it.Privs&bit != 0 {
				b.WriteString(storage.PrivString(bit))
				if it.GrantOpt&bit != 0 {
					b.WriteByte('*')
				}
			}
		}
		b.WriteByte('/')
		b.WriteString(s.aclName(it.Grantor))
		item := b.String()
		if strings.ContainsAny(item, `",{} `) {
			item = `"` + strings.ReplaceAll(strings.ReplaceAll(item, `\`, `\\`), `"`, `\"`) + `"`
		}
		items = append(items, item)
	}
	t := "{" + strings.Join(items, ",") + "}"
	return &t
}

// ownerOf is the owner of a relation or schema.
func (s *Snapshot) ownerOf(oid uint32) uint32 { return s.Auth().Object(oid).Owner }

// privNames parses has_*_privilege's privilege list: the privileges, and
// those asked WITH GRANT OPTION.
func privNames(text string, bits map[string]uint16) (plain, opt uint16, ok bool) {
	for _, p := range strings.Split(text, ",") {
		p = strings.ToLower(strings.Join(strings.Fields(p), " "))
		withOpt := strings.HasSuffix(p, " with grant option")
		p = strings.TrimSuffix(p, " with grant option")
		bit, ok := bits[p]
		if !ok {
			return 0, 0, false
		}
		if withOpt {
			opt |= bit
		} else {
			plain |= bit
		}
	}
	return plain, opt, true
}

var tablePrivNames = map[string]uint16{"select": storage.PrivSelect, "insert": storage.PrivInsert, "update": storage.PrivUpdate,
	"delete": storage.PrivDelete, "truncate": storage.PrivTruncate, "references": storage.PrivReferences, "trigger": storage.PrivTrigger}

const allTablePrivs, allSchemaPrivs = storage.AllTablePrivs, storage.AllSchemaPrivs

// SchemaUsable reports whether the current role may look names up in ns
// (USAGE; the built-in schemas and public grant it to PUBLIC).
func (s *Snapshot) SchemaUsable(ns Namespace) bool {
	if ns.Kind != NsUser || ns.ID == storage.PublicSchemaID {
		return true
	}
	a := s.Auth()
	return a.Privileges(s.CurrentRole(), ns.OID, allSchemaPrivs, 0)&storage.PrivUsage != 0
}

var schemaPrivNames = map[string]uint16{"usage": storage.PrivUsage, "create": storage.PrivCreate}

// isTextArg tells a name argument from an OID one (the functions take both).
func isTextArg(v types.Value) bool { return v.S != "" || v.I == 0 }

// roleArg is a has_*_privilege user argument (name or OID).
func (s *Snapshot) roleArg(v types.Value) (uint32, bool) {
	if isTextArg(v) {
		if strings.EqualFold(v.S, "public") {
			return 0, true
		}
		return s.RoleOID(v.S)
	}
	return uint32(v.I), true
}

// hasPrivilege is has_table_privilege / has_schema_privilege.
func (s *Snapshot) hasPrivilege(schema bool, v []types.Value) types.Value {
	for _, x := range v {
		if x.Null {
			return types.NullValue
		}
	}
	role := s.CurrentRole()
	if len(v) == 3 {
		r, ok := s.roleArg(v[0])
		if !ok {
			return types.NullValue
		}
		role = r
		v = v[1:]
	}
	var oid uint32
	isText := isTextArg(v[0])
	bits, all := tablePrivNames, storage.AllTablePrivs
	var public uint16
	if schema {
		bits, all, public = schemaPrivNames, storage.AllSchemaPrivs, 0
		if isText {
			ns, ok := s.NamespaceByName(v[0].S)
			if !ok {
				return types.NullValue
			}
			oid = ns.OID
		} else {
			oid = uint32(v[0].I)
		}
		if oid < FirstUserOID {
			if oid == OIDNamespacePublic {
				public = storage.PrivUsage
			} else {
				public = storage.PrivUsage // pg_catalog, information_schema
			}
		}
	} else {
		if isText {
			o, err := s.RegIn("regclass", v[0].S)
			if err != nil {
				return types.NullValue
			}
			oid = o
		} else {
			oid = uint32(v[0].I)
		}
		if oid < FirstUserOID {
			public = storage.PrivSelect // system catalogs: SELECT to PUBLIC
		}
	}
	want, opt, ok := privNames(v[1].S, bits)
	if !ok {
		return types.NullValue
	}
	a := s.Auth()
	if role == 0 || (oid < FirstUserOID && !a.IsSuper(role)) {
		return types.BoolValue(public&want != 0)
	}
	// Any of the privileges listed, as PostgreSQL's has_*_privilege.
	return types.BoolValue(a.Privileges(role, oid, all, public)&want != 0 || a.GrantOptions(role, oid, all, public)&opt != 0)
}

// hasColumnPrivilege is has_column_privilege([role,] table, column, privs)
// and, with anyCol, has_any_column_privilege([role,] table, privs): the
// table's privileges, else the column's (any column's) own access list.
func (s *Snapshot) hasColumnPrivilege(anyCol bool, v []types.Value) (types.Value, error) {
	for _, x := range v {
		if x.Null {
			return types.NullValue, nil
		}
	}
	role := s.CurrentRole()
	if anyCol && len(v) == 3 || !anyCol && len(v) == 4 {
		r, ok := s.roleArg(v[0])
		if !ok {
			return types.Value{}, pgerr.New("42704", "role \"%s\" does not exist", v[0].S)
		}
		role = r
		v = v[1:]
	}
	var oid uint32
	if isTextArg(v[0]) {
		o, err := s.RegIn("regclass", v[0].S)
		if err != nil {
			return types.Value{}, err
		}
		oid = o
	} else {
		oid = uint32(v[0].I)
	}
	rel, ok := s.RelationByOID(oid)
	if !ok {
		return types.NullValue, nil
	}
	var attnum int16
	if !anyCol {
		found := false
		for i, c := range rel.Columns {
			if (isTextArg(v[1]) && c.Name == v[1].S) || (!isTextArg(v[1]) && int64(rel.Attnum(i)) == v[1].I) {
				attnum, found = rel.Attnum(i), true
			}
		}
		if !found {
			if !isTextArg(v[1]) {
				return types.NullValue, nil
			}
			return types.Value{}, pgerr.New("42703", "column \"%s\" of relation \"%s\" does not exist", v[1].S, rel.Name)
		}
		v = v[1:]
	}
	want, opt, ok := privNames(v[1].S, columnPrivNames)
	if !ok {
		return types.Value{}, pgerr.New("22023", "unrecognized privilege type: \"%s\"", v[1].S)
	}
	want |= opt
	if oid < FirstUserOID {
		return types.BoolValue(want&storage.PrivSelect != 0), nil // system catalogs: SELECT to PUBLIC
	}
	a := s.Auth()
	if role == 0 {
		return types.BoolValue(false), nil
	}
	if a.Privileges(role, oid, allTablePrivs, 0)&want != 0 && opt == 0 || a.GrantOptions(role, oid, allTablePrivs, 0)&opt != 0 {
		return types.BoolValue(true), nil
	}
	if anyCol {
		return types.BoolValue(a.AnyColumnPrivileges(role, oid)&want != 0), nil
	}
	if opt != 0 {
		return types.BoolValue(a.ColumnGrantOptions(role, oid, attnum)&opt != 0), nil
	}
	return types.BoolValue(a.ColumnPrivileges(role, oid, attnum)&want != 0), nil
}

var sequencePrivNames = map[string]uint16{"usage": storage.PrivUsage, "select": storage.PrivSelect, "update": storage.PrivUpdate}

var functionPrivNames = map[string]uint16{"execute": storage.PrivExecute}

// hasObjectPrivilege is has_sequence_privilege / has_function_privilege
// ([role,] object, privileges): the object by name (regclass,
// regprocedure) or OID (NULL when none has it), as PostgreSQL's errors.
func (s *Snapshot) hasObjectPrivilege(kind byte, v []types.Value) (types.Value, error) {
	for _, x := range v {
		if x.Null {
			return types.NullValue, nil
		}
	}
	role := s.CurrentRole()
	if len(v) == 3 {
		if isTextArg(v[0]) {
			r, ok := s.roleArg(v[0])
			if !ok {
				return types.Value{}, pgerr.New("42704", "role \"%s\" does not exist", v[0].S)
			}
			role = r
		} else {
			role = uint32(v[0].I)
		}
		v = v[1:]
	}
	names, reg := sequencePrivNames, "regclass"
	if kind == storage.KindFunction {
		names, reg = functionPrivNames, "regprocedure"
	}
	var oid uint32
	if isTextArg(v[0]) {
		o, err := s.RegIn(reg, v[0].S)
		if err != nil {
			return types.Value{}, err
		}
		oid = o
	} else {
		oid = uint32(v[0].I)
	}
	public := uint16(0)
	if kind == storage.KindSequence {
		r, ok := s.RelationByOID(oid)
		if !ok {
			return types.NullValue, nil
		}
		if r.Kind != 'S' {
			name := r.Name
			if isTextArg(v[0]) {
				name = v[0].S // as written, as has_sequence_privilege_name
			}
			return types.Value{}, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
		}
		if r.Temp {
			oid = 0 // a session's own: its creator's
		}
	} else if oid < FirstUserOID {
		if procNameByOID(oid) == "" {
			return types.NullValue, nil
		}
		public = storage.PrivExecute // the built-ins: EXECUTE to PUBLIC
	} else if _, ok := s.userFunctionByOID(oid); !ok {
		return types.NullValue, nil
	}
	want, opt, ok := privNames(v[1].S, names)
	if !ok {
		return types.Value{}, pgerr.New("22023", "unrecognized privilege type: \"%s\"", v[1].S)
	}
	a := s.Auth()
	if oid == 0 || oid < FirstUserOID {
		if a.IsSuper(role) {
			return types.BoolValue(true), nil
		}
		return types.BoolValue(public&want != 0), nil
	}
	all, public := storage.KindPrivs(kind)
	if role == 0 {
		return types.BoolValue(public&want != 0), nil
	}
	return types.BoolValue(a.Privileges(role, oid, all, public)&want != 0 || a.GrantOptions(role, oid, all, public)&opt != 0), nil
}

// userFunctionByOID finds a user function by OID.
func (s *Snapshot) userFunctionByOID(oid uint32) (storage.Function, bool) {
	if fc, ok := s.cat.(storage.FunctionCatalog); ok {
		for _, f := range fc.Functions() {
			if f.OID() == oid {
				return f, true
			}
		}
	}
	return storage.Function{}, false
}

var columnPrivNames = map[string]uint16{"select": storage.PrivSelect, "insert": storage.PrivInsert, "update": storage.PrivUpdate,
	"references": storage.PrivReferences}

// pgDefaultACLRow is pg_default_acl's row (ALTER DEFAULT PRIVILEGES).
type pgDefaultACLRow struct {
	Oid             OID     `pg:"oid"`
	Defaclrole      OID     `pg:"defaclrole"`
	Defaclnamespace OID     `pg:"defaclnamespace"`
	Defaclobjtype   Char    `pg:"defaclobjtype"`
	Defaclacl       *string `pg:"defaclacl"`
}

// oidDefaultACLBase numbers pg_default_acl's rows (joind keeps no OIDs
// for them; these are stable while the rows are).
const oidDefaultACLBase = 0x7f000000

func declareDefaultACL() {
	declare(pc, "pg_default_acl", 826, 'r', func(s *Snapshot) []pgDefaultACLRow {
		var out []pgDefaultACLRow
		for i, d := range s.Auth().Defaults {
			out = append(out, pgDefaultACLRow{Oid: OID(oidDefaultACLBase + uint32(i)), Defaclrole: OID(d.Role),
				Defaclnamespace: OID(d.Schema), Defaclobjtype: Char(d.Kind), Defaclacl: s.aclItemsText(d.ACL)})
		}
		return out
	})
}

// isColumnPrivilegesRow is a row of information_schema.column_privileges.
type isColumnPrivilegesRow struct {
	Grantor       string `pg:"grantor"`
	Grantee       string `pg:"grantee"`
	TableCatalog  string `pg:"table_catalog"`
	TableSchema   string `pg:"table_schema"`
	TableName     string `pg:"table_name"`
	ColumnName    string `pg:"column_name"`
	PrivilegeType string `pg:"privilege_type"`
	IsGrantable   string `pg:"is_grantable"`
}

// columnPrivilegeRows are information_schema.column_privileges' rows, as
// PostgreSQL's view: each user relation's access list (its default when
// NULL) spread over its columns, with the columns' own lists, of the
// per-column privileges, where the current role has the privileges of
// the grantor or the grantee (or the grantee is PUBLIC).
func (s *Snapshot) columnPrivilegeRows() []isColumnPrivilegesRow {
	a := s.Auth()
	me := s.CurrentRole()
	type key struct {
		grantor, grantee uint32
		rel              uint32
		col, priv        string
		grantable        bool
	}
	seen := map[key]bool{}
	var out []isColumnPrivilegesRow
	for _, r := range s.Relations() {
		if r.OID < FirstUserOID || !(r.Kind == 'r' || r.Kind == 'v' || r.Kind == 'f') {
			continue
		}
		ns, _ := s.NamespaceByOID(r.Namespace)
		owner := a.Object(r.OID).Owner
		tableACL := a.EffectiveACL(r.OID, storage.AllTablePrivs, 0)
		for i, c := range r.Columns {
			acl := append(append([]storage.ACLItem(nil), tableACL...), a.Object(r.OID).Cols[r.Attnum(i)]...)
			for _, it := range acl {
				if !(it.Grantee == 0 || a.IsSuper(me) || a.MemberOf(me, it.Grantor, true) || a.MemberOf(me, it.Grantee, true)) {
					continue
				}
				for _, bit := range []uint16{storage.PrivInsert, storage.PrivSelect, storage.PrivUpdate, storage.PrivReferences} {
					if it.Privs&bit == 0 {
						continue
					}
					k := key{it.Grantor, it.Grantee, r.OID, c.Name, privTypeName[bit], it.GrantOpt&bit != 0}
					if seen[k] {
						continue
					}
					seen[k] = true
					grantee, grantable := "PUBLIC", "NO"
					if it.Grantee != 0 {
						grantee = s.RoleName(it.Grantee)
						if a.IsSuper(it.Grantee) || a.MemberOf(it.Grantee, owner, true) || k.grantable {
							grantable = "YES"
						}
					} else if k.grantable {
						grantable = "YES"
					}
					out = append(out, isColumnPrivilegesRow{Grantor: s.RoleName(it.Grantor), Grantee: grantee, TableCatalog: s.database(),
						TableSchema: ns.Name, TableName: r.Name, ColumnName: c.Name, PrivilegeType: k.priv, IsGrantable: grantable})
				}
			}
		}
	}
	return out
}

var privTypeName = map[uint16]string{storage.PrivInsert: "INSERT", storage.PrivSelect: "SELECT", storage.PrivUpdate: "UPDATE",
	storage.PrivReferences: "REFERENCES"}
