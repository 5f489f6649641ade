package wire

import (
	"reflect"
	"testing"
)

func TestSplitOptions(t *testing.T) {
	cases := map[string][]string{
		"":                            nil,
		"   ":                         nil,
		"-c a=1":                      {"-c", "a=1"},
		"  -c\ta=1   --b=2 ":          {"-c", "a=1", "--b=2"},
		`-c search_path=a\ b`:         {"-c", "search_path=a b"},
		`-c x=back\\slash`:            {"-c", `x=back\slash`},
		`-c x=trailing\`:              {"-c", `x=trailing\`},
		"-cdatestyle=Postgres,\\ MDY": {"-cdatestyle=Postgres, MDY"},
	}
	for in, want := range cases {
		if got := splitOptions(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitOptions(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseStartupParams(t *testing.T) {
	got, err := parseStartupParams([]byte("user\x00u\x00database\x00\x00\x00"))
	if err != nil || !reflect.DeepEqual(got, map[string]string{"user": "u", "database": ""}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "user\x00u", "user\x00u\x00", "user\x00\x00x"} {
		if _, err := parseStartupParams([]byte(bad)); err == nil {
			t.Errorf("parseStartupParams(%q) accepted", bad)
		}
	}
}
