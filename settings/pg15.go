package settings

import (
	_ "embed"
	"strconv"
	"strings"
)

// pg15.tsv is PostgreSQL 15's pg_settings (written by gen-pg15.sh from a
// real server): every parameter PostgreSQL has, so SHOW, SHOW ALL,
// current_setting and pg_settings answer for each of them. The ones
// joind gives behaviour to are declared in registry.go and take
// precedence; the rest are what PostgreSQL calls them, in one of three
// ways:
//   - settings no session can change (internal, postmaster, sighup,
//     backend contexts) show PostgreSQL's value and refuse SET with
//     PostgreSQL's 55P02;
//   - settings that only steer how PostgreSQL plans, logs, vacuums,
//     replicates or spends memory take any valid value: no answer joind
//     gives depends on them;
//   - settings that change answers or behaviour joind does not implement
//     (onlyDefault below) accept only their default value; anything else
//     is 0A000.
//
//go:embed pg15.tsv
var pg15TSV string

// onlyDefault are the PostgreSQL settings a session could change that
// would alter what a statement does, and that joind does not implement.
var onlyDefault = map[string]bool{
	"array_nulls": true, "backslash_quote": true,
	"default_table_access_method": true, "default_tablespace": true, "exit_on_error": true,
	"idle_in_transaction_session_timeout": true, "idle_session_timeout": true,
	"lock_timeout": true, "quote_all_identifiers": true, "restrict_nonsystem_relation_kind": true,
	"session_replication_role": true, "temp_file_limit": true, "temp_tablespaces": true,
	"timezone_abbreviations": true, "transform_null_equals": true,
}

// The columns of pg15.tsv, in gen-pg15.sh's order.
const (
	colName = iota
	colVartype
	colContext
	colUnit
	colCategory
	colShortDesc
	colExtraDesc
	colMinVal
	colMaxVal
	colEnumVals
	colBootVal
	colSetting
	colResetVal
	pg15Columns
)

// withPG15 returns declared followed by PostgreSQL 15's settings that
// declared does not have.
func withPG15(declared []*Setting) []*Setting {
	have := map[string]*Setting{}
	for _, s := range declared {
		have[strings.ToLower(s.Name)] = s
	}
	out := append([]*Setting(nil), declared...)
	for _, line := range strings.Split(strings.TrimSuffix(pg15TSV, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != pg15Columns {
			panic("settings: pg15.tsv: bad line " + line)
		}
		for i := range f {
			f[i] = copyUnescape(f[i])
		}
		if d := have[strings.ToLower(f[colName])]; d != nil {
			// A declared setting takes PostgreSQL's descriptions.
			if d.ExtraDesc == "" {
				d.ExtraDesc = f[colExtraDesc]
			}
			// server_version's boot value is joind's own.
			if d.Name != "server_version" {
				d.BootVal, d.hasBootVal = f[colBootVal], true
			}
			continue
		}
		out = append(out, pg15Setting(f))
	}
	return out
}

func pg15Setting(f []string) *Setting {
	s := &Setting{Name: f[colName], Category: f[colCategory], Desc: f[colShortDesc], ExtraDesc: f[colExtraDesc],
		Boot: f[colSetting], BootVal: f[colBootVal], hasBootVal: true, OnlyDefault: onlyDefault[f[colName]]}
	switch f[colVartype] {
	case "bool":
		s.Kind = Bool
	case "integer":
		s.Kind = Int
		s.Min, _ = strconv.ParseInt(f[colMinVal], 10, 64)
		s.Max, _ = strconv.ParseInt(f[colMaxVal], 10, 64)
	case "real":
		s.Kind = Real
		s.RealMin, _ = strconv.ParseFloat(f[colMinVal], 64)
		s.RealMax, _ = strconv.ParseFloat(f[colMaxVal], 64)
	case "enum":
		s.Kind = Enum
		s.Values = enumValues(f[colEnumVals])
		s.Hidden = boolAliases(s.Values)
	default:
		s.Kind = String
	}
	for c := User; c <= SuperuserBackend; c++ {
		if c.String() == f[colContext] {
			s.Context = c
		}
	}
	if s.contextError(true) != nil {
		s.fixedResetVal = &f[colResetVal]
	}
	for u := NoUnit; u <= Bytes; u++ {
		if u.String() == f[colUnit] {
			s.Unit = u
		}
	}
	return s
}

// copyUnescape reads a COPY text field: \N is NULL (here ""), and
// backslash escapes stand for their characters.
func copyUnescape(s string) string {
	if s == `\N` {
		return ""
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r").Replace(s)
}

// boolAliases are the hidden spellings PostgreSQL's enum settings with
// "on" and "off" accept (force_parallel_mode = 1, huge_pages = yes).
func boolAliases(values []string) map[string]string {
	var on, off bool
	for _, v := range values {
		on, off = on || v == "on", off || v == "off"
	}
	if !on || !off {
		return nil
	}
	return map[string]string{"true": "on", "yes": "on", "1": "on", "false": "off", "no": "off", "0": "off"}
}

// enumValues reads pg_settings.enumvals, a text[] literal whose elements
// are double-quoted when they hold a space.
func enumValues(lit string) []string {
	body := strings.TrimSuffix(strings.TrimPrefix(lit, "{"), "}")
	var out []string
	for _, v := range strings.Split(body, ",") {
		out = append(out, strings.Trim(v, `"`))
	}
	return out
}
