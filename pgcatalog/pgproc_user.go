package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// pg_proc's rows of user-defined SQL functions (storage.FunctionCatalog):
// prolang sql (14), prosrc the body as written (empty for a SQL-standard
// body, whose text is prosqlbody's stand-in), the argument arrays only
// when an OUT or named parameter needs them, as ProcedureCreate stores.

// OIDLanguageSQL is pg_language's sql.
const OIDLanguageSQL = 14

func userProcRows(s *Snapshot) []pgProcRow {
	fc, ok := s.cat.(storage.FunctionCatalog)
	if !ok {
		return nil
	}
	var out []pgProcRow
	for _, f := range fc.Functions() {
		ns, _ := s.namespaceOfKey(storage.TableKey(f.Schema, ""))
		r := pgProcRow{Oid: OID(f.OID()), Proname: Name(f.Name), Pronamespace: OID(ns.OID), Proowner: OID(s.ownerOf(f.OID())),
			Prolang: OIDLanguageSQL, Procost: 100, Prosupport: "-", Prokind: 'f', Prosecdef: f.SecDef, Proleakproof: f.Leakproof, Proisstrict: f.Strict, Proretset: f.RetSet,
			Provolatile: Char(f.Volatility), Proparallel: 'u', Prorettype: OID(f.Result.CatalogOID()), Prosrc: f.Body}
		if f.RetSet {
			r.Prorows = 1000
		}
		r.Proacl = s.ACLText(f.OID(), storage.AllFunctionPrivs, storage.PrivExecute) // roles.go
		if f.Atomic {
			r.Prosrc = ""
			body := f.Body
			r.Prosqlbody = &body
		}
		var in, all, modes, names []string
		needAll, needNames := false, false
		for _, a := range f.Args {
			oid := strconv.FormatUint(uint64(a.Type.CatalogOID()), 10)
			if a.Input() {
				in = append(in, oid)
				r.Pronargs++
				if a.Default != "" {
					r.Pronargdefaults++
				}
			}
			if a.Mode != 'i' {
				needAll = true
			}
			if a.Name != "" {
				needNames = true
			}
			all, modes, names = append(all, oid), append(modes, string(a.Mode)), append(names, arrayElem(a.Name))
		}
		r.Proargtypes = oidVector(strings.Join(in, " "))
		if needAll {
			a, m := "{"+strings.Join(all, ",")+"}", "{"+strings.Join(modes, ",")+"}"
			r.Proallargtypes, r.Proargmodes = &a, &m
		}
		if needNames {
			n := "{" + strings.Join(names, ",") + "}"
			r.Proargnames = &n
		}
		out = append(out, r)
	}
	return out
}

// userProcText is pg_get_function_arguments (col ppArguments),
// pg_get_function_identity_arguments or pg_get_function_result of user
// function oid; false when no user function has that OID.
func userProcText(s *Snapshot, oid int64, col int) (types.Value, bool) {
	fc, ok := s.cat.(storage.FunctionCatalog)
	if !ok {
		return types.NullValue, false
	}
	for _, f := range fc.Functions() {
		if int64(f.OID()) != oid {
			continue
		}
		if col == ppResult {
			var table []string
			for _, a := range f.Args {
				if a.Mode == 't' {
					table = append(table, a.Name+" "+a.Type.SQLName())
				}
			}
			switch {
			case table != nil:
				return types.TextValue("TABLE(" + strings.Join(table, ", ") + ")"), true
			case f.RetSet:
				return types.TextValue("SETOF " + f.Result.SQLName()), true
			}
			return types.TextValue(f.Result.SQLName()), true
		}
		var parts []string
		for _, a := range f.Args {
			p := map[byte]string{'o': "OUT ", 'b': "INOUT ", 'v': "VARIADIC "}[a.Mode]
			if a.Mode == 't' {
				continue
			}
			if a.Name != "" {
				p += a.Name + " "
			}
			p += a.Type.SQLName()
			if a.Default != "" && col == ppArguments {
				p += " DEFAULT " + a.Default
			}
			parts = append(parts, p)
		}
		return types.TextValue(strings.Join(parts, ", ")), true
	}
	return types.NullValue, false
}

// procText is a pg_get_function_* text of a built-in or a user function.
func procText(s *Snapshot, oid int64, col int) types.Value {
	if v, ok := userProcText(s, oid, col); ok {
		return v
	}
	return procColumn(oid, col)
}

// userRegproc is regprocin for a user function's name ([schema.]name,
// unquoted identifiers folded): false when no user function has it.
func userRegproc(s *Snapshot, in string) (uint32, bool, error) {
	fc, ok := s.cat.(storage.FunctionCatalog)
	if !ok {
		return 0, false, nil
	}
	parts := strings.Split(in, ".")
	name := unquoteIdent(parts[len(parts)-1])
	var schema *Namespace
	if len(parts) == 2 {
		ns, ok := s.NamespaceByName(unquoteIdent(parts[0]))
		if !ok {
			return 0, false, nil
		}
		schema = &ns
	}
	var found []storage.Function
	for _, f := range fc.Functions() {
		if f.Name != name {
			continue
		}
		if schema != nil && storage.TableKey(f.Schema, "") != schema.Key("") {
			continue
		}
		found = append(found, f)
	}
	switch len(found) {
	case 0:
		return 0, false, nil
	case 1:
		return found[0].OID(), true, nil
	}
	return 0, true, pgerr.New(pgerr.AmbiguousFunction, "more than one function named \"%s\"", in)
}

// pgGetFunctiondef is pg_get_functiondef of a user function with an AS
// body, as ruleutils prints it; NULL for any other OID and for a
// SQL-standard body (whose text PostgreSQL prints from its parse tree).
func pgGetFunctiondef(s *Snapshot, v []types.Value) types.Value {
	fc, ok := s.cat.(storage.FunctionCatalog)
	if !ok {
		return types.NullValue
	}
	for _, f := range fc.Functions() {
		if int64(f.OID()) != v[0].I || f.Atomic {
			continue
		}
		ns, _ := s.namespaceOfKey(storage.TableKey(f.Schema, ""))
		args, _ := userProcText(s, v[0].I, ppArguments)
		res, _ := userProcText(s, v[0].I, ppResult)
		var b strings.Builder
		fmt.Fprintf(&b, "CREATE OR REPLACE FUNCTION %s.%s(%s)\n RETURNS %s\n LANGUAGE %s\n",
			types.QuoteIdent(ns.Name), types.QuoteIdent(f.Name), args.S, res.S, f.Language)
		switch f.Volatility {
		case 'i':
			b.WriteString(" IMMUTABLE\n")
		case 's':
			b.WriteString(" STABLE\n")
		}
		if f.Strict {
			b.WriteString(" STRICT\n")
		}
		if f.SecDef {
			b.WriteString(" SECURITY DEFINER\n")
		}
		if f.Leakproof {
			b.WriteString(" LEAKPROOF\n")
		}
		tag := "$function$"
		for strings.Contains(f.Body, tag) {
			tag = "$" + tag[1:len(tag)-1] + "x$"
		}
		b.WriteString("AS " + tag + f.Body + tag + "\n")
		return types.TextValue(b.String())
	}
	return types.NullValue
}
