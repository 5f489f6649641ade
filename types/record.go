package types

import "strings"

// recordOut is PostgreSQL's record_out over an anonymous record's fields:
// "(f1,f2,...)", each field its type's output text, a NULL field empty, and
// a field quoted in "..." (with " and \ doubled) when it is empty or holds
// one of `"\(),` or white space. It is what ROW(...)::text reads; not a
// function users can call by name.
var recordOut = &builtin{name: "record_out", args: []ID{idAny}, variadic: true, result: Text, stable: true,
	bind: func(args []Type) evalFn {
		return func(ctx *EvalContext, a []Value) (Value, error) {
			return Value{S: formatRecordWith(a, func(i int) string { return anyToText(ctx, a[i], args[i]) })}, nil
		}
	}}

// formatRecordWith is record_out over vals, text(i) being field i's
// output text (called for non-NULL fields only).
func formatRecordWith(vals []Value, text func(i int) string) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		if !v.Null {
			writeRecordField(&b, text(i))
		}
	}
	b.WriteByte(')')
	return b.String()
}

func writeRecordField(b *strings.Builder, s string) {
	if s != "" && !strings.ContainsAny(s, "\"\\(), \t\n\r\v\f") {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte(s[i])
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
}

// RecordText is the record_out call over fields of the types fields.
func RecordText(fields []Type) *Overload { return recordOut.instantiate(fields) }
