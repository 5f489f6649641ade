package pgcatalog

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// User-defined types in the catalogs: their pg_type rows (an enum's and
// its array type's) and pg_enum's labels, from the catalog's types
// (storage.TypeCatalog). TypeByOID finds them too, through the types
// registry, so format_type, pg_attribute and psql's \d name them.

func (s *Snapshot) userTypes() []storage.UserType {
	tc, ok := s.cat.(storage.TypeCatalog)
	if !ok {
		return nil
	}
	return tc.UserTypes()
}

// userSystemType is the pg_type description of a registered user type
// (or array of one) of OID oid.
func userSystemType(oid uint32) (SystemType, bool) {
	t, ok := types.TypeByUserOID(oid)
	if !ok {
		return SystemType{}, false
	}
	if t.Domain != 0 {
		st, ok := TypeByOID(t.OID())
		if ok {
			st.OID, st.Name, st.T, st.Array = t.Domain, t.PgTypeName(), t, types.DomainArrayOf(t).OID()
		}
		return st, ok
	}
	if t.ID == types.Array && t.ElemDomain != 0 {
		elem, ok := userSystemType(t.ElemDomain)
		if !ok {
			return SystemType{}, false
		}
		return arraySystemType(elem), true
	}
	elem := t
	if t.ID == types.Array {
		elem = t.ElemType()
	}
	if elem.ID == types.Record {
		return compositeSystemType(t, elem), true // usertypes_composite.go
	}
	st := SystemType{OID: elem.OID(), Name: elem.PgTypeName(), T: elem, Len: 4, Category: elem.Category(), Align: 'i',
		In: "enum_in", Out: "enum_out", Array: types.ArrayOf(elem).OID()}
	if t.ID == types.Array {
		return arraySystemType(st), true
	}
	return st, true
}

// userTypeRows are pg_type's rows of the user types.
func userTypeRows(s *Snapshot) []pgTypeRow {
	var out []pgTypeRow
	for _, u := range s.userTypes() {
		ns, _ := s.namespaceOfKey(storage.TableKey(u.Schema, ""))
		owner := OID(OIDBootstrapUser)
		if u.Owner != "" {
			if o, ok := s.RoleOID(u.Owner); ok {
				owner = OID(o)
			}
		}
		if u.Kind == 'd' {
			out = append(out, domainTypeRows(u, OID(ns.OID), owner)...)
			continue
		}
		if u.Kind == 'c' {
			out = append(out, compositeTypeRows(u, OID(ns.OID), owner)...) // usertypes_composite.go
			continue
		}
		row := pgTypeRow{Oid: OID(u.OID()), Typname: Name(u.Name), Typnamespace: OID(ns.OID), Typowner: owner,
			Typlen: 4, Typbyval: true, Typtype: Char(u.Kind), Typcategory: 'E', Typisdefined: true, Typdelim: ',',
			Typsubscript: "-", Typarray: OID(u.ArrayOID()), Typinput: "enum_in", Typoutput: "enum_out",
			Typreceive: "enum_recv", Typsend: "enum_send", Typmodin: "-", Typmodout: "-", Typanalyze: "-",
			Typalign: 'i', Typstorage: 'p', Typtypmod: -1}
		arr := row
		arr.Oid, arr.Typname, arr.Typlen, arr.Typbyval, arr.Typtype, arr.Typcategory = OID(u.ArrayOID()), Name("_"+u.Name), -1, false, 'b', 'A'
		arr.Typsubscript, arr.Typelem, arr.Typarray = "array_subscript_handler", OID(u.OID()), 0
		arr.Typinput, arr.Typoutput, arr.Typreceive, arr.Typsend = "array_in", "array_out", "array_recv", "array_send"
		arr.Typanalyze, arr.Typstorage = "array_typanalyze", 'x'
		out = append(out, row, arr)
	}
	return append(out, relationRowTypeRows(s)...) // usertypes_composite.go
}

// pgEnumRows are pg_enum's rows.
func pgEnumRows(s *Snapshot) []pgEnumRow {
	var out []pgEnumRow
	for _, u := range s.userTypes() {
		for _, l := range u.Labels {
			out = append(out, pgEnumRow{Oid: OID(l.OID), Enumtypid: OID(u.OID()), Enumsortorder: l.SortOrder, Enumlabel: Name(l.Label)})
		}
	}
	return out
}

// UserTypeByName finds the user type [schema.]name over the search path.
func (s *Snapshot) UserTypeByName(names []string) (storage.UserType, bool) {
	tc, ok := s.cat.(storage.TypeCatalog)
	if !ok || len(names) == 0 || len(names) > 2 {
		return storage.UserType{}, false
	}
	path := s.SearchPath().Schemas
	if len(names) == 2 {
		ns, ok := s.NamespaceByName(names[0])
		if !ok {
			return storage.UserType{}, false
		}
		path = []Namespace{ns}
	}
	for _, ns := range path {
		if ns.Kind != NsUser {
			continue
		}
		if u, ok := tc.LookupType(ns.ID, names[len(names)-1]); ok {
			return u, true
		}
	}
	return storage.UserType{}, false
}

// domainTypeRows are a domain's pg_type row: its base type's storage,
// typtype 'd', typbasetype and typtypmod the base's, typnotnull,
// typdefault; and its array type's.
func domainTypeRows(u storage.UserType, ns, owner OID) []pgTypeRow {
	st, _ := TypeByOID(u.Base.OID())
	row := pgTypeRow{Oid: OID(u.OID()), Typname: Name(u.Name), Typnamespace: ns, Typowner: owner,
		Typlen: st.Len, Typbyval: st.Len > 0 && st.Len <= 8, Typtype: 'd', Typcategory: Char(st.Category),
		Typisdefined: true, Typdelim: ',', Typsubscript: "-", Typinput: "domain_in", Typoutput: RegProcName(st.Out),
		Typreceive: "domain_recv", Typsend: RegProcName(st.Name + "send"), Typmodin: "-", Typmodout: "-", Typanalyze: "-",
		Typalign: Char(st.Align), Typstorage: 'p', Typnotnull: u.NotNull, Typbasetype: OID(u.Base.CatalogOID()),
		Typtypmod: u.Base.Typmod, Typcollation: OID(st.Collation)}
	if st.Len < 0 {
		row.Typstorage = 'x'
	}
	if st.Elem != 0 {
		row.Typsend, row.Typsubscript = "array_send", "array_subscript_handler"
	}
	if u.Default != "" {
		d := u.Default
		row.Typdefault = &d
	}
	row.Typarray = OID(u.ArrayOID())
	arr := pgTypeRow{Oid: OID(u.ArrayOID()), Typname: Name("_" + u.Name), Typnamespace: ns, Typowner: owner,
		Typlen: -1, Typtype: 'b', Typcategory: 'A', Typisdefined: true, Typdelim: ',',
		Typsubscript: "array_subscript_handler", Typelem: OID(u.OID()), Typinput: "array_in", Typoutput: "array_out",
		Typreceive: "array_recv", Typsend: "array_send", Typmodin: "-", Typmodout: "-", Typanalyze: "array_typanalyze",
		Typalign: 'i', Typstorage: 'x', Typtypmod: -1, Typcollation: OID(st.Collation)}
	if st.Align == 'd' {
		arr.Typalign = 'd'
	}
	return []pgTypeRow{row, arr}
}

// domainConstraintRows are pg_constraint's rows of domains' CHECK
// constraints (contypid the domain), numbered apart from tables'.
func domainConstraintRows(s *Snapshot) []pgConstraintRow {
	var out []pgConstraintRow
	for _, u := range s.userTypes() {
		if u.Kind != 'd' {
			continue
		}
		ns, _ := s.namespaceOfKey(storage.TableKey(u.Schema, ""))
		for i, c := range u.Checks {
			out = append(out, pgConstraintRow{Oid: OID(domainConstraintOID(u, i)), Conname: Name(c.Name),
				Connamespace: OID(ns.OID), Contype: 'c', Convalidated: !c.NotValid, Contypid: OID(u.OID()), Conislocal: true,
				Connoinherit: true, Confupdtype: ' ', Confdeltype: ' ', Confmatchtype: ' ', Conbin: c.Expr})
		}
	}
	return out
}

// arraySystemType is the description of the array type over a user type.
func arraySystemType(elem SystemType) SystemType {
	t := types.ArrayOf(elem.T)
	if elem.T.Domain != 0 {
		t = types.DomainArrayOf(elem.T)
	}
	return SystemType{OID: t.OID(), Name: t.PgTypeName(), T: t, Len: -1, Category: t.Category(), Align: 'i',
		In: "array_in", Out: "array_out", Collation: elem.Collation, Elem: elem.OID}
}

// domainConstraintOID is the pg_constraint OID of domain u's i-th CHECK,
// numbered apart from tables' constraints.
func domainConstraintOID(u storage.UserType, i int) uint32 {
	return 2_500_000_000 + uint32(u.ID)*64 + uint32(i)
}

// domainConstraintDef is pg_get_constraintdef's text for a domain's CHECK
// of that OID: "CHECK (VALUE > 0)", NOT VALID when it was so added.
func (s *Snapshot) domainConstraintDef(oid uint32, pretty bool) (string, bool) {
	for _, u := range s.userTypes() {
		for i, c := range u.Checks {
			if u.Kind != 'd' || domainConstraintOID(u, i) != oid {
				continue
			}
			def := "CHECK (" + domainCheckText(c.Expr, pretty) + ")"
			if c.NotValid {
				def += " NOT VALID"
			}
			return def, true
		}
	}
	return "", false
}

// domainValueMark stands for VALUE while CheckExprText renders a domain's
// CHECK: a plain identifier it prints as is, put back as VALUE after.
const domainValueMark = "joind_domain_value_mark"

// domainCheckText is CheckExprText for a domain's CHECK, whose VALUE
// ruleutils prints in capitals.
func domainCheckText(expr string, pretty bool) string {
	scan, err := pg_query.Scan(expr)
	if err != nil {
		return CheckExprText(expr, pretty)
	}
	var b strings.Builder
	at := 0
	for _, t := range scan.Tokens {
		if w := expr[t.Start:t.End]; strings.EqualFold(w, "value") && (t.Token == pg_query.Token_VALUE_P || t.Token == pg_query.Token_IDENT) {
			b.WriteString(expr[at:t.Start])
			b.WriteString(domainValueMark)
			at = int(t.End)
		}
	}
	b.WriteString(expr[at:])
	return strings.ReplaceAll(CheckExprText(b.String(), pretty), domainValueMark, "VALUE")
}

// OIDs of pg_type and pg_constraint, pg_description's classoid of a
// type's and a constraint's comments.
const (
	OIDPgType       = 1247
	OIDPgConstraint = 2606
)

// userTypeDescriptions are pg_description's rows of the user types'
// comments and their domain constraints'.
func userTypeDescriptions(s *Snapshot) []pgDescriptionRow {
	var out []pgDescriptionRow
	for _, u := range s.userTypes() {
		if u.Comment != "" {
			out = append(out, pgDescriptionRow{Objoid: OID(u.OID()), Classoid: OIDPgType, Description: u.Comment})
		}
		for i, c := range u.Checks {
			if c.Comment != "" {
				out = append(out, pgDescriptionRow{Objoid: OID(domainConstraintOID(u, i)), Classoid: OIDPgConstraint, Description: c.Comment})
			}
		}
	}
	return out
}

// userTypeDescription is obj_description(oid, 'pg_type') of a user type
// or its array type (ofType), or (oid, 'pg_constraint') of a domain
// constraint, NULL without a comment; false when oid is neither.
func (s *Snapshot) userTypeDescription(oid uint32, ofType bool) (types.Value, bool) {
	text := func(c string) (types.Value, bool) {
		if c == "" {
			return types.NullValue, true
		}
		return types.TextValue(c), true
	}
	for _, u := range s.userTypes() {
		switch {
		case ofType && u.OID() == oid:
			return text(u.Comment)
		case ofType && u.ArrayOID() == oid:
			return types.NullValue, true
		case !ofType:
			for i, c := range u.Checks {
				if domainConstraintOID(u, i) == oid {
					return text(c.Comment)
				}
			}
		}
	}
	return types.NullValue, false
}
