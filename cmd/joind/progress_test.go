package main

import (
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step at each reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(step); return t }
}

func newTestProgress(tty bool, total int64) (*progress, *strings.Builder) {
	var out strings.Builder
	p := newProgress(&out, "load", total, unitBytes)
	p.tty, p.now = tty, fakeClock(time.Second)
	p.start, p.printed = p.now(), time.Time{}
	p.every = time.Second
	return p, &out
}

func TestProgressPlainLines(t *testing.T) {
	p, out := newTestProgress(false, 4<<20)
	p.Add(1 << 20)
	p.Add(1 << 20)
	p.Finish()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		"load:  25% 1.0 MiB of 4.0 MiB, 1.0 MiB/s, ETA 3s",
		"load:  50% 2.0 MiB of 4.0 MiB, 1.0 MiB/s, ETA 2s",
		"load: done, 2.0 MiB in 3s (682.7 KiB/s)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("plain output:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	if strings.ContainsAny(out.String(), "\r\x1b") {
		t.Errorf("plain output redraws: %q", out)
	}
}

func TestProgressTerminalBar(t *testing.T) {
	p, out := newTestProgress(true, 4<<20)
	p.Add(1 << 20)
	p.Add(3 << 20)
	p.Finish()
	s := out.String()
	if strings.Count(s, "\r") != 3 || strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") {
		t.Fatalf("terminal output is not redrawn in place: %q", s)
	}
	for _, want := range []string{
		"\rload: [=======>                      ]  25% 1.0 MiB of 4.0 MiB, 1.0 MiB/s, ETA 3s",
		"\rload: [==============================] 100% 4.0 MiB of 4.0 MiB, 2.0 MiB/s",
		"\rload: done, 4.0 MiB in 3s (1.3 MiB/s)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, s)
		}
	}
}

func TestProgressUnknownTotalAndCounts(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, "gen", 0, unitRows)
	p.now = fakeClock(2 * time.Second)
	p.start, p.printed, p.every = p.now(), time.Time{}, time.Second
	p.Add(25000)
	if got := strings.TrimSpace(out.String()); got != "gen: 25.0k rows, 12.5k rows/s" {
		t.Errorf("got %q", got)
	}
}
