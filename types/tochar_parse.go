package types

import (
	"math"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
)

// to_timestamp(text, text) and to_date(text, text): DCH_from_char and
// do_to_timestamp of PostgreSQL 15's formatting.c (the non-standard mode the
// SQL functions use).

// dchFields is TmFromChar: what the input string set, 0 meaning absent.
type dchFields struct {
	mode                                      int
	hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms  int
	year, bc, ww, w, cc, j, us, yysz, clock12 int
	tzsign, tzh, tzm, ff                      int
}

func errFromChar(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, format, args...)
}

func (f *dchFields) setMode(mode int) error {
	if mode == dateModeNone {
		return nil
	}
	if f.mode == dateModeNone {
		f.mode = mode
	} else if f.mode != mode {
		return errFromChar("invalid combination of date conventions").
			WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
	}
	return nil
}

// setInt is from_char_set_int: a field may be set twice only to the same value.
func setInt(dest *int, v int, n *fmtNode) error {
	if *dest != 0 && *dest != v {
		return errFromChar("conflicting values for \"%s\" field in formatting string", n.key.name).
			WithDetail("This value contradicts a previous setting for the same field type.")
	}
	*dest = v
	return nil
}

// nextIsSeparator is is_next_separator: may the field at nodes[i] read as
// many digits as it finds?
func nextIsSeparator(nodes []fmtNode, i int) bool {
	n := &nodes[i]
	if n.thth() {
		return true
	}
	if i+1 >= len(nodes) {
		return true
	}
	next := &nodes[i+1]
	if next.kind == nodeAction {
		return !next.key.isDigit
	}
	return !(len(next.ch) == 1 && isDigit(next.ch[0]))
}

// cStrtol is strtol(s, &end, 10): leading white space, an optional sign,
// digits. It returns the value, the bytes consumed (0 if no digits) and
// whether the value overflowed a long.
func cStrtol(s string) (v int64, used int, overflow bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		d := int64(s[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			overflow = true
		} else {
			v = v*10 + d
		}
		i++
	}
	if i == start {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, i, overflow
}

// parseIntField is from_char_parse_int_len: read an integer of width l
// (unless FM or the next node is a separator), store it in dest (if not
// nil), and return the number of bytes used.
func parseIntField(dest *int, src *string, l int, nodes []fmtNode, i int) (int, error) {
	n := &nodes[i]
	init := *src
	s := strings.TrimLeft(init, " \t\n\r\v\f")
	cp := s
	if len(cp) > l {
		cp = cp[:l]
	}
	var v int64
	var overflow bool
	if n.fm() || nextIsSeparator(nodes, i) {
		var used int
		v, used, overflow = cStrtol(init)
		*src = init[used:]
	} else {
		if len(cp) < l {
			return 0, errFromChar("source string too short for \"%s\" formatting field", n.key.name).
				WithDetail("Field requires %d characters, but only %d remain.", l, len(cp)).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		var used int
		v, used, overflow = cStrtol(cp)
		if used > 0 && used < l {
			return 0, errFromChar("invalid value \"%s\" for \"%s\"", cp, n.key.name).
				WithDetail("Field requires %d characters, but only %d could be parsed.", l, used).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		*src = s[used:]
	}
	if len(*src) == len(init) {
		return 0, errFromChar("invalid value \"%s\" for \"%s\"", cp, n.key.name).
			WithDetail("Value must be an integer.")
	}
	if overflow || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "value for \"%s\" in source string is out of range", n.key.name).
			WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
	}
	if dest != nil {
		if err := setInt(dest, int(v), n); err != nil {
			return 0, err
		}
	}
	return len(init) - len(*src), nil
}

// seqSearch is from_char_seq_search over ASCII words: the index of the
// entry that the start of *src matches case-insensitively.
func seqSearch(src *string, words []string, n *fmtNode) (int, error) {
	s := *src
	for i, w := range words {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			*src = s[len(w):]
			return i, nil
		}
	}
	word := s
	if k := strings.IndexAny(word, " \t\n\r\v\f"); k >= 0 {
		word = word[:k]
	}
	return 0, errFromChar("invalid value \"%s\" for \"%s\"", word, n.key.name).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

var (
	ampmLong  = []string{"a.m.", "p.m.", "A.M.", "P.M."}
	ampmShort = []string{"am", "pm", "AM", "PM"}
	adbcLong  = []string{"a.d.", "b.c.", "A.D.", "B.C."}
	adbcShort = []string{"ad", "bc", "AD", "BC"}
)

// skipTH skips the two characters of a TH/th suffix.
func skipTH(s string, n *fmtNode) string {
	if n.thth() {
		for k := 0; k < 2 && s != ""; k++ {
			s = s[charLen(s):]
		}
	}
	return s
}

// dchFromChar is DCH_from_char; std is the standard mode (FX from the
// start, separators and quoted characters matched exactly, nothing left
// over on either side).
func dchFromChar(nodes []fmtNode, in string, out *dchFields, std bool) error {
	s := in
	fx := std
	extraSkip := 0 // characters skipped beyond what the template asked for
	trimSpaces := func() {
		for s != "" && isCSpace(s[0]) {
			s = s[1:]
			extraSkip++
		}
	}
	i := 0
	for ; i < len(nodes) && s != ""; i++ {
		n := &nodes[i]
		// spaces before a field (and at the start) are ignored unless FX
		if !fx && (n.kind != nodeAction || n.key.id != dchFX) && (n.kind == nodeAction || i == 0) {
			trimSpaces()
		}
		switch n.kind {
		case nodeSpace, nodeSeparator:
			if std {
				// standard mode: the input has this very separator
				if s[0] != n.ch[0] {
					return errFromChar("unmatched format separator \"%c\"", n.ch[0])
				}
				s = s[1:]
			} else if !fx {
				// one template separator matches one input separator or none
				extraSkip--
				if s != "" && (isCSpace(s[0]) || isSeparatorChar(s[0])) {
					s = s[1:]
					extraSkip++
				}
			} else {
				s = s[charLen(s):]
			}
			continue
		case nodeChar:
			// a literal consumes one input character, matching or not
			if !fx && extraSkip > 0 {
				extraSkip--
			} else {
				l := charLen(s)
				if std && s[:l] != n.ch {
					return errFromChar("unmatched format character \"%s\"", n.ch)
				}
				s = s[l:]
			}
			continue
		}
		if err := out.setMode(n.key.mode); err != nil {
			return err
		}
		var err error
		field := func(dest *int, l int) {
			if err == nil {
				_, err = parseIntField(dest, &s, l, nodes, i)
				s = skipTH(s, n)
			}
		}
		kl := len(n.key.name)
		switch n.key.id {
		case dchFX:
			fx = true
		case dchAM_, dchPM_, dcham_, dchpm_, dchAM, dchPM, dcham, dchpm:
			words := ampmShort
			if strings.Contains(n.key.name, ".") {
				words = ampmLong
			}
			var v int
			if v, err = seqSearch(&s, words, n); err == nil {
				err = setInt(&out.pm, v%2, n)
				out.clock12 = 1
			}
		case dchHH, dchHH12:
			field(&out.hh, 2)
			out.clock12 = 1
		case dchHH24:
			field(&out.hh, 2)
		case dchMI:
			field(&out.mi, kl)
		case dchSS:
			field(&out.ss, kl)
		case dchMS:
			var l int
			if l, err = parseIntField(&out.ms, &s, 3, nodes, i); err == nil {
				// 25 is 0.25 and 250 is 0.25 too; 025 is 0.025
				out.ms *= pick(l == 1, 100, pick(l == 2, 10, 1))
				s = skipTH(s, n)
			}
		case dchFF1, dchFF2, dchFF3, dchFF4, dchFF5, dchFF6, dchUS:
			l := 6
			if n.key.id != dchUS {
				out.ff = n.key.id - dchFF1 + 1
				l = out.ff
			}
			var used int
			if used, err = parseIntField(&out.us, &s, l, nodes, i); err == nil {
				for k := used; k < 6; k++ {
					out.us *= 10
				}
				s = skipTH(s, n)
			}
		case dchSSSS:
			field(&out.ssss, kl)
		case dchtz, dchTZ, dchOF:
			return pgerr.New(pgerr.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", n.key.name)
		case dchTZH:
			// a minus taken as a separator may be TZH's sign
			if s != "" && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
				out.tzsign = pick(s[0] == '-', -1, 1)
				s = s[1:]
			} else if extraSkip > 0 && len(s) < len(in) && in[len(in)-len(s)-1] == '-' {
				out.tzsign = -1
			} else {
				out.tzsign = 1
			}
			_, err = parseIntField(&out.tzh, &s, 2, nodes, i)
		case dchTZM:
			if out.tzsign == 0 {
				out.tzsign = 1
			}
			_, err = parseIntField(&out.tzm, &s, 2, nodes, i)
		case dchAD_, dchBC_, dchad_, dchbc_, dchAD, dchBC, dchad, dchbc:
			words := adbcShort
			if strings.Contains(n.key.name, ".") {
				words = adbcLong
			}
			var v int
			if v, err = seqSearch(&s, words, n); err == nil {
				err = setInt(&out.bc, v%2, n)
			}
		case dchMONTH, dchMonth, dchmonth, dchMON, dchMon, dchmon:
			words := monthsShort
			if kl == 5 {
				words = monthsFull
			}
			var v int
			if v, err = seqSearch(&s, words, n); err == nil {
				err = setInt(&out.mm, v+1, n)
			}
		case dchMM:
			field(&out.mm, kl)
		case dchDAY, dchDay, dchday, dchDY, dchDy, dchdy:
			words := daysShort
			if kl == 3 {
				words = daysFull
			}
			var v int
			if v, err = seqSearch(&s, words, n); err == nil {
				err = setInt(&out.d, v, n)
				out.d++
			}
		case dchDDD:
			field(&out.ddd, kl)
		case dchIDDD:
			field(&out.ddd, 3)
		case dchDD:
			field(&out.dd, kl)
		case dchD:
			field(&out.d, kl)
		case dchID:
			field(&out.d, 1)
			// Sunday = 1, as in Gregorian numbering
			if out.d++; out.d > 7 {
				out.d = 1
			}
		case dchWW, dchIW:
			field(&out.ww, kl)
		case dchQ:
			// parsed, but a quarter does not pick a date
			field(nil, kl)
		case dchCC:
			field(&out.cc, kl)
		case dchY_YYY:
			millennia, years, used, ok := scanYYYY(s)
			if !ok {
				return errFromChar("invalid input string for \"Y,YYY\"")
			}
			if err = setInt(&out.year, years+millennia*1000, n); err == nil {
				out.yysz = 4
				s = skipTH(s[used:], n)
			}
		case dchYYYY, dchIYYY:
			field(&out.year, kl)
			out.yysz = 4
		case dchYYY, dchIYY, dchYY, dchIY, dchY, dchI:
			var l int
			if l, err = parseIntField(&out.year, &s, kl, nodes, i); err == nil {
				if l < 4 {
					out.year = adjustPartialYear(out.year)
				}
				out.yysz = kl
				s = skipTH(s, n)
			}
		case dchRM, dchrm:
			var v int
			if v, err = seqSearch(&s, romanMonthsLower, n); err == nil {
				err = setInt(&out.mm, 12-v, n)
			}
		case dchW:
			field(&out.w, kl)
		case dchJ:
			field(&out.j, kl)
		}
		if err != nil {
			return err
		}
		// spaces after a field are ignored too
		if !fx {
			extraSkip = 0
			trimSpaces()
		}
	}
	if std {
		// the standard mode leaves neither a field nor input unmatched
		if i < len(nodes) {
			return errFromChar("input string is too short for datetime format")
		}
		if strings.TrimLeft(s, " \t\n\r\v\f") != "" {
			return errFromChar("trailing characters remain in input string after datetime format")
		}
	}
	return nil
}

// scanYYYY is sscanf(s, "%d,%03d%n").
func scanYYYY(s string) (millennia, years, used int, ok bool) {
	m, u, _ := cStrtol(s)
	if u == 0 || u >= len(s) || s[u] != ',' {
		return 0, 0, 0, false
	}
	rest := s[u+1:]
	j := 0
	for j < len(rest) && isCSpace(rest[j]) {
		j++
	}
	k := j
	if k < len(rest) && (rest[k] == '+' || rest[k] == '-') {
		k++
	}
	for k < len(rest) && k-j < 3 && isDigit(rest[k]) {
		k++
	}
	y, err := strconv.Atoi(rest[j:k])
	if err != nil {
		return 0, 0, 0, false
	}
	return int(m), y, u + 1 + k, true
}

// adjustPartialYear is adjust_partial_year_to_2020.
func adjustPartialYear(y int) int {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

// dchResult is the broken-down result of do_to_timestamp.
type dchResult struct {
	year, mon, mday, hour, min, sec int
	fsec                            int64
	fprec                           int
	hasZone                         bool
	zoneEast                        int // seconds east of UTC
	flags                           int // dchDated | dchTimed | dchZoned, in standard mode
}

// The kinds of field a template has (DCH_DATED, DCH_TIMED, DCH_ZONED).
const (
	dchDated = 1 << iota
	dchTimed
	dchZoned
)

// dchDatetimeType is DCH_datetime_type: which of date, time and zone
// fields the template has.
func dchDatetimeType(nodes []fmtNode) (int, error) {
	flags := 0
	for i := range nodes {
		n := &nodes[i]
		if n.kind != nodeAction {
			continue
		}
		switch n.key.id {
		case dchFX:
		case dchAM_, dchPM_, dcham_, dchpm_, dchAM, dchPM, dcham, dchpm, dchHH, dchHH12, dchHH24,
			dchMI, dchSS, dchMS, dchUS, dchFF1, dchFF2, dchFF3, dchFF4, dchFF5, dchFF6, dchSSSS:
			flags |= dchTimed
		case dchtz, dchTZ, dchOF:
			return 0, errFromChar("formatting field \"%s\" is only supported in to_char", n.key.name)
		case dchTZH, dchTZM:
			flags |= dchZoned
		default:
			flags |= dchDated
		}
	}
	return flags, nil
}

var daysInMonthTab = [2][13]int{
	{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
	{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366},
}

// doToTimestamp is do_to_timestamp (std: in standard mode, which also
// reports the kinds of field the template has in the result's flags).
func doToTimestamp(in, tmpl string, std bool) (dchResult, error) {
	tm := dchResult{mon: 1, mday: 1}
	var f dchFields
	if tmpl != "" {
		cache := &dchCache
		if std {
			cache = &dchStdCache
		}
		t := cache.get(tmpl, true)
		if t.err != nil {
			return tm, t.err
		}
		if err := dchFromChar(t.nodes, in, &f, std); err != nil {
			return tm, err
		}
		if std {
			var err error
			if tm.flags, err = dchDatetimeType(t.nodes); err != nil {
				return tm, err
			}
		}
	}
	const (
		mYear = 1 << iota
		mMonth
		mDay
	)
	fmask := 0
	if f.ssss != 0 {
		tm.hour, tm.min, tm.sec = f.ssss/3600, f.ssss%3600/60, f.ssss%60
	}
	if f.ss != 0 {
		tm.sec = f.ss
	}
	if f.mi != 0 {
		tm.min = f.mi
	}
	if f.hh != 0 {
		tm.hour = f.hh
	}
	if f.clock12 != 0 {
		if tm.hour < 1 || tm.hour > 12 {
			return tm, errFromChar("hour \"%d\" is invalid for the 12-hour clock", tm.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if f.pm != 0 && tm.hour < 12 {
			tm.hour += 12
		} else if f.pm == 0 && tm.hour == 12 {
			tm.hour = 0
		}
	}
	switch {
	case f.year != 0:
		if f.cc != 0 && f.yysz <= 2 {
			// CC with YY: YY are the low digits of a year in that century
			if f.bc != 0 {
				f.cc = -f.cc
			}
			tm.year = f.year % 100
			if tm.year != 0 {
				if f.cc >= 0 {
					tm.year += (f.cc - 1) * 100
				} else {
					tm.year = (f.cc+1)*100 - tm.year + 1
				}
			} else {
				tm.year = f.cc*100 + pick(f.cc >= 0, 0, 1)
			}
		} else {
			tm.year = f.year
			if f.bc != 0 {
				tm.year = -tm.year
			}
			if tm.year < 0 {
				tm.year++
			}
		}
		fmask |= mYear
	case f.cc != 0:
		if f.bc != 0 {
			f.cc = -f.cc
		}
		if f.cc >= 0 {
			tm.year = (f.cc-1)*100 + 1
		} else {
			tm.year = f.cc*100 + 1
		}
		fmask |= mYear
	}
	if f.j != 0 {
		tm.year, tm.mon, tm.mday = j2date(f.j)
		fmask |= mYear | mMonth | mDay
	}
	if f.ww != 0 {
		if f.mode == dateModeISOWeek {
			jd := isoWeek2j(tm.year, f.ww)
			if f.d != 0 {
				// Gregorian week day (Sunday = 1) to ISO (Monday first)
				jd += pick(f.d > 1, f.d-2, 6)
			}
			tm.year, tm.mon, tm.mday = j2date(jd)
			fmask |= mYear | mMonth | mDay
		} else {
			f.ddd = (f.ww-1)*7 + 1
		}
	}
	if f.w != 0 {
		f.dd = (f.w-1)*7 + 1
	}
	if f.dd != 0 {
		tm.mday = f.dd
		fmask |= mDay
	}
	if f.mm != 0 {
		tm.mon = f.mm
		fmask |= mMonth
	}
	if f.ddd != 0 && (tm.mon <= 1 || tm.mday <= 1) {
		if tm.year == 0 && f.bc == 0 {
			return tm, errFromChar("cannot calculate day of year without year information")
		}
		if f.mode == dateModeISOWeek {
			j0 := isoWeek2j(tm.year, 1) - 1
			tm.year, tm.mon, tm.mday = j2date(j0 + f.ddd)
			fmask |= mYear | mMonth | mDay
		} else {
			y := &daysInMonthTab[pick(isLeap(tm.year), 1, 0)]
			i := 1
			for ; i <= 12; i++ {
				if f.ddd <= y[i] {
					break
				}
			}
			if tm.mon <= 1 {
				tm.mon = i
			}
			if tm.mday <= 1 {
				tm.mday = f.ddd - y[i-1]
			}
			fmask |= mMonth | mDay
		}
	}
	if f.ms != 0 {
		tm.fsec += int64(f.ms) * 1000
	}
	if f.us != 0 {
		tm.fsec += int64(f.us)
	}
	tm.fprec = f.ff
	// ValidateDate with the AD/BC adjustment already made
	if fmask&mMonth != 0 && (tm.mon < 1 || tm.mon > 12) {
		return tm, dtRangeErr(in)
	}
	if fmask&mDay != 0 && (tm.mday < 1 || tm.mday > 31) {
		return tm, dtRangeErr(in)
	}
	if fmask == mYear|mMonth|mDay && tm.mday > daysIn(tm.year, tm.mon) {
		return tm, dtRangeErr(in)
	}
	if tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 || tm.sec < 0 || tm.sec >= 60 ||
		tm.fsec < 0 || tm.fsec >= usecsPerSec {
		return tm, dtRangeErr(in)
	}
	if f.tzsign != 0 {
		if f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60 {
			return tm, pgerr.New(codeTZDisplacement, "time zone displacement out of range: \"%s\"", in)
		}
		tm.hasZone = true
		tm.zoneEast = f.tzsign * (f.tzh*3600 + f.tzm*60)
	}
	return tm, nil
}

// validJulian is IS_VALID_JULIAN: from 4714-11-24 BC on.
func validJulian(y, m, d int) bool {
	return y > -4713 || (y == -4713 && (m > 11 || (m == 11 && d >= 24)))
}

func toTimestampText(ctx *EvalContext, in, tmpl string) (Value, error) {
	tm, err := doToTimestamp(in, tmpl, false)
	if err != nil {
		return Value{}, err
	}
	outOfRange := func() (Value, error) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
	}
	if !validJulian(tm.year, tm.mon, tm.mday) || tm.year > 294277 {
		return outOfRange()
	}
	days := int64(date2j(tm.year, tm.mon, tm.mday) - unixEpochJD)
	if days > (math.MaxInt64-usecsPerDay)/usecsPerDay {
		return outOfRange() // past what joind's µs-since-1970 can hold
	}
	wall := days*usecsPerDay + ((int64(tm.hour)*60+int64(tm.min))*60+int64(tm.sec))*usecsPerSec + tm.fsec
	var ts int64
	if tm.hasZone {
		ts = wall - int64(tm.zoneEast)*usecsPerSec
	} else {
		ts = localToTZ(wall, ctxZone(ctx))
	}
	if !tsValid(ts) {
		return outOfRange()
	}
	if tm.fprec != 0 {
		ts = roundTimestamp(ts, int32(tm.fprec))
	}
	return Value{I: ts}, nil
}

func toDateText(in, tmpl string) (Value, error) {
	tm, err := doToTimestamp(in, tmpl, false)
	if err != nil {
		return Value{}, err
	}
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", in)
	}
	jd := date2j(tm.year, tm.mon, tm.mday)
	if !dateValid(jd) {
		return Value{}, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", in)
	}
	return Value{I: int64(jd - unixEpochJD)}, nil
}
