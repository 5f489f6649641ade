package settings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// Normalize validates a value for s and returns its canonical form (for an
// integer, the number in its base unit). cur is the current value; name is
// the spelling the user wrote, which PostgreSQL's parse errors quote.
func (s *Setting) Normalize(v, cur, name string) (string, error) {
	return s.normalize(v, cur, name, false)
}

// contextError is PostgreSQL's refusal to change s from a session (or,
// startup, from the startup packet), nil where its context allows it.
func (s *Setting) contextError(startup bool) error {
	switch s.Context {
	case Internal:
		return pgerr.New("55P02", "parameter \"%s\" cannot be changed", s.Name)
	case Postmaster:
		return pgerr.New("55P02", "parameter \"%s\" cannot be changed without restarting the server", s.Name)
	case Sighup:
		return pgerr.New("55P02", "parameter \"%s\" cannot be changed now", s.Name)
	case Backend, SuperuserBackend:
		if !startup {
			return pgerr.New("55P02", "parameter \"%s\" cannot be set after connection start", s.Name)
		}
	}
	return nil
}

func (s *Setting) normalize(v, cur, name string, startup bool) (string, error) {
	if err := s.contextError(startup); err != nil {
		return "", err
	}
	c, err := s.canonical(v, cur, name)
	if err == nil && s.OnlyDefault && c != s.Boot {
		return "", pgerr.New(pgerr.FeatureNotSupported, "joind supports only %s = '%s'", s.Name, s.Show(s.Boot))
	}
	return c, err
}

func (s *Setting) canonical(v, cur, name string) (string, error) {
	switch s.Kind {
	case Bool:
		b, ok := parseBool(v)
		if !ok {
			return "", pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", name)
		}
		out := "off"
		if b {
			out = "on"
		}
		if s.Check != nil {
			return s.Check(out, cur)
		}
		return out, nil
	case Int:
		n, err := s.parseInt(v, name)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(n, 10), nil
	case Real:
		f, err := s.parseReal(v, name)
		if err != nil {
			return "", err
		}
		return formatG(f), nil
	case Enum:
		lv := strings.ToLower(strings.TrimSpace(v))
		for _, ok := range s.Values {
			if lv == ok {
				return ok, nil
			}
		}
		if h, ok := s.Hidden[lv]; ok {
			return h, nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: %s.", strings.Join(s.Values, ", "))
	}
	if s.Check != nil {
		return s.Check(v, cur)
	}
	return v, nil
}

// Show renders a canonical value as SHOW prints it: an integer with a unit
// in the largest unit that divides it.
func (s *Setting) Show(v string) string {
	if s.Unit == NoUnit {
		return v
	}
	switch s.Kind {
	case Int:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return v
		}
		// The first (largest) unit that divides the value, as guc.c's
		// convert_int_from_base_unit.
		for _, u := range unitTable[s.Unit] {
			if u.mult <= 1 || n%int64(u.mult) == 0 {
				return strconv.FormatInt(int64(math.Round(float64(n)/u.mult)), 10) + u.name
			}
		}
	case Real:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return v
		}
		// The first unit that gives (nearly) an integer, else the
		// smallest: convert_real_from_base_unit.
		var out float64
		var name string
		for _, u := range unitTable[s.Unit] {
			out, name = f/u.mult, u.name
			if out > 0 && math.Abs(math.Round(out)/out-1) <= 1e-8 {
				break
			}
		}
		return formatG(out) + name
	}
	return v
}

// formatG is C's printf("%g"), how guc.c prints a real setting.
func formatG(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	// Go writes a one-digit exponent as e+1; C pads it to two digits.
	if i := strings.IndexAny(s, "e"); i >= 0 && len(s)-i == 3 {
		s = s[:i+2] + "0" + s[i+2:]
	}
	return s
}

// Int64 returns the integer value of an Int setting's canonical value.
func Int64(v string) int64 {
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y", "tr", "tru", "ye":
		return true, true
	case "off", "false", "no", "0", "f", "n", "of", "fa", "fal", "fals":
		return false, true
	}
	return false, false
}

type unit struct {
	name string
	mult float64 // in base units
}

// unitTable lists each base unit's units from the largest, as guc.c's
// conversion tables do.
var unitTable = map[Unit][]unit{
	Milliseconds: {{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}, {"us", 1.0 / 1000}},
	Seconds:      {{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}, {"ms", 1.0 / 1000}, {"us", 1.0 / 1000000}},
	Minutes:      {{"d", 1440}, {"h", 60}, {"min", 1}, {"s", 1.0 / 60}, {"ms", 1.0 / 60000}, {"us", 1.0 / 60000000}},
	Bytes:        {{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}},
	Kilobytes:    {{"TB", 1 << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}, {"kB", 1}, {"B", 1.0 / 1024}},
	Blocks:       {{"TB", 1 << 27}, {"GB", 1 << 17}, {"MB", 1 << 7}, {"kB", 1.0 / 8}, {"B", 1.0 / 8192}},
	Megabytes:    {{"TB", 1 << 20}, {"GB", 1 << 10}, {"MB", 1}, {"kB", 1.0 / 1024}, {"B", 1.0 / (1 << 20)}},
}

const (
	timeUnitsHint   = `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`
	memoryUnitsHint = `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`
)

var unitHints = map[Unit]string{
	Milliseconds: timeUnitsHint, Seconds: timeUnitsHint, Minutes: timeUnitsHint,
	Bytes: memoryUnitsHint, Kilobytes: memoryUnitsHint, Blocks: memoryUnitsHint, Megabytes: memoryUnitsHint,
}

// parseInt reads an integer setting as guc.c's parse_int: a number
// (fractions round), optionally followed by a unit, converted to the base
// unit, within [Min, Max].
func (s *Setting) parseInt(v, name string) (int64, error) {
	bad := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
	t := strings.TrimSpace(v)
	i := 0
	for i < len(t) && (t[i] == '+' || t[i] == '-' || t[i] == '.' || (t[i] >= '0' && t[i] <= '9') ||
		((t[i] == 'e' || t[i] == 'E') && i > 0)) {
		i++
	}
	num, rest := t[:i], strings.TrimSpace(t[i:])
	var f float64
	if n, err := strconv.ParseInt(num, 0, 64); err == nil {
		f = float64(n)
	} else if x, err := strconv.ParseFloat(num, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
		f = x
	} else {
		return 0, bad()
	}
	if rest != "" {
		var ok bool
		if f, ok = s.toBaseUnit(f, rest); !ok {
			if s.Unit == NoUnit {
				return 0, bad()
			}
			return 0, bad().WithHint("%s", unitHints[s.Unit])
		}
	}
	f = math.RoundToEven(f)
	if f > math.MaxInt32 || f < math.MinInt32 {
		return 0, bad().WithHint("Value exceeds integer range.")
	}
	n := int64(f)
	if n < s.Min || n > s.Max {
		u := ""
		if s.Unit != NoUnit {
			u = " " + s.Unit.String()
		}
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%d .. %d)",
			n, u, name, s.Min, s.Max)
	}
	return n, nil
}

// toBaseUnit converts f of unit name to s's base unit, as guc.c's
// convert_to_base_unit: the value is rounded to a whole number of the
// next smaller unit, if the table has one.
func (s *Setting) toBaseUnit(f float64, name string) (float64, bool) {
	table := unitTable[s.Unit]
	for j, u := range table {
		if u.name == name {
			f *= u.mult
			if j+1 < len(table) {
				f = math.Round(f/table[j+1].mult) * table[j+1].mult
			}
			return f, true
		}
	}
	return 0, false
}

// parseReal reads a real setting as guc.c's parse_real: a number,
// optionally followed by a unit, within [RealMin, RealMax].
func (s *Setting) parseReal(v, name string) (float64, error) {
	bad := pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	t := strings.TrimSpace(v)
	i := 0
	for i < len(t) && strings.IndexByte("+-.0123456789eE", t[i]) >= 0 {
		i++
	}
	f, err := strconv.ParseFloat(t[:i], 64)
	if err != nil || math.IsNaN(f) {
		return 0, bad
	}
	if rest := strings.TrimSpace(t[i:]); rest != "" {
		var ok bool
		if f, ok = s.toBaseUnit(f, rest); !ok {
			if s.Unit == NoUnit {
				return 0, bad
			}
			return 0, bad.WithHint("%s", unitHints[s.Unit])
		}
	}
	if f < s.RealMin || f > s.RealMax {
		u := ""
		if s.Unit != NoUnit {
			u = " " + s.Unit.String()
		}
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%s%s is outside the valid range for parameter \"%s\" (%s .. %s)",
			formatG(f), u, name, formatG(s.RealMin), formatG(s.RealMax))
	}
	return f, nil
}

// ---- check hooks -----------------------------------------------------------

func checkAppName(v, _ string) (string, error) {
	// Non-ASCII bytes become '?', as PostgreSQL's check_application_name.
	b := []byte(v)
	for i, c := range b {
		if c < 32 || c > 126 {
			b[i] = '?'
		}
	}
	return string(b), nil
}

func checkEncoding(v, _ string) (string, error) {
	switch strings.ToUpper(strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(v), "-", ""), "_", "")) {
	case "UTF8", "UNICODE":
		return "UTF8", nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "conversion between %s and UTF8 is not supported", v)
}

func checkStandardStrings(v, _ string) (string, error) {
	if v != "on" {
		return "", pgerr.New(pgerr.FeatureNotSupported, "joind supports only standard_conforming_strings = on")
	}
	return v, nil
}

// checkLocale accepts the locales joind has: C and C.UTF-8 (POSIX is C).
func checkLocale(name string) func(string, string) (string, error) {
	return func(v, _ string) (string, error) {
		switch t := strings.TrimSpace(v); t {
		case "", "C", "POSIX", "C.UTF-8", "C.utf8":
			return t, nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
}

// Flatten turns SET's list of values into one value string as guc.c's
// flatten_set_variable_args: only List settings take several, and
// ListQuote ones quote each element as an identifier.
func (s *Setting) Flatten(args []string, name string) (string, error) {
	if len(args) != 1 && !s.List {
		return "", pgerr.New(pgerr.InvalidParameterValue, "SET %s takes only one argument", name)
	}
	if !s.ListQuote {
		return strings.Join(args, ", "), nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = quoteIdent(a)
	}
	return strings.Join(out, ", "), nil
}

// quoteIdent quotes an identifier unless it is lower-case letters, digits
// and underscores not starting with a digit.
func quoteIdent(s string) string {
	safe := s != ""
	for i, r := range s {
		if !(r == '_' || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9')) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// checkDateStyle canonicalises DateStyle as PostgreSQL's check_datestyle:
// an output style (ISO, Postgres, SQL, German) and a field order (MDY, DMY,
// YMD); a part not given keeps its current value.
func checkDateStyle(v, cur string) (string, error) {
	style, order := "ISO", "MDY"
	if parts := strings.Split(cur, ","); len(parts) == 2 {
		style, order = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	newStyle, newOrder := "", ""
	conflict := false
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		var st, ord string
		switch strings.ToLower(f) {
		case "iso":
			st = "ISO"
		case "postgres":
			st = "Postgres"
		case "sql":
			st = "SQL"
		case "german":
			st = "German"
			if newOrder == "" {
				// German implies DMY unless an order is given too.
				order = "DMY"
			}
		case "mdy", "us", "noneuropean":
			ord = "MDY"
		case "dmy", "european", "euro":
			ord = "DMY"
		case "ymd":
			ord = "YMD"
		case "default":
			st, ord = "ISO", "MDY"
			if newStyle == "" {
				newStyle = st
			}
			if newOrder == "" {
				newOrder = ord
			}
			continue
		default:
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"DateStyle\": \"%s\"", v).
				WithDetail("Unrecognized key word: \"%s\".", f)
		}
		if st != "" {
			if newStyle != "" && newStyle != st {
				conflict = true
			}
			newStyle = st
		}
		if ord != "" {
			if newOrder != "" && newOrder != ord {
				conflict = true
			}
			newOrder = ord
		}
	}
	if conflict {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"DateStyle\": \"%s\"", v).
			WithDetail("Conflicting \"datestyle\" specifications.")
	}
	if newStyle != "" {
		style = newStyle
	}
	if newOrder != "" {
		order = newOrder
	}
	return style + ", " + order, nil
}

// checkTimeZone accepts what PostgreSQL accepts for TimeZone and returns
// what SHOW prints: the zone's name as the time zone database spells it, a
// number of hours as its POSIX form ('5' is '<+05>-05'), other POSIX specs
// as written.
func checkTimeZone(v, _ string) (string, error) {
	t := strings.TrimSpace(v)
	if len(t) > 8 && strings.EqualFold(t[:8], "interval") {
		// SET TIME ZONE INTERVAL '...': its time part, hours east.
		bad := pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
		q := strings.TrimSpace(t[8:])
		if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
			return "", bad
		}
		iv, err := types.ParseText(strings.ReplaceAll(q[1:len(q)-1], "''", "'"), types.IntervalType)
		if err != nil {
			return "", bad
		}
		if iv.Iv.Months != 0 {
			return "", bad.WithDetail("Cannot specify months in time zone interval.")
		}
		if iv.Iv.Days != 0 {
			return "", bad.WithDetail("Cannot specify days in time zone interval.")
		}
		t = strconv.FormatFloat(float64(iv.Iv.Micros)/3.6e9, 'g', -1, 64)
	}
	loc, err := types.LoadTimeZone(t)
	if err != nil {
		e := pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
		if pe, ok := err.(*pgerr.Error); ok && strings.Contains(pe.Message, "out of range") {
			e = e.WithDetail("%s", pe.Message)
		}
		return "", e
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		_, off := time.Unix(0, 0).In(loc).Zone()
		return "<" + zoneOffset(off) + ">" + zoneOffset(-off), nil
	}
	// pg_tz_acceptable (names only, not hours): a zone whose local clock is
	// off a whole minute at 2000-01-01 00:00 UTC is taken for one counting
	// leap seconds (a POSIX spec's offset can have seconds: 'B1:2:3').
	if time.Unix(946684800, 0).In(loc).Second() != 0 {
		return "", pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" appears to use leap seconds", v).WithDetail("PostgreSQL does not support leap seconds.")
	}
	if strings.EqualFold(loc.String(), t) {
		return loc.String(), nil
	}
	return t, nil
}

// zoneOffset formats seconds east as [+-]hh[:mm[:ss]].
func zoneOffset(east int) string {
	sign := '+'
	if east < 0 {
		sign, east = '-', -east
	}
	h, m, s := east/3600, east/60%60, east%60
	out := fmt.Sprintf("%c%02d", sign, h)
	if m != 0 || s != 0 {
		out += fmt.Sprintf(":%02d", m)
	}
	if s != 0 {
		out += fmt.Sprintf(":%02d", s)
	}
	return out
}
