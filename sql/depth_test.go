package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
)

// deepShapes nest one grammar position n times.
var deepShapes = []func(n int) string{
	func(n int) string { return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	func(n int) string { return "SELECT " + strings.Repeat("1+", n) + "1" },
	func(n int) string { return "SELECT " + strings.Repeat("'x'||", n) + "'x'" },
	func(n int) string {
		return "SELECT " + strings.Repeat("CASE WHEN true THEN ", n) + "1" + strings.Repeat(" END", n)
	},
	func(n int) string { return "SELECT " + strings.Repeat("(SELECT ", n) + "1" + strings.Repeat(")", n) },
	func(n int) string { return "SELECT " + strings.Repeat("ARRAY[", n) + "1" + strings.Repeat("]", n) },
	func(n int) string { return "SELECT " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) },
	func(n int) string { return "SELECT '{}'::jsonb" + strings.Repeat("->'a'", n) },
	func(n int) string { return "SELECT 1" + strings.Repeat("::int", n) },
	func(n int) string { return "SELECT " + strings.Repeat("NOT ", n) + "true" },
	func(n int) string { return "SELECT " + strings.Repeat("- ", n) + "1" },
	func(n int) string { return strings.TrimSuffix(strings.Repeat("SELECT 1 UNION ALL ", n), " UNION ALL ") },
	func(n int) string { return "SELECT " + strings.Repeat("(1+", n) + "1" + strings.Repeat(")", n) },
	func(n int) string {
		return "SELECT 1 WHERE " + strings.Repeat("1 IN (SELECT ", n) + "1" + strings.Repeat(")", n)
	},
	func(n int) string { return "SELECT " + strings.Repeat("ROW(", n) + "1" + strings.Repeat(")", n) },
}

// FuzzParseDepth: deep nesting in any grammar position never crashes the
// process (pg_query's C code overflowing its stack is a SIGSEGV no recover
// sees); Parse answers, or fails with the grammar's 42601 or 54001.
func FuzzParseDepth(f *testing.F) {
	for s := range deepShapes {
		for _, n := range []int{10, 4500, 30000} {
			f.Add(uint8(s), uint16(n), uint8(0))
		}
	}
	f.Add(uint8(2), uint16(65535), uint8(1))
	f.Fuzz(func(t *testing.T, shape uint8, depth uint16, twice uint8) {
		q := deepShapes[int(shape)%len(deepShapes)](int(depth))
		if twice%2 == 1 { // two shapes inside one another
			inner := strings.TrimPrefix(deepShapes[int(twice/2)%len(deepShapes)](int(depth)/2), "SELECT ")
			q = strings.Replace(q, "1", "("+inner+")", 1)
		}
		_, err := Parse(q)
		var e *pgerr.Error
		if err != nil && (!errors.As(err, &e) || e.Code != pgerr.SyntaxError && e.Code != pgerr.StatementTooComplex) {
			t.Fatalf("shape %d depth %d: %v", shape, depth, err)
		}
	})
}

func TestChainDepthAgreesWithPostgreSQL(t *testing.T) {
	// PostgreSQL 15 evaluates 4,000 links of + and refuses 4,500 (54001).
	for _, c := range []struct {
		q    string
		code string
	}{
		{"SELECT " + strings.Repeat("1+", 3999) + "1", ""},
		{"SELECT " + strings.Repeat("1+", 4499) + "1", pgerr.StatementTooComplex},
		{"SELECT " + strings.Repeat("'x'||", 99999) + "'x'", pgerr.StatementTooComplex},
		{"SELECT '{}'::jsonb" + strings.Repeat("->'a'", 5000), pgerr.StatementTooComplex},
		// Flat lists are not chains: 20,000 ANDs and 5,000 columns of 1+1.
		{"SELECT " + strings.Repeat("true AND ", 19999) + "true", ""},
		{"SELECT " + strings.Repeat("1+1, ", 4999) + "1", ""},
		// PostgreSQL runs 6,000 UNION ALL arms and refuses 12,000.
		{strings.Repeat("SELECT 1 UNION ALL ", 5999) + "SELECT 1", ""},
		{strings.Repeat("SELECT 1 UNION ALL ", 11999) + "SELECT 1", pgerr.StatementTooComplex},
		// 2,000 nested subqueries run in PostgreSQL.
		{"SELECT " + strings.Repeat("(SELECT ", 2000) + "1" + strings.Repeat(")", 2000), ""},
	} {
		_, err := Parse(c.q)
		got := ""
		var e *pgerr.Error
		if errors.As(err, &e) {
			got = e.Code
		} else if err != nil {
			got = err.Error()
		}
		if got != c.code {
			t.Errorf("%.40s… (%d bytes): got %q, want %q", c.q, len(c.q), got, c.code)
		}
	}
}
