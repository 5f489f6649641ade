package settings

import (
	"sort"
	"strings"

	"github.com/joind/joind/pgerr"
)

// Kind is a setting's value type, as pg_settings.vartype names it.
type Kind uint8

const (
	Bool Kind = iota
	Int
	Enum
	String
	Real
)

func (k Kind) String() string {
	return [...]string{"bool", "integer", "enum", "string", "real"}[k]
}

// Context says who may change a setting (pg_settings.context).
type Context uint8

const (
	// User settings can be SET by any session.
	User Context = iota
	// Superuser settings can be SET by a superuser (every joind user is).
	Superuser
	// Internal settings are fixed: SHOW only.
	Internal
	// Postmaster settings change only with a server restart, Sighup ones
	// only in the server's configuration; neither by SET.
	Postmaster
	Sighup
	// Backend settings are taken from the startup packet only
	// (superuser-backend is the same for joind, whose users are all
	// superusers).
	Backend
	SuperuserBackend
)

func (c Context) String() string {
	return [...]string{"user", "superuser", "internal", "postmaster", "sighup", "backend", "superuser-backend"}[c]
}

// Unit is the base unit of an integer setting.
type Unit uint8

const (
	NoUnit Unit = iota
	Milliseconds
	Kilobytes
	Seconds
	Minutes
	Blocks // 8kB pages
	Megabytes
	Bytes
)

func (u Unit) String() string {
	return [...]string{"", "ms", "kB", "s", "min", "8kB", "MB", "B"}[u]
}

// Setting declares one run-time setting.
type Setting struct {
	Name    string // canonical spelling, as SHOW and pg_settings print it
	Kind    Kind
	Context Context
	// Boot is the built-in default, in canonical form (an integer in its
	// base unit).
	Boot string
	// Report settings are sent to the client in ParameterStatus when they
	// change (PostgreSQL's GUC_REPORT).
	Report bool
	// NoShowAll settings are left out of SHOW ALL and pg_settings
	// (GUC_NO_SHOW_ALL).
	NoShowAll bool
	// NoResetAll settings keep their value on RESET ALL (GUC_NO_RESET_ALL).
	NoResetAll bool
	Unit       Unit
	Min, Max   int64 // Int
	// RealMin and RealMax bound a Real setting.
	RealMin, RealMax float64
	Values           []string // Enum: the accepted values, canonical spelling
	// Hidden are further accepted Enum spellings (not listed in hints or
	// enumvals), mapped to the value they mean.
	Hidden map[string]string
	// List settings take a list in SET (GUC_LIST_INPUT), joined with ", ";
	// ListQuote ones quote each element as an identifier (GUC_LIST_QUOTE).
	List, ListQuote bool
	// Check validates and canonicalises a String value; cur is the current
	// value (DateStyle keeps the part a value leaves out). nil: any value.
	Check func(v, cur string) (string, error)
	// TxStart names the setting whose value this one takes at the start of
	// each transaction (transaction_isolation from
	// default_transaction_isolation).
	TxStart string
	// Category and Desc are pg_settings' category and short_desc (and SHOW
	// ALL's description); ExtraDesc is its extra_desc.
	Category, Desc, ExtraDesc string
	// BootVal is pg_settings.boot_val where it differs from Boot, the
	// value a joind session starts with (PostgreSQL's initdb and
	// postmaster set some, e.g. timezone_abbreviations); hasBootVal says
	// it is given.
	BootVal    string
	hasBootVal bool
	// fixedResetVal is pg_settings.reset_val of a setting no session can
	// change (it differs from the shown value where PostgreSQL has a show
	// hook: data_directory_mode is 0700, its reset_val 448).
	fixedResetVal *string
	// OnlyDefault settings steer something joind does not implement; SET
	// accepts only the default value (anything else is 0A000, never a
	// setting that silently does nothing).
	OnlyDefault bool

	placeholder bool
	index       int
}

// ServerVersion is the PostgreSQL version joind reports: libpq and drivers
// parse the leading number, psql picks its catalog queries from it.
const ServerVersion = "15.18"

const (
	catLocale  = "Client Connection Defaults / Locale and Formatting"
	catStmt    = "Client Connection Defaults / Statement Behavior"
	catPreset  = "Preset Options"
	catLogging = "Reporting and Logging / What to Log"
)

var isolationLevels = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

// registry is every setting joind knows: the ones declared here, then
// the rest of PostgreSQL 15's (pg15.go).
var registry = withPG15(declared)

// declared are the settings joind declares itself, with the behaviour it
// gives them.
var declared = []*Setting{
	{Name: "application_name", Kind: String, Report: true, Check: checkAppName,
		Category: catLogging, Desc: "Sets the application name to be reported in statistics and logs."},
	{Name: "bytea_output", Kind: Enum, Boot: "hex", Values: []string{"escape", "hex"},
		Category: catStmt, Desc: "Sets the output format for bytea."},
	{Name: "client_encoding", Kind: String, Boot: "UTF8", Report: true, Check: checkEncoding,
		Category: catLocale, Desc: "Sets the client's character set encoding."},
	{Name: "client_min_messages", Kind: Enum, Boot: "notice",
		Values:   []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"},
		Hidden:   map[string]string{"debug": "debug2", "info": "info"},
		Category: catStmt, Desc: "Sets the message levels that are sent to the client."},
	{Name: "DateStyle", Kind: String, Boot: "ISO, MDY", Report: true, Check: checkDateStyle, List: true,
		Category: catLocale, Desc: "Sets the display format for date and time values."},
	{Name: "default_transaction_isolation", Kind: Enum, Boot: "read committed", Values: isolationLevels,
		Category: catStmt, Desc: "Sets the transaction isolation level of each new transaction."},
	{Name: "default_transaction_read_only", Kind: Bool, Boot: "off", Report: true,
		Category: catStmt, Desc: "Sets the default read-only status of new transactions."},
	{Name: "escape_string_warning", Kind: Bool, Boot: "on",
		Category: "Version and Platform Compatibility / Previous PostgreSQL Versions", Desc: "Warn about backslash escapes in ordinary string literals."},
	{Name: "extra_float_digits", Kind: Int, Boot: "1", Min: -15, Max: 3,
		Category: catLocale, Desc: "Sets the number of digits displayed for floating-point values."},
	{Name: "in_hot_standby", Kind: Bool, Boot: "off", Report: true, Context: Internal,
		Category: catPreset, Desc: "Shows whether hot standby is currently active."},
	{Name: "integer_datetimes", Kind: Bool, Boot: "on", Report: true, Context: Internal,
		Category: catPreset, Desc: "Shows whether datetimes are integer based."},
	{Name: "IntervalStyle", Kind: Enum, Boot: "postgres", Report: true,
		Values:   []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"},
		Category: catLocale, Desc: "Sets the display format for interval values."},
	{Name: "is_superuser", Kind: Bool, Boot: "on", Report: true, Context: Internal, NoShowAll: true,
		Category: catPreset, Desc: "Shows whether the current user is a superuser."},
	// joind.auto_explain_min_duration is auto_explain.log_min_duration
	// with log_analyze on: the EXPLAIN ANALYZE of every query that ran at
	// least this long is logged (-1: off; queries are instrumented only
	// when it is on).
	{Name: "joind.auto_explain_min_duration", Kind: Int, Boot: "-1", Unit: Milliseconds, Min: -1, Max: 2147483647,
		Context: Superuser, Category: "Customized Options", Desc: "Sets the minimum execution time above which the EXPLAIN ANALYZE of a query is logged."},
	// joind.join_mode forces hash joins' partition mode where the join's
	// semantics allow it.
	{Name: "joind.join_mode", Kind: Enum, Boot: "auto", Values: []string{"auto", "collect_left", "partitioned"},
		Category: "Customized Options", Desc: "Forces the partition mode of hash joins."},
	// joind.memory_limit is one query's memory limit; past it sorts, hash
	// aggregations and hash joins spill to the data directory's tmp/.
	{Name: "joind.memory_limit", Kind: Int, Boot: "0", Unit: Kilobytes, Min: 0, Max: 2147483647,
		Category: "Customized Options", Desc: "Sets the memory limit of one query (0: the server's memory_limit)."},
	{Name: "lc_collate", Kind: String, Boot: "C.UTF-8", Context: Internal,
		Category: catPreset, Desc: "Shows the collation order locale."},
	{Name: "lc_ctype", Kind: String, Boot: "C.UTF-8", Context: Internal,
		Category: catPreset, Desc: "Shows the character classification and case conversion locale."},
	{Name: "lc_messages", Kind: String, Boot: "C.UTF-8", Context: Superuser, Check: checkLocale("lc_messages"),
		Category: catLocale, Desc: "Sets the language in which messages are displayed."},
	{Name: "lc_monetary", Kind: String, Boot: "C.UTF-8", Check: checkLocale("lc_monetary"),
		Category: catLocale, Desc: "Sets the locale for formatting monetary amounts."},
	{Name: "lc_numeric", Kind: String, Boot: "C.UTF-8", Check: checkLocale("lc_numeric"),
		Category: catLocale, Desc: "Sets the locale for formatting numbers."},
	{Name: "lc_time", Kind: String, Boot: "C.UTF-8", Check: checkLocale("lc_time"),
		Category: catLocale, Desc: "Sets the locale for formatting date and time values."},
	{Name: "max_identifier_length", Kind: Int, Boot: "63", Min: 63, Max: 63, Context: Internal,
		Category: catPreset, Desc: "Shows the maximum identifier length."},
	// role is SET ROLE's: the current role's name, "none" for the session
	// user (engine/roles.go checks SET ROLE and reads it).
	{Name: "role", Kind: String, Boot: "none", NoShowAll: true, NoResetAll: true,
		Category: catPreset, Desc: "Sets the current role."},
	{Name: "search_path", Kind: String, Boot: `"$user", public`, List: true, ListQuote: true,
		Category: catStmt, Desc: "Sets the schema search order for names that are not schema-qualified."},
	{Name: "server_encoding", Kind: String, Boot: "UTF8", Report: true, Context: Internal,
		Category: catPreset, Desc: "Shows the server (database) character set encoding."},
	{Name: "server_version", Kind: String, Boot: ServerVersion, Report: true, Context: Internal,
		Category: catPreset, Desc: "Shows the server version."},
	{Name: "server_version_num", Kind: Int, Boot: "150018", Min: 150018, Max: 150018, Context: Internal,
		Category: catPreset, Desc: "Shows the server version as an integer."},
	// session_authorization is the session user; who may change it to
	// which role is the engine's check (SET SESSION AUTHORIZATION).
	{Name: "session_authorization", Kind: String, Report: true, Context: Superuser, NoShowAll: true, NoResetAll: true,
		Category: catPreset, Desc: "Sets the session user name."},
	{Name: "standard_conforming_strings", Kind: Bool, Boot: "on", Report: true, Check: checkStandardStrings,
		Category: "Version and Platform Compatibility / Previous PostgreSQL Versions",
		Desc:     "Causes '...' strings to treat backslashes literally."},
	{Name: "statement_timeout", Kind: Int, Boot: "0", Unit: Milliseconds, Min: 0, Max: 2147483647,
		Category: catStmt, Desc: "Sets the maximum allowed duration of any statement."},
	{Name: "TimeZone", Kind: String, Boot: "UTC", Report: true, Check: checkTimeZone,
		Category: catLocale, Desc: "Sets the time zone for displaying and interpreting time stamps."},
	{Name: "transaction_isolation", Kind: Enum, Boot: "read committed", Values: isolationLevels, NoResetAll: true,
		TxStart: "default_transaction_isolation", Category: catStmt, Desc: "Sets the current transaction's isolation level."},
	{Name: "transaction_read_only", Kind: Bool, Boot: "off", NoResetAll: true,
		TxStart: "default_transaction_read_only", Category: catStmt, Desc: "Sets the current transaction's read-only status."},
	{Name: "work_mem", Kind: Int, Boot: "4096", Unit: Kilobytes, Min: 64, Max: 2147483647,
		Category: "Resource Usage / Memory", Desc: "Sets the maximum memory to be used for query workspaces."},
	// Planner and parallelism settings: they steer PostgreSQL's plan choice,
	// never its answers, and joind plans without them; they are accepted and
	// shown so that scripts and tools that set them run unchanged.
	{Name: "enable_async_append", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of async append plans."},
	{Name: "enable_bitmapscan", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of bitmap-scan plans."},
	{Name: "enable_gathermerge", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of gather merge plans."},
	{Name: "enable_hashagg", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of hashed aggregation plans."},
	{Name: "enable_hashjoin", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of hash join plans."},
	{Name: "enable_incremental_sort", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of incremental sort steps."},
	{Name: "enable_indexonlyscan", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of index-only-scan plans."},
	{Name: "enable_indexscan", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of index-scan plans."},
	{Name: "enable_material", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of materialization."},
	{Name: "enable_memoize", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of memoization."},
	{Name: "enable_mergejoin", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of merge join plans."},
	{Name: "enable_nestloop", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of nested-loop join plans."},
	{Name: "enable_parallel_append", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of parallel append plans."},
	{Name: "enable_parallel_hash", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of parallel hash plans."},
	{Name: "enable_partition_pruning", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables plan-time and execution-time partition pruning."},
	{Name: "enable_partitionwise_aggregate", Kind: Bool, Boot: "off",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables partitionwise aggregation and grouping."},
	{Name: "enable_partitionwise_join", Kind: Bool, Boot: "off",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables partitionwise join."},
	{Name: "enable_seqscan", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of sequential-scan plans."},
	{Name: "enable_sort", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of explicit sort steps."},
	{Name: "enable_tidscan", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Planner Method Configuration", Desc: "Enables the planner's use of TID scan plans."},
	{Name: "from_collapse_limit", Kind: Int, Boot: "8", Min: 1, Max: 2147483647,
		Category: "Query Tuning / Other Planner Options", Desc: "Sets the FROM-list size beyond which subqueries are not collapsed."},
	{Name: "geqo", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Genetic Query Optimizer", Desc: "Enables genetic query optimization."},
	{Name: "geqo_threshold", Kind: Int, Boot: "12", Min: 2, Max: 2147483647,
		Category: "Query Tuning / Genetic Query Optimizer", Desc: "Sets the threshold of FROM items beyond which GEQO is used."},
	{Name: "jit", Kind: Bool, Boot: "on",
		Category: "Query Tuning / Other Planner Options", Desc: "Allow JIT compilation."},
	{Name: "join_collapse_limit", Kind: Int, Boot: "8", Min: 1, Max: 2147483647,
		Category: "Query Tuning / Other Planner Options", Desc: "Sets the FROM-list size beyond which JOIN constructs are not flattened."},
	{Name: "max_parallel_maintenance_workers", Kind: Int, Boot: "2", Min: 0, Max: 1024,
		Category: "Resource Usage / Asynchronous Behavior", Desc: "Sets the maximum number of parallel processes per maintenance operation."},
	{Name: "max_parallel_workers", Kind: Int, Boot: "8", Min: 0, Max: 1024,
		Category: "Resource Usage / Asynchronous Behavior", Desc: "Sets the maximum number of parallel workers that can be active at one time."},
	{Name: "max_parallel_workers_per_gather", Kind: Int, Boot: "2", Min: 0, Max: 1024,
		Category: "Resource Usage / Asynchronous Behavior", Desc: "Sets the maximum number of parallel processes per executor node."},
}

// byKey indexes the registry by lower-case name.
var byKey = func() map[string]*Setting {
	m := make(map[string]*Setting, len(registry))
	for i, s := range registry {
		s.index = i
		m[strings.ToLower(s.Name)] = s
	}
	return m
}()

// aliases are other spellings of a setting's name (SHOW TIME ZONE).
var aliases = map[string]string{"time zone": "timezone"}

// reservedPrefixes are the placeholder prefixes owned by joind itself: an
// unknown joind.x is an error, not a custom option.
var reservedPrefixes = []string{"joind"}

// Lookup finds a registered setting by name, case-insensitively.
func Lookup(name string) (*Setting, error) {
	key := strings.ToLower(name)
	if a, ok := aliases[key]; ok {
		key = a
	}
	if s, ok := byKey[key]; ok {
		return s, nil
	}
	return nil, unrecognized(name)
}

// All returns the registered settings sorted case-insensitively by name,
// the order of SHOW ALL and pg_settings.
func All() []*Setting {
	out := append([]*Setting(nil), registry...)
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

func unrecognized(name string) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
}

// placeholderName checks that name can be a custom option ("a.b"): it
// returns an error for a name without a dot, with an invalid part, or under
// a reserved prefix.
func placeholderName(name string) error {
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		return unrecognized(name)
	}
	for _, part := range strings.Split(name, ".") {
		if part == "" || !validIdent(part) {
			return pgerr.New("42602", "invalid configuration parameter name \"%s\"", name).
				WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
		}
	}
	for _, p := range reservedPrefixes {
		if strings.EqualFold(name[:dot], p) {
			return pgerr.New("42602", "invalid configuration parameter name \"%s\"", name).
				WithDetail("\"%s\" is a reserved prefix.", p)
		}
	}
	return nil
}

func validIdent(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= 0x80:
		case (r >= '0' && r <= '9') || r == '$':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
