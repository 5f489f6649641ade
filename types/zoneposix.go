package types

import (
	"encoding/binary"
	"strings"
	"time"
)

// POSIX zone specs as pg_tzset reads them when no zone file has the name
// (PostgreSQL's tzparse): "STDoffset[DST[offset][,rule]]". STD is any run
// of characters that are not digits, ',', '-' or '+' ("B" in '20000101B0'
// is as good a name as "EST"), or "<...>", and may be empty ('+05:30');
// offsets count hours WEST of UTC, [+-]hh[:mm[:ss]] with hh up to 167.

// parsePosixZone reads s as such a spec; ok is false when it is none.
func parsePosixZone(s string) (*time.Location, bool) {
	std, rest, ok := posixZoneName(s)
	if !ok || rest == "" {
		return nil, false
	}
	west, after, ok := posixOffset(rest)
	if !ok {
		return nil, false
	}
	if after == "" {
		if std == "" {
			return bareOffsetZone(-west), true
		}
		return time.FixedZone(std, -west), true
	}
	dst, dstRest, ok := posixZoneName(after)
	if !ok || dst == "" {
		return nil, false
	}
	// Package time insists on 3+ letters in an unquoted name; quoted, any
	// name goes.
	return posixRuleZone("<" + std + ">" + rest[:len(rest)-len(after)] + "<" + dst + ">" + dstRest)
}

// posixZoneName is tzparse's getzname/getqzname.
func posixZoneName(s string) (name, rest string, ok bool) {
	if strings.HasPrefix(s, "<") {
		k := strings.IndexByte(s, '>')
		if k < 0 {
			return "", "", false
		}
		return s[1:k], s[k+1:], true
	}
	i := 0
	for i < len(s) && !isDigit(s[i]) && s[i] != ',' && s[i] != '-' && s[i] != '+' {
		i++
	}
	return s[:i], s[i:], true
}

// posixOffset is tzparse's getoffset: seconds west of UTC and the rest.
func posixOffset(s string) (west int, rest string, ok bool) {
	sign := 1
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	limits := []int{24*7 - 1, 59, 60} // getsecs: hours, minutes, (leap) seconds
	units := []int{3600, 60, 1}
	secs := 0
	for i := range limits {
		if i > 0 {
			if s == "" || s[0] != ':' {
				break
			}
			s = s[1:]
		}
		j, n := 0, 0
		for j < len(s) && isDigit(s[j]) {
			n = n*10 + int(s[j]-'0')
			if n > limits[i] {
				return 0, "", false
			}
			j++
		}
		if j == 0 {
			return 0, "", false
		}
		secs += n * units[i]
		s = s[j:]
	}
	return sign * secs, s, true
}

// POSIX zone specs with daylight-saving time ("CST7CDT,M4.1.0,M10.5.0",
// "FOO8BAR": without rules, the US ones, as PostgreSQL's posixrules): Go
// reads such a spec as the footer of TZif data, so joind wraps it in a TZif
// file with no transitions and lets package time apply its rules.

// posixRuleZone loads spec as a POSIX TZ string with a DST part; ok is false
// when package time cannot read it.
func posixRuleZone(spec string) (*time.Location, bool) {
	const sentinel = "?"
	header := func(b []byte) []byte {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, 0, 1, len(sentinel) + 1} {
			b = binary.BigEndian.AppendUint32(b, uint32(n))
		}
		// one type: offset 0, not DST, named sentinel
		b = append(binary.BigEndian.AppendUint32(b, 0), 0, 0)
		return append(append(b, sentinel...), 0)
	}
	// version 2: the v1 block, the same again with 64-bit times, the footer
	b := header(header(nil))
	b = append(append(append(b, '\n'), spec...), '\n')
	loc, err := time.LoadLocationFromTZData(spec, b)
	if err != nil {
		return nil, false
	}
	// An unreadable footer leaves the sentinel type in force.
	for _, probe := range []int64{0, 15552000} {
		if name, _ := time.Unix(probe, 0).In(loc).Zone(); name == sentinel {
			return nil, false
		}
	}
	return loc, true
}
