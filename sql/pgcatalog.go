package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The system catalogs as the binder sees them: pg_catalog and
// information_schema relations (computed by storage from the catalog), the
// object-identifier casts (::regclass, ::regtype, ::oid, ...) and the
// catalog functions psql and drivers call (format_type, pg_get_expr,
// pg_table_is_visible, ...). joind has no oid or reg* types: an OID is an
// int8, and a reg* cast yields the OID (int8) of a name given as a literal,
// or the name (text) of an OID given as an expression — the two uses
// clients make of them (`attrelid = 't'::regclass`, `oid::regclass` in a
// select list).

// systemEnv describes the session to the system catalogs.
func (b *binder) systemEnv() *storage.SystemEnv {
	env := &storage.SystemEnv{FormatDefault: formatDefault}
	if b.opts != nil && b.opts.Session != nil {
		si := b.opts.Session
		env.User, env.Database = si.User, si.Database
		env.Settings = si.Settings
	}
	env.ViewColumns = func(v storage.View) ([]storage.ColumnDef, error) {
		raws, err := Parse(v.SQL)
		if err != nil || len(raws) != 1 || raws[0].stmt.GetSelectStmt() == nil {
			return nil, pgerr.New(pgerr.InternalError, "unreadable view")
		}
		sub := newBinder(v.SQL, b.cat, b.opts)
		sub.expanding = append(append([]string(nil), b.expanding...), v.Name)
		q, _, err := sub.bindSelect(raws[0].stmt.GetSelectStmt(), nil, nil, true)
		if err != nil {
			return nil, err
		}
		var cols []storage.ColumnDef
		for i, c := range sub.finalQuery(q).Plan.Columns() {
			name := c.Name
			if i < len(v.Columns) {
				name = v.Columns[i]
			}
			cols = append(cols, storage.ColumnDef{Name: name, Type: c.Type})
		}
		return cols, nil
	}
	return env
}

// systemTable finds a pg_catalog or information_schema relation. An
// unqualified name means pg_catalog's when it has one: PostgreSQL searches
// pg_catalog before the user's schemas.
func (b *binder) systemTable(schema, name string) (storage.Table, bool) {
	switch schema {
	case "", "pg_catalog", "information_schema":
		return storage.SystemTable(b.cat, schema, name, b.systemEnv())
	}
	return nil, false
}

// oidConst is an OID literal.
func oidConst(oid uint32) plan.Expr {
	return &plan.Const{Val: types.IntValue(int64(oid)), T: types.Int8Type}
}

func textConst(s string) plan.Expr { return &plan.Const{Val: types.TextValue(s), T: types.TextType} }

// regCast binds casts to the object-identifier types; ok is false for any
// other target type.
func (b *binder) regCast(s *scope, tc *pg_query.TypeCast) (plan.Expr, bool, error) {
	tn := tc.TypeName
	if len(tn.ArrayBounds) > 0 {
		// joind has no array types; an array literal is accepted only where
		// a text-encoded catalog array is read (textArrayArg).
		return nil, false, nil
	}
	if len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, false, nil
	}
	target := strings.ToLower(tn.Names[len(tn.Names)-1].GetString_().GetSval())
	loc := tc.Location
	// 'name'::regclass::text is the name, as PostgreSQL prints it.
	if target == "text" || target == "varchar" || target == "name" {
		if inner := tc.Arg.GetTypeCast(); inner != nil && len(inner.TypeName.Names) > 0 {
			it := strings.ToLower(inner.TypeName.Names[len(inner.TypeName.Names)-1].GetString_().GetSval())
			if isRegType(it) {
				e, ok, err := b.regCast(s, inner)
				if err != nil || !ok {
					return e, ok, err
				}
				if c, isConst := e.(*plan.Const); isConst && c.T.ID == types.Int8 {
					return b.regName(it, c), true, nil
				}
				return e, true, nil
			}
		}
	}
	if len(tn.Typmods) > 0 && (target == "oid" || target == "xid" || target == "cid" || target == "name" || isRegType(target)) {
		// None of these takes a modifier; never drop one silently.
		return nil, true, b.errAt(pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", target), tn.Location)
	}
	switch {
	case target == "oid" || target == "xid" || target == "cid":
		arg, err := b.bindExpr(s, tc.Arg)
		if err != nil {
			return nil, true, err
		}
		e, err := b.coerce(arg, types.Int8Type, coerceExplicit, loc)
		return e, true, err
	case target == "name":
		arg, err := b.bindExpr(s, tc.Arg)
		if err != nil {
			return nil, true, err
		}
		e, err := b.coerce(arg, types.TextType, coerceExplicit, loc)
		return e, true, err
	case !isRegType(target):
		return nil, false, nil
	}
	arg, err := b.bindExpr(s, tc.Arg)
	if err != nil {
		return nil, true, err
	}
	if c, isConst := arg.(*plan.Const); isConst {
		if c.Val.Null {
			return &plan.Const{Val: types.NullValue, T: types.Int8Type}, true, nil
		}
		switch c.T.ID {
		case types.Unknown, types.Text, types.Varchar, types.Char:
			if target == "regproc" || target == "regprocedure" {
				// Functions are named, not numbered, in joind's catalogs
				// (pg_type.typinput is text): a regproc is its name.
				parts := splitQualified(strings.TrimSpace(c.Val.S))
				return textConst(parts[len(parts)-1]), true, nil
			}
			e, err := b.regLookup(target, c.Val.S)
			if err != nil {
				return nil, true, b.wrapAt(err, b.locOf(arg))
			}
			return e, true, nil
		}
	}
	switch arg.Type().ID {
	case types.Text, types.Varchar, types.Char, types.Unknown:
		// A name computed at run time: look it up per row.
		arg, err = b.coerce(arg, types.TextType, coerceExplicit, loc)
		if err != nil {
			return nil, true, err
		}
		return b.call("to_"+target, []plan.Expr{arg}, types.Int8Type, func(v []types.Value) (types.Value, error) {
			e, err := b.regLookup(target, v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			return e.(*plan.Const).Val, nil
		}), true, nil
	}
	arg, err = b.coerce(arg, types.Int8Type, coerceExplicit, loc)
	if err != nil {
		return nil, true, err
	}
	return b.call(target+"out", []plan.Expr{arg}, types.TextType, func(v []types.Value) (types.Value, error) {
		return b.regName(target, &plan.Const{Val: v[0], T: types.Int8Type}).(*plan.Const).Val, nil
	}), true, nil
}

func isRegType(name string) bool {
	switch name {
	case "regclass", "regtype", "regnamespace", "regrole", "regproc", "regprocedure", "regoper", "regoperator", "regconfig":
		return true
	}
	return false
}

// regLookup is a reg* type's input function: the OID of a named object.
func (b *binder) regLookup(target, s string) (plan.Expr, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return oidConst(uint32(n)), nil
	}
	if s == "-" && (target == "regproc" || target == "regprocedure") {
		return oidConst(0), nil
	}
	env := b.systemEnv()
	switch target {
	case "regclass":
		parts := splitQualified(s)
		schema, name := "", parts[len(parts)-1]
		if len(parts) == 2 {
			schema = parts[0]
		}
		if r, ok := storage.RelationByName(b.cat, env, schema, name); ok && len(parts) <= 2 {
			return oidConst(r.OID), nil
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", s)
	case "regtype":
		tree, err := pg_query.Parse("SELECT NULL::" + s)
		if err == nil {
			if tc := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().GetVal().GetTypeCast(); tc != nil {
				if t, err := b.typeFromName(tc.TypeName); err == nil {
					return oidConst(t.OID()), nil
				}
			}
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", s)
	case "regnamespace":
		if oid, ok := storage.SchemaOID(unquoteIdent(s)); ok {
			return oidConst(oid), nil
		}
		return nil, pgerr.New("3F000", "schema \"%s\" does not exist", s)
	case "regrole":
		if oid, ok := storage.RoleOID(env, unquoteIdent(s)); ok {
			return oidConst(oid), nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", s)
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", s)
}

// regName is a reg* type's output function: the name of an OID (the
// number itself when nothing has it, as PostgreSQL prints it).
func (b *binder) regName(target string, c *plan.Const) plan.Expr {
	if c.Val.Null {
		return &plan.Const{Val: types.NullValue, T: types.TextType}
	}
	oid := uint32(c.Val.I)
	num := strconv.FormatInt(c.Val.I, 10)
	if oid == 0 {
		return textConst("-")
	}
	env := b.systemEnv()
	switch target {
	case "regclass":
		if r, ok := storage.RelationByOID(b.cat, env, oid); ok {
			return textConst(quoteIdentifier(r.Name))
		}
	case "regtype":
		return textConst(formatType(oid, -1, true))
	case "regnamespace":
		if n := storage.SchemaName(oid); n != "" {
			return textConst(quoteIdentifier(n))
		}
	case "regrole":
		return textConst(storage.RoleName(env, oid))
	}
	return textConst(num)
}

// call is a strict built-in computed by f.
func (b *binder) call(name string, args []plan.Expr, result types.Type, f func([]types.Value) (types.Value, error)) plan.Expr {
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	return &plan.Call{Func: &types.Overload{Name: name, Args: at, Result: result, Strict: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) { return f(v) }}, Args: args}
}

// splitQualified splits a possibly quoted, dotted name ("public.t",
// `"My T"`), folding unquoted parts to lower case.
func splitQualified(s string) []string {
	var parts []string
	var cur strings.Builder
	inQuote := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '"' && inQuote && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case ch == '"':
			inQuote = !inQuote
		case ch == '.' && !inQuote:
			parts = append(parts, cur.String())
			cur.Reset()
		case !inQuote && ch >= 'A' && ch <= 'Z':
			cur.WriteByte(ch + 'a' - 'A')
		default:
			cur.WriteByte(ch)
		}
	}
	return append(parts, cur.String())
}

func unquoteIdent(s string) string { return splitQualified(s)[0] }

// quoteIdentifier quotes a name unless it is a plain lower-case identifier.
func quoteIdentifier(s string) string {
	ok := s != "" && (s[0] == '_' || s[0] >= 'a' && s[0] <= 'z')
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '$'
	}
	if ok && !reservedKeyword[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// formatType is format_type(oid, typmod); base (typmod NULL) omits the
// modifiers and, like PostgreSQL, names bpchar "character" only with one.
func formatType(oid uint32, typmod int32, base bool) string {
	st, ok := storage.TypeByOID(oid)
	if !ok {
		return "???"
	}
	t := st.T
	if base {
		if t.ID == types.Char {
			return "bpchar"
		}
		return t.BaseSQLName()
	}
	t.Typmod = typmod
	if t.ID == types.Char && typmod < 0 {
		return "bpchar"
	}
	return t.SQLName()
}

// formatDefault renders a stored DEFAULT (pg_query's deparse of what the
// user wrote) as pg_get_expr prints the bound expression: constants
// coerced to the column's type and labelled as ruleutils' get_const_expr
// labels them; other expressions as written.
func formatDefault(def string, t types.Type) string {
	tree, err := pg_query.Parse("SELECT " + def)
	if err != nil || len(tree.Stmts) != 1 {
		return def
	}
	tl := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()
	if len(tl) != 1 {
		return def
	}
	n := tl[0].GetResTarget().GetVal()
	constType := t
	if tc := n.GetTypeCast(); tc != nil && tc.Arg.GetAConst() != nil && tc.Arg.GetAConst().GetSval() != nil {
		if ct, err := plainTypeName(tc.TypeName); err == nil {
			constType, n = ct, tc.Arg
		}
	}
	c := n.GetAConst()
	if c == nil {
		return def
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	label := func(s string, t types.Type) string {
		name := formatType(t.OID(), -1, true)
		if t.ID == types.Char {
			name = "bpchar"
		}
		return quote(s) + "::" + name
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		if v.Ival.Ival < 0 {
			return quote(strconv.Itoa(int(v.Ival.Ival))) + "::integer"
		}
		return strconv.Itoa(int(v.Ival.Ival))
	case *pg_query.A_Const_Fval:
		s := v.Fval.Fval
		if !strings.ContainsAny(s, ".eE") {
			// Typed as bindConst types it: int4 when it fits.
			if i, err := strconv.ParseInt(s, 10, 64); err == nil && i == int64(int32(i)) {
				return quote(s) + "::integer"
			}
			return quote(s) + "::bigint"
		}
		if strings.HasPrefix(s, "-") {
			return quote(s) + "::numeric"
		}
		return s
	case *pg_query.A_Const_Boolval:
		if v.Boolval.Boolval {
			return "true"
		}
		return "false"
	case *pg_query.A_Const_Sval:
		in := types.Type{ID: constType.ID, Typmod: -1}
		if constType.ID == types.Interval {
			// Interval input alone obeys the typmod, and the constant then
			// carries the column's (coerce_type, applyRelabelType).
			in = constType
			if t.ID == types.Interval {
				val, err := types.ParseText(v.Sval.Sval, in)
				if err != nil {
					return def
				}
				return quote(string(types.FormatText(nil, val, in, nil))) + "::" + formatType(t.OID(), t.Typmod, false)
			}
		}
		val, err := types.ParseText(v.Sval.Sval, in)
		if err != nil {
			return def
		}
		out := string(types.FormatText(nil, val, types.Type{ID: constType.ID, Typmod: -1}, nil))
		switch constType.ID {
		case types.Int4:
			if strings.HasPrefix(out, "-") {
				return quote(out) + "::integer"
			}
			return out
		case types.Numeric:
			if out != "" && out[0] >= '0' && out[0] <= '9' && strings.Trim(out, "0123456789+-eE.") == "" {
				if strings.ContainsAny(out, ".eE") {
					return out
				}
				return out + "::numeric"
			}
			return quote(out) + "::numeric"
		case types.Bool:
			if val.I != 0 {
				return "true"
			}
			return "false"
		}
		return label(out, constType)
	}
	return def
}

// plainTypeName resolves a type name outside any statement (no positions).
func plainTypeName(tn *pg_query.TypeName) (types.Type, error) {
	names, mods, err := typeNameParts(tn)
	if err != nil {
		return types.Type{}, err
	}
	return types.FromTypeName(names, mods, len(tn.ArrayBounds))
}

// typeNameParts returns a TypeName's name parts and constant modifiers.
func typeNameParts(tn *pg_query.TypeName) ([]string, []int32, error) {
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			// never drop a modifier silently
			return nil, nil, pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
		mods = append(mods, c.GetIval().Ival)
	}
	return names, mods, nil
}

// reservedKeyword holds PostgreSQL's reserved key words (pg_get_keywords'
// catcode 'R'), which quote_ident-style quoting must quote.
var reservedKeyword = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range reservedKeywords {
		m[w] = true
	}
	return m
}()

var reservedKeywords = []string{
	"all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case", "cast",
	"check", "collate", "column", "constraint", "create", "current_catalog", "current_date", "current_role",
	"current_time", "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct", "do",
	"else", "end", "except", "false", "fetch", "for", "foreign", "from", "grant", "group", "having", "in",
	"initially", "intersect", "into", "lateral", "leading", "limit", "localtime", "localtimestamp", "not",
	"null", "offset", "on", "only", "or", "order", "placing", "primary", "references", "returning", "select",
	"session_user", "some", "symmetric", "table", "then", "to", "trailing", "true", "union", "unique", "user",
	"using", "variadic", "when", "where", "window", "with",
}
