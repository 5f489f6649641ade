package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// checkCopyDirs refuses copy_dirs that overlap the data directory: a
// server-side COPY ... TO '<data>/MANIFEST' would overwrite the database.
// Paths are compared after resolving symbolic links (as far as they exist).
func (c *Config) checkCopyDirs() error {
	data := resolvePath(c.DataDir)
	for _, d := range c.CopyDirList() {
		if isObjectPrefix(d) {
			continue // an object store's keys, never the data directory's files
		}
		cd := resolvePath(d)
		if within(data, cd) || within(cd, data) {
			return fmt.Errorf("copy_dirs entry %q overlaps the data directory %q: server-side COPY could overwrite the database", d, c.DataDir)
		}
	}
	return nil
}

// resolvePath is p absolute and clean, with the symbolic links of its
// longest existing prefix resolved.
func resolvePath(p string) string {
	p, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := p; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if dir == filepath.Dir(dir) {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// isObjectPrefix reports whether copy_dirs entry d is an object store
// prefix (s3://bucket/prefix) rather than a directory.
func isObjectPrefix(d string) bool {
	return len(d) > len("s3://") && strings.EqualFold(d[:len("s3://")], "s3://")
}
