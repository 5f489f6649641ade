package engine

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
)

// setting describes one run-time parameter a session can SHOW and SET.
type setting struct {
	name string // canonical spelling, as SHOW ALL prints it
	// dflt is the boot value; user-dependent defaults are filled in at startup.
	dflt string
	// reported settings are sent to the client in ParameterStatus.
	reported bool
	// readOnly settings can be shown but not set.
	readOnly bool
	// check validates and canonicalises a new value (nil: any value).
	check func(v string, cur string) (string, error)
}

// serverVersion is what joind reports as PostgreSQL's version: libpq and
// drivers parse the leading number, psql picks its catalog queries from it.
const serverVersion = "15.0"

var settingList = []setting{
	{name: "application_name", reported: true},
	{name: "client_encoding", dflt: "UTF8", reported: true, check: checkEncoding},
	{name: "client_min_messages", dflt: "notice", check: oneOf("debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error")},
	{name: "DateStyle", dflt: "ISO, MDY", reported: true, check: checkDateStyle},
	{name: "default_transaction_isolation", dflt: "read committed", check: oneOf("serializable", "repeatable read", "read committed", "read uncommitted")},
	{name: "default_transaction_read_only", dflt: "off", reported: true, check: checkBool},
	{name: "extra_float_digits", dflt: "1", check: intRange(-15, 3)},
	{name: "in_hot_standby", dflt: "off", reported: true, readOnly: true},
	{name: "integer_datetimes", dflt: "on", reported: true, readOnly: true},
	{name: "IntervalStyle", dflt: "postgres", reported: true, check: oneOf("postgres", "postgres_verbose", "sql_standard", "iso_8601")},
	// joind.join_mode forces hash joins' partition mode (auto, collect_left,
	// partitioned) where the join's semantics allow it.
	{name: "joind.join_mode", dflt: "auto", check: oneOf("auto", "collect_left", "partitioned")},
	{name: "is_superuser", dflt: "on", reported: true, readOnly: true},
	{name: "lc_collate", dflt: "C.UTF-8", readOnly: true},
	{name: "lc_ctype", dflt: "C.UTF-8", readOnly: true},
	{name: "lc_messages", dflt: "C.UTF-8"},
	{name: "lc_monetary", dflt: "C.UTF-8"},
	{name: "lc_numeric", dflt: "C.UTF-8"},
	{name: "lc_time", dflt: "C.UTF-8"},
	{name: "max_identifier_length", dflt: "63", readOnly: true},
	{name: "search_path", dflt: `"$user", public`},
	{name: "server_encoding", dflt: "UTF8", reported: true, readOnly: true},
	{name: "server_version", dflt: serverVersion, reported: true, readOnly: true},
	{name: "server_version_num", dflt: "150000", readOnly: true},
	{name: "session_authorization", reported: true, readOnly: true},
	{name: "standard_conforming_strings", dflt: "on", reported: true, check: checkOn},
	{name: "statement_timeout", dflt: "0", check: checkDuration},
	{name: "TimeZone", dflt: "UTC", reported: true, check: checkTimeZone},
	{name: "transaction_isolation", dflt: "read committed", check: oneOf("serializable", "repeatable read", "read committed", "read uncommitted")},
	{name: "transaction_read_only", dflt: "off", check: checkBool},
	{name: "work_mem", dflt: "4MB"},
}

// settingsByKey indexes settingList by lower-case name.
var settingsByKey = func() map[string]*setting {
	m := make(map[string]*setting, len(settingList))
	for i := range settingList {
		m[strings.ToLower(settingList[i].name)] = &settingList[i]
	}
	return m
}()

// settingAliases are the spellings SHOW/SET accept for a setting.
var settingAliases = map[string]string{
	"time zone": "timezone",
}

func lookupSetting(name string) (*setting, error) {
	key := strings.ToLower(name)
	if a, ok := settingAliases[key]; ok {
		key = a
	}
	s, ok := settingsByKey[key]
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", name)
	}
	return s, nil
}

// sessionSettings holds a session's current values by lower-case name.
type sessionSettings map[string]string

func newSessionSettings() sessionSettings {
	s := make(sessionSettings, len(settingList))
	for _, st := range settingList {
		s[strings.ToLower(st.name)] = st.dflt
	}
	return s
}

// set validates and stores a value.
func (s sessionSettings) set(name, value string) error {
	st, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if st.readOnly {
		return pgerr.New("55P02", "parameter %q cannot be changed", st.name)
	}
	key := strings.ToLower(st.name)
	if st.check != nil {
		v, err := st.check(value, s[key])
		if err != nil {
			return err
		}
		value = v
	}
	s[key] = value
	return nil
}

func (s sessionSettings) reset(name string) error {
	st, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if st.readOnly {
		return pgerr.New("55P02", "parameter %q cannot be changed", st.name)
	}
	s[strings.ToLower(st.name)] = st.dflt
	return nil
}

// reported returns the ParameterStatus settings by canonical name.
func (s sessionSettings) reported() map[string]string {
	out := map[string]string{}
	for _, st := range settingList {
		if st.reported {
			out[st.name] = s[strings.ToLower(st.name)]
		}
	}
	return out
}

// names returns the canonical names in SHOW ALL order.
func settingNames() []string {
	out := make([]string, len(settingList))
	for i, st := range settingList {
		out[i] = st.name
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

func invalidValue(name, v string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
}

func oneOf(vals ...string) func(string, string) (string, error) {
	return func(v, _ string) (string, error) {
		lv := strings.ToLower(strings.TrimSpace(v))
		for _, ok := range vals {
			if lv == ok {
				return ok, nil
			}
		}
		return "", invalidValue("setting", v).WithHint("Available values: %s.", strings.Join(vals, ", "))
	}
}

func checkBool(v, _ string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return "on", nil
	case "off", "false", "no", "0", "f", "n":
		return "off", nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "parameter requires a Boolean value")
}

func checkOn(v, cur string) (string, error) {
	b, err := checkBool(v, cur)
	if err != nil {
		return "", err
	}
	if b != "on" {
		return "", pgerr.New(pgerr.FeatureNotSupported, "joind supports only standard_conforming_strings = on")
	}
	return b, nil
}

func checkEncoding(v, _ string) (string, error) {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
	case "UTF8", "UNICODE":
		return "UTF8", nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "conversion between %s and UTF8 is not supported", v)
}

func intRange(lo, hi int) func(string, string) (string, error) {
	return func(v, _ string) (string, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"extra_float_digits\": \"%s\"", v)
		}
		if n < lo || n > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%d is outside the valid range for parameter \"extra_float_digits\" (%d .. %d)", n, lo, hi)
		}
		return strconv.Itoa(n), nil
	}
}

// checkDuration accepts statement_timeout values: an integer (milliseconds)
// or a number with a unit (ms, s, min, h, d).
func checkDuration(v, _ string) (string, error) {
	if _, err := parseDurationMS(v); err != nil {
		return "", err
	}
	return strings.TrimSpace(v), nil
}

func parseDurationMS(v string) (int64, error) {
	t := strings.TrimSpace(v)
	units := []struct {
		suffix string
		ms     int64
	}{{"ms", 1}, {"min", 60000}, {"s", 1000}, {"h", 3600000}, {"d", 86400000}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.ms
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"statement_timeout\": \"%s\"", v)
	}
	return n * mult, nil
}

// checkDateStyle canonicalises DateStyle as PostgreSQL does: an output style
// (ISO, Postgres, SQL, German) and a field order (MDY, DMY, YMD); a part not
// given keeps its current value.
func checkDateStyle(v, cur string) (string, error) {
	style, order := "ISO", "MDY"
	if parts := strings.Split(cur, ","); len(parts) == 2 {
		style, order = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch strings.ToLower(f) {
		case "iso":
			style = "ISO"
		case "postgres":
			style = "Postgres"
		case "sql":
			style = "SQL"
		case "german":
			style, order = "German", "DMY"
		case "mdy", "us", "noneuropean":
			order = "MDY"
		case "dmy", "european", "euro":
			order = "DMY"
		case "ymd":
			order = "YMD"
		default:
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"DateStyle\": \"%s\"", v).
				WithDetail("Unrecognized key word: \"%s\".", f)
		}
	}
	return style + ", " + order, nil
}

// checkTimeZone accepts what PostgreSQL accepts for TimeZone.
func checkTimeZone(v, _ string) (string, error) {
	t := strings.TrimSpace(v)
	if _, err := loadZone(t); err != nil {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
	}
	return t, nil
}

// loadZone resolves a TimeZone setting to a location with PostgreSQL's
// rules (names, abbreviations, numeric hours east, POSIX strings west).
func loadZone(name string) (*time.Location, error) {
	return types.LoadTimeZone(name)
}

// saveBlockSettings remembers the settings at BEGIN: SET inside a
// transaction block is undone by ROLLBACK, as in PostgreSQL.
func (s *session) saveBlockSettings() {
	s.blockSettings = make(sessionSettings, len(s.settings))
	for k, v := range s.settings {
		s.blockSettings[k] = v
	}
	s.localSaved = nil
	s.settings["transaction_isolation"] = s.settings["default_transaction_isolation"]
	s.settings["transaction_read_only"] = s.settings["default_transaction_read_only"]
}

// restoreBlockSettings undoes the block's SETs (ROLLBACK, a failed block's
// COMMIT); wire then re-reports the reported ones that changed back.
func (s *session) restoreBlockSettings() {
	if s.blockSettings != nil {
		s.settings, s.blockSettings = s.blockSettings, nil
	}
	s.localSaved = nil
}

// endBlockSettings keeps the block's SETs at COMMIT but undoes its SET
// LOCALs.
func (s *session) endBlockSettings() {
	for k, v := range s.localSaved {
		s.settings[k] = v
	}
	s.blockSettings, s.localSaved = nil, nil
}

// setScoped runs SET LOCAL and SET TRANSACTION (whose values last until
// the block ends); done is false for a plain SET, which then forgets any
// SET LOCAL of the same setting.
func (s *session) setScoped(x *sql.Set) (tag string, err error, done bool) {
	if x.All {
		return "", nil, false
	}
	st, lerr := lookupSetting(x.Name)
	if lerr != nil {
		return "", nil, false
	}
	key := strings.ToLower(st.name)
	if !x.Local {
		delete(s.localSaved, key)
		return "", nil, false
	}
	tag = "SET"
	if x.Reset {
		tag = "RESET"
	}
	if s.tx == txIdle {
		// Outside a block it lasts no longer than the statement: no effect.
		return tag, nil, true
	}
	if _, saved := s.localSaved[key]; !saved {
		if s.localSaved == nil {
			s.localSaved = sessionSettings{}
		}
		s.localSaved[key] = s.settings[key]
	}
	if x.Reset || strings.EqualFold(x.Value, "default") {
		return tag, s.settings.reset(x.Name), true
	}
	return tag, s.settings.set(x.Name, x.Value), true
}

// settingValue is what SHOW and current_setting() report.
func (s *session) settingValue(name string) string {
	key := strings.ToLower(name)
	if s.tx == txIdle && (key == "transaction_isolation" || key == "transaction_read_only") {
		// Outside a block these show the next transaction's: the defaults.
		return s.settings["default_"+key]
	}
	return s.settings[key]
}
