package types

import (
	"testing"
	"time"
)

// TestParsePosixZone checks tzparse's grammar: any STD name (even one
// letter or empty), hours west up to 167, minutes to 59, seconds to 60,
// and a DST part with its default US rules.
func TestParsePosixZone(t *testing.T) {
	jan, jul := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2000, 7, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		spec       string
		ok         bool
		janE, julE int // seconds east in January and July
	}{
		{"B0", true, 0, 0}, {"B5", true, -5 * 3600, -5 * 3600}, {"b+5", true, -5 * 3600, -5 * 3600},
		{"B-5:30", true, 5*3600 + 1800, 5*3600 + 1800}, {"+3", true, -3 * 3600, -3 * 3600},
		{"<Q>3", true, -3 * 3600, -3 * 3600}, {"B167", true, -167 * 3600, -167 * 3600},
		{"B1:59:60", true, -(3600 + 59*60 + 60), -(3600 + 59*60 + 60)},
		{"B5C", true, -5 * 3600, -4 * 3600}, {"EST5EDT,M3.2.0,M11.1.0", true, -5 * 3600, -4 * 3600},
		{"B168", false, 0, 0}, {"B1:60", false, 0, 0}, {"B", false, 0, 0}, {"B0+3", false, 0, 0},
		{"<Q", false, 0, 0}, {"B:", false, 0, 0},
	} {
		loc, ok := parsePosixZone(c.spec)
		if ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.spec, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if _, e := jan.In(loc).Zone(); e != c.janE {
			t.Errorf("%q: January offset %d, want %d", c.spec, e, c.janE)
		}
		if _, e := jul.In(loc).Zone(); e != c.julE {
			t.Errorf("%q: July offset %d, want %d", c.spec, e, c.julE)
		}
	}
}
