package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/pgerr"
)

// copyEchoEngine's only statement, "copyin N", reads COPY FROM STDIN data
// with Reads of N bytes and keeps what it got (or the error) in got.
type copyEchoEngine struct {
	got chan copyEchoResult
}

type copyEchoResult struct {
	data []byte
	err  error
}

type copyEchoSession struct{ e *copyEchoEngine }

func (e *copyEchoEngine) NewSession(ctx context.Context, params map[string]string) (Session, error) {
	return &copyEchoSession{e: e}, nil
}

func (s *copyEchoSession) Parse(q string) ([]Statement, error) {
	return []Statement{testStmt{sql: q}}, nil
}
func (s *copyEchoSession) TxStatus() byte                      { return 'I' }
func (s *copyEchoSession) ReportedSettings() map[string]string { return map[string]string{} }
func (s *copyEchoSession) Close()                              {}

func (s *copyEchoSession) Execute(ctx context.Context, st Statement, w ResultWriter) (string, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(st.SQL(), "copyin "))
	if err != nil {
		return "", err
	}
	r, err := w.(CopyChannel).CopyIn(0, 1)
	if err != nil {
		return "", err
	}
	var got bytes.Buffer
	p := make([]byte, n)
	for {
		k, err := r.Read(p)
		got.Write(p[:k])
		if err == io.EOF {
			break
		}
		if err != nil {
			s.e.got <- copyEchoResult{data: got.Bytes(), err: err}
			return "", err
		}
	}
	s.e.got <- copyEchoResult{data: got.Bytes()}
	return fmt.Sprintf("COPY %d", got.Len()), nil
}

// chunked returns data in Reads of the given sizes in turn: pgconn sends
// each Read as one CopyData message. fail, if set, ends the data instead of
// EOF (pgconn then sends CopyFail).
type chunked struct {
	data  []byte
	sizes []int
	i     int
	fail  error
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		if c.fail != nil {
			return 0, c.fail
		}
		return 0, io.EOF
	}
	n := min(c.sizes[c.i%len(c.sizes)], len(p), len(c.data))
	c.i++
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestCopyInReaderJoinsAndSplitsMessages checks that COPY data arrives
// byte for byte whatever the message sizes and the reader's buffer size
// (a message larger than the buffer is delivered over several Reads), and
// that a CopyFail is reported after the data before it.
func TestCopyInReaderJoinsAndSplitsMessages(t *testing.T) {
	eng := &copyEchoEngine{got: make(chan copyEchoResult, 1)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(eng, ServerOptions{}, nil)
	go srv.Serve(context.Background(), ln)
	defer srv.Shutdown(context.Background())
	ctx := context.Background()
	pc, err := pgconn.Connect(ctx, "postgres://u@"+ln.Addr().String()+"/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(ctx)

	data := make([]byte, 200_000)
	for i := range data {
		data[i] = byte(i*7 + i/251)
	}
	for _, readSize := range []int{1, 5, 8192, 70_000, 1 << 20} {
		for _, sizes := range [][]int{{1}, {8187}, {3, 65531, 17, 9000}} {
			if readSize == 1 && sizes[0] == 1 {
				continue // 200k one-byte messages: slow, adds nothing
			}
			tag, err := pc.CopyFrom(ctx, &chunked{data: data, sizes: sizes}, "copyin "+strconv.Itoa(readSize))
			if err != nil {
				t.Fatalf("read %d, messages %v: %v", readSize, sizes, err)
			}
			res := <-eng.got
			if tag.String() != "COPY 200000" || !bytes.Equal(res.data, data) {
				t.Fatalf("read %d, messages %v: tag %q, %d bytes, equal %v", readSize, sizes, tag, len(res.data), bytes.Equal(res.data, data))
			}
		}
	}

	_, err = pc.CopyFrom(ctx, &chunked{data: data[:10_000], sizes: []int{4000}, fail: errors.New("boom")}, "copyin 8192")
	res := <-eng.got
	if !bytes.Equal(res.data, data[:10_000]) || pgerr.Code(res.err) != pgerr.QueryCanceled ||
		res.err.Error() != "COPY from stdin failed: boom" {
		t.Fatalf("CopyFail: %d bytes, err %v", len(res.data), res.err)
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != pgerr.QueryCanceled {
		t.Fatalf("client got %v", err)
	}
	// The connection is usable afterwards.
	if _, err := pc.CopyFrom(ctx, &chunked{data: data[:3], sizes: []int{3}}, "copyin 2"); err != nil {
		t.Fatal(err)
	}
	<-eng.got
}
