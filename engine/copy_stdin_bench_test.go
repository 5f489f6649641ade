//go:build unix

package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/wire"
)

// BenchmarkCopyStdinWire is the real COPY FROM STDIN path: an in-process
// wire server over the engine, and a client sending the issue-7 CSV the way
// psql's \copy does (whole lines, at most 8 KiB per CopyData message).
// JOIND_COPY_ROWS sets the rows (default 1M), JOIND_COPY_DIR a data
// directory (default: in memory), JOIND_COPY_FSYNC=off skips fsync there.
//
//	go test ./engine -run '^$' -bench CopyStdinWire -benchtime 3x -cpuprofile /tmp/wire.prof
func BenchmarkCopyStdinWire(b *testing.B) {
	rows := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("JOIND_COPY_ROWS")); err == nil && v > 0 {
		rows = v
	}
	data := genCopyCSV(rows)
	dir := ""
	if d := os.Getenv("JOIND_COPY_DIR"); d != "" {
		var err error
		if dir, err = os.MkdirTemp(d, "copybench-"); err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	e, err := New(Options{DataDir: dir, NoFsync: os.Getenv("JOIND_COPY_FSYNC") == "off"})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := wire.NewServer(e, wire.ServerOptions{}, nil)
	go srv.Serve(context.Background(), ln)
	defer srv.Shutdown(context.Background())

	ctx := context.Background()
	pc, err := pgconn.Connect(ctx, fmt.Sprintf("postgres://bench@%s/postgres?sslmode=disable", ln.Addr()))
	if err != nil {
		b.Fatal(err)
	}
	defer pc.Close(ctx)
	if err := pc.Exec(ctx, "CREATE TABLE t (id bigint, n int, s text)").Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := pc.Exec(ctx, "TRUNCATE t").Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		tag, err := pc.CopyFrom(ctx, &psqlLines{data: data}, "COPY t FROM STDIN (FORMAT csv)")
		if err != nil || tag.RowsAffected() != int64(rows) {
			b.Fatalf("COPY: %v %v", tag, err)
		}
	}
}

// psqlLines reads data as psql sends a file: whole lines gathered into
// messages of at most 8 KiB (its COPYBUFSIZ) less 5 bytes; pgconn sends
// each Read as one CopyData message.
type psqlLines struct {
	data []byte
}

func (r *psqlLines) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	max := min(len(p), 8192-5, len(r.data))
	n := max
	if n < len(r.data) {
		if i := bytes.LastIndexByte(r.data[:max], '\n'); i >= 0 {
			n = i + 1
		}
	}
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}
