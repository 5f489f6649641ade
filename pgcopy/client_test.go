package pgcopy

import "testing"

func TestStripZone(t *testing.T) {
	for in, want := range map[string]string{
		"2024-01-01 +00":            "2024-01-01",
		"2024-03-04 05:06:07.89+00": "2024-03-04 05:06:07.89",
		"2024-03-04 05:06:07-08:00": "2024-03-04 05:06:07",
		"2024-01-01":                "",
	} {
		got, ok := stripZone(in)
		if want == "" {
			if ok {
				t.Errorf("stripZone(%q) = %q, want no change", in, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("stripZone(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}
