package types

import (
	"reflect"
	"testing"

	"github.com/joind/joind/pgerr"
)

func TestParseIdent(t *testing.T) {
	ok := []struct {
		in     string
		strict bool
		want   []string
	}{
		{"foo.boo", true, []string{"foo", "boo"}},
		{" Schemax . \"TableY\" ", true, []string{"schemax", "TableY"}},
		{`"a""b".C$1`, true, []string{`a"b`, "c$1"}},
		{"foo.boo[]", false, []string{"foo", "boo"}},
	}
	for _, c := range ok {
		got, err := parseIdent(c.in, c.strict)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseIdent(%q, %v) = %q, %v; want %q", c.in, c.strict, got, err, c.want)
		}
	}
	for in, detail := range map[string]string{
		"foo.boo[]": "", " .aaa": `No valid identifier before ".".`, "aaa.": `No valid identifier after ".".`,
		`"aaa`: "String has unclosed double quotes.", `""`: "Quoted identifier must not be empty.", "1020": "",
	} {
		_, err := parseIdent(in, true)
		pe, isPG := err.(*pgerr.Error)
		if !isPG || pe.Code != pgerr.InvalidParameterValue || pe.Detail != detail {
			t.Errorf("parseIdent(%q): error %v, want 22023 with detail %q", in, err, detail)
		}
	}
}
