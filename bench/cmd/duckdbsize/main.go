// Command duckdbsize loads TPC-H .tbl files (`joind tpch generate`) into a
// DuckDB database file and prints the file's size after a CHECKPOINT: the
// figure joind's data directory size is compared with (issue 18).
//
//	cd bench && go run ./cmd/duckdbsize --tpch-dir /tmp/tpch/sf1 --db /tmp/tpch1.duckdb
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"
)

var tables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

func main() {
	dir := flag.String("tpch-dir", "", "directory of the eight <table>.tbl files")
	path := flag.String("db", "", "DuckDB database file to create (must not exist)")
	schema := flag.String("tpch-schema", "../tpch/schema.sql", "the CREATE TABLE script")
	flag.Parse()
	if *dir == "" || *path == "" {
		flag.Usage()
		os.Exit(2)
	}
	if _, err := os.Stat(*path); err == nil {
		log.Fatalf("%s exists", *path)
	}
	ddl, err := os.ReadFile(*schema)
	if err != nil {
		log.Fatal(err)
	}
	db, err := sql.Open("duckdb", *path)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	var lines []string
	for _, l := range strings.Split(string(ddl), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	for _, stmt := range strings.Split(strings.Join(lines, "\n"), ";") {
		if strings.Contains(stmt, "create table") {
			if _, err := db.Exec(stmt); err != nil {
				log.Fatalf("%s: %v", stmt, err)
			}
		}
	}
	for _, t := range tables {
		// The .tbl files have no header and no quoting.
		stmt := fmt.Sprintf("COPY %s FROM '%s' (DELIMITER '|', HEADER false, QUOTE '', ESCAPE '')", t, filepath.Join(*dir, t+".tbl"))
		if _, err := db.Exec(stmt); err != nil {
			log.Fatalf("%s: %v", t, err)
		}
	}
	if _, err := db.Exec("CHECKPOINT"); err != nil {
		log.Fatal(err)
	}
	db.Close()
	fi, err := os.Stat(*path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d bytes\n", *path, fi.Size())
}
