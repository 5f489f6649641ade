package pgcopy

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/joind/joind/sql"
)

func TestSplitTextRow(t *testing.T) {
	for in, want := range map[string]string{
		`a	b	c`:           "[a b c] [false false false]",
		`\N		x`:           "[N  x] [true false false]", // NULL: the value is not used
		`tab\there	nl\nx`: "[tab\there nl\nx] [false false]",
		`\\N	\x41\101\q`:  "[\\N AAq] [false false]",
		``:                "[] [false]",
		`a\	b`:            "[a\tb] [false]",
	} {
		f, n, err := splitTextRow(in, '\t', `\N`)
		if got := fmt.Sprint(f, " ", n); err != nil || got != want {
			t.Errorf("splitTextRow(%q) = %q %v, want %q", in, got, err, want)
		}
	}
}

func TestReadCSVRow(t *testing.T) {
	x := &sql.Copy{Format: "csv", Delimiter: ",", Quote: `"`, Escape: `"`, Null: ""}
	in := "1,\"a,b\",\n2,\"multi\nline\",\"\"\n3,\"q\"\"q\",x\n4,\"open\n"
	br := bufio.NewReader(strings.NewReader(in))
	var got []string
	for {
		raw, err := readLine(br)
		if err == io.EOF {
			break
		}
		_, f, n, err := readCSVRow(br, raw, x)
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, fmt.Sprint(f, " ", n))
	}
	want := []string{
		"[1 a,b ] [false false true]",
		"[2 multi\nline ] [false false false]",
		"[3 q\"q x] [false false false]",
		"error: unterminated CSV quoted field",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestAppendFields(t *testing.T) {
	x := &sql.Copy{Format: "csv", Delimiter: ",", Quote: `"`, Escape: `"`, Null: ""}
	for in, want := range map[string]string{"plain": "plain", "a,b": `"a,b"`, `q"`: `"q"""`, "": `""`, "l\nf": "\"l\nf\"", `\.`: `"\."`} {
		if got := string(appendCSVField(nil, []byte(in), x, 0, true)); got != want {
			t.Errorf("csv(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(appendTextField(nil, []byte("a\tb\\c\nd|"), '|')); got != `a\tb\\c\nd\|` {
		t.Errorf("text = %q", got)
	}
}
