package settings

import (
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
)

func show(t *testing.T, v *Values, name string) string {
	t.Helper()
	s, _, err := v.Show(name)
	if err != nil {
		t.Fatalf("SHOW %s: %v", name, err)
	}
	return s
}

func TestResetGoesToStartupValue(t *testing.T) {
	v := New("u")
	if err := v.Startup("datestyle", "sql, dmy"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Set("DateStyle", "German", false); err != nil {
		t.Fatal(err)
	}
	if got := show(t, v, "datestyle"); got != "German, DMY" {
		t.Fatalf("after SET: %q", got)
	}
	if _, err := v.Reset("datestyle", false); err != nil {
		t.Fatal(err)
	}
	if got := show(t, v, "datestyle"); got != "SQL, DMY" {
		t.Fatalf("after RESET: %q, want the startup value", got)
	}
	v.Set("timezone", "Asia/Tokyo", false)
	v.ResetAll()
	if got := show(t, v, "TimeZone"); got != "UTC" {
		t.Fatalf("after RESET ALL: %q, want the boot value", got)
	}
}

// The nest-level stack of guc.c: the cases of regress/sql/settings.sql,
// at the level of Values.
func TestTransactionStack(t *testing.T) {
	v := New("u")
	set := func(name, val string, local bool) {
		t.Helper()
		if _, err := v.Set(name, val, local); err != nil {
			t.Fatal(err)
		}
	}
	want := func(name, val string) {
		t.Helper()
		if got := show(t, v, name); got != val {
			t.Fatalf("%s = %q, want %q", name, got, val)
		}
	}
	v.Begin()
	set("extra_float_digits", "0", false)
	set("timezone", "Europe/Paris", true)
	v.Abort()
	want("extra_float_digits", "1")
	want("timezone", "UTC")

	v.Begin()
	set("timezone", "Asia/Tokyo", false)
	set("timezone", "Europe/Paris", true)
	want("timezone", "Europe/Paris")
	v.Commit()
	want("timezone", "Asia/Tokyo")

	v.Begin()
	set("datestyle", "German", false)
	v.Savepoint("a")
	set("datestyle", "SQL", false)
	v.RollbackTo("a")
	want("datestyle", "German, DMY")
	v.Savepoint("b")
	set("datestyle", "Postgres", true)
	v.Release("b")
	want("datestyle", "Postgres, DMY")
	v.Commit()
	want("datestyle", "German, DMY")
}

func TestPlaceholders(t *testing.T) {
	v := New("u")
	if _, _, err := v.Show("app.x"); pgerr.Code(err) != pgerr.UndefinedObject {
		t.Fatalf("unset placeholder: %v", err)
	}
	v.Begin()
	if _, err := v.Set("app.x", "1", false); err != nil {
		t.Fatal(err)
	}
	v.Abort()
	// It exists from then on, at its reset value "".
	if got := show(t, v, "app.x"); got != "" {
		t.Fatalf("after ROLLBACK: %q", got)
	}
	if _, err := v.Set("joind.nosuch", "1", false); pgerr.Code(err) != "42602" {
		t.Fatalf("reserved prefix: %v", err)
	}
	if _, err := v.Set("nosuch", "1", false); pgerr.Code(err) != pgerr.UndefinedObject {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestIntegerUnits(t *testing.T) {
	st, _ := Lookup("statement_timeout")
	for in, want := range map[string]string{"1.5s": "1500ms", "60000": "1min", "100us": "0", "90 min": "90min", "1.5": "2ms"} {
		c, err := st.Normalize(in, "0", "statement_timeout")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := st.Show(c); got != want {
			t.Errorf("%s shows %q, want %q", in, got, want)
		}
	}
	if _, err := st.Normalize("-1", "0", "statement_timeout"); err == nil ||
		err.Error() != `-1 ms is outside the valid range for parameter "statement_timeout" (0 .. 2147483647)` {
		t.Fatalf("range error: %v", err)
	}
}

func TestRegistryIsConsistent(t *testing.T) {
	for _, s := range All() {
		if s.Kind == Enum && s.Boot != "" {
			ok := false
			for _, x := range s.Values {
				ok = ok || x == s.Boot
			}
			if !ok {
				t.Errorf("%s: boot value %q is not one of its values", s.Name, s.Boot)
			}
		}
		if s.contextError(true) == nil && s.Boot != "" {
			if c, err := s.canonical(s.Boot, s.Boot, s.Name); err != nil || c != s.Boot {
				t.Errorf("%s: boot value %q is not canonical (%q, %v)", s.Name, s.Boot, c, err)
			}
		}
		if s.TxStart != "" {
			if _, err := Lookup(s.TxStart); err != nil {
				t.Errorf("%s: TxStart %s: %v", s.Name, s.TxStart, err)
			}
		}
	}
}

// Gen moves exactly when a value changes: a transaction that sets nothing
// (even one whose TxStart settings are re-derived) leaves it alone, a SET
// moves it, and so does the rollback that undoes the SET.
func TestGenMovesWithValues(t *testing.T) {
	v := New("u")
	g := v.Gen()
	v.Begin()
	v.Commit()
	if v.Gen() != g {
		t.Fatalf("a transaction without SET moved Gen from %d to %d", g, v.Gen())
	}
	v.Begin()
	if _, err := v.Set("search_path", "s2", false); err != nil {
		t.Fatal(err)
	}
	set := v.Gen()
	if set == g {
		t.Fatal("SET search_path did not move Gen")
	}
	v.Abort()
	if v.Gen() == set || v.Get("search_path") == "s2" {
		t.Fatalf("the rollback of SET: Gen %d (was %d), search_path %q", v.Gen(), set, v.Get("search_path"))
	}
	before := v.Gen()
	if _, err := v.Set("search_path", v.Get("search_path"), false); err != nil {
		t.Fatal(err)
	}
	if v.Gen() != before {
		t.Fatal("a SET to the same value moved Gen")
	}
}

// Every PostgreSQL 15 parameter is known, and those joind lists as
// changing behaviour it lacks accept their default only.
func TestPG15Settings(t *testing.T) {
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(pg15TSV), "\n") {
		name := strings.SplitN(line, "\t", 2)[0]
		if _, err := Lookup(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		n++
	}
	if n < 350 {
		t.Fatalf("pg15.tsv has %d settings", n)
	}
	for name := range onlyDefault {
		if _, err := Lookup(name); err != nil {
			t.Errorf("onlyDefault lists %s: %v", name, err)
		}
	}
	v := New("u")
	for _, c := range []struct{ name, val, code string }{
		{"lock_timeout", "1s", "0A000"},
		{"lock_timeout", "0", ""},
		{"transform_null_equals", "on", "0A000"},
		{"transform_null_equals", "off", ""},
		{"session_replication_role", "replica", "0A000"},
		{"random_page_cost", "1.5", ""},
		{"random_page_cost", "-1", "22023"},
		{"shared_buffers", "1MB", "55P02"},
		{"log_connections", "on", "55P02"},
		{"block_size", "1", "55P02"},
	} {
		_, err := v.Set(c.name, c.val, false)
		code := ""
		if pe, ok := err.(*pgerr.Error); ok {
			code = pe.Code
		} else if err != nil {
			code = err.Error()
		}
		if code != c.code {
			t.Errorf("SET %s = %s: %v, want SQLSTATE %q", c.name, c.val, err, c.code)
		}
	}
	// The startup packet may set backend-context settings, not
	// postmaster ones.
	if err := v.Startup("log_connections", "on"); err != nil {
		t.Errorf("startup log_connections: %v", err)
	}
	if err := v.Startup("shared_buffers", "1MB"); err == nil {
		t.Errorf("startup shared_buffers: no error")
	}
}
