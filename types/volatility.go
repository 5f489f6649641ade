package types

import "strings"

// stableSignatures lists the built-ins joind has that PostgreSQL 15 marks
// stable (pg_proc.provolatile = 's', for an operator that of its oprcode;
// current_date & co. are SQLValueFunctions, stable too): they read
// TimeZone, DateStyle or the transaction's start time, so PostgreSQL never
// evaluates them while planning. Queried on PostgreSQL 15 with
//
//	SELECT proname, pg_get_function_identity_arguments(oid), provolatile FROM pg_proc
//
// and the join of pg_operator to pg_proc; everything else joind registers
// is immutable there, except the volatile random(), clock_timestamp() and
// set_config() (and current_setting(), stable in PostgreSQL, which joind
// keeps volatile so a set_config earlier in the query is seen, as
// PostgreSQL's per-row evaluation sees it).
//
// A variable initializer, not init(): package variables are set before any
// file's init() registers the built-ins.
var stableSignatures = stableSet()

func stableSet() map[string]bool {
	set := map[string]bool{}
	tz, ts, d, iv, tx := "timestamptz", "timestamp", "date", "interval", "text"
	for _, sig := range [][]string{
		{"now"}, {"transaction_timestamp"}, {"statement_timestamp"},
		{"current_date"}, {"current_timestamp"}, {"current_timestamp", "int4"},
		{"localtimestamp"}, {"localtimestamp", "int4"},
		{"concat", "any"}, {"concat_ws", tx, "any"},
		{"date_part", tx, tz}, {"extract", tx, tz},
		{"date_trunc", tx, tz}, {"date_trunc", tx, tz, tx},
		{"generate_series", tz, tz, iv},
		{"pg_column_size", "any"},
		{"to_json", "any"}, {"to_jsonb", "any"}, {"row_to_json", "any"}, {"row_to_json", "any", "bool"},
		{"array_to_json", idSigName(idAnyArray)}, {"array_to_json", idSigName(idAnyArray), "bool"},
		{"json_build_object"}, {"json_build_object", "any"}, {"jsonb_build_object"}, {"jsonb_build_object", "any"},
		{"json_build_array"}, {"json_build_array", "any"}, {"jsonb_build_array"}, {"jsonb_build_array", "any"},
		{"+", iv, tz}, {"+", tz, iv}, {"-", tz, iv},
		// the to_char family (tochar*.go) reads the locale (and TimeZone)
		{"to_char", ts, tx}, {"to_char", tz, tx}, {"to_char", iv, tx}, {"to_char", "numeric", tx},
		{"to_char", "int4", tx}, {"to_char", "int8", tx}, {"to_char", "float4", tx}, {"to_char", "float8", tx},
		{"to_number", tx, tx}, {"to_date", tx, tx}, {"to_timestamp", tx, tx},
		{"format", tx}, {"format", tx, "any"}, {"quote_literal", "any"}, {"quote_nullable", "any"},
		{"current_time"}, {"current_time", "int4"}, {"localtime"}, {"localtime", "int4"},
		{"timezone", tx, "timetz"}, {"timestamptz", d, "time"},
		{"age", ts}, {"age", tz}, {"age", "xid"}, {"mxid_age", "xid"},
		{"make_timestamptz", "int4", "int4", "int4", "int4", "int4", "float8"},
		{"make_timestamptz", "int4", "int4", "int4", "int4", "int4", "float8", tx},
		{"overlaps", tz, iv, tz, iv}, {"overlaps", tz, iv, tz, tz}, {"overlaps", tz, tz, tz, iv},
		{"json_populate_record", idSigName(idAnyElement), "json"}, {"json_populate_record", idSigName(idAnyElement), "json", "bool"},
		{"json_populate_recordset", idSigName(idAnyElement), "json"}, {"json_populate_recordset", idSigName(idAnyElement), "json", "bool"},
		{"jsonb_populate_record", idSigName(idAnyElement), "jsonb"}, {"jsonb_populate_recordset", idSigName(idAnyElement), "jsonb"},
	} {
		set[sigKey(sig[0], sig[1:])] = true
	}
	// the jsonpath functions' _tz twins (jsonpath_funcs.go), in each arity
	for _, f := range []string{"jsonb_path_exists_tz", "jsonb_path_match_tz", "jsonb_path_query_tz", "jsonb_path_query_array_tz", "jsonb_path_query_first_tz"} {
		for n := 2; n <= 4; n++ {
			set[sigKey(f, []string{"jsonb", "jsonpath", "jsonb", "bool"}[:n])] = true
		}
	}
	for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
		for _, pair := range [][2]string{{d, tz}, {tz, d}, {ts, tz}, {tz, ts}} {
			set[sigKey(op, pair[:])] = true
		}
	}
	return set
}

func sigKey(name string, args []string) string {
	return name + "(" + strings.Join(args, ",") + ")"
}

// idSigName names an ID in signature keys as pg_type.typname does
// (stableSignatures, leakproofSignatures, testdata/leakproof_pg15.tsv).
func idSigName(id ID) string {
	switch id {
	case idAny:
		return "any"
	case idAnyNonArray:
		return "anynonarray"
	}
	if n := (Type{ID: id, Typmod: -1}).PgTypeName(); n != "" && n != "unknown" {
		return n
	}
	return "?"
}

func sigNames(args []ID) []string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = idSigName(a)
	}
	return names
}

// isStable reports whether PostgreSQL marks the built-in name(args) stable.
func isStable(name string, args []ID) bool {
	return stableSignatures[sigKey(name, sigNames(args))]
}
