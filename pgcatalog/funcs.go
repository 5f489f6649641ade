package pgcatalog

import (
	"strings"

	"github.com/joind/joind/types"
)

// The system-information and session functions psql, drivers and BI tools
// call on the catalogs, declared with their argument and result types.
// Package sql binds a call to one: it coerces the arguments to Args
// (implicitly, as any function call; an argument beyond Args is of any
// type, its value unread) and evaluates Eval over the statement's
// Snapshot. OID arguments are of type oid.

// Func is one catalog function (for a range of argument counts).
type Func struct {
	Names            []string
	MinArgs, MaxArgs int // MaxArgs -1: any number
	Args             []types.Type
	Result           types.Type
	// NonStrict functions are called with NULL arguments (format_type);
	// the others answer NULL for any NULL argument.
	NonStrict bool
	// Const functions are evaluated once, when the call is bound (the
	// session's user, database, ...).
	Const bool
	// Volatile functions act (pg_cancel_backend): never folded.
	Volatile bool
	Eval     func(s *Snapshot, v []types.Value) types.Value
	// EvalErr, when set, is Eval for a function that can fail.
	EvalErr func(s *Snapshot, v []types.Value) (types.Value, error)
}

// VersionString is what version() returns; drivers parse "PostgreSQL N.M".
const VersionString = "PostgreSQL 15.18 (joind) on x86_64-pc-linux-gnu, compiled by Go, 64-bit"

var (
	oid, i4, text, boolT = types.OidType, types.Int4Type, types.TextType, types.BoolType
)

func constant(v types.Value) func(*Snapshot, []types.Value) types.Value {
	return func(*Snapshot, []types.Value) types.Value { return v }
}

var funcs = []*Func{
	// Descriptions (COMMENT ON) of relations and their columns; the one-
	// argument form is PostgreSQL's deprecated any-catalog lookup.
	{Names: []string{"obj_description"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{oid, text}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			if len(v) == 2 && v[1].S == "pg_proc" {
				return procColumn(v[0].I, ppDescription)
			}
			if len(v) == 2 && v[1].S == "pg_namespace" && v[0].I == OIDNamespacePublic {
				return types.TextValue("standard public schema") // initdb's comment
			}
			if len(v) == 2 && (v[1].S == "pg_type" || v[1].S == "pg_constraint") {
				if d, ok := s.userTypeDescription(uint32(v[0].I), v[1].S == "pg_type"); ok { // usertypes.go
					return d
				}
			}
			if len(v) == 2 && v[1].S == "pg_type" {
				return typeDescription(v[0].I)
			}
			if len(v) == 2 && v[1].S != "pg_class" {
				return types.NullValue
			}
			return s.description(uint32(v[0].I), 0)
		}},
	{Names: []string{"col_description"}, MinArgs: 2, MaxArgs: 2, Args: []types.Type{oid, i4}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return s.description(uint32(v[0].I), v[1].I) }},
	{Names: []string{"version"}, Result: text, Const: true, Eval: constant(types.TextValue(VersionString))},
	{Names: []string{"current_database", "current_catalog"}, Result: types.NameType, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value { return types.TextValue(s.database()) }},
	{Names: []string{"current_schema"}, Result: types.NameType, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value {
			if p := s.SearchPath(); len(p.Explicit) > 0 {
				return types.TextValue(p.Explicit[0].Name)
			}
			return types.NullValue
		}},
	{Names: []string{"current_user", "user", "current_role", "getpgusername"}, Result: types.NameType, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value { return types.TextValue(s.currentRoleName()) }},
	{Names: []string{"session_user"}, Result: types.NameType, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value { return types.TextValue(s.user()) }},
	{Names: []string{"pg_table_is_visible"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: boolT,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			return types.BoolValue(s.TableVisible(uint32(v[0].I)))
		}},
	// Every other object lives in pg_catalog or public, both on the path.
	{Names: []string{"pg_type_is_visible", "pg_function_is_visible", "pg_collation_is_visible",
		"pg_operator_is_visible", "pg_opclass_is_visible", "pg_conversion_is_visible", "pg_ts_config_is_visible",
		"pg_statistics_obj_is_visible"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: boolT,
		Eval: constant(types.BoolValue(true))},
	{Names: []string{"format_type"}, MinArgs: 2, MaxArgs: 2, Args: []types.Type{oid, i4}, Result: text, NonStrict: true,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			switch {
			case v[0].Null:
				return types.NullValue
			case v[1].Null:
				return types.TextValue(FormatType(uint32(v[0].I), -1, true))
			}
			return types.TextValue(FormatType(uint32(v[0].I), int32(v[1].I), false))
		}},
	// adbin already holds the rendered expression (storage keeps SQL text).
	{Names: []string{"pg_get_expr"}, MinArgs: 2, MaxArgs: 3, Args: []types.Type{text, oid, boolT}, Result: text,
		Eval: func(_ *Snapshot, v []types.Value) types.Value { return v[0] }},
	{Names: []string{"pg_get_userbyid"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: types.NameType,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return types.TextValue(s.RoleName(uint32(v[0].I))) }},
	{Names: []string{"pg_encoding_to_char"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{i4}, Result: text,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			switch v[0].I {
			case 0:
				return types.TextValue("SQL_ASCII")
			case 6:
				return types.TextValue("UTF8")
			}
			return types.TextValue("")
		}},
	{Names: []string{"pg_char_to_encoding"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: i4,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			switch strings.ToUpper(v[0].S) {
			case "SQL_ASCII":
				return types.IntValue(0)
			case "UTF8", "UTF-8":
				return types.IntValue(6)
			}
			return types.IntValue(-1)
		}},
	// pg_get_viewdef(name text [, pretty]) reads the name as regclass does.
	{Names: []string{"pg_get_viewdef"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{text, boolT}, Result: text,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) {
			o, err := s.RegIn("regclass", v[0].S)
			if err != nil {
				return types.NullValue, err
			}
			return s.viewDefValue(o, len(v) > 1 && v[1].I != 0), nil
		}},
	{Names: []string{"pg_get_viewdef"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{oid, boolT}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			return s.viewDefValue(uint32(v[0].I), len(v) > 1 && v[1].I != 0)
		}},
	// joind keeps no constraints, indexes, triggers, rules, functions or
	// comments: there is nothing these could describe.
	{Names: []string{"pg_get_indexdef"}, MinArgs: 1, MaxArgs: 3, Args: []types.Type{oid, i4, boolT}, Result: text, Eval: pgGetIndexdef},
	{Names: []string{"pg_get_constraintdef", "pg_get_triggerdef", "pg_get_ruledef",
		"pg_get_statisticsobjdef_columns", "pg_get_partkeydef", "pg_get_function_sqlbody", "pg_get_serial_sequence",
		"shobj_description"},
		MaxArgs: -1, Result: text, Const: true, Eval: constant(types.NullValue)},
	// Of the built-ins, as PostgreSQL prints them (pgdata/pg_proc.tsv).
	{Names: []string{"pg_get_function_arguments"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return procText(s, v[0].I, ppArguments) }},
	{Names: []string{"pg_get_function_identity_arguments"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return procText(s, v[0].I, ppIdentityArguments) }},
	{Names: []string{"pg_get_functiondef"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: text, Eval: pgGetFunctiondef}, // pgproc_user.go
	{Names: []string{"pg_get_function_result"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return procText(s, v[0].I, ppResult) }},
	{Names: []string{"pg_relation_is_publishable", "pg_is_in_recovery", "pg_is_other_temp_schema"},
		MaxArgs: -1, Args: []types.Type{oid}, Result: boolT, Eval: constant(types.BoolValue(false))},
	// The session user owns every object.
	{Names: []string{"has_table_privilege"}, MinArgs: 2, MaxArgs: 3, Result: boolT, NonStrict: true,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return s.hasPrivilege(false, v) }},
	{Names: []string{"has_schema_privilege"}, MinArgs: 2, MaxArgs: 3, Result: boolT, NonStrict: true,
		Eval: func(s *Snapshot, v []types.Value) types.Value { return s.hasPrivilege(true, v) }},
	{Names: []string{"has_column_privilege"}, MinArgs: 3, MaxArgs: 4, Result: boolT, NonStrict: true,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) { return s.hasColumnPrivilege(false, v) }},
	{Names: []string{"has_any_column_privilege"}, MinArgs: 2, MaxArgs: 3, Result: boolT, NonStrict: true,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) { return s.hasColumnPrivilege(true, v) }},
	{Names: []string{"has_sequence_privilege"}, MinArgs: 2, MaxArgs: 3, Result: boolT, NonStrict: true,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) { return s.hasObjectPrivilege('S', v) }},
	{Names: []string{"has_function_privilege"}, MinArgs: 2, MaxArgs: 3, Result: boolT, NonStrict: true,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) { return s.hasObjectPrivilege('f', v) }},
	{Names: []string{"has_database_privilege", "pg_has_role",
		"has_type_privilege", "has_tablespace_privilege", "has_language_privilege",
		"has_foreign_data_wrapper_privilege", "has_server_privilege"},
		MinArgs: 2, MaxArgs: 4, Result: boolT, Eval: constant(types.BoolValue(true))},
	{Names: []string{"current_schemas"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{boolT}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			if v[0].I != 0 {
				return types.TextValue(schemaArray(s.SearchPath().Schemas))
			}
			return types.TextValue(schemaArray(s.SearchPath().Explicit))
		}},
	{Names: []string{"array_to_string"}, MinArgs: 2, MaxArgs: 3, Args: []types.Type{text, text, text}, Result: text,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			vals, nulls, _ := ArrayItems(v[0].S)
			var out []string
			for i, e := range vals {
				switch {
				case !nulls[i]:
					out = append(out, e)
				case len(v) == 3:
					out = append(out, v[2].S)
				}
			}
			return types.TextValue(strings.Join(out, v[1].S))
		}},
	{Names: []string{"cardinality"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: i4,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			vals, _, _ := ArrayItems(v[0].S)
			return types.IntValue(int64(len(vals)))
		}},
	{Names: []string{"array_length", "array_upper"}, MinArgs: 2, MaxArgs: 2, Args: []types.Type{text, i4}, Result: i4,
		Eval: func(_ *Snapshot, v []types.Value) types.Value {
			if vals, _, _ := ArrayItems(v[0].S); len(vals) > 0 && v[1].I == 1 {
				return types.IntValue(int64(len(vals)))
			}
			return types.NullValue
		}},
	{Names: []string{"to_regclass"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: types.RegClassType, Eval: toReg("regclass")},
	{Names: []string{"to_regtype"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: types.RegTypeType, Eval: toReg("regtype")},
	{Names: []string{"to_regnamespace"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: types.RegNamespaceType, Eval: toReg("regnamespace")},
	{Names: []string{"to_regrole"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{text}, Result: types.RegRoleType, Eval: toReg("regrole")},
	{Names: []string{"pg_tablespace_location"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: text,
		Eval: constant(types.TextValue(""))},
}

// toReg is to_regclass(text) and its kin: the reg* input function, NULL
// where that fails.
func toReg(target string) func(*Snapshot, []types.Value) types.Value {
	return func(s *Snapshot, v []types.Value) types.Value {
		o, err := s.RegIn(target, v[0].S)
		if err != nil {
			return types.NullValue
		}
		return types.IntValue(int64(o))
	}
}

func init() {
	for _, f := range funcs {
		for _, n := range f.Names {
			funcByName[n] = append(funcByName[n], f)
		}
	}
}

var funcByName = map[string][]*Func{}

// LookupFunc finds the catalog function name taking nargs arguments.
func LookupFunc(name string, nargs int) (*Func, bool) {
	if fs := LookupFuncs(name, nargs); len(fs) > 0 {
		return fs[0], true
	}
	return nil, false
}

// LookupFuncs lists the catalog functions name taking nargs arguments, in
// the order a call tries them (the first whose Args the arguments coerce
// to implicitly: pg_database_size(name) before pg_database_size(oid)).
func LookupFuncs(name string, nargs int) []*Func {
	var out []*Func
	for _, f := range funcByName[name] {
		if nargs >= f.MinArgs && (f.MaxArgs < 0 || nargs <= f.MaxArgs) {
			out = append(out, f)
		}
	}
	return out
}

// TakesCatalogArray reports whether name's first argument must be one of
// joind's text-encoded catalog arrays (no other value is an array).
func TakesCatalogArray(name string) bool {
	switch name {
	case "array_to_string", "array_length", "array_upper", "cardinality":
		return true
	}
	return false
}

// IsAggregateName reports whether name is one of PostgreSQL's built-in
// aggregates joind knows by name (PostgreSQL resolves function names to
// aggregates by pg_proc.prokind): an aggregate makes a row out of no rows.
func IsAggregateName(name string) bool {
	switch name {
	case "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every",
		"string_agg", "array_agg", "stddev", "stddev_samp", "stddev_pop",
		"variance", "var_samp", "var_pop", "bit_and", "bit_or", "bit_xor",
		"covar_pop", "covar_samp", "corr", "regr_count", "regr_sxx", "regr_syy",
		"regr_sxy", "regr_avgx", "regr_avgy", "regr_r2", "regr_slope", "regr_intercept":
		return true
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg":
		return true
	}
	return false
}
