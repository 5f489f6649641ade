package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
)

// Server-side COPY files. joind's rule (not PostgreSQL's role-based one):
// a file may be read or written only inside a directory listed in
// copy_dirs (--copy-dirs); with none listed, server-side files are off. A
// relative name is taken relative to the first copy_dirs entry (PostgreSQL
// takes it relative to its data directory, which joind never exposes).
// Symbolic links are resolved before the check, so a link cannot lead out.

const (
	codeInsufficientPrivilege = "42501"
	codeUndefinedFile         = "58P01"
	codeIOError               = "58030"
	codeWrongObjectType       = "42809"
)

// copyPath resolves a COPY file name against the allowed directories.
func (s *session) copyPath(name string) (string, error) {
	dirs := s.eng.opts.CopyDirs
	if len(dirs) == 0 {
		return "", pgerr.New(codeInsufficientPrivilege, "server-side COPY files are disabled: copy_dirs is empty").
			WithHint("Set copy_dirs (--copy-dirs) to the directories COPY may read and write, or use COPY ... FROM STDIN / TO STDOUT (psql's \\copy).")
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dirs[0], p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p)
	if err != nil {
		return "", fileError(err, p, "open")
	}
	for _, d := range dirs {
		rd, err := filepath.EvalSymlinks(filepath.Clean(d))
		if err != nil {
			continue
		}
		if real == rd || strings.HasPrefix(real, rd+string(filepath.Separator)) || rd == "/" {
			return p, nil
		}
	}
	return "", pgerr.New(codeInsufficientPrivilege, "server-side COPY file \"%s\" is outside the directories copy_dirs allows", p).
		WithDetail("copy_dirs is %s.", strings.Join(dirs, ", ")).
		WithHint("Add its directory to copy_dirs (--copy-dirs), or use COPY ... FROM STDIN / TO STDOUT (psql's \\copy).")
}

// realPath resolves symbolic links in p; a missing last element (a file
// COPY TO will create) is resolved through its directory.
func realPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(p)), nil
}

// fileError words an OS error as PostgreSQL does ("could not open file
// "x" for reading: No such file or directory").
func fileError(err error, path, what string) error {
	code := codeIOError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code = codeUndefinedFile
	case errors.Is(err, fs.ErrPermission):
		code = codeInsufficientPrivilege
	}
	msg := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg = errno.Error()
	}
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return pgerr.Wrap(err, code, "could not %s file \"%s\": %s", what, path, msg)
}

// copyFromFile runs COPY table FROM 'file'.
func (s *session) copyFromFile(ctx context.Context, x *sql.Copy, ectx *types.EvalContext) (string, error) {
	path, err := s.copyPath(x.Filename)
	if err != nil {
		return "", err
	}
	dflt, err := newCopyDefaults(ctx, x, ectx)
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fileError(err, path, "open")
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", pgerr.New(codeWrongObjectType, "\"%s\" is a directory", path)
	}
	tag, err := s.copyFromReader(ctx, x, dflt, ectx, f, f)
	if err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) {
			return "", err
		}
		return "", fileError(err, path, "read from")
	}
	return tag, nil
}

// copyToFile runs COPY table|(query) TO 'file'. It writes a temporary file
// beside the target and renames it at the end, so a failed COPY leaves any
// earlier file as it was.
func (s *session) copyToFile(ctx context.Context, x *sql.Copy, ectx *types.EvalContext) (string, error) {
	path, err := s.copyPath(x.Filename)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "", pgerr.New(codeWrongObjectType, "\"%s\" is a directory", path)
	}
	p, _, err := s.prepareWith(x.Query, ectx, false, copyOutPartitions(x))
	if err != nil {
		return "", err
	}
	cols := x.Query.Plan.Columns()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".joind-*")
	if err != nil {
		return "", fileError(err, path, "open")
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
	switch x.Format {
	case "parquet":
		n, err = s.writeParquet(ctx, x, p.op, cols, bw)
	case "binary":
		n, err = s.writeCopyBinary(ctx, p.op, cols, bw)
	default:
		n, err = s.writeCopyText(ctx, x, p.op, cols, bw)
	}
	if err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) {
			return "", err
		}
		return "", fileError(err, path, "write to")
	}
	if err := bw.Flush(); err != nil {
		return "", fileError(err, path, "write to")
	}
	if err := tmp.Chmod(0o644); err != nil {
		return "", fileError(err, path, "write to")
	}
	if err := tmp.Close(); err != nil {
		return "", fileError(err, path, "write to")
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fileError(err, path, "write to")
	}
	done = true
	return fmt.Sprintf("COPY %d", n), nil
}
