package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress shows how far a long job has come: on a terminal a bar redrawn
// in place with the rate and the time left, elsewhere (a log, a pipe, CI)
// plain lines now and then, so the output stays readable when captured.
// Add may be called from several goroutines.
type progress struct {
	w       io.Writer
	tty     bool
	label   string
	total   int64 // 0: unknown (no percentage, no ETA)
	unit    progressUnit
	now     func() time.Time
	every   time.Duration // between two updates
	mu      sync.Mutex
	done    int64
	start   time.Time
	printed time.Time
	width   int // of the last terminal line, to blank its rest
}

// progressUnit formats the amounts: bytes, or a count of things.
type progressUnit struct {
	bytes bool
	name  string // "rows", "segments", ... for counts
}

var (
	unitBytes = progressUnit{bytes: true}
	unitRows  = progressUnit{name: "rows"}
)

// newProgress starts a job of total units (0 if unknown) reported on w;
// w is a terminal when it is a character device and TERM is not "dumb".
func newProgress(w io.Writer, label string, total int64, unit progressUnit) *progress {
	p := &progress{w: w, tty: isTerminal(w), label: label, total: total, unit: unit, now: time.Now}
	p.every = 5 * time.Second
	if p.tty {
		p.every = 100 * time.Millisecond
	}
	p.start = p.now()
	p.printed = p.start
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Add counts n more units done.
func (p *progress) Add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if now := p.now(); now.Sub(p.printed) >= p.every {
		p.printed = now
		p.print(now, false)
	}
}

// Finish prints the final line: the amount done, the time it took, the
// rate.
func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.print(p.now(), true)
}

func (p *progress) print(now time.Time, final bool) {
	elapsed := now.Sub(p.start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.done) / elapsed.Seconds()
	}
	var b strings.Builder
	b.WriteString(p.label)
	if final {
		fmt.Fprintf(&b, ": done, %s in %s (%s/s)", p.unit.format(float64(p.done)), roundDuration(elapsed), p.unit.format(rate))
	} else {
		b.WriteString(": ")
		if p.total > 0 {
			frac := min(1, float64(p.done)/float64(p.total))
			if p.tty {
				const barWidth = 30
				full := int(frac * barWidth)
				b.WriteString("[" + strings.Repeat("=", full))
				if full < barWidth {
					b.WriteString(">" + strings.Repeat(" ", barWidth-full-1))
				}
				b.WriteString("] ")
			}
			fmt.Fprintf(&b, "%3.0f%% %s of %s", 100*frac, p.unit.format(float64(p.done)), p.unit.format(float64(p.total)))
		} else {
			b.WriteString(p.unit.format(float64(p.done)))
		}
		fmt.Fprintf(&b, ", %s/s", p.unit.format(rate))
		if p.total > 0 && rate > 0 && p.done < p.total {
			eta := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
			fmt.Fprintf(&b, ", ETA %s", roundDuration(eta))
		}
	}
	line := b.String()
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	// Redraw in place; blank what a longer previous line left.
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	p.width = len(line)
	end := ""
	if final {
		end = "\n"
	}
	fmt.Fprintf(p.w, "\r%s%s%s", line, pad, end)
}

func (u progressUnit) format(v float64) string {
	if !u.bytes {
		switch {
		case v >= 1e9:
			return fmt.Sprintf("%.2fG %s", v/1e9, u.name)
		case v >= 1e6:
			return fmt.Sprintf("%.2fM %s", v/1e6, u.name)
		case v >= 1e4:
			return fmt.Sprintf("%.1fk %s", v/1e3, u.name)
		}
		return fmt.Sprintf("%.0f %s", v, u.name)
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", v)
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// progressReader counts the bytes read through it.
type progressReader struct {
	r io.Reader
	p *progress
}

func (r progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.p.Add(int64(n))
	return n, err
}
