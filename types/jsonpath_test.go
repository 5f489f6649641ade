package types

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
)

// copyTextField decodes a COPY text-format field (backslash escapes).
func copyTextField(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
	return r.Replace(s)
}

// TestJSONPathRoundTrip holds jsonpath_in/jsonpath_out to PostgreSQL's
// answers for jsonpath.sql's inputs and more (testdata/genjsonpath.sh).
func TestJSONPathRoundTrip(t *testing.T) {
	f, err := os.Open("testdata/jsonpath_pg15.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		in, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		in, want = copyTextField(in), copyTextField(want)
		n++
		v, err := parseJSONPathInput(in)
		got := v.S
		if err != nil {
			pe, _ := err.(*pgerr.Error)
			if pe == nil {
				t.Fatalf("%q: %v", in, err)
			}
			got = "ERROR " + pe.Code + " " + pe.Message
		}
		if got != want {
			t.Errorf("%q: got %q, PostgreSQL %q", in, got, want)
			continue
		}
		if err == nil {
			// the canonical text reads back as itself
			if again, err := parseJSONPathInput(got); err != nil || again.S != got {
				t.Errorf("%q: canonical %q reads back as %q (%v)", in, got, again.S, err)
			}
		}
	}
	if n < 150 {
		t.Fatalf("only %d cases", n)
	}
}

// TestJSONBNumericSize checks jsonb's stored numeric sizes (the
// .keyvalue() ids depend on them) at the short/long header boundaries;
// the sizes are PostgreSQL 15's pg_column_size(x::numeric).
func TestJSONBNumericSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		size int
	}{{"0", 6}, {"1", 8}, {"10000", 8}, {"12345.6789", 12}, {"0.0001", 8}, {"1e252", 8}, {"1e256", 10}, {"1e-300", 10}, {"1.50", 10}} {
		d, err := parseNumeric(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonbNumericSize(d); got != c.size {
			t.Errorf("%s: size %d, want %d", c.in, got, c.size)
		}
	}
}
