package wire

// This file holds protocolTestEngine, a toy Engine for the unit tests of the
// protocol layer. It is NOT joind's SQL engine: it understands a handful of
// made-up commands, just enough to make the server produce every kind of
// message. Statements are split on ';'.
//
//	select N        one int4 column "?column?", one row N
//	rows N          N rows of one text column
//	stream N        N rows, then blocks until the test releases it
//	fail            22012 division by zero
//	badcol X        42703 column "X" does not exist, positioned at X
//	panic           panics
//	sleep           blocks until its context ends, returns ctx.Err()
//	set name=value  changes a reported setting (tag SET)
//	show name       the startup parameter name (one row)
//	pid             the backend process id from ConnInfo
//	begin/commit    transaction status T / I
//	notice          a NOTICE, then SELECT 0

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"

	"github.com/joind/joind/pgerr"
)

type protocolTestEngine struct {
	mu       sync.Mutex
	sessions []*testSession
	started  chan string   // receives the application_name of each session whose "sleep" began
	release  chan struct{} // unblocks "stream"
	refuse   error         // NewSession fails with this if set
}

func newProtocolTestEngine() *protocolTestEngine {
	return &protocolTestEngine{started: make(chan string, 16), release: make(chan struct{})}
}

func (e *protocolTestEngine) NewSession(ctx context.Context, params map[string]string) (Session, error) {
	if e.refuse != nil {
		return nil, e.refuse
	}
	ci, _ := ConnInfoFrom(ctx)
	s := &testSession{eng: e, params: maps.Clone(params), conn: ci, tx: 'I', settings: map[string]string{
		"server_version":              "15.18",
		"server_encoding":             "UTF8",
		"client_encoding":             "UTF8",
		"DateStyle":                   "ISO, MDY",
		"TimeZone":                    "UTC",
		"integer_datetimes":           "on",
		"standard_conforming_strings": "on",
		"application_name":            params["application_name"],
	}}
	if v, ok := params["datestyle"]; ok {
		s.settings["DateStyle"] = v
	}
	e.mu.Lock()
	e.sessions = append(e.sessions, s)
	e.mu.Unlock()
	return s, nil
}

func (e *protocolTestEngine) lastSession() *testSession {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.sessions) == 0 {
		return nil
	}
	return e.sessions[len(e.sessions)-1]
}

type testStmt struct {
	sql    string
	offset int // of sql in the query string, for error positions
}

func (s testStmt) SQL() string { return s.sql }

type testSession struct {
	eng      *protocolTestEngine
	params   map[string]string
	conn     ConnInfo
	mu       sync.Mutex
	settings map[string]string
	tx       byte
	closed   bool
}

func (s *testSession) Parse(query string) ([]Statement, error) {
	var out []Statement
	off := 0
	for _, part := range strings.Split(query, ";") {
		trimmed := strings.TrimSpace(part)
		lead := strings.Index(part, trimmed)
		if trimmed != "" && !strings.HasPrefix(trimmed, "--") {
			if trimmed == "syntax" {
				return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"syntax\"").WithPosition(off + lead + 1)
			}
			out = append(out, testStmt{sql: trimmed, offset: off + lead})
		}
		off += len(part) + 1
	}
	return out, nil
}

func (s *testSession) Execute(ctx context.Context, st Statement, w ResultWriter) (string, error) {
	ts := st.(testStmt)
	cmd, arg, _ := strings.Cut(ts.sql, " ")
	switch cmd {
	case "select":
		if err := w.Describe([]ColumnDesc{{Name: "?column?", TypeOID: 23, TypeSize: 4, TypeMod: -1}}); err != nil {
			return "", err
		}
		if err := w.Row([][]byte{[]byte(arg)}); err != nil {
			return "", err
		}
		return "SELECT 1", nil
	case "rows", "stream":
		n, _ := strconv.Atoi(arg)
		if err := w.Describe([]ColumnDesc{{Name: "r", TypeOID: 25, TypeSize: -1, TypeMod: -1}}); err != nil {
			return "", err
		}
		val := []byte(strings.Repeat("x", 100))
		for range n {
			if err := w.Row([][]byte{val}); err != nil {
				return "", err
			}
		}
		if cmd == "stream" {
			select {
			case <-s.eng.release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		return fmt.Sprintf("SELECT %d", n), nil
	case "fail":
		return "", pgerr.New(pgerr.DivisionByZero, "division by zero")
	case "badcol":
		pos := ts.offset + len("badcol ") + 1
		return "", pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", arg).WithPosition(pos).WithHint("Perhaps you meant another column.")
	case "panic":
		var m map[string]int
		m["boom"]++ // a real runtime panic, as a buggy operator would cause
		return "", nil
	case "sleep":
		s.eng.started <- s.params["application_name"]
		<-ctx.Done()
		return "", ctx.Err()
	case "set":
		name, value, _ := strings.Cut(arg, "=")
		s.mu.Lock()
		s.settings[name] = value
		s.mu.Unlock()
		return "SET", nil
	case "pid":
		if err := w.Describe([]ColumnDesc{{Name: "pid", TypeOID: 23, TypeSize: 4, TypeMod: -1}}); err != nil {
			return "", err
		}
		if err := w.Row([][]byte{[]byte(strconv.Itoa(int(s.conn.PID)))}); err != nil {
			return "", err
		}
		return "SELECT 1", nil
	case "show":
		if err := w.Describe([]ColumnDesc{{Name: arg, TypeOID: 25, TypeSize: -1, TypeMod: -1}}); err != nil {
			return "", err
		}
		if err := w.Row([][]byte{[]byte(s.params[arg])}); err != nil {
			return "", err
		}
		return "SHOW", nil
	case "begin":
		s.tx = 'T'
		return "BEGIN", nil
	case "commit":
		s.tx = 'I'
		return "COMMIT", nil
	case "notice":
		if err := w.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000", Message: "hello"}); err != nil {
			return "", err
		}
		return "SELECT 0", nil
	}
	return "", pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", cmd).WithPosition(ts.offset + 1)
}

func (s *testSession) TxStatus() byte { return s.tx }

func (s *testSession) ReportedSettings() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.settings)
}

func (s *testSession) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

func (s *testSession) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
