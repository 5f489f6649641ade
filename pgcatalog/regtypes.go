package pgcatalog

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
)

// The object-identifier types. joind has no oid or reg* types: an OID is
// an int8, and a reg* cast yields the OID of a name given as a literal, or
// the name (text) of an OID given as an expression — the two uses clients
// make of them (`attrelid = 't'::regclass`, `oid::regclass` in a select
// list). Package sql binds the casts; these are their input and output
// functions.

// IsRegType reports whether name is one of the reg* types.
func IsRegType(name string) bool {
	switch name {
	case "regclass", "regtype", "regnamespace", "regrole", "regproc", "regprocedure", "regoper", "regoperator", "regconfig":
		return true
	}
	return false
}

// RegIn is a reg* type's input function: the OID of a named object.
func (s *Snapshot) RegIn(target, name string) (uint32, error) {
	name = strings.TrimSpace(name)
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), nil
	}
	if name == "-" && (target == "regproc" || target == "regprocedure") {
		return 0, nil
	}
	switch target {
	case "regclass":
		parts := SplitQualified(name)
		schema, rel := "", parts[len(parts)-1]
		if len(parts) == 2 {
			schema = parts[0]
		}
		if r, ok := s.RelationByName(schema, rel); ok && len(parts) <= 2 {
			return r.OID, nil
		}
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	case "regtype":
		tree, err := pg_query.Parse("SELECT NULL::" + name)
		if err == nil && len(tree.Stmts) == 1 {
			if tl := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList(); len(tl) == 1 {
				if tc := tl[0].GetResTarget().GetVal().GetTypeCast(); tc != nil && !tc.TypeName.Setof && !tc.TypeName.PctType {
					if t, err := PlainTypeName(tc.TypeName); err == nil {
						return t.OID(), nil
					}
					var names []string
					for _, n := range tc.TypeName.Names {
						names = append(names, n.GetString_().GetSval())
					}
					if u, ok := s.UserTypeByName(names); ok && len(tc.TypeName.Typmods) == 0 { // usertypes.go
						if len(tc.TypeName.ArrayBounds) > 0 {
							return u.ArrayOID(), nil
						}
						return u.OID(), nil
					}
				}
			}
		}
		return 0, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	case "regnamespace":
		if n, ok := s.NamespaceByName(unquoteIdent(name)); ok {
			return n.OID, nil
		}
		return 0, pgerr.New("3F000", "schema \"%s\" does not exist", name)
	case "regrole":
		if oid, ok := s.RoleOID(unquoteIdent(name)); ok {
			return oid, nil
		}
		return 0, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", name)
}

// RegOut is a reg* type's output function: the name of an OID (the
// number itself when nothing has it, as PostgreSQL prints it; "-" for 0).
func (s *Snapshot) RegOut(target string, v int64) string {
	oid := uint32(v)
	if oid == 0 {
		return "-"
	}
	switch target {
	case "regclass":
		if r, ok := s.RelationByOID(oid); ok {
			// regclassout qualifies a name the search path does not find.
			if !s.TableVisible(oid) {
				return QuoteIdentifier(r.Schema) + "." + QuoteIdentifier(r.Name)
			}
			return QuoteIdentifier(r.Name)
		}
	case "regtype":
		if st, ok := TypeByOID(oid); ok {
			return st.T.BaseSQLName() // format_type_be: 1042 is "character", not format_type's bpchar
		}
		return FormatType(oid, -1, true)
	case "regnamespace":
		if n, ok := s.NamespaceByOID(oid); ok {
			return QuoteIdentifier(n.Name)
		}
	case "regrole":
		return s.RoleName(oid)
	}
	return strconv.FormatInt(v, 10)
}

// RegProcName is what a regproc/regprocedure literal yields: functions are
// named, not numbered, in joind's catalogs (pg_type.typinput is text), so
// a regproc is its unqualified name.
func RegProcName(name string) string {
	parts := SplitQualified(strings.TrimSpace(name))
	return parts[len(parts)-1]
}
