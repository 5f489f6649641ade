package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/joind/joind/storage"
)

const checkUsage = `Usage:
  joind check --data-dir D
        open the data directory as the server does (replaying its
        write-ahead log) and read every segment file, checking its size,
        checksum and schema against the manifest; exit 1 if any is damaged.
        The server must not be running on D.
`

// runCheck is `joind check`: the data-directory check, with its progress
// on stderr.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("joind check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("data-dir", "", "data directory")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, checkUsage)
			return 0
		}
		fmt.Fprintf(stderr, "joind check: %v\n%s", err, checkUsage)
		return 2
	}
	if *dir == "" || fs.NArg() != 0 {
		fmt.Fprintf(stderr, "joind check: needs --data-dir and no arguments\n%s", checkUsage)
		return 2
	}
	// Open would initialise a directory that has no manifest: a check
	// must not make one.
	if _, err := os.Stat(filepath.Join(*dir, "MANIFEST")); err != nil {
		fmt.Fprintf(stderr, "joind check: %s is not a joind data directory: %v\n", *dir, err)
		return 1
	}
	db, err := storage.Open(*dir, storage.Options{NoCompaction: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintf(stderr, "joind check: %v\n", err)
		return 1
	}
	defer db.Close()
	u := db.Usage()
	var total, rows int64
	for _, t := range u.Tables {
		total += t.Bytes
		rows += t.LiveRows
	}
	prog := newProgress(stderr, "check "+*dir, total, unitBytes)
	files, err := db.Verify(prog.Add)
	prog.Finish()
	if err != nil {
		fmt.Fprintf(stderr, "joind check: damaged:\n%v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d tables, %d rows, %d segment files: ok\n", *dir, len(u.Tables), rows, files)
	return 0
}
