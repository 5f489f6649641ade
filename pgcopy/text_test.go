package pgcopy

import (
	"testing"

	"github.com/joind/joind/sql"
)

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
