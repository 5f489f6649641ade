package types

import (
	"strings"
	"testing"
	"time"
)

// A pattern of many %s against a text that almost matches used to
// backtrack exponentially (repeat('a',31) LIKE repeat('%a',15)||'b' took
// 24 s; PostgreSQL answers in under a millisecond).
func TestLikeManyPercentsIsLinear(t *testing.T) {
	start := time.Now()
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{strings.Repeat("a", 31), strings.Repeat("%a", 15) + "b", false},
		{strings.Repeat("a", 200), strings.Repeat("%a", 60) + "b", false},
		{strings.Repeat("a", 200), strings.Repeat("%a", 60) + "%", true},
		{strings.Repeat("ab", 100), strings.Repeat("%_b", 50) + "%c", false},
		{strings.Repeat("ab", 100), strings.Repeat("%_b", 100), true},
		{"abc", "a%c", true},
		{"abc", "%b", false},
		{"", "%", true},
		{"", "_", false},
		{"a", "a\\", false},
	} {
		got, err := likeMatch(c.s, c.p, false)
		if err != nil || got != c.want {
			t.Errorf("%.20q LIKE %.20q = %v, %v; want %v", c.s, c.p, got, err, c.want)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v", d)
	}
}
