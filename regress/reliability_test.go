package regress

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joind/joind/regress/joindtest"
)

// The reliability suite (issue 17): hostile or unlucky inputs that once
// ran away, killed the server or poisoned it, each bounded to seconds.

// runawayBound is how late after statement_timeout's deadline a statement
// may answer: 100 ms plus one batch of rows, with room for a CI machine
// shared by many processes.
const runawayBound = 600 * time.Millisecond

// cpuTicks is the process's user+system CPU time in clock ticks (1/100 s).
func cpuTicks(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// Fields after the parenthesized command name; utime, stime are 14, 15.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// expectTimeout runs query under a 1 s statement_timeout and checks it
// answers 57014 "canceling statement due to statement timeout" within
// runawayBound of the deadline, and that the server's CPU then goes idle
// (the statement's goroutines stopped).
func expectTimeout(t *testing.T, j *joindtest.Joind, query string) {
	t.Helper()
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "SET statement_timeout = '1s'")
	start := time.Now()
	_, err := c.Exec(ctxT(t), query)
	elapsed := time.Since(start)
	if sqlState(err) != "57014" || !strings.Contains(err.Error(), "canceling statement due to statement timeout") {
		t.Fatalf("%.80s: %v after %v, want 57014 statement timeout", query, err, elapsed)
	}
	if elapsed > time.Second+runawayBound {
		t.Errorf("%.80s: answered after %v, deadline 1s", query, elapsed)
	}
	// Idle: at most 0.1 s of CPU over the next 0.5 s.
	time.Sleep(100 * time.Millisecond)
	before := cpuTicks(t, j.Pid())
	time.Sleep(500 * time.Millisecond)
	if used := cpuTicks(t, j.Pid()) - before; used > 10 {
		t.Errorf("%.80s: the server used %d0 ms of CPU in the 0.5 s after the timeout", query, used)
	}
	var one int
	if err := c.QueryRow(ctxT(t), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("the connection after the timeout: %v", err)
	}
}

// TestRunawayNumericMath: numeric ln, exp, power and sqrt over thousands of
// digits honour statement_timeout.
func TestRunawayNumericMath(t *testing.T) {
	j := joindtest.StartJoind(t)
	digits := "('1.' || repeat('3', 6000) || g)::numeric"
	for _, q := range []string{
		"SELECT sum(length(ln(" + digits + ")::text)) FROM generate_series(1, 100000) g",
		"SELECT sum(length(exp(" + digits + ")::text)) FROM generate_series(1, 100000) g",
		"SELECT sum(length((" + digits + " ^ 1.5)::text)) FROM generate_series(1, 100000) g",
		"SELECT sum(length(sqrt(" + digits + ")::text)) FROM generate_series(1, 10000000) g",
	} {
		expectTimeout(t, j, q)
	}
}

// TestRunawayRegex: regexp functions over a 100k-character string with as
// many matches honour statement_timeout.
func TestRunawayRegex(t *testing.T) {
	j := joindtest.StartJoind(t)
	for _, q := range []string{
		"SELECT sum(regexp_count(repeat('ab', 50000) || g, 'b')) FROM generate_series(1, 100000) g",
		"SELECT sum(length(regexp_replace(repeat('ab', 50000) || g, 'b', 'c', 'g'))) FROM generate_series(1, 100000) g",
		"SELECT count(*) FROM generate_series(1, 100000) g, regexp_matches(repeat('ab', 50000) || g, 'a', 'g')",
	} {
		expectTimeout(t, j, q)
	}
}

// TestRunawayInList: a 100,000-constant IN list is a hashed probe whose
// scan honours statement_timeout; NOT IN too, and their NULL semantics.
func TestRunawayInList(t *testing.T) {
	j := joindtest.StartJoind(t)
	items := make([]string, 100000)
	for i := range items {
		items[i] = strconv.Itoa(3 * i)
	}
	list := strings.Join(items, ",")
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "CREATE TABLE rel_in AS SELECT g FROM generate_series(1, 100000) g UNION ALL SELECT NULL")
	for _, k := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM rel_in WHERE g IN (" + list + ")", 33333},
		{"SELECT count(*) FROM rel_in WHERE g NOT IN (" + list + ")", 66667},
		{"SELECT count(*) FROM rel_in WHERE g NOT IN (" + list + ", NULL)", 0},
		{"SELECT count(*) FROM rel_in WHERE (g IN (" + list + ", NULL)) IS NULL", 66668},
	} {
		var n int64
		start := time.Now()
		if err := c.QueryRow(ctxT(t), k.q).Scan(&n); err != nil || n != k.want {
			t.Errorf("%.60s…: %d, %v; want %d", k.q, n, err, k.want)
		}
		if d := time.Since(start); d > 30*time.Second { // PostgreSQL: 0.5 s; joind's parse and bind take most

			t.Errorf("%.60s…: took %v", k.q, d)
		}
	}
	// The statement_timeout clock starts after binding; a 1,000-item list
	// binds at once, and its hashed probe runs over a billion rows.
	expectTimeout(t, j, "SELECT count(*) FROM generate_series(1, 1000000000) g WHERE g IN ("+strings.Join(items[:1000], ",")+")")
}

// TestRunawayCopyFromFIFO: COPY FROM a FIFO no one writes to (the open
// waits) and from one whose writer stops writing (the read waits) honour
// statement_timeout.
func TestRunawayCopyFromFIFO(t *testing.T) {
	dir := t.TempDir()
	j := joindtest.StartJoind(t, "--copy-dirs", dir)
	c := connect(t, endpoint{name: "joind", dsn: j.DSN()})
	mustExec(t, c, "CREATE TABLE rel_fifo (a int)")
	idle := filepath.Join(dir, "idle.fifo")
	if err := syscall.Mkfifo(idle, 0o600); err != nil {
		t.Fatal(err)
	}
	expectTimeout(t, j, "COPY rel_fifo FROM '"+idle+"'")

	stalled := filepath.Join(dir, "stalled.fifo")
	if err := syscall.Mkfifo(stalled, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		w, err := os.OpenFile(stalled, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		fmt.Fprintln(w, "1")
		<-ctx.Done() // keep the writer open, writing nothing more
	}()
	expectTimeout(t, j, "COPY rel_fifo FROM '"+stalled+"'")
}

// TestBinaryInputValidation: parameters PostgreSQL refuses — a numeric
// digit of 10000 or more, binary timestamps, timestamptz and dates out of
// range, text with invalid UTF-8 or NUL, in text and binary format — and
// date_trunc below the first timestamp, answered as PostgreSQL answers
// them (compared with the oracle).
func TestBinaryInputValidation(t *testing.T) {
	be16 := func(v ...uint16) []byte {
		b := make([]byte, 0, 2*len(v))
		for _, x := range v {
			b = append(b, byte(x>>8), byte(x))
		}
		return b
	}
	be := func(v int64, n int) []byte { // two's complement, big-endian
		b := make([]byte, n)
		for i := n - 1; i >= 0; i-- {
			b[i], v = byte(v), v>>8
		}
		return b
	}
	const firstTimestamp = -211813488000000000 // 4714-11-24 00:00 BC, in µs since 2000
	const firstDate = -2451545                 // 4714-11-24 BC, in days since 2000
	cases := []struct {
		name   string
		sql    string
		oid    uint32
		format int16
		val    []byte
	}{
		// numeric: ndigits, weight, sign, dscale, digits
		{"numeric digit 10000", "SELECT $1::numeric::text", 1700, 1, be16(1, 0, 0, 0, 10000)},
		{"numeric fraction digit 65535", "SELECT $1::numeric::text", 1700, 1, be16(2, 0, 0, 4, 1, 65535)},
		{"numeric digits 9999", "SELECT $1::numeric::text", 1700, 1, be16(2, 0, 0, 4, 9999, 9999)},
		// Past END_TIMESTAMP (294277-01-01); joind's own upper bound is
		// lower (microseconds since 1970), so 0x7fff000000000000 is not
		// compared.
		{"timestamp past the last", "SELECT $1::timestamp::text", 1114, 1, be(0x7fffffffffffff00, 8)},
		{"timestamp before 4714-11-24 BC", "SELECT $1::timestamp::text", 1114, 1, be(firstTimestamp-1, 8)},
		{"timestamp first", "SELECT $1::timestamp::text", 1114, 1, be(firstTimestamp, 8)},
		{"timestamptz past the last", "SELECT $1::timestamptz::text", 1184, 1, be(0x7fffffffffffff00, 8)},
		{"timestamptz before 4714-11-24 BC", "SELECT $1::timestamptz::text", 1184, 1, be(firstTimestamp-1, 8)},
		{"date 0x7ffffff0", "SELECT $1::date::text", 1082, 1, be(0x7ffffff0, 4)},
		{"date before 4714-11-24 BC", "SELECT $1::date::text", 1082, 1, be(firstDate-1, 4)},
		{"date first", "SELECT $1::date::text", 1082, 1, be(firstDate, 4)},
		{"text 0xff", "SELECT $1::text", 25, 0, []byte("a\xffb")},
		{"text NUL", "SELECT $1::text", 25, 0, []byte("a\x00b")},
		{"binary text 0xff", "SELECT $1::text", 25, 1, []byte("\xff")},
		{"binary varchar NUL", "SELECT $1::varchar", 1043, 1, []byte("\x00")},
	}
	outcome := func(ep endpoint) []string {
		c := connect(t, ep)
		mustExec(t, c, "SET TimeZone = 'UTC'")
		var out []string
		for _, k := range cases {
			res := c.PgConn().ExecParams(ctxT(t), k.sql, [][]byte{k.val}, []uint32{k.oid}, []int16{k.format}, nil).Read()
			s := k.name + ": "
			if res.Err != nil {
				s += describeErr(res.Err)
			} else {
				s += fmt.Sprintf("%q", res.Rows)
			}
			out = append(out, s)
		}
		for _, q := range []string{
			"SELECT date_trunc('century', timestamp '4713-01-01 BC')::text",
			"SELECT date_trunc('millennium', timestamp '4713-01-01 BC')::text",
			"SELECT date_trunc('decade', timestamp '4713-01-01 BC')::text",
			"SELECT date_trunc('century', timestamp '4700-01-01 BC')::text",
			"SELECT date_trunc('year', timestamp '4714-12-01 BC')::text",
		} {
			var v string
			err := c.QueryRow(ctxT(t), q).Scan(&v)
			if err != nil {
				v = describeErr(err)
			}
			out = append(out, q+": "+v)
		}
		return out
	}
	got, want := outcome(startTarget(t, regressDB)), outcome(startOracle(t, regressDB))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("joind    %s\npostgres %s", got[i], want[i])
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("PostgreSQL:\n%s", strings.Join(want, "\n"))
	}
}
