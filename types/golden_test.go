package types

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
)

// The golden file is produced from PostgreSQL 15 by testdata/gen.py; each
// line is "<case>\t<expected>" with expected OK:<text> or ERR:<code>:<msg>.

func splitCase(c string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(c); i++ {
		if c[i] == '\\' && i+1 < len(c) && c[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if c[i] == '|' {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c[i])
	}
	return append(out, cur.String())
}

func testType(t *testing.T, s string) Type {
	t.Helper()
	if s == "unknown" {
		return UnknownType
	}
	name, mods := s, []int32(nil)
	if k := strings.IndexByte(s, '('); k >= 0 {
		name = s[:k]
		for _, m := range strings.Split(strings.TrimSuffix(s[k+1:], ")"), ",") {
			n, err := strconv.Atoi(m)
			if err != nil {
				t.Fatalf("bad typmod in %q", s)
			}
			mods = append(mods, int32(n))
		}
	}
	switch name { // SQL spellings the grammar would rewrite
	case "double precision":
		name = "float8"
	case "char":
		name = "bpchar"
	}
	typ, err := FromTypeName([]string{name}, mods, 0)
	if err != nil {
		t.Fatalf("type %q: %v", s, err)
	}
	return typ
}

// literal reproduces how PostgreSQL reads 'lit'::type (or a bare 'lit').
func literal(ctx *EvalContext, lit string, typ Type) (Value, error) {
	if lit == "NULL" {
		return NullValue, nil
	}
	if typ.ID == Unknown {
		return Value{S: lit}, nil
	}
	// The parser reads a typed literal with the base type's input function and
	// then applies the typmod as an explicit cast (truncating varchar(n)).
	base := Type{ID: typ.ID, Typmod: -1}
	v, err := ParseTextCtx(ctx, lit, base)
	if err != nil || typ.Typmod == -1 {
		return v, err
	}
	return CastValue(ctx, v, base, typ, true)
}

func errString(err error) string {
	pe := pgerr.As(err)
	s := "ERR:" + pe.Code + ":" + pe.Message
	if pe.Detail != "" {
		s += "|DETAIL:" + pe.Detail
	}
	if pe.Hint != "" {
		s += "|HINT:" + pe.Hint
	}
	return s
}

func okString(v Value, t Type, f *Format) string {
	if v.Null {
		return "OK:<NULL>"
	}
	return "OK:" + string(FormatText(nil, v, t, f))
}

// callOverload casts literal arguments to the overload's types and evaluates it.
func callOverload(ctx *EvalContext, ov *Overload, vals []Value, types []Type) (Value, error) {
	args := make([]Value, len(vals))
	for i := range vals {
		v, err := CastValue(ctx, vals[i], types[i], ov.Args[i], false)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
		if v.Null && ov.Strict {
			return NullValue, nil
		}
	}
	return ov.Eval(ctx, args)
}

func runCase(t *testing.T, f []string) string {
	return runCaseCtx(t, f, &EvalContext{})
}

// runCaseCtx runs a case under a session's settings; "tz|zone|datestyle|case..."
// runs the inner case with that TimeZone and DateStyle.
func runCaseCtx(t *testing.T, f []string, ctx *EvalContext) string {
	fm := ctxFormat(ctx)
	switch f[0] {
	case "tz":
		loc, err := LoadTimeZone(f[1])
		if err != nil {
			t.Fatalf("zone %q: %v", f[1], err)
		}
		return runCaseCtx(t, f[3:], &EvalContext{TimeZone: loc, Format: &Format{DateStyle: f[2], IntervalStyle: "postgres", ExtraFloatDigits: 1, TimeZone: loc}})
	case "in", "fmt":
		typ := testType(t, f[2])
		v, err := literal(ctx, f[1], typ)
		if err != nil {
			return errString(err)
		}
		if f[0] == "fmt" {
			efd, _ := strconv.Atoi(f[5])
			fm = &Format{DateStyle: f[3], IntervalStyle: f[4], ExtraFloatDigits: efd}
		}
		return okString(v, typ, fm)
	case "conv":
		from, to := testType(t, f[2]), testType(t, f[3])
		v, err := literal(ctx, f[1], from)
		if err == nil {
			v, err = CastValue(ctx, v, from, to, true)
		}
		if err != nil {
			return errString(err)
		}
		return okString(v, to, fm)
	case "op":
		var vals []Value
		var types []Type
		left := NoArgType
		if f[2] != "" {
			left = testType(t, f[2])
			v, err := literal(ctx, f[1], left)
			if err != nil {
				return errString(err)
			}
			vals, types = append(vals, v), append(types, left)
		}
		right := testType(t, f[5])
		v, err := literal(ctx, f[4], right)
		if err != nil {
			return errString(err)
		}
		vals, types = append(vals, v), append(types, right)
		ov, err := ResolveOperator(f[3], left, right)
		if err != nil {
			return errString(err)
		}
		r, err := callOverload(ctx, ov, vals, types)
		if err != nil {
			return errString(err)
		}
		return okString(r, ov.Result, fm)
	case "fn":
		var vals []Value
		var types []Type
		for _, a := range f[2:] {
			k := strings.LastIndexByte(a, ':')
			typ := testType(t, a[k+1:])
			v, err := literal(ctx, a[:k], typ)
			if err != nil {
				return errString(err)
			}
			vals, types = append(vals, v), append(types, typ)
		}
		ov, err := ResolveFunction(f[1], types)
		if err != nil {
			return errString(err)
		}
		r, err := callOverload(ctx, ov, vals, types)
		if err != nil {
			return errString(err)
		}
		return okString(r, ov.Result, fm)
	case "agg":
		typ := testType(t, f[2])
		argT := typ
		if typ.ID == Unknown {
			argT = TextType // VALUES resolves an all-unknown column to text
		}
		agg, err := ResolveAggregate(f[1], []Type{argT}, false)
		if err != nil {
			return errString(err)
		}
		acc := agg.New()
		for _, s := range strings.Split(f[3], ",") {
			src := typ
			if typ.ID == Unknown {
				src = TextType // VALUES resolves an all-unknown column to text
			}
			v, err := literal(ctx, s, src)
			if err == nil {
				v, err = CastValue(ctx, v, src, agg.Args[0], false)
			}
			if err != nil {
				return errString(err)
			}
			if err := acc.Add([]Value{v}); err != nil {
				return errString(err)
			}
		}
		r, err := acc.Result()
		if err != nil {
			return errString(err)
		}
		return okString(r, agg.Result, fm)
	case "cmp":
		typ := testType(t, f[3])
		a, err1 := literal(ctx, f[1], typ)
		b, err2 := literal(ctx, f[2], typ)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad cmp literals %v %v", err1, err2)
		}
		c := Compare(a, b, typ)
		if (c == 0) != (Hash(a, typ) == Hash(b, typ)) && c == 0 {
			t.Errorf("hash inconsistent with equality for %v", f)
		}
		return "OK:" + strconv.Itoa(c)
	}
	t.Fatalf("unknown case kind %q", f[0])
	return ""
}

func TestGolden(t *testing.T) {
	fh, err := os.Open("testdata/golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	n, fails := 0, 0
	for sc.Scan() {
		line := sc.Text()
		k := strings.LastIndexByte(line, '\t')
		if k < 0 {
			continue
		}
		c, want := line[:k], line[k+1:]
		got := runCase(t, splitCase(c))
		n++
		if got != want {
			fails++
			t.Errorf("%s\n   got: %s\n  want: %s", c, got, want)
		}
	}
	t.Logf("%d golden cases, %d failures", n, fails)
}
