package types

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// Template patterns of to_char, to_number, to_date and to_timestamp, as
// PostgreSQL 15's formatting.c parses them: a template is cut into nodes,
// each a keyword (with FM/TM prefix and TH/th/SP suffix for the datetime
// family), a literal character, a separator or a space. tochar_datetime.go
// and tochar_number.go run the nodes; this file holds the keyword tables and
// the parser both families share.

type fmtNodeKind uint8

const (
	nodeAction fmtNodeKind = iota + 1
	nodeChar
	nodeSeparator
	nodeSpace
)

// Datetime suffix bits (DCH_S_*).
const (
	sufFM = 1 << iota
	sufTH
	sufth
	sufSP
	sufTM
)

// fmtKeyword is one template pattern. name is as the template spells it
// (errors quote it); isDigit says the field reads digits (is_next_separator);
// mode is the date convention it belongs to.
type fmtKeyword struct {
	name    string
	id      int
	isDigit bool
	mode    int
}

type fmtNode struct {
	kind   fmtNodeKind
	key    *fmtKeyword
	suffix int
	ch     string
}

func (n *fmtNode) fm() bool   { return n.suffix&sufFM != 0 }
func (n *fmtNode) thth() bool { return n.suffix&(sufTH|sufth) != 0 }

// Date conventions a datetime field belongs to (FROM_CHAR_DATE_*).
const (
	dateModeNone = iota
	dateModeGregorian
	dateModeISOWeek
)

// fmtKeywordIndex groups keywords by first byte, keeping the table's order:
// longer spellings come first ("HH24" before "HH"), so the first prefix
// match wins, as index_seq_search's does.
type fmtKeywordIndex map[byte][]*fmtKeyword

func newKeywordIndex(kws []fmtKeyword) fmtKeywordIndex {
	idx := fmtKeywordIndex{}
	for i := range kws {
		k := &kws[i]
		idx[k.name[0]] = append(idx[k.name[0]], k)
	}
	return idx
}

func (idx fmtKeywordIndex) search(s string) *fmtKeyword {
	if s == "" || s[0] <= ' ' || s[0] >= 127 {
		return nil
	}
	for _, k := range idx[s[0]] {
		if strings.HasPrefix(s, k.name) {
			return k
		}
	}
	return nil
}

// isSeparatorChar is an ASCII printable character that is not a letter or digit.
func isSeparatorChar(c byte) bool {
	return c > 0x20 && c < 0x7F && !isAlpha(c) && !isDigit(c)
}

func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// charLen is pg_mblen: the byte length of the UTF-8 character s starts with.
func charLen(s string) int {
	if s == "" {
		return 0
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// parseTemplate is parse_format: dch selects the datetime keywords and
// their FM/TM/TH/th/SP suffixes, else the number keywords, whose NUMDesc num
// collects. std is the standard mode jsonpath's .datetime() parses with:
// outside double quotes only the separators -./,':; and space may stand
// between keywords.
func parseTemplate(str string, dch, std bool, num *numDesc) ([]fmtNode, error) {
	var nodes []fmtNode
	idx := numKeywordIdx
	if dch {
		idx = dchKeywordIdx
	}
	for str != "" {
		suffix := 0
		if dch {
			if p := dchPrefix(str); p != 0 {
				suffix |= p
				str = str[2:]
			}
		}
		if k := idx.search(str); str != "" && k != nil {
			n := fmtNode{kind: nodeAction, key: k, suffix: suffix}
			str = str[len(k.name):]
			if num != nil {
				if err := num.prepare(k.id); err != nil {
					return nil, err
				}
			}
			if dch && str != "" {
				if p := dchPostfix(str); p != 0 {
					n.suffix |= p
					str = str[2:]
				}
			}
			nodes = append(nodes, n)
			continue
		}
		if str == "" {
			break
		}
		if str[0] == '"' {
			str = str[1:]
			for str != "" {
				if str[0] == '"' {
					str = str[1:]
					break
				}
				// a backslash quotes the next character, if any
				if str[0] == '\\' && len(str) > 1 {
					str = str[1:]
				}
				l := charLen(str)
				nodes = append(nodes, fmtNode{kind: nodeChar, ch: str[:l]})
				str = str[l:]
			}
			continue
		}
		if std {
			if strings.IndexByte("-./,':; ", str[0]) < 0 {
				return nil, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid datetime format separator: \"%s\"", str[:charLen(str)])
			}
			kind := nodeSeparator
			if str[0] == ' ' {
				kind = nodeSpace
			}
			nodes = append(nodes, fmtNode{kind: kind, ch: str[:1]})
			str = str[1:]
			continue
		}
		// outside quotes a backslash only escapes a double quote
		if str[0] == '\\' && len(str) > 1 && str[1] == '"' {
			str = str[1:]
		}
		l := charLen(str)
		kind := nodeChar
		switch {
		case dch && isSeparatorChar(str[0]):
			kind = nodeSeparator
		case isCSpace(str[0]):
			kind = nodeSpace
		}
		nodes = append(nodes, fmtNode{kind: kind, ch: str[:l]})
		str = str[l:]
	}
	return nodes, nil
}

func dchPrefix(s string) int {
	switch {
	case strings.HasPrefix(s, "FM"), strings.HasPrefix(s, "fm"):
		return sufFM
	case strings.HasPrefix(s, "TM"), strings.HasPrefix(s, "tm"):
		return sufTM
	}
	return 0
}

func dchPostfix(s string) int {
	switch {
	case strings.HasPrefix(s, "TH"):
		return sufTH
	case strings.HasPrefix(s, "th"):
		return sufth
	case strings.HasPrefix(s, "SP"):
		return sufSP
	}
	return 0
}

// templateCache keeps parsed templates: a template is usually a constant
// applied to every row. Bounded; when full it starts over. A cache parses
// in standard mode when std is set.
type templateCache struct {
	mu  sync.Mutex
	m   map[string]cachedTemplate
	std bool
}

type cachedTemplate struct {
	nodes []fmtNode
	num   numDesc
	err   error
}

const templateCacheMax = 256

var (
	dchCache, numCache templateCache
	dchStdCache        = templateCache{std: true}
)

func (c *templateCache) get(str string, dch bool) cachedTemplate {
	c.mu.Lock()
	t, ok := c.m[str]
	c.mu.Unlock()
	if ok {
		return t
	}
	if dch {
		t.nodes, t.err = parseTemplate(str, true, c.std, nil)
	} else {
		t.nodes, t.err = parseTemplate(str, false, false, &t.num)
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= templateCacheMax {
		c.m = map[string]cachedTemplate{}
	}
	c.m[str] = t
	c.mu.Unlock()
	return t
}

// ordinalSuffix is get_th: "ST", "ND", "RD" or "TH" for the number num ends with.
func ordinalSuffix(num string, upper bool) (string, error) {
	if num == "" || !isDigit(num[len(num)-1]) {
		return "", pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a number", num)
	}
	last := num[len(num)-1]
	if len(num) > 1 && num[len(num)-2] == '1' {
		last = 0
	}
	s := "th"
	switch last {
	case '1':
		s = "st"
	case '2':
		s = "nd"
	case '3':
		s = "rd"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s, nil
}

var (
	romanOnes     = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"}
	romanTens     = []string{"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"}
	romanHundreds = []string{"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"}
)

// intToRoman is int_to_roman: 1..3999 in roman numerals, else 15 '#'.
func intToRoman(n int64) string {
	if n > 3999 || n < 1 {
		return strings.Repeat("#", 15)
	}
	var b strings.Builder
	b.WriteString(strings.Repeat("M", int(n/1000)))
	for _, part := range []struct {
		digit int64
		tab   []string
	}{{n / 100 % 10, romanHundreds}, {n / 10 % 10, romanTens}, {n % 10, romanOnes}} {
		if part.digit > 0 {
			b.WriteString(part.tab[part.digit-1])
		}
	}
	return b.String()
}

func registerFormattingFuncs() {
	registerDatetimeToChar()
	registerNumberToChar()
	registerFormatFuncs()
}
