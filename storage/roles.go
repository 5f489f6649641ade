package storage

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// Roles and privileges: the one role catalog (PostgreSQL's pg_authid and
// pg_auth_members) and the owners and access lists of relations and
// schemas (relowner/relacl, nspowner/nspacl). It is one immutable value,
// Auth, in each version and in the manifest ("auth"), so it is durable and
// commits atomically with the tables a statement creates. A transaction
// changes it through AlterAuth: each change is a function over the Auth it
// sees, kept in order and replayed at commit over the committed Auth, so
// concurrent GRANTs on different objects both commit; a change that no
// longer applies (a role dropped meanwhile) fails the commit whole.
//
// OID 10 is the bootstrap superuser, named Bootstrap (PostgreSQL's initdb
// user). Other roles take OIDs from the DB's id sequence, like schemas.

// OIDBootstrapRole is the bootstrap superuser's OID.
const OIDBootstrapRole = 10

// Role is one role (pg_authid).
type Role struct {
	OID        uint32 `json:"oid"`
	Name       string `json:"name"`
	Super      bool   `json:"super,omitempty"`
	Inherit    bool   `json:"inherit,omitempty"`
	CreateRole bool   `json:"createrole,omitempty"`
	CreateDB   bool   `json:"createdb,omitempty"`
	Login      bool   `json:"login,omitempty"`
	// Password is the stored secret: a SCRAM-SHA-256 or md5 verifier ("" = none).
	Password  string `json:"password,omitempty"`
	ConnLimit int32  `json:"connlimit,omitempty"` // -1 = none (stored +1: 0 = none)
}

// Member is one membership (pg_auth_members): Member is a member of Role.
type Member struct {
	Role    uint32 `json:"role"`
	Member  uint32 `json:"member"`
	Grantor uint32 `json:"grantor"`
	Admin   bool   `json:"admin,omitempty"`
}

// Privilege bits, in aclitem's character order (ACL_ALL_RIGHTS_STR).
const (
	PrivInsert uint16 = 1 << iota
	PrivSelect
	PrivUpdate
	PrivDelete
	PrivTruncate
	PrivReferences
	PrivTrigger
	PrivExecute
	PrivUsage
	PrivCreate
	PrivTemp
	PrivConnect
)

// privChars are the aclitem letters of the bits, in order.
const privChars = "arwdDxtXUCTc"

// AllTablePrivs, AllSchemaPrivs, AllSequencePrivs and AllFunctionPrivs
// are ALL [PRIVILEGES] on each kind (ACL_ALL_RIGHTS_*).
const (
	AllTablePrivs    = PrivInsert | PrivSelect | PrivUpdate | PrivDelete | PrivTruncate | PrivReferences | PrivTrigger
	AllSchemaPrivs   = PrivUsage | PrivCreate
	AllSequencePrivs = PrivUsage | PrivSelect | PrivUpdate
	AllFunctionPrivs = PrivExecute
)

// Object kinds, as pg_default_acl.defaclobjtype spells them.
const (
	KindRelation byte = 'r'
	KindSequence byte = 'S'
	KindFunction byte = 'f'
	KindSchema   byte = 'n'
)

// KindPrivs are an object kind's ALL privileges and those PUBLIC holds by
// default (acldefault: EXECUTE on functions, nothing on the others).
func KindPrivs(kind byte) (all, public uint16) {
	switch kind {
	case KindSequence:
		return AllSequencePrivs, 0
	case KindFunction:
		return AllFunctionPrivs, PrivExecute
	case KindSchema:
		return AllSchemaPrivs, 0
	}
	return AllTablePrivs, 0
}

// PrivString is the letters of bits.
func PrivString(bits uint16) string {
	var b strings.Builder
	for i := 0; i < len(privChars); i++ {
		if bits&(1<<i) != 0 {
			b.WriteByte(privChars[i])
		}
	}
	return b.String()
}

// ACLItem is one entry of an access list: Grantee (0 = PUBLIC) holds Privs
// granted by Grantor, with the grant option on GrantOpt.
type ACLItem struct {
	Grantee  uint32 `json:"grantee"`
	Grantor  uint32 `json:"grantor"`
	Privs    uint16 `json:"privs"`
	GrantOpt uint16 `json:"grant_option,omitempty"`
}

// ObjectACL is an object's owner and access list. A nil ACL is the
// default: the owner holds every privilege (and PUBLIC the kind's public
// defaults, none for tables and schemas).
type ObjectACL struct {
	Owner uint32    `json:"owner"` // 0: the bootstrap superuser
	ACL   []ACLItem `json:"acl"`
	Set   bool      `json:"set,omitempty"` // ACL is explicit (relacl not NULL)
	// Cols are a table's column access lists (pg_attribute.attacl) by
	// attribute number; a column without one has none (NULL).
	Cols map[int16][]ACLItem `json:"cols,omitempty"`
}

// Auth is the role catalog and the objects' owners and access lists.
// It is immutable once published: changes work on a Clone.
type Auth struct {
	Bootstrap string               `json:"bootstrap,omitempty"`
	Roles     []Role               `json:"roles,omitempty"`
	Members   []Member             `json:"members,omitempty"`
	Objects   map[uint32]ObjectACL `json:"objects,omitempty"`      // by relation or schema OID
	Defaults  []DefaultACL         `json:"default_acls,omitempty"` // defaultacl.go
}

var emptyAuth = &Auth{}

// Clone is a deep copy of a.
func (a *Auth) Clone() *Auth {
	n := &Auth{Bootstrap: a.Bootstrap, Roles: append([]Role(nil), a.Roles...), Members: append([]Member(nil), a.Members...),
		Objects: make(map[uint32]ObjectACL, len(a.Objects)), Defaults: append([]DefaultACL(nil), a.Defaults...)}
	for k, v := range a.Objects {
		v.ACL = append([]ACLItem(nil), v.ACL...)
		if v.Cols != nil {
			cols := make(map[int16][]ACLItem, len(v.Cols))
			for c, acl := range v.Cols {
				cols[c] = append([]ACLItem(nil), acl...)
			}
			v.Cols = cols
		}
		n.Objects[k] = v
	}
	return n
}

// PredefinedRoles are PostgreSQL 15's predefined roles (NOLOGIN, INHERIT),
// with their OIDs: every role catalog has them.
var PredefinedRoles = []Role{
	{OID: 3373, Name: "pg_monitor", Inherit: true}, {OID: 3374, Name: "pg_read_all_settings", Inherit: true},
	{OID: 3375, Name: "pg_read_all_stats", Inherit: true}, {OID: 3377, Name: "pg_stat_scan_tables", Inherit: true},
	{OID: 4200, Name: "pg_signal_backend", Inherit: true}, {OID: 4544, Name: "pg_checkpoint", Inherit: true},
	{OID: 4569, Name: "pg_read_server_files", Inherit: true}, {OID: 4570, Name: "pg_write_server_files", Inherit: true},
	{OID: 4571, Name: "pg_execute_server_program", Inherit: true}, {OID: 6171, Name: "pg_database_owner", Inherit: true},
	{OID: 6181, Name: "pg_read_all_data", Inherit: true}, {OID: 6182, Name: "pg_write_all_data", Inherit: true},
}

// RoleByName finds a role by name (stored or predefined).
func (a *Auth) RoleByName(name string) (Role, bool) {
	return a.findRole(func(r Role) bool { return r.Name == name })
}

// RoleByOID finds a role by OID (stored or predefined).
func (a *Auth) RoleByOID(oid uint32) (Role, bool) {
	return a.findRole(func(r Role) bool { return r.OID == oid })
}

// findRole is the first stored, then predefined, role match accepts.
func (a *Auth) findRole(match func(Role) bool) (Role, bool) {
	for _, r := range a.Roles {
		if match(r) {
			return r, true
		}
	}
	for _, r := range PredefinedRoles {
		if match(r) {
			return r, true
		}
	}
	return Role{}, false
}

// PutRole adds or replaces (by OID) a role.
func (a *Auth) PutRole(r Role) {
	for i := range a.Roles {
		if a.Roles[i].OID == r.OID {
			a.Roles[i] = r
			return
		}
	}
	a.Roles = append(a.Roles, r)
	sort.Slice(a.Roles, func(i, j int) bool { return a.Roles[i].OID < a.Roles[j].OID })
}

// DropRole removes a role and its memberships.
func (a *Auth) DropRole(oid uint32) {
	out := a.Roles[:0]
	for _, r := range a.Roles {
		if r.OID != oid {
			out = append(out, r)
		}
	}
	a.Roles = out
	ms := a.Members[:0]
	for _, m := range a.Members {
		if m.Role != oid && m.Member != oid {
			ms = append(ms, m)
		}
	}
	a.Members = ms
}

// IsSuper reports whether role oid is a superuser (the database owner,
// pg_database_owner's member, is the bootstrap superuser).
func (a *Auth) IsSuper(oid uint32) bool {
	if oid == OIDBootstrapRole {
		return true
	}
	r, ok := a.RoleByOID(oid)
	return ok && r.Super
}

// MemberOf reports whether member is role or has its privileges through
// memberships; inheritOnly follows only roles that INHERIT (privileges),
// otherwise every membership counts (SET ROLE, ownership checks).
func (a *Auth) MemberOf(member, role uint32, inheritOnly bool) bool {
	if member == role {
		return true
	}
	seen := map[uint32]bool{member: true}
	queue := []uint32{member}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if inheritOnly {
			if r, ok := a.RoleByOID(cur); ok && !r.Inherit {
				continue
			}
		}
		for _, m := range a.Members {
			if m.Member == cur && !seen[m.Role] {
				if m.Role == role {
					return true
				}
				seen[m.Role] = true
				queue = append(queue, m.Role)
			}
		}
	}
	return false
}

// Object is the owner and access list of the object oid (zero: owned by
// the bootstrap superuser, default access).
func (a *Auth) Object(oid uint32) ObjectACL {
	o := a.Objects[oid]
	if o.Owner == 0 {
		o.Owner = OIDBootstrapRole
		if oid == OIDPublicSchema {
			o.Owner = OIDDatabaseOwner
		}
	}
	return o
}

// OIDPublicSchema is schema public's OID, OIDDatabaseOwner its owner's
// (pg_database_owner, whose one member is the database's owner).
const (
	OIDPublicSchema  = 2200
	OIDDatabaseOwner = 6171
)

// EffectiveACL is the object's access list, the default made explicit.
func (a *Auth) EffectiveACL(oid uint32, all uint16, public uint16) []ACLItem {
	o := a.Object(oid)
	if o.Set {
		return o.ACL
	}
	if oid == OIDPublicSchema {
		public = PrivUsage // initdb's =U/pg_database_owner
	}
	out := []ACLItem{}
	if public != 0 {
		out = append(out, ACLItem{Grantee: 0, Grantor: o.Owner, Privs: public})
	}
	return append(out, ACLItem{Grantee: o.Owner, Grantor: o.Owner, Privs: all})
}

// Privileges are the privileges role holds on object oid: every one for a
// superuser or a member of the owner, else the union of the access list's
// items granted to PUBLIC or a role role inherits from.
func (a *Auth) Privileges(role, oid uint32, all, public uint16) uint16 {
	return a.heldBits(role, oid, all, public, true, func(it ACLItem) uint16 { return it.Privs })
}

// GrantOptions are the privileges role may grant on object oid: all for a
// superuser or a member of the owner, else those it holds WITH GRANT
// OPTION (itself or through a role it inherits from).
func (a *Auth) GrantOptions(role, oid uint32, all, public uint16) uint16 {
	return a.heldBits(role, oid, all, public, false, func(it ACLItem) uint16 { return it.GrantOpt })
}

// heldBits is the union of bits(item) over oid's access list items that
// reach role (PUBLIC's too when withPublic), or all for a superuser or a
// member of the owner.
func (a *Auth) heldBits(role, oid uint32, all, public uint16, withPublic bool, bits func(ACLItem) uint16) uint16 {
	if a.IsSuper(role) || a.MemberOf(role, a.Object(oid).Owner, true) {
		return all
	}
	var got uint16
	for _, it := range a.EffectiveACL(oid, all, public) {
		if (it.Grantee == 0 && withPublic) || (it.Grantee != 0 && a.MemberOf(role, it.Grantee, true)) {
			got |= bits(it)
		}
	}
	return got
}

// Grant adds privs (with the grant option when opt) for grantee, granted by
// grantor, to object oid's access list.
func (a *Auth) Grant(oid uint32, all, public uint16, grantee, grantor uint32, privs uint16, opt bool) {
	o := a.Object(oid)
	o.ACL, o.Set = grantItems(append([]ACLItem(nil), a.EffectiveACL(oid, all, public)...), grantee, grantor, privs, opt), true
	a.setObject(oid, o)
}

// grantItems adds privs granted by grantor to grantee's item of acl.
func grantItems(acl []ACLItem, grantee, grantor uint32, privs uint16, opt bool) []ACLItem {
	found := false
	for i := range acl {
		if acl[i].Grantee == grantee && acl[i].Grantor == grantor {
			acl[i].Privs |= privs
			if opt {
				acl[i].GrantOpt |= privs
			}
			found = true
		}
	}
	if !found && privs != 0 { // granting nothing only makes the list explicit, as aclupdate
		it := ACLItem{Grantee: grantee, Grantor: grantor, Privs: privs}
		if opt {
			it.GrantOpt = privs
		}
		acl = append(acl, it)
	}
	return acl
}

// Revoke removes privs (only their grant option when optOnly) that grantor
// granted grantee on object oid.
func (a *Auth) Revoke(oid uint32, all, public uint16, grantee, grantor uint32, privs uint16, optOnly bool) {
	o := a.Object(oid)
	o.ACL, o.Set = revokeItems(a.EffectiveACL(oid, all, public), grantee, grantor, privs, optOnly), true
	a.setObject(oid, o)
}

// revokeItems is acl without privs granted by grantor to grantee.
func revokeItems(in []ACLItem, grantee, grantor uint32, privs uint16, optOnly bool) []ACLItem {
	var acl []ACLItem
	for _, it := range in {
		if it.Grantee == grantee && it.Grantor == grantor {
			it.GrantOpt &^= privs
			if !optOnly {
				it.Privs &^= privs
			}
			if it.Privs == 0 {
				continue
			}
		}
		acl = append(acl, it)
	}
	if acl == nil {
		acl = []ACLItem{}
	}
	return acl
}

// SetOwner makes role the owner of object oid; an explicit access list
// moves the old owner's entries to the new owner, as PostgreSQL's aclnewowner.
func (a *Auth) SetOwner(oid, role uint32) {
	o := a.Object(oid)
	old := o.Owner
	if o.Set {
		for i := range o.ACL {
			if o.ACL[i].Grantee == old {
				o.ACL[i].Grantee = role
			}
			if o.ACL[i].Grantor == old {
				o.ACL[i].Grantor = role
			}
		}
	}
	for _, acl := range o.Cols {
		for i := range acl {
			if acl[i].Grantor == old {
				acl[i].Grantor = role
			}
		}
	}
	o.Owner = role
	a.setObject(oid, o)
}

// RevokeAllFrom removes every privilege granted to role, on objects and
// their columns (DROP OWNED).
func (a *Auth) RevokeAllFrom(role uint32) {
	for oid, o := range a.Objects {
		changed := false
		keep := func(acl []ACLItem) []ACLItem {
			var out []ACLItem
			for _, it := range acl {
				if it.Grantee == role {
					changed = true
					continue
				}
				out = append(out, it)
			}
			return out
		}
		if o.Set {
			if o.ACL = keep(o.ACL); o.ACL == nil {
				o.ACL = []ACLItem{}
			}
		}
		cols := map[int16][]ACLItem{}
		for c, acl := range o.Cols {
			if k := keep(acl); len(k) > 0 {
				cols[c] = k
			}
		}
		o.Cols = cols
		if changed {
			a.setObject(oid, o)
		}
	}
}

// ForgetObject drops what is kept of a dropped object.
func (a *Auth) ForgetObject(oid uint32) { delete(a.Objects, oid) }

func (a *Auth) setObject(oid uint32, o ObjectACL) {
	if a.Objects == nil {
		a.Objects = map[uint32]ObjectACL{}
	}
	if o.Owner == OIDBootstrapRole || (oid == OIDPublicSchema && o.Owner == OIDDatabaseOwner) {
		o.Owner = 0
	}
	if o.Owner == 0 && !o.Set && len(o.Cols) == 0 {
		delete(a.Objects, oid)
		return
	}
	a.Objects[oid] = o
}

// Depends lists what role oid owns or is granted (DROP ROLE refuses a role
// that owns or holds anything): object OIDs.
func (a *Auth) Depends(role uint32) (owned, granted []uint32) {
	for oid, o := range a.Objects {
		if o.Owner == role {
			owned = append(owned, oid)
			continue
		}
		if holds(o.ACL, role) {
			granted = append(granted, oid)
		}
	}
	sort.Slice(owned, func(i, j int) bool { return owned[i] < owned[j] })
	sort.Slice(granted, func(i, j int) bool { return granted[i] < granted[j] })
	return owned, granted
}

// holds reports whether role is a grantee or grantor in acl.
func holds(acl []ACLItem, role uint32) bool {
	for _, it := range acl {
		if it.Grantee == role || it.Grantor == role {
			return true
		}
	}
	return false
}

// ColumnRef is one column of a table.
type ColumnRef struct {
	Table  uint32
	Attnum int16
}

// ColumnDepends lists the columns whose access lists name role, in
// table and column order.
func (a *Auth) ColumnDepends(role uint32) []ColumnRef {
	var out []ColumnRef
	for oid, o := range a.Objects {
		for c, acl := range o.Cols {
			if holds(acl, role) {
				out = append(out, ColumnRef{oid, c})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Table < out[j].Table || out[i].Table == out[j].Table && out[i].Attnum < out[j].Attnum
	})
	return out
}

// ColumnPrivileges are the privileges role holds on column attnum of
// table oid through the column's own access list (the table's are
// Privileges); a column's are only granted, never the owner's default.
func (a *Auth) ColumnPrivileges(role, oid uint32, attnum int16) uint16 {
	return a.columnBits(role, a.Object(oid).Cols[attnum], func(it ACLItem) uint16 { return it.Privs })
}

// ColumnGrantOptions are the column privileges role may grant on attnum.
func (a *Auth) ColumnGrantOptions(role, oid uint32, attnum int16) uint16 {
	return a.columnBits(role, a.Object(oid).Cols[attnum], func(it ACLItem) uint16 { return it.GrantOpt })
}

// AnyColumnPrivileges is the union of ColumnPrivileges over oid's columns
// (PostgreSQL's ACLMASK_ANY over pg_attribute).
func (a *Auth) AnyColumnPrivileges(role, oid uint32) uint16 {
	var got uint16
	for _, acl := range a.Object(oid).Cols {
		got |= a.columnBits(role, acl, func(it ACLItem) uint16 { return it.Privs })
	}
	return got
}

func (a *Auth) columnBits(role uint32, acl []ACLItem, bits func(ACLItem) uint16) uint16 {
	var got uint16
	for _, it := range acl {
		if it.Grantee == 0 || a.MemberOf(role, it.Grantee, true) {
			got |= bits(it)
		}
	}
	return got
}

// ColumnGrantor is who grants privs on column attnum of table oid when
// role does (PostgreSQL's select_best_grantor): role itself if it holds
// grant options on the table or column, else the role it inherits from
// holding the most of them; and those grant options.
func (a *Auth) ColumnGrantor(role, oid uint32, attnum int16, privs uint16) (uint32, uint16) {
	o := a.Object(oid)
	opts := map[uint32]uint16{}
	var order []uint32
	for _, acl := range [][]ACLItem{a.EffectiveACL(oid, AllTablePrivs, 0), o.Cols[attnum]} {
		for _, it := range acl {
			if it.Grantee != 0 && it.GrantOpt&privs != 0 && a.MemberOf(role, it.Grantee, true) {
				if _, ok := opts[it.Grantee]; !ok {
					order = append(order, it.Grantee)
				}
				opts[it.Grantee] |= it.GrantOpt & privs
			}
		}
	}
	if got, ok := opts[role]; ok {
		return role, got
	}
	best, most := role, uint16(0)
	for _, g := range order {
		if bits.OnesCount16(opts[g]) > bits.OnesCount16(most) {
			best, most = g, opts[g]
		}
	}
	return best, most
}

// GrantColumn adds privs for grantee, granted by grantor, to column
// attnum of table oid.
func (a *Auth) GrantColumn(oid uint32, attnum int16, grantee, grantor uint32, privs uint16, opt bool) {
	o := a.Object(oid)
	acl := append([]ACLItem(nil), o.Cols[attnum]...)
	acl = grantItems(acl, grantee, grantor, privs, opt)
	a.setColumn(oid, o, attnum, acl)
}

// RevokeColumn removes privs (their grant option only when optOnly) that
// grantor granted grantee on column attnum of table oid.
func (a *Auth) RevokeColumn(oid uint32, attnum int16, grantee, grantor uint32, privs uint16, optOnly bool) {
	o := a.Object(oid)
	if _, ok := o.Cols[attnum]; !ok {
		return
	}
	a.setColumn(oid, o, attnum, revokeItems(o.Cols[attnum], grantee, grantor, privs, optOnly))
}

// ForgetColumn drops what is kept of a dropped column.
func (a *Auth) ForgetColumn(oid uint32, attnum int16) {
	o := a.Object(oid)
	if _, ok := o.Cols[attnum]; ok {
		cols := make(map[int16][]ACLItem, len(o.Cols))
		for c, acl := range o.Cols {
			if c != attnum {
				cols[c] = acl
			}
		}
		o.Cols = cols
		a.setObject(oid, o)
	}
}

func (a *Auth) setColumn(oid uint32, o ObjectACL, attnum int16, acl []ACLItem) {
	cols := make(map[int16][]ACLItem, len(o.Cols)+1)
	for c, v := range o.Cols {
		cols[c] = v
	}
	cols[attnum] = acl
	if len(acl) == 0 {
		delete(cols, attnum) // attacl back to NULL
	}
	o.Cols = cols
	a.setObject(oid, o)
}

// AuthCatalog is implemented by catalogs that keep roles (a DB's
// transactions).
type AuthCatalog interface {
	// Auth is the role catalog the transaction sees.
	Auth() *Auth
	// AlterAuth applies change to a copy of Auth and keeps it; the same
	// change is replayed over the committed Auth at commit.
	AlterAuth(change func(*Auth) error) error
	// NewRoleOID allocates a role's OID.
	NewRoleOID() uint32
}

var _ AuthCatalog = (*Txn)(nil)

// Auth implements AuthCatalog.
func (t *Txn) Auth() *Auth {
	if t.p.auth != nil {
		return t.p.auth
	}
	if a := t.db.cs.load().auth; a != nil {
		return a // roles resolve in the latest catalog, as names do
	}
	return emptyAuth
}

// AlterAuth implements AuthCatalog.
func (t *Txn) AlterAuth(change func(*Auth) error) error {
	if t.done {
		return errDone
	}
	next := t.Auth().Clone()
	if err := change(next); err != nil {
		return err
	}
	t.p.auth = next
	t.p.authOps = append(t.p.authOps[:len(t.p.authOps):len(t.p.authOps)], change)
	return nil
}

// NewRoleOID implements AuthCatalog.
func (t *Txn) NewRoleOID() uint32 { return FirstUserOID + 2*uint32(t.db.nextID.Add(1)-1) }

// Auth is the committed role catalog (for authentication).
func (db *DB) Auth() *Auth {
	if a := db.cs.load().auth; a != nil {
		return a
	}
	return emptyAuth
}

// applyAuth replays p's changes over work's Auth.
func applyAuth(work *version, p *pending) error {
	if len(p.authOps) == 0 {
		return nil
	}
	base := work.auth
	if base == nil {
		base = emptyAuth
	}
	next := base.Clone()
	for _, op := range p.authOps {
		if err := op(next); err != nil {
			return err
		}
	}
	work.auth = next
	return nil
}

// pruneAuth forgets the owners and access lists of relations and schemas
// that are gone (their OIDs are never reused).
func pruneAuth(work *version) {
	a := work.auth
	if a == nil || len(a.Objects) == 0 && len(a.Defaults) == 0 {
		return
	}
	live := func(oid uint32) bool {
		if oid < FirstUserOID {
			return true // public and the system schemas
		}
		id := uint64(oid-FirstUserOID) / 2
		if (oid-FirstUserOID)%2 == 0 {
			if work.byID[id] != nil || work.schemas[id] != nil || work.funcs[id] != nil {
				return true
			}
			for _, e := range work.seqs {
				if e.def.ID == id {
					return true
				}
			}
			return false
		}
		for _, v := range work.views {
			if v.ID == id {
				return true
			}
		}
		return false
	}
	var gone []uint32
	for oid := range a.Objects {
		if !live(oid) {
			gone = append(gone, oid)
		}
	}
	var defs []DefaultACL // a dropped schema's default privileges go with it
	for _, d := range a.Defaults {
		if d.Schema == 0 || live(d.Schema) {
			defs = append(defs, d)
		}
	}
	if len(gone) == 0 && len(defs) == len(a.Defaults) {
		return
	}
	n := a.Clone()
	for _, oid := range gone {
		delete(n.Objects, oid)
	}
	n.Defaults = defs
	work.auth = n
}

// encodeAuth is the manifest's "auth" member (nil: none).
func encodeAuth(v *version) ([]byte, error) {
	if v.auth == nil || (v.auth.Bootstrap == "" && len(v.auth.Roles) == 0 && len(v.auth.Objects) == 0 && len(v.auth.Defaults) == 0) {
		return nil, nil
	}
	return json.Marshal(v.auth)
}

func decodeAuth(v *version, raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	a := &Auth{}
	if err := json.Unmarshal(raw, a); err != nil {
		return fmt.Errorf("auth: %w", err)
	}
	v.auth = a
	return nil
}
