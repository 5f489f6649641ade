package drivers

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/regress/joindtest"
	"github.com/joind/joind/regress/oracle"
)

var updateProto = flag.Bool("update", false, "rewrite wire/testdata/*.out from PostgreSQL's answers")

// TestProtocolScripts plays each wire/testdata/*.proto script of frontend
// messages against PostgreSQL 15 and against joind, and compares both
// traces of backend messages with the script's .out file: PostgreSQL
// proves the expectation, joind must meet it.
//
// Script lines (names "-" = unnamed; JSON for lists):
//
//	Query <sql>
//	Parse <name> <param OIDs, JSON> <sql>
//	Bind <portal> <statement> <param formats> <params: strings, null, or "0x..." bytes> <result formats>
//	Describe S|P <name>
//	Execute <portal> <max rows>
//	Close S|P <name>
//	Sync | Flush
func TestProtocolScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "..", "wire", "testdata", "*.proto"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	pg := oracle.Start(t)
	j := joindtest.StartJoind(t)
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".proto")
		t.Run(name, func(t *testing.T) {
			msgs, waits := parseScript(t, script)
			db := "proto_" + name
			pg.CreateDatabase(t, db)
			pgTrace := playScript(t, pg.DSNFor(db), msgs, waits)
			outFile := strings.TrimSuffix(script, ".proto") + ".out"
			if *updateProto {
				if err := os.WriteFile(outFile, []byte(pgTrace), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(outFile)
			if err != nil {
				t.Fatalf("%v (run with -update to create it from PostgreSQL)", err)
			}
			sameLines(t, "PostgreSQL vs "+filepath.Base(outFile), pgTrace, string(want))
			sameLines(t, "joind vs "+filepath.Base(outFile), playScript(t, j.DSNFor(db), msgs, waits), string(want))
		})
	}
}

func parseScript(t *testing.T, path string) ([]pgproto3.FrontendMessage, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := func(s string) string {
		if s == "-" {
			return ""
		}
		return s
	}
	var msgs []pgproto3.FrontendMessage
	waits := 0
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(err any) { t.Fatalf("%s:%d: %v: %s", path, n+1, err, line) }
		cmd, rest, _ := strings.Cut(line, " ")
		f := strings.Fields(rest)
		switch cmd {
		case "Query":
			msgs = append(msgs, &pgproto3.Query{String: rest})
			waits++
		case "Parse":
			nm, r1, _ := strings.Cut(rest, " ")
			oidsJSON, query, _ := strings.Cut(r1, " ")
			var oids []uint32
			if err := json.Unmarshal([]byte(oidsJSON), &oids); err != nil {
				bad(err)
			}
			msgs = append(msgs, &pgproto3.Parse{Name: name(nm), Query: query, ParameterOIDs: oids})
		case "Bind":
			if len(f) < 5 {
				bad("want a portal, a statement and three JSON lists")
			}
			var pf, rf []int16
			var params []*string
			_, after, _ := strings.Cut(rest, " ")
			_, lists, _ := strings.Cut(after, " ")
			dec := json.NewDecoder(strings.NewReader(lists))
			for _, dst := range []any{&pf, &params, &rf} {
				if err := dec.Decode(dst); err != nil {
					bad(err)
				}
			}
			b := &pgproto3.Bind{DestinationPortal: name(f[0]), PreparedStatement: name(f[1]), ParameterFormatCodes: pf, ResultFormatCodes: rf}
			for _, p := range params {
				switch {
				case p == nil:
					b.Parameters = append(b.Parameters, nil)
				case strings.HasPrefix(*p, "0x"):
					v, err := hex.DecodeString((*p)[2:])
					if err != nil {
						bad(err)
					}
					b.Parameters = append(b.Parameters, v)
				default:
					b.Parameters = append(b.Parameters, []byte(*p))
				}
			}
			msgs = append(msgs, b)
		case "Describe", "Close":
			if len(f) != 2 {
				bad("want S|P and a name")
			}
			if cmd == "Describe" {
				msgs = append(msgs, &pgproto3.Describe{ObjectType: f[0][0], Name: name(f[1])})
			} else {
				msgs = append(msgs, &pgproto3.Close{ObjectType: f[0][0], Name: name(f[1])})
			}
		case "Execute":
			if len(f) != 2 {
				bad("want a portal and max rows")
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				bad(err)
			}
			msgs = append(msgs, &pgproto3.Execute{Portal: name(f[0]), MaxRows: uint32(n)})
		case "Sync":
			msgs = append(msgs, &pgproto3.Sync{})
			waits++
		case "Flush":
			msgs = append(msgs, &pgproto3.Flush{})
		default:
			bad("unknown message")
		}
	}
	return msgs, waits
}

// playScript sends the messages on a fresh connection and returns the
// backend's answers, one line each, until the last ReadyForQuery.
func playScript(t *testing.T, dsn string, msgs []pgproto3.FrontendMessage, waits int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	hc, err := pc.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Conn.Close()
	_ = hc.Conn.SetDeadline(time.Now().Add(30 * time.Second))
	fe := hc.Frontend
	for _, m := range msgs {
		fe.Send(m)
	}
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for waits > 0 {
		m, err := fe.Receive()
		if err != nil {
			t.Fatalf("receive: %v\nso far:\n%s", err, out.String())
		}
		line := traceLine(m)
		if line == "" {
			continue
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			waits--
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}

func traceValue(v []byte, binary bool) string {
	if v == nil {
		return "NULL"
	}
	if binary || !utf8.Valid(v) {
		return "0x" + hex.EncodeToString(v)
	}
	return strconv.Quote(string(v))
}

var lastFormats []int16 // formats of the last RowDescription, for DataRow

func traceLine(m pgproto3.BackendMessage) string {
	switch x := m.(type) {
	case *pgproto3.ParameterStatus, *pgproto3.BackendKeyData:
		return ""
	case *pgproto3.ParseComplete:
		return "ParseComplete"
	case *pgproto3.BindComplete:
		return "BindComplete"
	case *pgproto3.CloseComplete:
		return "CloseComplete"
	case *pgproto3.NoData:
		return "NoData"
	case *pgproto3.PortalSuspended:
		return "PortalSuspended"
	case *pgproto3.EmptyQueryResponse:
		return "EmptyQueryResponse"
	case *pgproto3.ParameterDescription:
		return fmt.Sprint("ParameterDescription ", x.ParameterOIDs)
	case *pgproto3.RowDescription:
		lastFormats = lastFormats[:0]
		parts := []string{"RowDescription"}
		for _, f := range x.Fields {
			parts = append(parts, fmt.Sprintf("%s:%d:%d", f.Name, f.DataTypeOID, f.Format))
			lastFormats = append(lastFormats, f.Format)
		}
		return strings.Join(parts, " ")
	case *pgproto3.DataRow:
		parts := []string{"DataRow"}
		for i, v := range x.Values {
			parts = append(parts, traceValue(v, i < len(lastFormats) && lastFormats[i] == 1))
		}
		return strings.Join(parts, " ")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(x.CommandTag)
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(x.TxStatus)
	case *pgproto3.ErrorResponse:
		return fmt.Sprintf("ErrorResponse %s %s %s", x.Severity, x.Code, x.Message)
	case *pgproto3.NoticeResponse:
		return fmt.Sprintf("NoticeResponse %s %s %s", x.Severity, x.Code, x.Message)
	}
	return fmt.Sprintf("%T", m)
}
