package types

import (
	"encoding/binary"
	"strings"
	"time"
)

// POSIX zone specs with daylight-saving time ("CST7CDT,M4.1.0,M10.5.0",
// "FOO8BAR": without rules, the US ones, as PostgreSQL's posixrules): Go
// reads such a spec as the footer of TZif data, so joind wraps it in a TZif
// file with no transitions and lets package time apply its rules.

// posixRuleZone loads spec as a POSIX TZ string with a DST part; ok is false
// when it is none or package time cannot read it.
func posixRuleZone(spec string) (*time.Location, bool) {
	i := 0
	for i < len(spec) && isAlpha(spec[i]) {
		i++
	}
	// STD (3+ letters), an offset, then DST's name: anything else is no
	// such spec (a plain offset zone is parsePosixZone's).
	if i < 3 || i == len(spec) || !strings.ContainsAny(spec[i:], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
		return nil, false
	}
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
