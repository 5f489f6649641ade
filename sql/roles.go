package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Role statements (CREATE/ALTER/DROP ROLE, GRANT/REVOKE): bound here to
// names and OIDs of relations; roles resolve when they run
// (commands/roles.go), in the transaction's role catalog.

// RoleOptions are CREATE/ALTER ROLE's options; nil pointers are unset.
type RoleOptions struct {
	Super, CreateDB, CreateRole, Inherit, Login *bool
	Password                                    *string // "" with PasswordNull: PASSWORD NULL
	PasswordNull                                bool
	ConnLimit                                   *int32
	InRoles, Members                            []string // IN ROLE / ROLE
}

// CreateRole is CREATE ROLE | USER | GROUP name [options].
type CreateRole struct {
	Name string
	User bool // CREATE USER: LOGIN by default
	Opts RoleOptions
}

// AlterRole is ALTER ROLE | USER name [WITH] options.
type AlterRole struct {
	Name string // "" with Current: CURRENT_USER
	Opts RoleOptions
}

// DropRole is DROP ROLE | USER [IF EXISTS] names.
type DropRole struct {
	Names    []string
	IfExists bool
}

// GrantRole is GRANT roles TO members [WITH ADMIN OPTION] / REVOKE.
type GrantRole struct {
	Grant   bool
	Roles   []string
	Members []string
	Admin   bool
}

// GrantObject is one object of GRANT/REVOKE privileges: a relation
// (view or table), a sequence, a function or a schema (Kind, a
// storage.Kind* letter).
type GrantObject struct {
	OID  uint32
	Name string
	Kind byte
}

// GrantPrivs is GRANT/REVOKE privileges ON TABLE ... | ALL TABLES IN SCHEMA
// ... | SEQUENCE ... | FUNCTION ... | SCHEMA ... TO/FROM grantees ("" =
// PUBLIC).
type GrantPrivs struct {
	Grant bool
	// Target is the statement's object type (a storage.Kind* letter):
	// GRANT ... ON TABLE also reaches sequences, with their privileges.
	Target      byte
	Schema      bool // objects are schemas (Target 'n')
	Objects     []GrantObject
	Privs       uint16
	Grantees    []string
	GrantOption bool // WITH GRANT OPTION / REVOKE GRANT OPTION FOR
	All         bool // ALL [PRIVILEGES]
	// Cols are the column privileges (GRANT SELECT (a, b) ...), of a
	// statement on one table.
	Cols []ColumnPrivs
	// Defaults, when set, makes it ALTER DEFAULT PRIVILEGES (Objects empty).
	Defaults *DefaultPrivs
}

// DefaultPrivs are ALTER DEFAULT PRIVILEGES' FOR ROLE and IN SCHEMA and
// the kind of object: 'r' (TABLES), 'S' (SEQUENCES), 'f' (FUNCTIONS,
// ROUTINES) or 'n' (SCHEMAS).
type DefaultPrivs struct {
	Roles   []string // none: the current role
	Schemas []uint32 // none: every schema
	Kind    byte
}

// ColumnPrivs are privileges on some columns of GRANT's table.
type ColumnPrivs struct {
	Privs   uint16
	Attnums []int16
	Names   []string
}

// SetRole is SET [LOCAL] ROLE name / RESET ROLE (Name "" = NONE).
// With SessionAuth it is SET [LOCAL] SESSION AUTHORIZATION name | DEFAULT
// / RESET SESSION AUTHORIZATION (Name "": who connected).
type SetRole struct {
	Name        string
	Local       bool
	Reset       bool // RESET ROLE (tag RESET)
	SessionAuth bool
}

// DropOwned is DROP OWNED BY roles [CASCADE].
type DropOwned struct {
	Roles   []string
	Cascade bool
	RelName RelName
}

// ReassignOwned is REASSIGN OWNED BY roles TO role.
type ReassignOwned struct {
	Roles []string
	To    string
}

func (*DropOwned) statement()     {}
func (*ReassignOwned) statement() {}
func (*CreateRole) statement()    {}
func (*AlterRole) statement()     {}
func (*DropRole) statement()      {}
func (*GrantRole) statement()     {}
func (*GrantPrivs) statement()    {}
func (*SetRole) statement()       {}

// bindSetRole binds SET [LOCAL] ROLE and RESET ROLE, and the same forms
// of SESSION AUTHORIZATION.
func (b *binder) bindSetRole(vs *pg_query.VariableSetStmt) (Statement, error) {
	out := &SetRole{Local: vs.IsLocal, SessionAuth: strings.EqualFold(vs.Name, "session_authorization")}
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		if len(vs.Args) == 1 {
			if c := vs.Args[0].GetAConst(); c != nil {
				out.Name = constText(c)
			}
		}
		if strings.EqualFold(out.Name, "none") && !out.SessionAuth {
			out.Name = ""
		}
	case pg_query.VariableSetKind_VAR_RESET:
		out.Reset = true
	case pg_query.VariableSetKind_VAR_SET_DEFAULT:
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "SET %s FROM CURRENT is not supported", vs.Name)
	}
	return out, nil
}

// roleSpecName is a RoleSpec's name: CURRENT_USER and friends as the
// session's, PUBLIC as "".
func (b *binder) roleSpecName(n *pg_query.RoleSpec) string {
	switch n.Roletype {
	case pg_query.RoleSpecType_ROLESPEC_PUBLIC:
		return ""
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		if b.opts.Session != nil {
			return b.opts.Session.CurrentRole
		}
	case pg_query.RoleSpecType_ROLESPEC_SESSION_USER:
		if b.opts.Session != nil {
			return b.opts.Session.User
		}
	}
	return n.Rolename
}

func (b *binder) roleNames(ns []*pg_query.Node) []string {
	var out []string
	for _, n := range ns {
		if r := n.GetRoleSpec(); r != nil {
			out = append(out, b.roleSpecName(r))
		} else if ap := n.GetAccessPriv(); ap != nil {
			out = append(out, ap.PrivName) // GRANT role: the granted roles arrive as AccessPrivs
		} else if s := n.GetString_(); s != nil {
			out = append(out, s.Sval)
		}
	}
	return out
}

func defBool(d *pg_query.DefElem) *bool {
	v := true
	if d.Arg != nil {
		if bb := d.Arg.GetBoolean(); bb != nil {
			v = bb.Boolval
		} else if i := d.Arg.GetInteger(); i != nil {
			v = i.Ival != 0
		}
	}
	return &v
}

func (b *binder) roleOptions(opts []*pg_query.Node) (RoleOptions, error) {
	var o RoleOptions
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "superuser":
			o.Super = defBool(d)
		case "createdb":
			o.CreateDB = defBool(d)
		case "createrole":
			o.CreateRole = defBool(d)
		case "inherit":
			o.Inherit = defBool(d)
		case "canlogin":
			o.Login = defBool(d)
		case "password":
			if d.Arg == nil {
				o.PasswordNull = true
			} else {
				pw := defElemString(d)
				o.Password = &pw
			}
		case "connectionlimit":
			if i := d.Arg.GetInteger(); i != nil {
				v := i.Ival
				o.ConnLimit = &v
			}
		case "addroleto":
			o.InRoles = b.roleNames(d.Arg.GetList().GetItems())
		case "rolemembers":
			o.Members = b.roleNames(d.Arg.GetList().GetItems())
		case "isreplication", "bypassrls":
			if *defBool(d) {
				return o, pgerr.New(pgerr.FeatureNotSupported, "role option %s is not supported",
					map[string]string{"isreplication": "REPLICATION", "bypassrls": "BYPASSRLS"}[d.Defname])
			}
		case "validUntil":
			return o, pgerr.New(pgerr.FeatureNotSupported, "role option VALID UNTIL is not supported")
		default:
			return o, pgerr.New(pgerr.FeatureNotSupported, "role option \"%s\" is not supported", d.Defname)
		}
	}
	return o, nil
}

func (b *binder) bindCreateRole(x *pg_query.CreateRoleStmt) (Statement, error) {
	o, err := b.roleOptions(x.Options)
	if err != nil {
		return nil, err
	}
	return &CreateRole{Name: x.Role, User: x.StmtType == pg_query.RoleStmtType_ROLESTMT_USER, Opts: o}, nil
}

func (b *binder) bindAlterRole(x *pg_query.AlterRoleStmt) (Statement, error) {
	if x.Action != 1 && len(x.Options) > 0 && x.Options[0].GetDefElem().GetDefname() == "rolemembers" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER GROUP is not supported")
	}
	o, err := b.roleOptions(x.Options)
	if err != nil {
		return nil, err
	}
	return &AlterRole{Name: b.roleSpecName(x.Role), Opts: o}, nil
}

func (b *binder) bindDropOwned(x *pg_query.DropOwnedStmt) (Statement, error) {
	return &DropOwned{Roles: b.roleNames(x.Roles), Cascade: x.Behavior == pg_query.DropBehavior_DROP_CASCADE, RelName: b.relNamer()}, nil
}

func (b *binder) bindReassignOwned(x *pg_query.ReassignOwnedStmt) (Statement, error) {
	return &ReassignOwned{Roles: b.roleNames(x.Roles), To: b.roleSpecName(x.Newrole)}, nil
}

func (b *binder) bindDropRole(x *pg_query.DropRoleStmt) (Statement, error) {
	return &DropRole{Names: b.roleNames(x.Roles), IfExists: x.MissingOk}, nil
}

func (b *binder) bindGrantRole(x *pg_query.GrantRoleStmt) (Statement, error) {
	g := &GrantRole{Grant: x.IsGrant, Roles: b.roleNames(x.GrantedRoles), Members: b.roleNames(x.GranteeRoles)}
	for _, o := range x.Opt {
		if d := o.GetDefElem(); d != nil {
			if d.Defname != "admin" {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANT role WITH %s is not supported", strings.ToUpper(d.Defname))
			}
			g.Admin = true
		}
	}
	if x.Grantor != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANTED BY is not supported")
	}
	return g, nil
}

// tablePrivBits maps GRANT's privilege names on tables to bits.
var tablePrivBits = map[string]uint16{"select": storage.PrivSelect, "insert": storage.PrivInsert, "update": storage.PrivUpdate,
	"delete": storage.PrivDelete, "truncate": storage.PrivTruncate, "references": storage.PrivReferences, "trigger": storage.PrivTrigger}

var schemaPrivBits = map[string]uint16{"usage": storage.PrivUsage, "create": storage.PrivCreate}

var sequencePrivBits = map[string]uint16{"usage": storage.PrivUsage, "select": storage.PrivSelect, "update": storage.PrivUpdate}

var functionPrivBits = map[string]uint16{"execute": storage.PrivExecute}

// knownPrivs are the privilege names PostgreSQL's string_to_privilege
// knows (another is 42601 "unrecognized privilege type").
var knownPrivs = map[string]bool{"insert": true, "select": true, "update": true, "delete": true, "truncate": true,
	"references": true, "trigger": true, "execute": true, "usage": true, "create": true, "temporary": true, "temp": true,
	"connect": true, "set": true, "alter system": true, "rule": true}

// bindAlterDefaultPrivileges is ALTER DEFAULT PRIVILEGES [FOR ROLE r]
// [IN SCHEMA s] GRANT|REVOKE ... ON TABLES|SCHEMAS.
func (b *binder) bindAlterDefaultPrivileges(x *pg_query.AlterDefaultPrivilegesStmt) (Statement, error) {
	d := &DefaultPrivs{}
	var schemaNames []string
	for _, o := range x.Options {
		de := o.GetDefElem()
		switch de.GetDefname() {
		case "roles":
			d.Roles = b.roleNames(de.Arg.GetList().GetItems())
		case "schemas":
			for _, n := range de.Arg.GetList().GetItems() {
				schemaNames = append(schemaNames, n.GetString_().GetSval())
			}
		}
	}
	act := x.Action
	switch act.Objtype {
	case pg_query.ObjectType_OBJECT_TABLE:
		d.Kind = storage.KindRelation
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		d.Kind = storage.KindSequence
	case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_ROUTINE:
		d.Kind = storage.KindFunction
	case pg_query.ObjectType_OBJECT_SCHEMA:
		d.Kind = 'n'
		if len(schemaNames) > 0 {
			return nil, pgerr.New("0LP01", "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS")
		}
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER DEFAULT PRIVILEGES on %s is not supported",
			strings.ToLower(strings.TrimPrefix(act.Objtype.String(), "OBJECT_"))+"s")
	}
	for _, name := range schemaNames {
		ns, ok := b.snapshot().NamespaceByName(name)
		if !ok {
			return nil, pgerr.New("3F000", "schema \"%s\" does not exist", name)
		}
		d.Schemas = append(d.Schemas, ns.OID)
	}
	st, err := b.bindGrant(act)
	if err != nil {
		return nil, err
	}
	g := st.(*GrantPrivs)
	g.Defaults = d
	return g, nil
}

func (b *binder) bindGrant(x *pg_query.GrantStmt) (Statement, error) {
	g := &GrantPrivs{Grant: x.IsGrant, GrantOption: x.GrantOption}
	if x.Grantor != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANTED BY is not supported")
	}
	defaults := x.Targtype == pg_query.GrantTargetType_ACL_TARGET_DEFAULTS
	var bits map[string]uint16
	all := storage.AllTablePrivs
	// kind names the object type in "invalid privilege type" errors, as
	// ExecuteGrantStmt's errormsg.
	kind := "relation"
	switch x.Objtype {
	case pg_query.ObjectType_OBJECT_TABLE:
		// USAGE is a sequence's: GRANT ... ON TABLE accepts it, and each
		// table refuses it (commands/roles.go).
		bits, g.Target = tableOrSequencePrivBits, storage.KindRelation
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		bits, all, kind, g.Target = sequencePrivBits, storage.AllSequencePrivs, "sequence", storage.KindSequence
	case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_ROUTINE, pg_query.ObjectType_OBJECT_PROCEDURE:
		bits, all, g.Target = functionPrivBits, storage.AllFunctionPrivs, storage.KindFunction
		kind = map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_FUNCTION: "function",
			pg_query.ObjectType_OBJECT_ROUTINE: "routine", pg_query.ObjectType_OBJECT_PROCEDURE: "procedure"}[x.Objtype]
	case pg_query.ObjectType_OBJECT_SCHEMA:
		bits, all, kind, g.Schema, g.Target = schemaPrivBits, storage.AllSchemaPrivs, "schema", true, storage.KindSchema
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANT and REVOKE on %s are not supported",
			strings.ToLower(strings.TrimPrefix(x.Objtype.String(), "OBJECT_"))+"s")
	}
	var err error
	switch {
	case defaults:
	case g.Schema:
		for _, o := range x.Objects {
			name := o.GetString_().GetSval()
			ns, ok := b.snapshot().NamespaceByName(name)
			if !ok {
				return nil, pgerr.New("3F000", "schema \"%s\" does not exist", name)
			}
			g.Objects = append(g.Objects, GrantObject{OID: ns.OID, Name: name, Kind: storage.KindSchema})
		}
	case x.Targtype == pg_query.GrantTargetType_ACL_TARGET_ALL_IN_SCHEMA:
		err = b.grantAllInSchema(g, x)
	case g.Target == storage.KindFunction:
		err = b.grantFunctions(g, x)
	default:
		for _, o := range x.Objects {
			rv := o.GetRangeVar()
			r, err := b.resolveRelation(rv)
			if err != nil {
				return nil, withoutPosition(err)
			}
			switch {
			case r.kind == relSequence && !r.seq.Temp:
				g.Objects = append(g.Objects, GrantObject{OID: r.seq.ObjectID(), Name: rv.Relname, Kind: storage.KindSequence})
			case g.Target == storage.KindSequence && r.kind != relSequence:
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", rv.Relname)
			case r.kind == relView:
				g.Objects = append(g.Objects, GrantObject{OID: pgcatalog.ViewOID(r.view), Name: rv.Relname, Kind: storage.KindRelation})
			case r.kind == relTable && !r.temp && r.key != "":
				g.Objects = append(g.Objects, GrantObject{OID: pgcatalog.RelationOID(r.table), Name: rv.Relname, Kind: storage.KindRelation})
			default:
				return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANT on \"%s\" is not supported", rv.Relname)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	// As ExecuteGrantStmt: the objects, then the grantees, then the
	// privileges are checked.
	for _, n := range x.Grantees {
		name := b.roleSpecName(n.GetRoleSpec())
		if _, ok := b.snapshot().RoleOID(name); !ok && name != "" {
			return nil, pgerr.New("42704", "role \"%s\" does not exist", name)
		}
		g.Grantees = append(g.Grantees, name)
	}
	if len(x.Privileges) == 0 {
		g.Privs, g.All = all, true
	}
	// GRANT SELECT (a) ... lists only column privileges: no table's.
	var colNames [][]string
	for _, p := range x.Privileges {
		ap := p.GetAccessPriv()
		if ap.PrivName != "" && !knownPrivs[ap.PrivName] {
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized privilege type \"%s\"", ap.PrivName)
		}
		if len(ap.Cols) > 0 {
			if g.Target != storage.KindRelation || x.Targtype != pg_query.GrantTargetType_ACL_TARGET_OBJECT {
				return nil, pgerr.New(pgerr.SyntaxError, "column privileges are only valid for relations")
			}
			bit, ok := columnPrivBits[ap.PrivName], true
			if ap.PrivName == "" {
				bit = columnPrivAll
			} else if bit == 0 {
				if _, ok = bits[ap.PrivName]; ok {
					return nil, pgerr.New("0LP01", "invalid privilege type %s for column", strings.ToUpper(ap.PrivName))
				}
			}
			if !ok {
				return nil, pgerr.New("0LP01", "invalid privilege type %s for %s", strings.ToUpper(ap.PrivName), kind)
			}
			var names []string
			for _, c := range ap.Cols {
				names = append(names, c.GetString_().GetSval())
			}
			g.Cols = append(g.Cols, ColumnPrivs{Privs: bit})
			colNames = append(colNames, names)
			continue
		}
		bit, ok := bits[ap.PrivName]
		if !ok || defaults && g.Target == storage.KindRelation && bit == storage.PrivUsage {
			return nil, pgerr.New("0LP01", "invalid privilege type %s for %s", strings.ToUpper(ap.PrivName), kind)
		}
		g.Privs |= bit
	}
	if len(g.Cols) > 0 {
		if err := b.grantColumns(g, x, colNames); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// tableOrSequencePrivBits are the privileges GRANT ... ON TABLE names.
var tableOrSequencePrivBits = func() map[string]uint16 {
	m := map[string]uint16{"usage": storage.PrivUsage}
	for k, v := range tablePrivBits {
		m[k] = v
	}
	return m
}()

// grantAllInSchema is ALL TABLES | SEQUENCES | FUNCTIONS | ROUTINES |
// PROCEDURES IN SCHEMA: the schemas' objects of the kind (ALL TABLES:
// tables and views, not sequences), as objectsInSchemaToOids.
func (b *binder) grantAllInSchema(g *GrantPrivs, x *pg_query.GrantStmt) error {
	for _, o := range x.Objects {
		name := o.GetString_().GetSval()
		ns, ok := b.snapshot().NamespaceByName(name)
		if !ok {
			return pgerr.New("3F000", "schema \"%s\" does not exist", name)
		}
		if g.Target == storage.KindFunction {
			if x.Objtype == pg_query.ObjectType_OBJECT_PROCEDURE {
				continue // joind has no procedures
			}
			if fc := FunctionCatalogOf(b.cat); fc != nil && ns.Kind == pgcatalog.NsUser {
				for _, f := range fc.Functions() {
					if f.Schema == ns.ID {
						g.Objects = append(g.Objects, GrantObject{OID: f.OID(), Name: f.Name, Kind: storage.KindFunction})
					}
				}
			}
			continue
		}
		for _, r := range b.snapshot().Relations() {
			if r.Namespace != ns.OID || r.OID < storage.FirstUserOID || r.Temp {
				continue
			}
			switch {
			case g.Target == storage.KindSequence && r.Kind == 'S':
				g.Objects = append(g.Objects, GrantObject{OID: r.OID, Name: r.Name, Kind: storage.KindSequence})
			case g.Target == storage.KindRelation && (r.Kind == 'r' || r.Kind == 'v'):
				g.Objects = append(g.Objects, GrantObject{OID: r.OID, Name: r.Name, Kind: storage.KindRelation})
			}
		}
	}
	return nil
}

// grantFunctions resolves ON FUNCTION | ROUTINE | PROCEDURE f(args): a
// function named ON PROCEDURE is 42809 (joind has no procedures).
func (b *binder) grantFunctions(g *GrantPrivs, x *pg_query.GrantStmt) error {
	for _, o := range x.Objects {
		owa := o.GetObjectWithArgs()
		f, _, err := b.lookupFunction(owa, false)
		if err != nil {
			if x.Objtype == pg_query.ObjectType_OBJECT_PROCEDURE {
				if e, ok := err.(*pgerr.Error); ok && e.Code == pgerr.UndefinedFunction {
					e.Message = strings.Replace(e.Message, "function", "procedure", 1)
				}
			}
			return err
		}
		if x.Objtype == pg_query.ObjectType_OBJECT_PROCEDURE {
			return pgerr.New(pgerr.WrongObjectType, "%s is not a procedure", FuncSignature(f))
		}
		g.Objects = append(g.Objects, GrantObject{OID: f.OID(), Name: f.Name, Kind: storage.KindFunction})
	}
	return nil
}

// columnPrivBits are the privileges that exist per column, columnPrivAll
// ALL (cols).
var columnPrivBits = map[string]uint16{"select": storage.PrivSelect, "insert": storage.PrivInsert, "update": storage.PrivUpdate,
	"references": storage.PrivReferences}

const columnPrivAll = storage.PrivSelect | storage.PrivInsert | storage.PrivUpdate | storage.PrivReferences

// grantColumns resolves the column names of g.Cols on each of its tables
// or views (one, in practice) to attribute numbers.
func (b *binder) grantColumns(g *GrantPrivs, x *pg_query.GrantStmt, names [][]string) error {
	for i, o := range x.Objects {
		rv := o.GetRangeVar()
		r, err := b.resolveRelation(rv)
		if i > 0 {
			return pgerr.New(pgerr.FeatureNotSupported, "column privileges on more than one relation are not supported")
		}
		var cols []string
		var attnums []int16
		switch {
		case err != nil:
			return withoutPosition(err)
		case r.kind == relTable:
			for j, d := range r.table.Columns() {
				cols, attnums = append(cols, d.Name), append(attnums, attnumOf(d, j))
			}
		case r.kind == relView:
			for j, c := range r.view.Columns {
				cols, attnums = append(cols, c), append(attnums, int16(j+1))
			}
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "column privileges on \"%s\" are not supported", rv.Relname)
		}
		for k, want := range names {
			for _, n := range want {
				idx := -1
				for j, c := range cols {
					if c == n {
						idx = j
					}
				}
				if idx < 0 {
					return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", n, rv.Relname)
				}
				g.Cols[k].Attnums = append(g.Cols[k].Attnums, attnums[idx])
				g.Cols[k].Names = append(g.Cols[k].Names, n)
			}
		}
	}
	return nil
}
