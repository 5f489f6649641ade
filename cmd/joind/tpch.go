package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/spf13/pflag"

	"github.com/joind/joind/tpch"
)

const tpchUsage = `Usage:
  joind tpch generate --sf N --dir D [--tables t1,t2,...]
        write the TPC-H tables of scale factor N (an integer, or below 1 a
        fraction such as 0.01) as D/<table>.tbl: dbgen's rows, '|'-separated,
        without dbgen's trailing '|'; load each with
        COPY <table> FROM '<file>' (DELIMITER '|')
  joind tpch table NAME [--sf N]
        write one table to standard output, e.g. into
        psql -c "COPY NAME FROM STDIN (DELIMITER '|')"
  joind tpch schema
        print the DDL of the eight tables
  joind tpch query N [--sf S]
        print TPC-H query N (1..22) with qgen's default parameters for scale
        factor S (default 1; only Q11 depends on it)
`

// runTPCH is `joind tpch ...`; it returns the exit code (2 for a usage
// error).
func runTPCH(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(stderr, tpchUsage)
			return 2
		}
		fmt.Fprint(stdout, tpchUsage)
		return 0
	}
	fs := pflag.NewFlagSet("joind tpch "+args[0], pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf := fs.Float64("sf", 1, "scale factor")
	dir := fs.String("dir", "", "output directory")
	tables := fs.StringSlice("tables", nil, "tables to generate (default all)")
	usageErr := func(err error) int {
		fmt.Fprintf(stderr, "joind tpch: %v\n%s", err, tpchUsage)
		return 2
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, tpchUsage)
			return 0
		}
		return usageErr(err)
	}
	switch args[0] {
	case "generate":
		if fs.NArg() != 0 {
			return usageErr(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
		}
		if *dir == "" {
			return usageErr(errors.New("generate needs --dir"))
		}
		which := tpch.Tables
		if len(*tables) > 0 {
			which = nil
			for _, name := range *tables {
				t, ok := tpch.ParseTable(name)
				if !ok {
					return usageErr(fmt.Errorf("no TPC-H table %q", name))
				}
				which = append(which, t)
			}
		}
		if err := generateTPCH(*sf, *dir, which, stderr); err != nil {
			fmt.Fprintf(stderr, "joind tpch: %v\n", err)
			return 1
		}
		return 0
	case "table":
		if fs.NArg() != 1 {
			return usageErr(errors.New("table needs one table name"))
		}
		t, ok := tpch.ParseTable(fs.Arg(0))
		if !ok {
			return usageErr(fmt.Errorf("no TPC-H table %q", fs.Arg(0)))
		}
		g, err := tpch.NewGenerator(*sf)
		if err == nil {
			err = g.Write(stdout, t)
		}
		if err != nil {
			fmt.Fprintf(stderr, "joind tpch: %v\n", err)
			return 1
		}
		return 0
	case "schema":
		if fs.NArg() != 0 {
			return usageErr(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
		}
		fmt.Fprint(stdout, tpch.Schema())
		return 0
	case "query":
		if fs.NArg() != 1 {
			return usageErr(errors.New("query needs one query number"))
		}
		n, err := strconv.Atoi(fs.Arg(0))
		if err != nil {
			return usageErr(fmt.Errorf("query number %q", fs.Arg(0)))
		}
		q, err := tpch.Query(n, *sf)
		if err != nil {
			return usageErr(err)
		}
		fmt.Fprint(stdout, q)
		return 0
	}
	return usageErr(fmt.Errorf("unknown command %q", args[0]))
}

// generateTPCH writes the tables in parallel, one goroutine per table, the
// large ones in chunks on all CPUs, showing its progress on status.
func generateTPCH(sf float64, dir string, tables []tpch.Table, status io.Writer) error {
	g, err := tpch.NewGenerator(sf)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var total int64
	for _, t := range tables {
		total += g.Units(t)
	}
	// Units: rows, but an order's lineitems and a part's partsupps are one.
	prog := newProgress(status, "tpch generate sf "+strconv.FormatFloat(sf, 'g', -1, 64), total, progressUnit{name: "units"})
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = writeTable(g, t, filepath.Join(dir, t.String()+".tbl"), prog)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	prog.Finish()
	return nil
}

func writeTable(g *tpch.Generator, t tpch.Table, path string, prog *progress) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := g.WriteParallelProgress(f, t, runtime.GOMAXPROCS(0), prog.Add); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
