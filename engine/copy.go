package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/commands"
	"github.com/joind/joind/executor"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgcopy"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// COPY's statement dispatch: the session's side of COPY (the copy
// channel, the transaction state machine, appending the loaded rows to
// the statement's transaction, running COPY TO's query). The formats
// themselves, parsing and writing, are pgcopy's.

// copyStmt runs COPY FROM STDIN / TO STDOUT over the client's copy channel,
// or COPY FROM/TO a server-side file (copy_file.go).
func (s *session) copyStmt(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	if x.Filename != "" {
		if x.From {
			return s.copyFromFile(ctx, x, ectx)
		}
		return s.copyToFile(ctx, x, ectx)
	}
	ch, ok := w.(wire.CopyChannel)
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "COPY is not supported in this context")
	}
	if x.From {
		return s.copyFrom(ctx, x, ectx, ch)
	}
	return s.copyTo(ctx, x, ectx, ch)
}

// copyFrom loads the client's rows: a bad row fails the statement and
// nothing is loaded. The omitted columns' defaults are prepared (and may
// fail) before the client is asked for data, as in PostgreSQL.
func (s *session) copyFrom(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, ch wire.CopyChannel) (string, error) {
	dflt, err := executor.CopyDefaults(ctx, x, ectx)
	if err != nil {
		return "", err
	}
	var format int16
	if x.Format == "binary" || x.Format == "parquet" {
		format = 1
	}
	if _, err := s.fire(evCopyStart, nil); err != nil {
		return "", err
	}
	r, err := ch.CopyIn(format, len(x.Columns))
	if err == nil {
		var tag string
		if tag, err = s.copyFromReader(ctx, x, dflt, ectx, r, nil); err == nil {
			_, err = s.fire(evCopyDone, nil)
			return tag, err
		}
	}
	_, _ = s.fire(evCopyFail, nil)
	return "", err
}

// copyFromReader loads r in x's format and appends the rows to the
// statement's transaction. file is the open server-side file (Parquet
// reads it at random), nil for STDIN.
func (s *session) copyFromReader(ctx context.Context, x *sql.Copy, dflt *pgcopy.Defaults, ectx *types.EvalContext, r io.Reader, file *os.File) (string, error) {
	prog := s.copyProgress(x, file)
	defer prog.Done()
	r = &countingReader{r: r, n: &prog.BytesProcessed}
	var recs []arrow.Record
	var rows int64
	var err error
	switch x.Format {
	case "binary":
		recs, rows, err = pgcopy.LoadBinary(ctx, x, r, dflt, s.format())
	case "parquet":
		recs, rows, err = pgcopy.LoadParquet(ctx, x, dflt, s.format(), ectx, r, file, s.eng.opts.BatchSize)
	default:
		l := pgcopy.NewLoader(x, dflt, s.format(), ectx.Now, s.eng.opts.BatchSize, s.copyWorkers())
		recs, rows, err = l.Load(ctx, r)
	}
	if err != nil {
		return "", err
	}
	prog.TuplesProcessed.Store(rows)
	cmd := &command{s: s, ectx: ectx}
	if err := commands.CheckDomains(ctx, cmd, x.Table, recs, x.Header); err != nil {
		return "", err
	}
	if err := commands.CheckRows(ctx, cmd, x.Table, recs); err != nil {
		return "", err
	}
	if x.Iceberg != nil {
		n, err := commands.IcebergAppend(ctx, cmd, x.Table, x.Iceberg, recs)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("COPY %d", n), nil
	}
	var before int64
	for _, rec := range recs {
		if err := s.cur.Append(ctx, x.Table, rec); err != nil {
			if row, ok := storage.AppendedRow(err); ok && x.Format != "binary" && x.Format != "parquet" {
				// A line per row (quoted newlines aside), after the header.
				line := before + int64(row) + 1
				if x.Header {
					line++
				}
				err = pgerr.As(err).WithWhere(fmt.Sprintf("COPY %s, line %d", x.Table.Name(), line))
			}
			return "", err
		}
		before += rec.NumRows()
	}
	if err := commands.CheckForeignKeys(cmd, x.Table, recs); err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", rows), nil
}

// copyWorkers is how many goroutines parse COPY input.
func (s *session) copyWorkers() int {
	n := s.eng.opts.Partitions
	if c := runtime.NumCPU(); n > c {
		n = c
	}
	return n
}

// copyTo streams a query's rows to the client as COPY data.
func (s *session) copyTo(ctx context.Context, x *sql.Copy, ectx *types.EvalContext, ch wire.CopyChannel) (string, error) {
	p, _, err := s.prepareWith(x.Query, ectx, false, copyOutPartitions(x))
	if err != nil {
		return "", err
	}
	cols := x.Query.Plan.Columns()
	var format int16
	if x.Format == "binary" || x.Format == "parquet" {
		format = 1
	}
	out, err := ch.CopyOut(format, len(cols))
	if err != nil {
		return "", err
	}
	var n int64
	if x.Format == "parquet" {
		// CopyData messages of 64 KiB rather than one per Parquet write.
		bw := bufio.NewWriterSize(out, 64<<10)
		if n, err = s.writeCopy(ctx, x, p.op, cols, bw); err == nil {
			err = bw.Flush()
		}
	} else {
		n, err = s.writeCopy(ctx, x, p.op, cols, out)
	}
	if err != nil {
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", n), nil
}

// writeCopy runs op and writes its rows to out in x's format.
func (s *session) writeCopy(ctx context.Context, x *sql.Copy, op operators.Operator, cols []plan.Column, out io.Writer) (int64, error) {
	prog := s.copyProgress(x, nil)
	defer prog.Done()
	out = &countingWriter{w: out, n: &prog.BytesProcessed}
	rows := func(f func(arrow.Record) error) error {
		return forEachBatch(ctx, op, func(rec arrow.Record) error {
			err := f(rec)
			prog.TuplesProcessed.Add(rec.NumRows())
			return err
		})
	}
	switch x.Format {
	case "parquet":
		return pgcopy.WriteParquet(x, rows, cols, s.format(), out)
	case "binary":
		return pgcopy.WriteBinary(rows, cols, out)
	}
	return pgcopy.WriteText(x, rows, cols, s.format(), out)
}

// copyOutPartitions is 1 for COPY table TO, whose rows leave in storage
// order as PostgreSQL's do, and the default for COPY (query) TO.
func copyOutPartitions(x *sql.Copy) int {
	if x.Table != nil {
		return 1
	}
	return 0
}
