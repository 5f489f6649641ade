package sql

import (
	"testing"

	"github.com/joind/joind/pgerr"
)

// PostgreSQL 15's scanner errors for junk stuck to numbers and parameters
// (messages and positions from PostgreSQL 15).
func TestParsePG15TrailingJunk(t *testing.T) {
	for _, c := range []struct {
		query, msg string
		pos        int
	}{
		{"select 123abc", `trailing junk after numeric literal at or near "123abc"`, 8},
		{"select 1.5abc", `trailing junk after numeric literal at or near "1.5abc"`, 8},
		{"select 1e5xyz", `trailing junk after numeric literal at or near "1e5xyz"`, 8},
		{"select 1e+x", `trailing junk after numeric literal at or near "1e+"`, 8},
		{"select 12_x", `trailing junk after numeric literal at or near "12_x"`, 8},
		{"select 'é', 123é", `trailing junk after numeric literal at or near "123é"`, 13},
		{"select $1abc", `trailing junk after parameter at or near "$1abc"`, 8},
		{"PREPARE p1 AS SELECT $1a", `trailing junk after parameter at or near "$1a"`, 22},
	} {
		_, err := Parse(c.query)
		e, ok := err.(*pgerr.Error)
		if !ok {
			t.Errorf("%s: got %v, want %s", c.query, err, c.msg)
			continue
		}
		if e.Code != pgerr.SyntaxError || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s: got %s %q at %d, want 42601 %q at %d", c.query, e.Code, e.Message, e.Position, c.msg, c.pos)
		}
	}
	for _, q := range []string{`select 'x' as "$1a", $$1a$$`, "select 1 as a$1b, 'é$1x'"} {
		if _, err := Parse(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}
