package pgcatalog

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// What PostgreSQL's ruleutils.c and quote_ident do for the catalogs:
// expressions as pg_get_expr prints them, identifiers quoted as
// PostgreSQL quotes them, and the key words it lists.

// FormatDefault renders a stored DEFAULT (pg_query's deparse of what the
// user wrote) as pg_get_expr prints the bound expression: constants
// coerced to the column's type and labelled as ruleutils' get_const_expr
// labels them; other expressions as written.
func FormatDefault(def string, t types.Type) string {
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
		if ct, err := PlainTypeName(tc.TypeName); err == nil {
			constType, n = ct, tc.Arg
		}
	}
	if f := n.GetSqlvalueFunction(); f != nil {
		return sqlValueFunctionText(f)
	}
	c := n.GetAConst()
	if c == nil {
		return def
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	label := func(s string, t types.Type) string {
		name := FormatType(t.OID(), -1, true)
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
				return quote(string(types.FormatText(nil, val, in, nil))) + "::" + FormatType(t.OID(), t.Typmod, false)
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

// PlainTypeName resolves a type name outside any statement (no positions).
func PlainTypeName(tn *pg_query.TypeName) (types.Type, error) {
	names, mods, err := TypeNameParts(tn)
	if err != nil {
		return types.Type{}, err
	}
	return types.FromTypeName(names, mods, len(tn.ArrayBounds))
}

// TypeNameParts returns a TypeName's name parts and constant modifiers.
func TypeNameParts(tn *pg_query.TypeName) ([]string, []int32, error) {
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

// SplitQualified splits a possibly quoted, dotted name ("public.t",
// `"My T"`), folding unquoted parts to lower case.
func SplitQualified(s string) []string {
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

func unquoteIdent(s string) string { return SplitQualified(s)[0] }

// QuoteIdentifier is quote_identifier (types.QuoteIdent).
func QuoteIdentifier(s string) string { return types.QuoteIdent(s) }

// KeywordColumns are pg_get_keywords()'s output columns.
var KeywordColumns = []storage.ColumnDef{
	{Name: "word", Type: types.TextType}, {Name: "catcode", Type: types.TextType},
	{Name: "barelabel", Type: types.BoolType}, {Name: "catdesc", Type: types.TextType},
	{Name: "baredesc", Type: types.TextType},
}

// Keywords is pg_get_keywords(): every key word of PostgreSQL 15's
// grammar, as pgdata/pg_keywords.tsv holds them.
func Keywords() storage.Table {
	var rows [][]types.Value
	for _, k := range pgdata("pg_keywords") {
		rows = append(rows, []types.Value{types.TextValue(k[0]), types.TextValue(k[1]), types.BoolValue(k[2] == "t"),
			types.TextValue(k[3]), types.TextValue(k[4])})
	}
	return newStaticTable("pg_get_keywords", KeywordColumns, rows)
}

// sqlValueFunctionText is ruleutils' text of a SQL-standard value function
// (DEFAULT current_date prints CURRENT_DATE, current_timestamp(3)
// CURRENT_TIMESTAMP(3)).
func sqlValueFunctionText(f *pg_query.SQLValueFunction) string {
	name := map[pg_query.SQLValueFunctionOp]string{
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:        "CURRENT_DATE",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        "CURRENT_TIME",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      "CURRENT_TIME",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:   "CURRENT_TIMESTAMP",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "CURRENT_TIMESTAMP",
		pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME:           "LOCALTIME",
		pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         "LOCALTIME",
		pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:      "LOCALTIMESTAMP",
		pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    "LOCALTIMESTAMP",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:        "CURRENT_ROLE",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER:        "CURRENT_USER",
		pg_query.SQLValueFunctionOp_SVFOP_USER:                "USER",
		pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:        "SESSION_USER",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:     "CURRENT_CATALOG",
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:      "CURRENT_SCHEMA",
	}[f.Op]
	if f.Typmod >= 0 {
		name += "(" + strconv.Itoa(int(f.Typmod)) + ")"
	}
	return name
}
