package types

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/joind/joind/pgerr"
)

// format(fmt, VARIADIC "any") — text_format of PostgreSQL 15's varlena.c —
// and the quote_* family it shares quoting with.

// quoteLiteral is quote_literal_cstr: single quotes doubled, and an E”
// string with doubled backslashes when the text has a backslash.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}

// quoteIdent is quote_identifier: quoted unless it is lower-case letters,
// digits and underscores not starting with a digit, and no keyword that
// needs quoting.
func quoteIdent(s string) string {
	ok := s != "" && (s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z'))
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c == '_' || (c >= 'a' && c <= 'z') || isDigit(c)
	}
	if ok && !reservedKeywords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func formatErr(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, format, args...)
}

func errUnterminatedFormat() error {
	return formatErr("unterminated format() type specifier").WithHint("For a single \"%%\" use \"%%%%\".")
}

// formatSpec is one parsed %[argpos$][-][width|*[widthpos$]] specifier.
type formatSpec struct {
	argpos, widthpos int // -1: not given; widthpos 0: the next argument
	minus            bool
	width            int
}

// formatDigits is text_format_parse_digits. s[i] is known to exist on entry
// and, unless it returns an error, on exit.
func formatDigits(s string, i int) (int, int, bool, error) {
	val, found := 0, false
	for isDigit(s[i]) {
		val = val*10 + int(s[i]-'0')
		if val > 1<<31-1 {
			return 0, i, false, pgerr.New(pgerr.NumericValueOutOfRange, "number is out of range")
		}
		found = true
		if i++; i >= len(s) {
			return 0, i, false, errUnterminatedFormat()
		}
	}
	return val, i, found, nil
}

// parseFormatSpec is text_format_parse_format: it returns the index of the
// conversion character.
func parseFormatSpec(s string, i int) (formatSpec, int, error) {
	sp := formatSpec{argpos: -1, widthpos: -1}
	advance := func() error {
		if i++; i >= len(s) {
			return errUnterminatedFormat()
		}
		return nil
	}
	// an argument position n, closed by the '$' at s[i]
	position := func(n int) error {
		if n == 0 {
			return formatErr("format specifies argument 0, but arguments are numbered from 1")
		}
		return advance()
	}
	digits := func() (int, bool, error) {
		n, j, found, err := formatDigits(s, i)
		i = j
		return n, found, err
	}
	n, found, err := digits()
	if err != nil {
		return sp, 0, err
	}
	if found {
		if s[i] != '$' {
			sp.width = n
			return sp, i, nil
		}
		if err := position(n); err != nil {
			return sp, 0, err
		}
		sp.argpos = n
	}
	for s[i] == '-' {
		sp.minus = true
		if err := advance(); err != nil {
			return sp, 0, err
		}
	}
	if s[i] == '*' {
		if err := advance(); err != nil {
			return sp, 0, err
		}
		n, found, err := digits()
		if err != nil {
			return sp, 0, err
		}
		if found {
			if s[i] != '$' {
				return sp, 0, formatErr("width argument position must be ended by \"$\"")
			}
			if err := position(n); err != nil {
				return sp, 0, err
			}
			sp.widthpos = n
		} else {
			sp.widthpos = 0
		}
	} else {
		n, found, err := digits()
		if err != nil {
			return sp, 0, err
		}
		if found {
			sp.width = n
		}
	}
	return sp, i, nil
}

// formatArg is one argument of format(): its text (typoutput), or NULL.
type formatArg struct {
	text   string
	null   bool
	typ    Type
	intVal int64
}

// textFormat is text_format over already-stringified arguments.
func textFormat(f string, args []formatArg) (string, error) {
	var b strings.Builder
	arg := 0 // index into args of the next argument
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i++; i >= len(f) {
			return "", errUnterminatedFormat()
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		sp, j, err := parseFormatSpec(f, i)
		if err != nil {
			return "", err
		}
		i = j
		conv := f[i]
		if conv != 's' && conv != 'I' && conv != 'L' {
			_, l := utf8.DecodeRuneInString(f[i:])
			return "", formatErr("unrecognized format() type specifier \"%s\"", f[i:i+l]).
				WithHint("For a single \"%%\" use \"%%%%\".")
		}
		// take the argument at pos (1-based), or the next one
		take := func(pos int) (formatArg, error) {
			if pos > 0 {
				arg = pos - 1
			}
			if arg >= len(args) {
				return formatArg{}, formatErr("too few arguments for format()")
			}
			arg++
			return args[arg-1], nil
		}
		width := sp.width
		if sp.widthpos >= 0 {
			w, err := take(sp.widthpos)
			if err != nil {
				return "", err
			}
			switch {
			case w.null:
				width = 0
			case w.typ.ID == Int4 || w.typ.ID == Int2:
				width = int(w.intVal)
			default:
				v, err := strconv.ParseInt(strings.TrimSpace(w.text), 10, 32)
				if err != nil {
					return "", widthTextErr(w.text, err)
				}
				width = int(v)
			}
		}
		a, err := take(sp.argpos)
		if err != nil {
			return "", err
		}
		var s string
		switch {
		case a.null && conv == 's':
			s = ""
		case a.null && conv == 'L':
			s = "NULL"
		case a.null:
			return "", pgerr.New("22004", "null values cannot be formatted as an SQL identifier")
		case conv == 'I':
			s = quoteIdent(a.text)
		case conv == 'L':
			s = quoteLiteral(a.text)
		default:
			s = a.text
		}
		if err := appendPadded(&b, s, sp.minus, width); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// widthTextErr is pg_strtoint32's complaint about a width given as text.
func widthTextErr(s string, err error) error {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", s)
	}
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", s)
}

// appendPadded is text_format_append_string: a negative width left-aligns.
func appendPadded(b *strings.Builder, s string, minus bool, width int) error {
	if width == 0 {
		b.WriteString(s)
		return nil
	}
	left := minus
	if width < 0 {
		if width <= -1<<31 {
			return pgerr.New(pgerr.NumericValueOutOfRange, "number is out of range")
		}
		left, width = true, -width
	}
	pad := width - utf8.RuneCountInString(s)
	if left {
		b.WriteString(s)
	}
	if pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	if !left {
		b.WriteString(s)
	}
	return nil
}

func registerFormatFuncs() {
	formatFn := func(args []Type) evalFn {
		return func(ctx *EvalContext, a []Value) (Value, error) {
			if a[0].Null {
				return NullValue, nil
			}
			fa := make([]formatArg, len(a)-1)
			for i, v := range a[1:] {
				t := args[i+1]
				fa[i] = formatArg{null: v.Null, typ: t, intVal: v.I}
				if !v.Null {
					fa[i].text = anyToText(ctx, v, t)
				}
			}
			s, err := textFormat(a[0].S, fa)
			if err != nil {
				return Value{}, err
			}
			return Value{S: s}, nil
		}
	}
	format := &builtin{name: "format", args: []ID{Text, idAny}, variadic: true, result: Text, stable: true, bind: formatFn}
	format1 := &builtin{name: "format", args: []ID{Text}, result: Text, stable: true, bind: formatFn}
	functionTable["format"] = append(functionTable["format"], format1, format)
	regFn("quote_literal", []ID{Text}, Text, ts(quoteLiteral))
	regFn("quote_ident", []ID{Text}, Text, ts(quoteIdent))
	quoteNullable := regFn("quote_nullable", []ID{Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		if a[0].Null {
			return Value{S: "NULL"}, nil
		}
		return Value{S: quoteLiteral(a[0].S)}, nil
	})
	quoteNullable.strict = false
	// quote_literal(anyelement) and quote_nullable(anyelement) quote the
	// value's text output ($1::text in PostgreSQL's SQL definitions)
	for _, name := range []string{"quote_literal", "quote_nullable"} {
		strict := name == "quote_literal"
		b := &builtin{name: name, args: []ID{idAny}, result: Text, strict: strict, stable: true}
		b.bind = func(args []Type) evalFn {
			return func(ctx *EvalContext, a []Value) (Value, error) {
				if a[0].Null {
					return Value{S: "NULL"}, nil
				}
				return Value{S: quoteLiteral(castToText(ctx, a[0], args[0]))}, nil
			}
		}
		functionTable[name] = append(functionTable[name], b)
	}
}
