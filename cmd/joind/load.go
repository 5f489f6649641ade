package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/spf13/pflag"
)

const loadUsage = `Usage:
  joind load --table T [--host H] [--port P] [--user U] [--database D]
             [--format text|csv] [--delimiter C] [--header] FILE...
        bulk-load FILEs into table T (an SQL name, quoted as SQL quotes it) of
        a running joind, or any PostgreSQL server, one COPY ... FROM STDIN per
        file; progress on stderr. The password is PGPASSWORD's.
`

// runLoad is `joind load`: a client of the server, as psql's \copy.
func runLoad(ctx context.Context, args, env []string, stdout, stderr io.Writer) int {
	getenv := func(k, dflt string) string {
		for _, e := range env {
			if v, ok := strings.CutPrefix(e, k+"="); ok && v != "" {
				return v
			}
		}
		return dflt
	}
	fs := pflag.NewFlagSet("joind load", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	host := fs.String("host", getenv("PGHOST", "127.0.0.1"), "server host")
	port := fs.Int("port", 5433, "server port")
	user := fs.String("user", getenv("PGUSER", "joind"), "user name")
	database := fs.String("database", getenv("PGDATABASE", "joind"), "database")
	table := fs.String("table", "", "table to load")
	format := fs.String("format", "text", "text or csv")
	delimiter := fs.String("delimiter", "", "column delimiter (default tab for text, comma for csv)")
	header := fs.Bool("header", false, "each file's first line is a header")
	usageErr := func(err error) int {
		fmt.Fprintf(stderr, "joind load: %v\n%s", err, loadUsage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, loadUsage)
			return 0
		}
		return usageErr(err)
	}
	if *table == "" || fs.NArg() == 0 {
		return usageErr(errors.New("needs --table and at least one file"))
	}
	if *format != "text" && *format != "csv" {
		return usageErr(fmt.Errorf("format %q is neither text nor csv", *format))
	}
	opts := []string{"FORMAT " + *format}
	if *delimiter != "" {
		opts = append(opts, "DELIMITER "+quoteLiteral(*delimiter))
	}
	if *header {
		opts = append(opts, "HEADER")
	}
	copySQL := fmt.Sprintf("COPY %s FROM STDIN (%s)", *table, strings.Join(opts, ", "))

	var total int64
	for _, name := range fs.Args() {
		st, err := os.Stat(name)
		if err != nil {
			fmt.Fprintf(stderr, "joind load: %v\n", err)
			return 1
		}
		total += st.Size()
	}
	dsn := url.URL{Scheme: "postgres", Host: *host + ":" + strconv.Itoa(*port), Path: "/" + *database}
	if pw := getenv("PGPASSWORD", ""); pw != "" {
		dsn.User = url.UserPassword(*user, pw)
	} else {
		dsn.User = url.User(*user)
	}
	q := dsn.Query()
	q.Set("application_name", "joind load")
	dsn.RawQuery = q.Encode()
	conn, err := pgconn.Connect(ctx, dsn.String())
	if err != nil {
		fmt.Fprintf(stderr, "joind load: %v\n", err)
		return 1
	}
	defer conn.Close(context.WithoutCancel(ctx))
	prog := newProgress(stderr, "load "+*table, total, unitBytes)
	var rows int64
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "joind load: %v\n", err)
			return 1
		}
		tag, err := conn.CopyFrom(ctx, progressReader{r: f, p: prog}, copySQL)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "\njoind load: %s: %v\n", name, err)
			return 1
		}
		rows += tag.RowsAffected()
	}
	prog.Finish()
	fmt.Fprintf(stdout, "loaded %d rows into %s from %d files\n", rows, *table, fs.NArg())
	return 0
}

// quoteLiteral is an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
