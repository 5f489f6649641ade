package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/joind/joind/executor"
	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
)

// Server-side COPY files: the name is checked against copy_dirs
// (external.ResolvePath says the rule).

// copyFromFile runs COPY table FROM 'file'.
func (s *session) copyFromFile(ctx context.Context, x *sql.Copy, ectx *types.EvalContext) (string, error) {
	path, err := external.ResolvePath(s.eng.opts.CopyDirs, x.Filename)
	if err != nil {
		return "", err
	}
	dflt, err := executor.CopyDefaults(ctx, x, ectx)
	if err != nil {
		return "", err
	}
	f, err := openCopySource(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", external.FileError(err, path, "open")
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is a directory", path)
	}
	// A FIFO's reads wait for its writer; the deadline set on cancel ends them.
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })
	defer stop()
	tag, err := s.copyFromReader(ctx, x, dflt, ectx, f, f)
	if err != nil && ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) {
			return "", err
		}
		return "", external.FileError(err, path, "read from")
	}
	return tag, nil
}

// openCopySource opens a COPY FROM file. Opening a FIFO waits for a writer,
// in the kernel, where no context reaches: the open runs on its own
// goroutine, and a cancel unblocks it by opening the FIFO for writing (at
// once closed, so the abandoned reader sees end of file and is closed).
func openCopySource(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// copyToFile runs COPY table|(query) TO 'file'. It writes a temporary file
// beside the target and renames it at the end, so a failed COPY leaves any
// earlier file as it was.
func (s *session) copyToFile(ctx context.Context, x *sql.Copy, ectx *types.EvalContext) (string, error) {
	path, err := external.ResolvePath(s.eng.opts.CopyDirs, x.Filename)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is a directory", path)
	}
	p, _, err := s.prepareWith(x.Query, ectx, false, copyOutPartitions(x))
	if err != nil {
		return "", err
	}
	cols := x.Query.Plan.Columns()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".joind-*")
	if err != nil {
		return "", external.FileError(err, path, "open")
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	var n int64
	n, err = s.writeCopy(ctx, x, p.op, cols, bw)
	if err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) {
			return "", err
		}
		return "", external.FileError(err, path, "write to")
	}
	if err := bw.Flush(); err != nil {
		return "", external.FileError(err, path, "write to")
	}
	if err := tmp.Chmod(0o644); err != nil {
		return "", external.FileError(err, path, "write to")
	}
	if err := tmp.Close(); err != nil {
		return "", external.FileError(err, path, "write to")
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", external.FileError(err, path, "write to")
	}
	done = true
	return fmt.Sprintf("COPY %d", n), nil
}
