package external

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/joind/joind/pgerr"
)

// Server-side files (COPY ... FROM/TO 'file', read_parquet). joind's rule
// (not PostgreSQL's role-based one): a file may be read or written only
// inside a directory listed in
// copy_dirs (--copy-dirs); with none listed, server-side files are off. A
// relative name is taken relative to the first copy_dirs entry (PostgreSQL
// takes it relative to its data directory, which joind never exposes).
// Symbolic links are resolved before the check, so a link cannot lead out.

const (
	codeUndefinedFile = "58P01"
	codeIOError       = "58030"
)

// ResolvePath resolves a server-side file name against the allowed directories.
func ResolvePath(dirs []string, name string) (string, error) {
	if len(dirs) == 0 {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "server-side files are disabled: copy_dirs is empty").
			WithHint("Set copy_dirs (--copy-dirs) to the directories COPY may read and write, or use COPY ... FROM STDIN / TO STDOUT (psql's \\copy).")
	}
	if IsObjectURI(name) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "server-side file \"%s\" is an object URI, which only Iceberg table locations may be", name)
	}
	all := dirs
	if dirs = localDirs(dirs); len(dirs) == 0 {
		return "", outsideCopyDirs(filepath.Clean(name), all)
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dirs[0], p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p)
	if err != nil {
		return "", FileError(err, p, "open")
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
	return "", outsideCopyDirs(p, all)
}

// outsideCopyDirs is the error for server-side file p, which no entry of
// copy_dirs dirs holds.
func outsideCopyDirs(p string, dirs []string) error {
	return pgerr.New(pgerr.InsufficientPrivilege, "server-side file \"%s\" is outside the directories copy_dirs allows", p).
		WithDetail("copy_dirs is %s.", strings.Join(dirs, ", ")).
		WithHint("Add its directory to copy_dirs (--copy-dirs), or use COPY ... FROM STDIN / TO STDOUT (psql's \\copy).")
}

// ResolvePattern is ResolvePath for a name that may be a glob pattern
// (filepath.Match's *, ? and [...]): every matching file, in lexical order,
// each checked as ResolvePath checks one; no match is 58P01.
func ResolvePattern(dirs []string, pattern string) ([]string, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		p, err := ResolvePath(dirs, pattern)
		if err != nil {
			return nil, err
		}
		return []string{p}, nil
	}
	if len(dirs) == 0 {
		_, err := ResolvePath(dirs, pattern)
		return nil, err
	}
	p := pattern
	if local := localDirs(dirs); !filepath.IsAbs(p) && len(local) > 0 {
		p = filepath.Join(local[0], p)
	}
	matches, err := filepath.Glob(filepath.Clean(p))
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid file name pattern \"%s\": %v", pattern, err)
	}
	if len(matches) == 0 {
		return nil, pgerr.New(codeUndefinedFile, "no file matches \"%s\"", p)
	}
	out := make([]string, len(matches))
	for i, m := range matches {
		if out[i], err = ResolvePath(dirs, m); err != nil {
			return nil, err
		}
	}
	return out, nil
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

// FileError words an OS error as PostgreSQL does ("could not open file
// "x" for reading: No such file or directory").
func FileError(err error, path, what string) error {
	code := codeIOError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code = codeUndefinedFile
	case errors.Is(err, fs.ErrPermission):
		code = pgerr.InsufficientPrivilege
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
