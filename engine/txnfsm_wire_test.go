package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/joind/joind/wire"
)

// TestTxFSMWire checks the extended protocol's implicit transaction (up to
// Sync) and the COPY states through the wire with pgconn, against what
// PostgreSQL 15 answers to the same messages: statements of one pipeline
// share a transaction that a failure undoes and Sync commits, COMMIT in
// it commits what came before, BEGIN makes it the block; COPY FROM STDIN
// keeps or fails the block; ReadyForQuery carries I / T / E.
func TestTxFSMWire(t *testing.T) {
	ctx := context.Background()
	pc := connectWire(t, "fsm")

	exec := func(q string) string {
		t.Helper()
		res, err := pc.Exec(ctx, q).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var out []string
		for _, r := range res {
			for _, row := range r.Rows {
				out = append(out, string(row[0]))
			}
		}
		return strings.Join(out, ",")
	}
	// pipeline sends the statements as Parse/Bind/Describe/Execute, one
	// Sync, and returns each one's tag or SQLSTATE.
	pipeline := func(qs ...string) string {
		t.Helper()
		p := pc.StartPipeline(ctx)
		for _, q := range qs {
			p.SendQueryParams(q, nil, nil, nil, nil)
		}
		p.SendPipelineSync()
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		var out []string
		for {
			r, err := p.GetResults()
			if err != nil {
				out = append(out, sqlstate(err))
				continue
			}
			if r == nil {
				break
			}
			switch x := r.(type) {
			case *pgconn.ResultReader:
				res := x.Read()
				if res.Err != nil {
					out = append(out, sqlstate(res.Err))
				} else {
					out = append(out, res.CommandTag.String())
				}
			case *pgconn.PipelineSync:
				out = append(out, "sync")
				if err := p.Close(); err != nil {
					t.Fatal(err)
				}
				return strings.Join(out, " ")
			}
		}
		t.Fatal("pipeline ended without Sync")
		return ""
	}
	status := func(want byte) {
		t.Helper()
		if got := pc.TxStatus(); got != want {
			t.Fatalf("ReadyForQuery status %c, want %c", got, want)
		}
	}

	exec("CREATE TABLE fsmw (a int)")
	for _, c := range []struct {
		qs     []string
		out    string
		status byte
		count  string
	}{
		// A failure undoes the whole pipeline.
		{[]string{"INSERT INTO fsmw VALUES (1)", "INSERT INTO fsmw VALUES (1/0)"}, "INSERT 0 1 22012 sync", 'I', "0"},
		// Sync commits it.
		{[]string{"INSERT INTO fsmw VALUES (1)", "INSERT INTO fsmw VALUES (2)"}, "INSERT 0 1 INSERT 0 1 sync", 'I', "2"},
		// COMMIT in it commits what came before.
		{[]string{"INSERT INTO fsmw VALUES (3)", "COMMIT", "INSERT INTO fsmw VALUES (1/0)"}, "INSERT 0 1 COMMIT 22012 sync", 'I', "3"},
		// BEGIN makes it the block; the block stays open after Sync.
		{[]string{"INSERT INTO fsmw VALUES (4)", "BEGIN", "INSERT INTO fsmw VALUES (5)"}, "INSERT 0 1 BEGIN INSERT 0 1 sync", 'T', ""},
		{[]string{"SAVEPOINT a", "INSERT INTO fsmw VALUES (1/0)"}, "SAVEPOINT 22012 sync", 'E', ""},
		{[]string{"SELECT 1"}, "25P02 sync", 'E', ""},
		{[]string{"ROLLBACK TO a", "COMMIT"}, "ROLLBACK COMMIT sync", 'I', "5"},
		{[]string{"SAVEPOINT a"}, "25P01 sync", 'I', "5"},
		// CREATE then use in one pipeline: the second sees the first.
		{[]string{"CREATE TABLE fsmw2 (a int)", "INSERT INTO fsmw2 VALUES (1)", "DROP TABLE fsmw2"}, "CREATE TABLE INSERT 0 1 DROP TABLE sync", 'I', "5"},
	} {
		if got := pipeline(c.qs...); got != c.out {
			t.Fatalf("%q: %s, want %s", c.qs, got, c.out)
		}
		status(c.status)
		if c.count != "" {
			if got := exec("SELECT count(*) FROM fsmw"); got != c.count {
				t.Fatalf("%q: count %s, want %s", c.qs, got, c.count)
			}
		}
	}

	// COPY FROM STDIN in a block: good data keeps it open, a bad row
	// fails it; outside a block a bad row loads nothing.
	copyIn := func(data string) error {
		_, err := pc.CopyFrom(ctx, strings.NewReader(data), "COPY fsmw FROM STDIN")
		return err
	}
	exec("BEGIN")
	if err := copyIn("10\n11\n"); err != nil {
		t.Fatal(err)
	}
	status('T')
	if err := copyIn("12\nx\n"); sqlstate(err) != "22P02" {
		t.Fatalf("bad row: %v", err)
	}
	status('E')
	exec("ROLLBACK")
	status('I')
	if err := copyIn("20\nx\n"); sqlstate(err) != "22P02" {
		t.Fatalf("bad row: %v", err)
	}
	status('I')
	if err := copyIn("20\n21\n"); err != nil {
		t.Fatal(err)
	}
	if got := exec("SELECT count(*) FROM fsmw"); got != "7" {
		t.Fatalf("after COPY: count %s, want 7", got)
	}
	exec("DROP TABLE fsmw")
}

// connectWire starts an in-memory engine behind a wire server and
// connects to it as user (all closed when the test ends).
func connectWire(t *testing.T, user string) *pgconn.PgConn {
	t.Helper()
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(e, wire.ServerOptions{}, nil)
	go srv.Serve(context.Background(), ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	pc, err := pgconn.Connect(context.Background(), fmt.Sprintf("postgres://%s@%s/postgres?sslmode=disable", user, ln.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close(context.Background()) })
	return pc
}

func sqlstate(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	if err != nil {
		return err.Error()
	}
	return ""
}
