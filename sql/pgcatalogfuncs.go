package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// pgCatalogFunc binds the system-information functions psql, drivers and
// BI tools call on the catalogs; ok is false when name is none of them.
// OID arguments are int8 (joind has no oid type).
func (b *binder) pgCatalogFunc(name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	n := len(args)
	// argsAs coerces the arguments to the given types (implicitly, as a
	// function call would).
	argsAs := func(ts ...types.Type) error {
		for i := range args {
			t := types.TextType
			if i < len(ts) {
				t = ts[i]
			} else if args[i].Type().ID != types.Unknown {
				continue // any type: the value is not read
			}
			c, err := b.coerce(args[i], t, coerceImplicit, b.locOf(args[i]))
			if err != nil {
				return b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), loc)
			}
			args[i] = c
		}
		return nil
	}
	strict := func(result types.Type, f func(v []types.Value) types.Value, ts ...types.Type) (plan.Expr, bool, error) {
		if err := argsAs(ts...); err != nil {
			return nil, true, err
		}
		return b.call(name, args, result, func(v []types.Value) (types.Value, error) { return f(v), nil }), true, nil
	}
	oid, i4, text, boolT := types.Int8Type, types.Int4Type, types.TextType, types.BoolType
	null := func(t types.Type) (plan.Expr, bool, error) {
		return &plan.Const{Val: types.NullValue, T: t}, true, nil
	}
	env := b.systemEnv()
	switch name {
	case "pg_table_is_visible":
		if n == 1 {
			// Everything is on the search path; a permanent table is hidden
			// by a temporary table of its name (pg_temp comes first).
			temps, _ := storage.TempTablesOf(b.cat)
			hidden := map[uint32]bool{}
			for _, t := range temps {
				if p, ok := storage.RelationByName(b.cat, env, "public", t.Name()); ok {
					hidden[p.OID] = true
				}
			}
			return strict(boolT, func(v []types.Value) types.Value { return types.BoolValue(!hidden[uint32(v[0].I)]) }, oid)
		}
	case "pg_type_is_visible", "pg_function_is_visible", "pg_collation_is_visible",
		"pg_operator_is_visible", "pg_opclass_is_visible", "pg_conversion_is_visible", "pg_ts_config_is_visible",
		"pg_statistics_obj_is_visible":
		if n == 1 {
			// Every object lives in pg_catalog or public, both on the path.
			return strict(boolT, func([]types.Value) types.Value { return types.BoolValue(true) }, oid)
		}
	case "format_type":
		if n == 2 {
			if err := argsAs(oid, i4); err != nil {
				return nil, true, err
			}
			ov := &types.Overload{Name: name, Args: []types.Type{oid, i4}, Result: text,
				Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
					if v[0].Null {
						return types.NullValue, nil
					}
					if v[1].Null {
						return types.TextValue(formatType(uint32(v[0].I), -1, true)), nil
					}
					return types.TextValue(formatType(uint32(v[0].I), int32(v[1].I), false)), nil
				}}
			return &plan.Call{Func: ov, Args: args}, true, nil
		}
	case "pg_get_expr":
		// adbin already holds the rendered expression (storage keeps SQL text).
		if n == 2 || n == 3 {
			return strict(text, func(v []types.Value) types.Value { return v[0] }, text, oid, boolT)
		}
	case "pg_get_userbyid":
		if n == 1 {
			return strict(text, func(v []types.Value) types.Value {
				return types.TextValue(storage.RoleName(env, uint32(v[0].I)))
			}, oid)
		}
	case "pg_encoding_to_char":
		if n == 1 {
			return strict(text, func(v []types.Value) types.Value {
				switch v[0].I {
				case 0:
					return types.TextValue("SQL_ASCII")
				case 6:
					return types.TextValue("UTF8")
				}
				return types.TextValue("")
			}, i4)
		}
	case "pg_char_to_encoding":
		if n == 1 {
			return strict(i4, func(v []types.Value) types.Value {
				switch strings.ToUpper(v[0].S) {
				case "SQL_ASCII":
					return types.IntValue(0)
				case "UTF8", "UTF-8":
					return types.IntValue(6)
				}
				return types.IntValue(-1)
			}, text)
		}
	case "pg_get_viewdef":
		if n == 1 || n == 2 {
			return strict(text, func(v []types.Value) types.Value {
				if r, ok := storage.RelationByOID(b.cat, env, uint32(v[0].I)); ok && r.View != nil {
					return types.TextValue(" " + r.View.SQL + ";")
				}
				return types.NullValue
			}, oid, boolT)
		}
	case "pg_get_constraintdef", "pg_get_indexdef", "pg_get_triggerdef", "pg_get_ruledef",
		"pg_get_statisticsobjdef_columns", "pg_get_function_result", "pg_get_function_arguments",
		"pg_get_function_identity_arguments", "pg_get_partkeydef", "pg_get_serial_sequence",
		"obj_description", "col_description", "shobj_description", "pg_get_functiondef":
		// joind keeps no constraints, indexes, triggers, rules, functions
		// or comments: there is nothing these could describe.
		return null(text)
	case "pg_relation_is_publishable", "pg_is_in_recovery", "pg_is_other_temp_schema":
		return strict(boolT, func([]types.Value) types.Value { return types.BoolValue(false) }, oid)
	case "has_table_privilege", "has_schema_privilege", "has_database_privilege", "has_column_privilege",
		"has_any_column_privilege", "has_function_privilege", "has_sequence_privilege", "pg_has_role",
		"has_type_privilege", "has_tablespace_privilege", "has_language_privilege",
		"has_foreign_data_wrapper_privilege", "has_server_privilege":
		if n >= 2 && n <= 4 {
			// The session user owns every object.
			return strict(boolT, func([]types.Value) types.Value { return types.BoolValue(true) })
		}
	case "current_schemas":
		if n == 1 {
			return strict(text, func(v []types.Value) types.Value {
				if v[0].I != 0 {
					return types.TextValue("{pg_catalog,public}")
				}
				return types.TextValue("{public}")
			}, boolT)
		}
	case "array_to_string", "array_length", "array_upper", "cardinality":
		// Catalog arrays are text in joind ("{a,b}" or NULL); no other
		// value is an array.
		if n == 0 || !b.isCatalogArray(args[0]) {
			return nil, true, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), loc)
		}
		switch {
		case name == "array_to_string" && (n == 2 || n == 3):
			return strict(text, func(v []types.Value) types.Value {
				vals, nulls, _ := arrayItems(v[0].S)
				var out []string
				for i, e := range vals {
					switch {
					case !nulls[i]:
						out = append(out, e)
					case n == 3:
						out = append(out, v[2].S)
					}
				}
				return types.TextValue(strings.Join(out, v[1].S))
			}, text, text, text)
		case name == "cardinality" && n == 1:
			return strict(i4, func(v []types.Value) types.Value {
				vals, _, _ := arrayItems(v[0].S)
				return types.IntValue(int64(len(vals)))
			}, text)
		case name != "array_to_string" && name != "cardinality" && n == 2:
			return strict(i4, func(v []types.Value) types.Value {
				if vals, _, _ := arrayItems(v[0].S); len(vals) > 0 && v[1].I == 1 {
					return types.IntValue(int64(len(vals)))
				}
				return types.NullValue
			}, text, i4)
		}
	case "to_regclass", "to_regtype", "to_regnamespace", "to_regrole":
		if n == 1 {
			target := "reg" + strings.TrimPrefix(name, "to_reg")
			return strict(oid, func(v []types.Value) types.Value {
				e, err := b.regLookup(target, v[0].S)
				if err != nil {
					return types.NullValue
				}
				return e.(*plan.Const).Val
			}, text)
		}
	case "pg_relation_size", "pg_total_relation_size", "pg_table_size", "pg_indexes_size":
		if n == 1 || n == 2 {
			// Not tracked per relation: reported as empty.
			return strict(types.Int8Type, func([]types.Value) types.Value { return types.IntValue(0) }, oid, text)
		}
	case "pg_tablespace_location":
		if n == 1 {
			return strict(text, func([]types.Value) types.Value { return types.TextValue("") }, oid)
		}
	}
	return nil, false, nil
}

// arrayItems splits a one-dimensional array's text as PostgreSQL's array
// input reads it: unquoted elements are trimmed and an unquoted NULL is
// NULL (nulls[i]). ok is false for anything else (nested braces,
// dimension decorations, empty or malformed elements).
func arrayItems(s string) (vals []string, nulls []bool, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, nil, false
	}
	body := s[1 : len(s)-1]
	if strings.TrimSpace(body) == "" {
		return nil, nil, true
	}
	var cur strings.Builder
	inQuote, quoted := false, false
	flush := func() bool {
		v := cur.String()
		if !quoted {
			v = strings.TrimSpace(v)
			if v == "" {
				return false
			}
		}
		vals = append(vals, v)
		nulls = append(nulls, !quoted && strings.EqualFold(v, "NULL"))
		cur.Reset()
		quoted = false
		return true
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			cur.WriteByte(body[i])
		case c == '"':
			inQuote, quoted = !inQuote, true
		case inQuote:
			cur.WriteByte(c)
		case c == ',':
			if !flush() {
				return nil, nil, false
			}
		case c == '{' || c == '}':
			return nil, nil, false
		case quoted && c != ' ' && c != '\t':
			return nil, nil, false // text after a closing quote
		case quoted:
		default:
			cur.WriteByte(c)
		}
	}
	if inQuote || !flush() {
		return nil, nil, false
	}
	return vals, nulls, true
}

// textArrayArg binds n where joind accepts one of its text-encoded arrays:
// an array literal ('{a,NULL}'::text[], its elements checked against the
// element type), or an expression isCatalogArray accepts. Anything else is
// an array joind does not have.
func (b *binder) textArrayArg(s *scope, n *pg_query.Node) (plan.Expr, error) {
	if tc := n.GetTypeCast(); tc != nil && len(tc.TypeName.ArrayBounds) > 0 {
		c := tc.Arg.GetAConst()
		if c == nil || c.GetSval() == nil {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), tc.Location)
		}
		names, mods, err := typeNameParts(tc.TypeName)
		if err != nil {
			return nil, b.wrapAt(err, tc.TypeName.Location)
		}
		et, err := types.FromTypeName(names, mods, 0)
		if err != nil {
			return nil, b.wrapAt(err, tc.TypeName.Location)
		}
		text := c.GetSval().Sval
		vals, nulls, ok := arrayItems(text)
		if !ok {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), c.Location)
		}
		for i, v := range vals {
			if !nulls[i] {
				if _, err := types.ParseText(v, et); err != nil {
					return nil, b.wrapAt(err, c.Location)
				}
			}
		}
		return textConst(text), nil
	}
	e, err := b.bindExpr(s, n)
	if err != nil {
		return nil, err
	}
	if !b.isCatalogArray(e) {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), nodeLocation(n))
	}
	return e, nil
}

// isCatalogArray reports whether e may be one of joind's text-encoded
// catalog arrays: a text column of a system catalog (its array columns are
// text), or current_schemas(). User text is never an array.
func (b *binder) isCatalogArray(e plan.Expr) bool {
	if e.Type().ID != types.Text {
		return false
	}
	switch x := e.(type) {
	case *plan.ColRef:
		o, ok := b.colOrigin[x.ID]
		return ok && o.TableOID != 0 && o.TableOID < storage.FirstUserOID
	case *plan.Call:
		return x.Func.Name == "current_schemas"
	}
	return false
}

func argTypeList(args []plan.Expr) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = typeName(a.Type())
	}
	return strings.Join(names, ", ")
}

// Catalog arrays are text in joind ("{a,b}"): current_schemas(), and the
// array columns of the system catalogs. anyOverText binds `x op ANY (arr)`
// / `x op ALL (arr)` over such a text array, comparing x with each element
// read as x's type; ok is false when arr is not text (a real array, which
// joind does not have).
func (b *binder) anyOverText(s *scope, a *pg_query.A_Expr) (plan.Expr, bool, error) {
	r, err := b.textArrayArg(s, a.Rexpr)
	if err != nil {
		return nil, true, err
	}
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, true, err
	}
	lt := l.Type()
	if lt.ID == types.Unknown {
		if l, err = b.coerce(l, types.TextType, coerceImplicit, b.locOf(l)); err != nil {
			return nil, true, err
		}
		lt = types.TextType
	}
	op, err := types.ResolveOperator(opName(a.Name), lt, lt)
	if err != nil {
		return nil, true, b.wrapAt(err, a.Location)
	}
	all := a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL
	ov := &types.Overload{Name: "any", Args: []types.Type{lt, types.TextType}, Result: types.BoolType,
		Stable: op.Stable, Volatile: op.Volatile,
		Eval: func(ctx *types.EvalContext, v []types.Value) (types.Value, error) {
			if v[1].Null {
				return types.NullValue, nil
			}
			sawNull := v[0].Null
			vals, nulls, _ := arrayItems(v[1].S)
			for i, e := range vals {
				if v[0].Null {
					break
				}
				if nulls[i] {
					sawNull = true
					continue
				}
				ev, err := types.ParseText(e, lt)
				if err != nil {
					return types.NullValue, err
				}
				res, err := op.Eval(ctx, []types.Value{v[0], ev})
				if err != nil {
					return types.NullValue, err
				}
				switch {
				case res.Null:
					sawNull = true
				case (res.I != 0) != all:
					return types.BoolValue(!all), nil
				}
			}
			if sawNull {
				return types.NullValue, nil
			}
			return types.BoolValue(all), nil
		}}
	return &plan.Call{Func: ov, Args: []plan.Expr{l, r}}, true, nil
}

// textArraySubscript binds arr[i] over a text array; ok is false for
// anything else (slices, field selection, non-text values).
func (b *binder) textArraySubscript(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	if len(ind.Indirection) != 1 {
		return nil, false, nil
	}
	idx := ind.Indirection[0].GetAIndices()
	if idx == nil || idx.IsSlice || idx.Uidx == nil {
		return nil, false, nil
	}
	arr, err := b.textArrayArg(s, ind.Arg)
	if err != nil {
		return nil, true, err
	}
	i, err := b.bindExpr(s, idx.Uidx)
	if err != nil {
		return nil, true, err
	}
	if i, err = b.coerce(i, types.Int4Type, coerceImplicit, b.locOf(i)); err != nil {
		return nil, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "array subscript must have type integer"), b.locOf(i))
	}
	return b.call("array_subscript", []plan.Expr{arr, i}, types.TextType, func(v []types.Value) (types.Value, error) {
		el, nulls, _ := arrayItems(v[0].S)
		if v[1].I < 1 || v[1].I > int64(len(el)) || nulls[v[1].I-1] {
			return types.NullValue, nil
		}
		return types.TextValue(el[v[1].I-1]), nil
	}), true, nil
}

// attnumRowNumber binds pgjdbc's getColumns idiom
// `row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum)` without
// window functions: joind's pg_attribute numbers each relation's columns
// densely from 1 (there are no dropped or system columns), so the row
// number is attnum itself. ok is false for any other window call.
func (b *binder) attnumRowNumber(s *scope, fc *pg_query.FuncCall) (plan.Expr, bool, error) {
	w := fc.Over
	if funcName(fc.Funcname) != "row_number" || len(fc.Args) != 0 || w == nil || w.Name != "" || w.Refname != "" ||
		len(w.PartitionClause) != 1 || len(w.OrderClause) != 1 || w.FrameOptions&0x1 != 0 {
		return nil, false, nil
	}
	part := w.PartitionClause[0].GetColumnRef()
	sb := w.OrderClause[0].GetSortBy()
	if part == nil || sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC || sb.Node.GetColumnRef() == nil {
		return nil, false, nil
	}
	last := func(cr *pg_query.ColumnRef) (string, string) {
		f := cr.Fields
		q := ""
		if len(f) == 2 {
			q = f[0].GetString_().GetSval()
		}
		return q, f[len(f)-1].GetString_().GetSval()
	}
	pq, pcol := last(part)
	oq, ocol := last(sb.Node.GetColumnRef())
	if pcol != "attrelid" || ocol != "attnum" || pq != oq {
		return nil, false, nil
	}
	// Both columns must come from pg_catalog.pg_attribute.
	attrelid, err := b.bindExpr(s, w.PartitionClause[0])
	if err != nil {
		return nil, false, nil
	}
	attnum, err := b.bindExpr(s, sb.Node)
	if err != nil {
		return nil, false, nil
	}
	r1, ok1 := attrelid.(*plan.ColRef)
	r2, ok2 := attnum.(*plan.ColRef)
	if !ok1 || !ok2 || !b.isPgAttributeColumn(s, r1.ID) || !b.isPgAttributeColumn(s, r2.ID) {
		return nil, false, nil
	}
	e, err := b.coerce(attnum, types.Int8Type, coerceImplicit, b.locOf(attnum))
	return e, true, err
}

// isPgAttributeColumn reports whether column id is read from a scan of
// the pg_attribute system catalog at this level of the query.
func (b *binder) isPgAttributeColumn(s *scope, id plan.ColumnID) bool {
	for _, it := range s.items {
		for _, c := range it.cols {
			if r, ok := c.expr.(*plan.ColRef); ok && r.ID == id {
				for _, rte := range s.rtes {
					if rte.alias == it.name && rte.relname == "pg_attribute" {
						return true
					}
				}
			}
		}
	}
	return false
}
