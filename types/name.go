package types

import (
	"strings"
	"unicode/utf8"
)

// nameDataLen is PostgreSQL's NAMEDATALEN: a name is stored in 64 bytes,
// its last one the terminating NUL, so it holds at most 63 bytes.
const nameDataLen = 64

// clipName is namein's (and text_name's) truncation: at most
// NAMEDATALEN-1 bytes, cut at a character boundary (pg_mbcliplen).
func clipName(s string) string {
	if len(s) < nameDataLen {
		return s
	}
	cut := nameDataLen - 1
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// charToName is bpchar_name: clip, then drop the trailing blanks.
func charToName(s string) string {
	return strings.TrimRight(clipName(s), " ")
}

// registerNameOps registers name's own operators (pg_operator rows with
// name operands): comparisons with itself and across name/text (nameeqtext,
// texteqname, ...), all in the C collation. LIKE and the regular
// expression matches (namelike, nameregexeq) are registerStringOps'.
// Everything else (||, upper, length, ...) reaches a name through its
// implicit cast to text.
func registerNameOps() {
	for _, op := range cmpOps {
		ev := cmpEval(op, NameType)
		regOp(op, []ID{Name, Name}, Bool, ev)
		regOp(op, []ID{Name, Text}, Bool, ev)
		regOp(op, []ID{Text, Name}, Bool, ev)
	}
}
