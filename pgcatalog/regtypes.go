package pgcatalog

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The reg* types' input and output functions (regclassin/regclassout and
// their kin) over a catalog snapshot. Package types holds the types
// themselves (types/regtypes.go); a session gives their I/O the snapshot
// through types.Format.Reg (Snapshot.RegCatalog).

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
		if _, ok := s.NamespaceByName(schema); schema != "" && !ok {
			return 0, pgerr.New("3F000", "schema \"%s\" does not exist", schema)
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
					if r, ok := s.relationNamed(names); ok && len(tc.TypeName.Typmods) == 0 {
						if rt := rowTypeOf(r); rt.ok { // a relation's row type (usertypes_composite.go)
							if len(tc.TypeName.ArrayBounds) > 0 {
								return rt.array, nil
							}
							return rt.oid, nil
						}
					}
					if n := len(names); len(tc.TypeName.Typmods) == 0 && (n == 1 || n == 2 && names[0] == "pg_catalog") {
						name := names[n-1]
						if len(tc.TypeName.ArrayBounds) > 0 {
							name += "[]"
						}
						if oid, ok := pseudoTypeByName(name); ok {
							return oid, nil
						}
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
	case "regproc":
		if oid, ok, err := userRegproc(s, name); ok { // pgproc_user.go
			return oid, err
		}
		return regprocIn(name)
	case "regprocedure":
		return regprocedureIn(s, name)
	case "regoper":
		return regoperIn(name)
	case "regoperator":
		return regoperatorIn(s, name)
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", name)
}

// relationNamed finds the relation a type name [schema.]name names.
func (s *Snapshot) relationNamed(names []string) (Relation, bool) {
	switch len(names) {
	case 1:
		return s.RelationByName("", names[0])
	case 2:
		return s.RelationByName(names[0], names[1])
	}
	return Relation{}, false
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
		if n := typeNameBe(oid); n != "-" {
			return n // a pseudo-type joind's pg_type leaves out (unknown, record[], ...)
		}
	case "regnamespace":
		if n, ok := s.NamespaceByOID(oid); ok {
			return QuoteIdentifier(n.Name)
		}
	case "regrole":
		return s.RoleName(oid)
	case "regproc", "regprocedure":
		if r, ok := builtinRoutines().procText[oid]; ok {
			if target == "regprocedure" {
				return r[ppName] + "(" + argTypeNames(r[ppArgtypes]) + ")"
			}
			return uniqueOrQualified(r[ppName], len(procsNamed(r[ppName])))
		}
		if name := procNameByOID(oid); name != "" && typeIOFunction(name) {
			return name // a type's I/O function, as pg_type names it
		}
	case "regoper", "regoperator":
		if r, ok := operatorByOID(oid); ok {
			if target == "regoperator" {
				return r[poName] + "(" + operandName(r[poLeft]) + "," + operandName(r[poRight]) + ")"
			}
			return uniqueOrQualified(r[poName], len(operatorsNamed(r[poName])))
		}
	}
	return strconv.FormatInt(v, 10)
}

// RegCatalog is the snapshot as the reg* types' I/O sees it.
func (s *Snapshot) RegCatalog() types.RegCatalog { return regCatalog{s} }

type regCatalog struct{ s *Snapshot }

func (r regCatalog) RegIn(id types.ID, name string) (uint32, error) {
	return r.s.RegIn(types.Type{ID: id}.PgTypeName(), name)
}

func (r regCatalog) RegOut(id types.ID, oid uint32) string {
	return r.s.RegOut(types.Type{ID: id}.PgTypeName(), int64(oid))
}

// uniqueOrQualified is regprocout's and regoperout's name: qualified when
// another object has the same name (every built-in is pg_catalog's).
func uniqueOrQualified(name string, sameName int) string {
	if sameName == 1 {
		return name
	}
	return "pg_catalog." + name
}

// builtinName drops a pg_catalog qualification; ok is false for another
// schema (no built-in lives there).
func builtinName(name string) (string, bool) {
	parts := SplitQualified(strings.TrimSpace(name))
	if len(parts) == 2 && parts[0] == "pg_catalog" {
		return parts[1], true
	}
	return parts[len(parts)-1], len(parts) == 1
}

func procsNamed(name string) []pgdataRow {
	var out []pgdataRow
	for _, r := range builtinRoutines().procs {
		if r[ppName] == name {
			out = append(out, r)
		}
	}
	return out
}

func operatorsNamed(name string) []pgdataRow {
	var out []pgdataRow
	for _, r := range builtinRoutines().operators {
		if r[poName] == name {
			out = append(out, r)
		}
	}
	return out
}

func operatorByOID(oid uint32) (pgdataRow, bool) {
	for _, r := range builtinRoutines().operators {
		if parseOID(r[poOID]) == oid {
			return r, true
		}
	}
	return nil, false
}

// regprocIn is regprocin: a function name that only one function has.
func regprocIn(in string) (uint32, error) {
	name, ok := builtinName(in)
	var rows []pgdataRow
	if ok {
		rows = procsNamed(name)
		if len(rows) == 0 && typeIOFunction(name) {
			// The input/output functions pg_type names (typinput is a
			// regproc: drivers ask typinput = 'array_in'::regproc).
			for _, r := range pgdata("pg_proc") {
				if r[ppName] == name {
					rows = append(rows, r)
				}
			}
		}
	}
	switch len(rows) {
	case 0:
		return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", in)
	case 1:
		return parseOID(rows[0][ppOID]), nil
	}
	return 0, pgerr.New(pgerr.AmbiguousFunction, "more than one function named \"%s\"", in)
}

// regoperIn is regoperin: an operator name that only one operator has.
func regoperIn(in string) (uint32, error) {
	name, ok := builtinName(in)
	var rows []pgdataRow
	if ok {
		rows = operatorsNamed(name)
	}
	switch len(rows) {
	case 0:
		return 0, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", in)
	case 1:
		return parseOID(rows[0][poOID]), nil
	}
	return 0, pgerr.New(pgerr.AmbiguousFunction, "more than one operator named %s", in)
}

// nameAndArgTypes is parseNameAndArgTypes: "name(type, ...)" split into
// the name and the argument types' OIDs ("NONE" is 0 where allowed).
func nameAndArgTypes(s *Snapshot, in string, allowNone bool) (string, []uint32, error) {
	open := strings.IndexByte(in, '(')
	if open < 0 {
		return "", nil, pgerr.New(pgerr.InvalidTextRepresentation, "expected a left parenthesis")
	}
	rest := strings.TrimRight(in[open+1:], " \t\n")
	if !strings.HasSuffix(rest, ")") {
		return "", nil, pgerr.New(pgerr.InvalidTextRepresentation, "expected a right parenthesis")
	}
	rest = strings.TrimSpace(rest[:len(rest)-1])
	var args []uint32
	if rest != "" {
		for _, a := range splitTopLevel(rest) {
			a = strings.TrimSpace(a)
			if allowNone && strings.EqualFold(a, "none") {
				args = append(args, 0)
				continue
			}
			oid, err := s.RegIn("regtype", a)
			if err != nil {
				return "", nil, err
			}
			args = append(args, oid)
		}
	}
	return strings.TrimSpace(in[:open]), args, nil
}

// splitTopLevel splits at the commas outside parentheses and quotes
// (numeric(10,2) is one type).
func splitTopLevel(s string) []string {
	var out []string
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// regprocedureIn is regprocedurein: "name(argtypes)".
func regprocedureIn(s *Snapshot, in string) (uint32, error) {
	n, args, err := nameAndArgTypes(s, in, false)
	if err != nil {
		return 0, err
	}
	if name, ok := builtinName(n); ok {
		want := oidList(args)
		for _, r := range procsNamed(name) {
			if r[ppArgtypes] == want {
				return parseOID(r[ppOID]), nil
			}
		}
	}
	if f, ok := s.userFunction(n, args); ok {
		return f.OID(), nil
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", in)
}

// userFunction is the user function name (maybe schema-qualified, else
// the first of the search path's) of input types args.
func (s *Snapshot) userFunction(name string, args []uint32) (storage.Function, bool) {
	fc, ok := s.cat.(storage.FunctionCatalog)
	if !ok {
		return storage.Function{}, false
	}
	parts := SplitQualified(strings.TrimSpace(name))
	path := s.SearchPath().Schemas
	if len(parts) == 2 {
		ns, ok := s.NamespaceByName(parts[0])
		if !ok {
			return storage.Function{}, false
		}
		path = []Namespace{ns}
	} else if len(parts) != 1 {
		return storage.Function{}, false
	}
	want := oidList(args)
	for _, ns := range path {
		if ns.Kind != NsUser {
			continue
		}
		for _, f := range fc.Functions() {
			if f.Schema != ns.ID || f.Name != parts[len(parts)-1] {
				continue
			}
			var in []uint32
			for _, t := range f.InputTypes() {
				in = append(in, t.CatalogOID())
			}
			if oidList(in) == want {
				return f, true
			}
		}
	}
	return storage.Function{}, false
}

// regoperatorIn is regoperatorin: "op(left,right)", NONE for a missing
// operand.
func regoperatorIn(s *Snapshot, in string) (uint32, error) {
	n, args, err := nameAndArgTypes(s, in, true)
	if err != nil {
		return 0, err
	}
	switch {
	case len(args) == 1:
		return 0, pgerr.New("42P02", "missing argument").
			WithHint("Use NONE to denote the missing argument of a unary operator.")
	case len(args) != 2:
		return 0, pgerr.New("54023", "too many arguments").
			WithHint("Provide two argument types for operator.")
	}
	if name, ok := builtinName(n); ok {
		for _, r := range operatorsNamed(name) {
			if parseOID(r[poLeft]) == args[0] && parseOID(r[poRight]) == args[1] {
				return parseOID(r[poOID]), nil
			}
		}
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", in)
}

func oidList(oids []uint32) string {
	parts := make([]string, len(oids))
	for i, o := range oids {
		parts[i] = strconv.FormatUint(uint64(o), 10)
	}
	return strings.Join(parts, " ")
}

// argTypeNames is format_procedure's argument list: each type of an
// oidvector's text as format_type_be names it.
func argTypeNames(oids string) string {
	var names []string
	for _, f := range strings.Fields(oids) {
		names = append(names, typeNameBe(parseOID(f)))
	}
	return strings.Join(names, ",")
}

// operandName is format_operator's operand: NONE for a prefix operator's
// missing left.
func operandName(oid string) string {
	if oid == "0" {
		return "NONE"
	}
	return typeNameBe(parseOID(oid))
}

// typeNameBe is format_type_be of a type pg_type lists, or of one joind
// lacks (a pseudo-type) by its typname.
func typeNameBe(oid uint32) string {
	if st, ok := TypeByOID(oid); ok {
		return st.T.BaseSQLName()
	}
	for _, r := range pgdata("pg_type") {
		if parseOID(r[ptOID]) == oid {
			if elem := parseOID(r[ptElem]); elem != 0 && r[ptLen] == "-1" { // format_type_be: an array type
				return typeNameBe(elem) + "[]"
			}
			return QuoteIdentifier(r[ptName]) // a pseudo-type: "any"
		}
	}
	return "-"
}

// typeIOFunction reports whether name is the input or output function of
// a type joind lists in pg_type.
func typeIOFunction(name string) bool {
	for _, t := range SystemTypes {
		if t.In == name || t.Out == name || t.row[ptReceive] == name || t.row[ptSend] == name {
			return true
		}
	}
	// The user types' (enum_in, record_recv, domain_in, ...).
	for _, suffix := range []string{"_in", "_out", "_recv", "_send"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// procNameByOID is the name of PostgreSQL 15's function oid ("" if none).
func procNameByOID(oid uint32) string {
	for _, r := range pgdata("pg_proc") {
		if parseOID(r[ppOID]) == oid {
			return r[ppName]
		}
	}
	return ""
}
