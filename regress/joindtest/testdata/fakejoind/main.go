// Command fakejoind is a minimal PostgreSQL-protocol server with joind's
// command line, used to test package joindtest without the real joind.
// It answers every query with one row holding the query text.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

func main() {
	listen := flag.String("listen", "", "address")
	dataDir := flag.String("data-dir", "", "data directory")
	fail := flag.Bool("fail", false, "exit at once with an error")
	dieAfter := flag.Duration("die-after", 0, "exit with status 2 after this long")
	flag.Parse()
	if *fail {
		fmt.Fprintln(os.Stderr, "boom: cannot start")
		os.Exit(3)
	}
	if st, err := os.Stat(*dataDir); err != nil || !st.IsDir() {
		fmt.Fprintln(os.Stderr, "bad --data-dir:", *dataDir)
		os.Exit(1)
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "fake joind listening on %s\n", *listen)
	if *dieAfter > 0 {
		go func() {
			time.Sleep(*dieAfter)
			fmt.Fprintln(os.Stderr, "fake joind crashing")
			os.Exit(2)
		}()
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go serve(c)
	}
}

func serve(c net.Conn) {
	defer c.Close()
	be := pgproto3.NewBackend(c, c)
	for {
		m, err := be.ReceiveStartupMessage()
		if err != nil {
			return
		}
		switch m.(type) {
		case *pgproto3.SSLRequest, *pgproto3.GSSEncRequest:
			if _, err := c.Write([]byte{'N'}); err != nil {
				return
			}
			continue
		case *pgproto3.StartupMessage:
		default:
			return
		}
		break
	}
	be.Send(&pgproto3.AuthenticationOk{})
	for _, p := range [][2]string{{"server_version", "15.18"}, {"server_encoding", "UTF8"},
		{"client_encoding", "UTF8"}, {"DateStyle", "ISO, MDY"}, {"standard_conforming_strings", "on"},
		{"integer_datetimes", "on"}, {"TimeZone", "UTC"}} {
		be.Send(&pgproto3.ParameterStatus{Name: p[0], Value: p[1]})
	}
	be.Send(&pgproto3.BackendKeyData{ProcessID: 1, SecretKey: []byte{0, 0, 0, 2}})
	be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
	if be.Flush() != nil {
		return
	}
	for {
		m, err := be.Receive()
		if err != nil {
			return
		}
		switch q := m.(type) {
		case *pgproto3.Query:
			be.Send(&pgproto3.RowDescription{Fields: []pgproto3.FieldDescription{
				{Name: []byte("query"), DataTypeOID: 25, DataTypeSize: -1, TypeModifier: -1}}})
			be.Send(&pgproto3.DataRow{Values: [][]byte{[]byte(q.String)}})
			be.Send(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 1")})
			be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
			if be.Flush() != nil {
				return
			}
		case *pgproto3.Terminate:
			return
		default:
			return
		}
	}
}
