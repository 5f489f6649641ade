//go:build unix

package engine

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/joind/joind/wire"
)

// BenchmarkCopyFromStdin loads the issue-7 table shape (bigint, int, text)
// with COPY FROM STDIN through a session, as psql's \copy would, without
// the wire protocol. JOIND_COPY_ROWS sets the rows (default 1M; the goal
// figure is 10M), JOIND_COPY_DIR a data directory (default: in memory),
// JOIND_COPY_FSYNC=off skips fsync there. Profile with
//
//	go test ./engine -run '^$' -bench CopyFrom -benchtime 3x -cpuprofile /tmp/copy.prof
func BenchmarkCopyFromStdin(b *testing.B) {
	benchCopyFromStdin(b, "CREATE TABLE t (id bigint, n int, s text)", "COPY t FROM STDIN (FORMAT csv)")
}

// BenchmarkCopyFromStdinDefaults is BenchmarkCopyFromStdin into a table
// with two more columns the COPY omits: a per-statement DEFAULT now() and
// a per-row DEFAULT random().
func BenchmarkCopyFromStdinDefaults(b *testing.B) {
	b.Run("now", func(b *testing.B) {
		benchCopyFromStdin(b, "CREATE TABLE t (id bigint, n int, s text, ts timestamptz DEFAULT now())",
			"COPY t (id, n, s) FROM STDIN (FORMAT csv)")
	})
	b.Run("random", func(b *testing.B) {
		benchCopyFromStdin(b, "CREATE TABLE t (id bigint, n int, s text, r float8 DEFAULT random())",
			"COPY t (id, n, s) FROM STDIN (FORMAT csv)")
	})
}

func benchCopyFromStdin(b *testing.B, create, copyStmt string) {
	rows := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("JOIND_COPY_ROWS")); err == nil && v > 0 {
		rows = v
	}
	data := genCopyCSV(rows)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := ""
		if d := os.Getenv("JOIND_COPY_DIR"); d != "" {
			var err error
			if dir, err = os.MkdirTemp(d, "copybench-"); err != nil {
				b.Fatal(err)
			}
		}
		e, err := New(Options{DataDir: dir, NoFsync: os.Getenv("JOIND_COPY_FSYNC") == "off"})
		if err != nil {
			b.Fatal(err)
		}
		s, err := e.NewSession(context.Background(), map[string]string{"user": "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := execAll(s, create, &discardWriter{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		tag, err := execAll(s, copyStmt, &copyFeed{in: bytes.NewReader(data)})
		b.StopTimer()
		if err != nil || tag != "COPY "+strconv.Itoa(rows) {
			b.Fatalf("COPY: %q %v", tag, err)
		}
		e.Close()
		if dir != "" {
			os.RemoveAll(dir)
		}
		b.StartTimer()
	}
}

// genCopyCSV is the benchmark's CSV: id, id % 1000, 'row-' || id.
func genCopyCSV(rows int) []byte {
	var buf []byte
	for i := 0; i < rows; i++ {
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(i%1000), 10)
		buf = append(buf, ",row-"...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, '\n')
	}
	return buf
}

// copyFeed is a ResultWriter with a copy channel: CopyIn reads in, CopyOut
// collects into out.
type copyFeed struct {
	discardWriter
	in  io.Reader
	out bytes.Buffer
}

var _ wire.CopyChannel = (*copyFeed)(nil)

func (c *copyFeed) CopyIn(format int16, columns int) (io.Reader, error) { return c.in, nil }
func (c *copyFeed) CopyOut(format int16, columns int) (io.WriteCloser, error) {
	return nopWriteCloser{&c.out}, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
