package join

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// naFacts are what decided a null-aware join's answer, which EXPLAIN
// ANALYZE shows so a user can see why a NOT IN returned no rows. The
// partitions count them concurrently (atomics); they are read after the
// join has finished.
type naFacts struct {
	nullBuild    atomic.Int64 // build rows with a NULL (NOT IN value) key
	nullProbe    atomic.Int64 // probe rows with a NULL value key
	unknown      atomic.Int64 // build rows whose NOT IN became UNKNOWN (per-row mode)
	probeSkipped atomic.Bool  // RightAnti over a build side with a NULL: the probe side was not read
}

// factsNote is the null-aware facts' EXPLAIN ANALYZE note ("" for a join
// that is not null-aware).
func (j *HashJoin) factsNote() string {
	if j.na == naNone {
		return ""
	}
	f := &j.facts
	note := fmt.Sprintf("(null-aware %s: build rows with a NULL key=%d, probe rows with a NULL key=%d",
		j.na, f.nullBuild.Load(), f.nullProbe.Load())
	if j.na == naPerRow {
		note += fmt.Sprintf(", build rows made UNKNOWN=%d", f.unknown.Load())
	}
	if f.probeSkipped.Load() {
		note += "; probe side not read: NOT IN over a list with a NULL is never TRUE"
	}
	return note + ")"
}

// joinNotes joins the non-empty notes with spaces.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}
