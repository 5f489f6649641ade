package types

import (
	"errors"
	"testing"

	"github.com/joind/joind/pgerr"
)

// populate_array's dimension rules; expected texts and errors are
// PostgreSQL 15's (json.sql / jsonb.sql over int[] columns).
func TestPopulateArray(t *testing.T) {
	intArray := ArrayOf(Int4Type)
	for _, c := range []struct{ in, want string }{
		{`[1, "2", null, 4]`, `{1,2,NULL,4}`},
		{`[[1, 2], [3, 4]]`, `{{1,2},{3,4}}`},
		{`[[], []]`, `{}`},
		{`[ [[1, 2]], [[3, 4]] ]`, `{{{1,2}},{{3,4}}}`},
		{`"{1,2,3}"`, `{1,2,3}`},
		{`123`, `error: expected JSON array (See the value of key "ia".)`},
		{`[[1], 2]`, `error: expected JSON array (See the array element [1] of key "ia".)`},
		{`[[1], [2, 3]]`, `error: malformed JSON array`},
		{`[[1, 2], 3, 4]`, `error: expected JSON array (See the array element [1] of key "ia".)`},
	} {
		for _, id := range []ID{JSON, JSONB} {
			doc := `{"ia": ` + c.in + `}`
			if id == JSONB {
				v, err := parseJSONBInput(doc)
				if err != nil {
					t.Fatal(err)
				}
				doc = v.S
			}
			tree, err := jsonDoc(Value{S: doc}, id)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			v, err := populateField(&EvalContext{}, objectField(tree, "ia"), id, intArray, "ia", NullValue)
			if err != nil {
				e := err.Error()
				if h := pgErrHint(err); h != "" {
					e += " (" + h + ")"
				}
				got = "error: " + e
			} else {
				got = string(FormatText(nil, v, intArray, nil))
			}
			if got != c.want {
				t.Errorf("%s (%s): got %s, want %s", c.in, Type{ID: id}.SQLName(), got, c.want)
			}
		}
	}
}

func pgErrHint(err error) string {
	var e *pgerr.Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}
