package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
	f, err := os.Open(path)
	if err != nil {
		return "", external.FileError(err, path, "open")
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is a directory", path)
	}
	tag, err := s.copyFromReader(ctx, x, dflt, ectx, f, f)
	if err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) {
			return "", err
		}
		return "", external.FileError(err, path, "read from")
	}
	return tag, nil
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
