package wire_test

// FuzzFrontendMessages drives wire's server with joind's own engine (an
// external test package, so wire itself still imports no engine), to reach
// the extended protocol, COPY and binary parameters. See fuzz_test.go for
// how the fuzz targets of this package are run.

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/engine"
	"github.com/joind/joind/wire"
)

const msgFuzzDeadline = 10 * time.Second

// fuzzTable is created before each input runs, so COPY and queries have a
// table of several types to work on.
const fuzzTable = "CREATE TABLE t (a int, b text, c numeric(6,2), d date, e timestamp, f bool, g float8, h bigint, i varchar(3), j interval)"

type encoder interface{ Encode([]byte) ([]byte, error) }

func encode(tb testing.TB, msgs ...encoder) []byte {
	var out []byte
	for _, m := range msgs {
		var err error
		if out, err = m.Encode(out); err != nil {
			if tb == nil {
				panic(err)
			}
			tb.Fatal(err)
		}
	}
	return out
}

// fuzzServer is a wire server over a fresh in-memory engine.
type fuzzServer struct {
	srv  *wire.Server
	eng  *engine.Engine
	addr string
	logs *wire.FuzzLog
}

func startFuzzServer(t *testing.T) *fuzzServer {
	t.Helper()
	eng, err := engine.New(engine.Options{Partitions: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logs := &wire.FuzzLog{}
	fs := &fuzzServer{srv: wire.NewServer(eng, wire.ServerOptions{StartupTimeout: 3 * time.Second}, logs.Logger()),
		eng: eng, addr: ln.Addr().String(), logs: logs}
	go fs.srv.Serve(context.Background(), ln)
	return fs
}

// stop shuts the server down; a connection still busy after the deadline is
// a hang.
func (fs *fuzzServer) stop(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := fs.srv.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v (a connection did not end)", err)
	}
	_ = fs.eng.Close()
}

// session connects, runs the startup and returns the connection and what
// the server sent up to its ReadyForQuery.
func (fs *fuzzServer) session(t *testing.T) (net.Conn, *pgproto3.Frontend) {
	t.Helper()
	nc, err := net.Dial("tcp", fs.addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = nc.SetDeadline(time.Now().Add(msgFuzzDeadline))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "fuzz", "database": "fuzz"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatalf("startup: %v", err)
		}
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("startup: %s %s", e.Code, e.Message)
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			return nc, fe
		}
	}
}

// query runs sql on a new connection and returns its DataRows' first
// values, failing on an error.
func (fs *fuzzServer) query(t *testing.T, sql string) []string {
	t.Helper()
	nc, fe := fs.session(t)
	defer nc.Close()
	fe.Send(&pgproto3.Query{String: sql})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var vals []string
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		switch m := m.(type) {
		case *pgproto3.DataRow:
			vals = append(vals, string(m.Values[0]))
		case *pgproto3.ErrorResponse:
			t.Fatalf("%s: %s %s", sql, m.Code, m.Message)
		case *pgproto3.ReadyForQuery:
			return vals
		}
	}
}

// FuzzFrontendMessages sends arbitrary bytes as the messages after a
// normal startup (on a server whose table t exists): Query, Parse, Bind
// (text and binary parameters), Describe, Execute, Sync, Flush, Close, COPY
// data in every format, FunctionCall, Terminate, unknown types and wrong
// lengths. The server must answer with well-formed messages, each error
// with a valid SQLSTATE and never XX000 (a recovered panic), nothing after
// a FATAL error, close the connection within a deadline after the client's
// half-close, and then serve another client.
func FuzzFrontendMessages(f *testing.F) {
	for _, s := range frontendSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkFrontendInput)
}

// frontendSeeds are the message sequences the fuzz target and the
// campaign start from: what drivers send, and broken framing.
func frontendSeeds(tb testing.TB) [][]byte {
	i4 := func(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	copyBinary := func(fields ...[]byte) []byte {
		b := []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")
		b = binary.BigEndian.AppendUint16(b, uint16(len(fields)))
		for _, v := range fields {
			if v == nil {
				b = binary.BigEndian.AppendUint32(b, 0xffffffff)
				continue
			}
			b = append(binary.BigEndian.AppendUint32(b, uint32(len(v))), v...)
		}
		return append(b, 0xff, 0xff)
	}
	// What pgx sends for conn.Query(ctx, sql, args...): a named statement
	// described first, then Bind with binary int4 and text parameters.
	pgxPrepare := encode(tb,
		&pgproto3.Parse{Name: "stmtcache_1", Query: "SELECT $1::int4 + a, $2::text FROM t WHERE b <> $2", ParameterOIDs: []uint32{23, 25}},
		&pgproto3.Describe{ObjectType: 'S', Name: "stmtcache_1"},
		&pgproto3.Sync{})
	pgxRun := encode(tb,
		&pgproto3.Bind{PreparedStatement: "stmtcache_1", ParameterFormatCodes: []int16{1, 0}, Parameters: [][]byte{i4(41), []byte("x")}, ResultFormatCodes: []int16{1, 0}},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Sync{})
	seeds := [][]byte{
		encode(tb, &pgproto3.Query{String: "SELECT 1"}, &pgproto3.Terminate{}),
		append(pgxPrepare, pgxRun...),
		encode(tb, &pgproto3.Query{String: "COPY t FROM STDIN"},
			&pgproto3.CopyData{Data: []byte("1\tone\t1.50\t2024-01-02\t2024-01-02 03:04:05\tt\t1.5\t9\tabc\t1 day\n\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n")},
			&pgproto3.CopyDone{}, &pgproto3.Query{String: "SELECT count(*), sum(a) FROM t"}),
		encode(tb, &pgproto3.Query{String: "COPY t (a, b, c) FROM STDIN (FORMAT csv, HEADER)"},
			&pgproto3.CopyData{Data: []byte("a,b,c\n1,\"x,\"\"y\",2.5\n")}, &pgproto3.CopyData{Data: []byte("2,\"split\nline\",")},
			&pgproto3.CopyData{Data: []byte("3\n")}, &pgproto3.CopyDone{}),
		encode(tb, &pgproto3.Query{String: "COPY t (a, b) FROM STDIN (FORMAT csv)"},
			&pgproto3.CopyData{Data: []byte("1,x\n")}, &pgproto3.CopyFail{Message: "client gave up"},
			&pgproto3.Query{String: "SELECT count(*) FROM t"}),
		encode(tb, &pgproto3.Query{String: "COPY t (a, b, d) FROM STDIN (FORMAT binary)"},
			&pgproto3.CopyData{Data: copyBinary(i4(7), []byte("bin"), i4(-365))}, &pgproto3.CopyDone{}),
		encode(tb, &pgproto3.Query{String: "COPY t (a, b) FROM STDIN (FORMAT binary)"},
			&pgproto3.CopyData{Data: []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x7f\xff\xff\xff")}, &pgproto3.CopyDone{}),
		encode(tb, &pgproto3.Query{String: "INSERT INTO t (a, b) VALUES (1, 'a'), (2, 'b')"},
			&pgproto3.Query{String: "COPY t TO STDOUT (FORMAT csv)"}, &pgproto3.Query{String: "COPY (SELECT a FROM t) TO STDOUT (FORMAT binary)"}),
		encode(tb, &pgproto3.Parse{Query: "SELECT $1::numeric, $2::date, $3::timestamp, $4::interval, $5::bool, $6::float8, $7::int8, $8::varchar"},
			&pgproto3.Bind{ParameterFormatCodes: []int16{1},
				Parameters: [][]byte{{0, 1, 0, 0, 0, 0, 0, 2, 0, 12}, i4(0), make([]byte, 8), make([]byte, 16), {1}, make([]byte, 8), make([]byte, 8), []byte("v")}},
			&pgproto3.Execute{MaxRows: 1}, &pgproto3.Execute{}, &pgproto3.Sync{}),
		encode(tb, &pgproto3.Parse{Name: "s", Query: "SELECT a FROM t"}, &pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "s"},
			&pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Flush{}, &pgproto3.Close{ObjectType: 'P', Name: "p"},
			&pgproto3.Close{ObjectType: 'S', Name: "s"}, &pgproto3.Sync{}),
		encode(tb, &pgproto3.Bind{PreparedStatement: "nosuch"}, &pgproto3.Execute{}, &pgproto3.Sync{},
			&pgproto3.Describe{ObjectType: 'X'}, &pgproto3.Sync{}),
		encode(tb, &pgproto3.Parse{Query: "SELECT $1::int4"}, &pgproto3.Bind{ParameterFormatCodes: []int16{1}, Parameters: [][]byte{{0, 1}}},
			&pgproto3.Sync{}, &pgproto3.Parse{Query: "SELECT $1::int4"}, &pgproto3.Bind{ParameterFormatCodes: []int16{2}, Parameters: [][]byte{{0}}},
			&pgproto3.Sync{}, &pgproto3.Parse{Query: "SELECT 1; SELECT 2"}, &pgproto3.Sync{}),
		encode(tb, &pgproto3.Query{String: "BEGIN"}, &pgproto3.Query{String: "SELECT 1/0"}, &pgproto3.Query{String: "ROLLBACK"}),
		encode(tb, &pgproto3.FunctionCall{Function: 1598, ArgFormatCodes: []uint16{1}, Arguments: [][]byte{i4(1)}}, &pgproto3.Query{String: "SELECT 2"}),
		encode(tb, &pgproto3.CopyData{Data: []byte("stray")}, &pgproto3.CopyDone{}, &pgproto3.Query{String: "SELECT 3"}),
		encode(tb, &pgproto3.Query{String: "SELECT 'a\xff'"}, &pgproto3.Query{String: ""}),
		append(encode(tb, &pgproto3.Query{String: "SELECT 4"}), 'z', 0, 0, 0, 4),
		{'S', 0, 0, 0, 100},
		{'Q', 0xff, 0xff, 0xff, 0xff},
		{'Q', 0, 0, 0, 3},
		{'Q', 0, 0, 0, 9, 'S', 'E', 'L'},
		{'X', 0, 0, 0, 4},
	}
	return seeds
}

// fuzzStartup is the startup packet every input follows.
var fuzzStartup = encode(nil, &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
	Parameters: map[string]string{"user": "fuzz", "database": "fuzz", "application_name": "fuzz"}})

// checkFrontendInput runs one input on a fresh server and checks what the
// target's doc comment promises.
func checkFrontendInput(t *testing.T, data []byte) {
	fs := startFuzzServer(t)
	defer fs.stop(t)
	fs.query(t, fuzzTable)
	out, reset := wire.FuzzExchange(t, fs.addr, fuzzStartup, data)
	msgs := wire.FuzzBackendMessages(t, out, reset, data)
	ready := false
	for _, m := range msgs {
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			ready = true
		}
	}
	if !ready {
		t.Fatalf("input %q: the startup did not end in ReadyForQuery: %q", data, out)
	}
	wire.FuzzCheckErrors(t, msgs, data, func(_ int, code, _ string) bool { return code != "XX000" }, fs.logs)
	// Another client is served normally.
	if got := fs.query(t, "SELECT 42"); len(got) != 1 || got[0] != "42" {
		t.Fatalf("after input %q: SELECT 42 gave %q", data, got)
	}
}

// TestFrontendMessageCampaign is a mutation campaign over the same check
// as FuzzFrontendMessages, without the coverage engine: Go's fuzzer
// instruments the whole engine and manages a few inputs a second here,
// while plain mutation runs hundreds, enough for millions of messages in
// a long run. Inputs are the seeds mutated (bytes changed, inserted,
// deleted; a length field rewritten; message frames of several seeds
// spliced together). CI runs JOIND_WIRE_CAMPAIGN_INPUTS (default 1500);
// JOIND_WIRE_CAMPAIGN=30m runs for a duration instead, and
// JOIND_WIRE_CAMPAIGN_SEED picks the sequence. A failing input is written
// to testdata/fuzz/FuzzFrontendMessages/, where `go test` replays it.
func TestFrontendMessageCampaign(t *testing.T) {
	inputs, seed := 1500, int64(20261203)
	if s := os.Getenv("JOIND_WIRE_CAMPAIGN_INPUTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("JOIND_WIRE_CAMPAIGN_INPUTS: %v", err)
		}
		inputs = n
	}
	if s := os.Getenv("JOIND_WIRE_CAMPAIGN_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("JOIND_WIRE_CAMPAIGN_SEED: %v", err)
		}
		seed = n
	}
	var until time.Time
	if s := os.Getenv("JOIND_WIRE_CAMPAIGN"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("JOIND_WIRE_CAMPAIGN: %v", err)
		}
		until, inputs = time.Now().Add(d), math.MaxInt
	}
	seeds := frontendSeeds(t)
	var frames [][]byte
	for _, s := range seeds {
		frames = append(frames, splitFrames(s)...)
	}
	rng := rand.New(rand.NewSource(seed))
	start := time.Now()
	var messages int
	n := 0
	for ; n < inputs && (until.IsZero() || time.Now().Before(until)); n++ {
		data := mutateFrontend(rng, seeds, frames)
		messages += len(splitFrames(data))
		if !t.Run(strconv.Itoa(n), func(t *testing.T) { checkFrontendInput(t, data) }) {
			name := filepath.Join("testdata", "fuzz", "FuzzFrontendMessages", fmt.Sprintf("campaign-%d-%d", seed, n))
			if err := os.WriteFile(name, fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data), 0o644); err != nil {
				t.Log(err)
			}
			t.Fatalf("input %d (seed %d) failed; written to %s", n, seed, name)
		}
		if n%20000 == 0 && n > 0 {
			t.Logf("%v: %d inputs, %d messages", time.Since(start).Round(time.Second), n, messages)
		}
	}
	t.Logf("seed %d: %d inputs, %d messages in %v, every one answered as the protocol requires", seed, n, messages, time.Since(start).Round(time.Second))
}

// splitFrames cuts b into its messages (type byte and length), the tail
// that does not frame as one more.
func splitFrames(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 5 {
			return append(out, b)
		}
		n := int(binary.BigEndian.Uint32(b[1:5]))
		if n < 4 || n+1 > len(b) {
			return append(out, b)
		}
		out = append(out, b[:n+1])
		b = b[n+1:]
	}
	return out
}

// mutateFrontend is one campaign input.
func mutateFrontend(rng *rand.Rand, seeds, frames [][]byte) []byte {
	var b []byte
	if rng.Intn(3) == 0 {
		for k := 1 + rng.Intn(6); k > 0; k-- { // splice frames
			b = append(b, frames[rng.Intn(len(frames))]...)
		}
	} else {
		b = append(b, seeds[rng.Intn(len(seeds))]...)
	}
	for k := 1 + rng.Intn(3); k > 0; k-- {
		switch op := rng.Intn(5); {
		case len(b) == 0 || op == 0:
			b = append(b, byte(rng.Intn(256)))
		case op == 1:
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		case op == 2:
			i := rng.Intn(len(b))
			b = append(b[:i], append([]byte{byte(rng.Intn(256))}, b[i:]...)...)
		case op == 3:
			i := rng.Intn(len(b))
			b = append(b[:i], b[min(len(b), i+1+rng.Intn(8)):]...)
		default: // a frame's length field
			fs := splitFrames(b)
			f := fs[rng.Intn(len(fs))]
			if len(f) >= 5 {
				lens := []uint32{0, 3, 4, uint32(len(f)), uint32(rng.Intn(1 << 16)), 1 << 30, 0xffffffff}
				binary.BigEndian.PutUint32(f[1:5], lens[rng.Intn(len(lens))])
			}
		}
	}
	return b
}
