package sql

import (
	"strings"
	"unicode/utf8"
)

// nameDataLen is PostgreSQL's NAMEDATALEN: names have at most 63 bytes.
const nameDataLen = 64

// MakeObjectName is PostgreSQL's makeObjectName: name1_name2_label (name2
// and label may be ""), the longer of name1 and name2 shortened first to fit
// 63 bytes. Generated names of constraints, indexes and sequences use it.
func MakeObjectName(name1, name2, label string) string {
	overhead := 0
	n1, n2 := len(name1), len(name2)
	if name2 != "" {
		overhead++
	}
	if label != "" {
		overhead += len(label) + 1
	}
	avail := nameDataLen - 1 - overhead
	for n1+n2 > avail {
		if n1 > n2 {
			n1--
		} else {
			n2--
		}
	}
	out := ClipName(name1, n1)
	if name2 != "" {
		out += "_" + ClipName(name2, n2)
	}
	if label != "" {
		out += "_" + label
	}
	return out
}

// ClipName is s cut to at most n bytes at a character boundary (pg_mbcliplen).
func ClipName(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// NameAddition is PostgreSQL's ChooseIndexNameAddition: the column
// names joined by "_", stopping once the result is NAMEDATALEN long.
func NameAddition(cols []string) string {
	var b strings.Builder
	for _, c := range cols {
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(ClipName(c, nameDataLen-1))
		if b.Len() >= nameDataLen {
			break
		}
	}
	return b.String()
}
