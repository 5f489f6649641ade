package external

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	icebergio "github.com/apache/iceberg-go/io"
	// Registers iceberg-go's s3:// file IO (gocloud.dev's s3blob over the
	// AWS SDK), which S3-compatible object stores are read and written
	// through.
	_ "github.com/apache/iceberg-go/io/gocloud/s3"

	"github.com/joind/joind/pgerr"
)

// Object storage. A location is a local path or an object URI
// (s3://bucket/key). copy_dirs lists both kinds: an entry "s3://bucket/
// prefix" lets server-side files (so far: Iceberg tables) live under that
// prefix, as a directory entry does on disk. Connection settings and
// credentials come from the server process's environment, the AWS SDK's
// chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, the shared
// config files, instance roles) with AWS_S3_ENDPOINT naming an
// S3-compatible endpoint: joind keeps no secret in its catalog, where
// pg_foreign_server would show it to every user.

// objectSchemes are the URI schemes of object stores joind reads.
var objectSchemes = []string{"s3"}

// IsObjectURI reports whether loc names an object (scheme://bucket/key of
// an object store) rather than a local file.
func IsObjectURI(loc string) bool {
	scheme, rest, ok := strings.Cut(loc, "://")
	if !ok || rest == "" {
		return false
	}
	for _, s := range objectSchemes {
		if strings.EqualFold(scheme, s) {
			return true
		}
	}
	return false
}

// CheckObjectPrefix checks a copy_dirs entry naming an object prefix:
// scheme://bucket[/prefix], no "." or ".." segments.
func CheckObjectPrefix(entry string) error {
	_, rest, _ := strings.Cut(entry, "://")
	bucket, _, _ := strings.Cut(rest, "/")
	if bucket == "" {
		return errors.New("names no bucket")
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "." || seg == ".." {
			return errors.New("has a . or .. segment")
		}
	}
	return nil
}

// localDirs are the local entries of copy_dirs.
func localDirs(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if !IsObjectURI(d) {
			out = append(out, d)
		}
	}
	return out
}

// cleanObjectURI is uri with its key cleaned (no empty, "." or ".."
// segments, no trailing slash); ".." is refused, since a key has no parent
// directory to resolve it against.
func cleanObjectURI(uri string) (string, error) {
	scheme, rest, _ := strings.Cut(uri, "://")
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket == "" {
		return "", pgerr.New(pgerr.InvalidParameterValue, "object location \"%s\" names no bucket", uri)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == ".." {
			return "", pgerr.New(pgerr.InvalidParameterValue, "object location \"%s\" has a \"..\" segment", uri)
		}
	}
	key = strings.TrimPrefix(path.Clean("/"+key), "/")
	if key == "" {
		return strings.ToLower(scheme) + "://" + bucket, nil
	}
	return strings.ToLower(scheme) + "://" + bucket + "/" + key, nil
}

// ResolveLocation resolves a location (a local path, file://path or an
// object URI) against copy_dirs: a path as ResolvePath does, an object URI
// only under an object entry of copy_dirs. It returns the location
// cleaned: an absolute local path or an object URI.
func ResolveLocation(dirs []string, loc string) (string, error) {
	if !IsObjectURI(loc) {
		return ResolvePath(dirs, strings.TrimPrefix(loc, "file://"))
	}
	uri, err := cleanObjectURI(loc)
	if err != nil {
		return "", err
	}
	var prefixes []string
	for _, d := range dirs {
		if !IsObjectURI(d) {
			continue
		}
		p, err := cleanObjectURI(d)
		if err != nil {
			continue
		}
		if uri == p || strings.HasPrefix(uri, p+"/") {
			return uri, nil
		}
		prefixes = append(prefixes, d)
	}
	e := pgerr.New(pgerr.InsufficientPrivilege, "object \"%s\" is outside the prefixes copy_dirs allows", uri)
	if len(prefixes) > 0 {
		e = e.WithDetail("copy_dirs allows %s.", strings.Join(prefixes, ", "))
	}
	return "", e.WithHint("Add an entry for its bucket or prefix (s3://bucket/prefix) to copy_dirs (--copy-dirs).")
}

// JoinLocation is loc with the slash-separated elem appended, for local
// paths and object URIs alike (filepath.Join would fold an URI's "//").
func JoinLocation(loc string, elem ...string) string {
	if !IsObjectURI(loc) {
		return filepath.Join(append([]string{loc}, elem...)...)
	}
	return strings.TrimSuffix(loc, "/") + "/" + path.Join(elem...)
}

// LocationDir is the directory (or key prefix) loc is in.
func LocationDir(loc string) string {
	if !IsObjectURI(loc) {
		return filepath.Dir(loc)
	}
	i := strings.LastIndexByte(loc, '/')
	if i < len("s3://") {
		return loc
	}
	return loc[:i]
}

// LocationBase is the last element of loc.
func LocationBase(loc string) string {
	if !IsObjectURI(loc) {
		return filepath.Base(loc)
	}
	return loc[strings.LastIndexByte(loc, '/')+1:]
}

// objectIOs caches one file IO (one client) per bucket.
var objectIOs sync.Map // scheme://bucket -> icebergio.IO

// LocationIO is the file IO a location is read and written through: the
// local file system with every written file fsynced (syncFS), or the
// object store's, where a completed PUT is durable and atomic.
func LocationIO(ctx context.Context, loc string) (icebergio.IO, error) {
	if !IsObjectURI(loc) {
		return syncFS{}, nil
	}
	scheme, rest, _ := strings.Cut(loc, "://")
	bucket, _, _ := strings.Cut(rest, "/")
	key := strings.ToLower(scheme) + "://" + bucket
	if io, ok := objectIOs.Load(key); ok {
		return io.(icebergio.IO), nil
	}
	io, err := icebergio.LoadFS(ctx, nil, key)
	if err != nil {
		return nil, pgerr.Wrap(err, codeIOError, "could not open object store \"%s\": %v", key, err)
	}
	actual, _ := objectIOs.LoadOrStore(key, io)
	return actual.(icebergio.IO), nil
}

// locationFS is LocationIO as the callback iceberg-go takes.
func locationFS(loc string) func(context.Context) (icebergio.IO, error) {
	return func(ctx context.Context) (icebergio.IO, error) { return LocationIO(ctx, loc) }
}

// statLocation is os.Stat for a local path, the object's attributes for
// an object URI (a key prefix with objects below it is a directory).
func statLocation(ctx context.Context, loc string) (isDir bool, err error) {
	if !IsObjectURI(loc) {
		st, err := os.Stat(loc)
		if err != nil {
			return false, FileError(err, loc, "open")
		}
		return st.IsDir(), nil
	}
	io, err := LocationIO(ctx, loc)
	if err != nil {
		return false, err
	}
	if st, ok := io.(icebergio.StatIO); ok {
		if fi, err := st.Stat(loc); err == nil {
			return fi.IsDir(), nil
		}
	}
	names, err := listLocation(ctx, loc)
	if err != nil {
		return false, err
	}
	if len(names) == 0 {
		return false, objectError(fs.ErrNotExist, loc, "open")
	}
	return true, nil
}

// LocationExists reports whether anything is at loc: a file or directory,
// an object or objects under the key prefix loc.
func LocationExists(ctx context.Context, loc string) (bool, error) {
	_, err := statLocation(ctx, loc)
	if err == nil {
		return true, nil
	}
	if pe := pgerr.As(err); pe != nil && pe.Code == codeUndefinedFile {
		return false, nil
	}
	return false, err
}

// listLocation names the files directly in directory loc (for objects:
// the keys one level below the prefix loc).
func listLocation(ctx context.Context, loc string) ([]string, error) {
	if !IsObjectURI(loc) {
		ents, err := os.ReadDir(loc)
		if err != nil {
			return nil, FileError(err, loc, "open")
		}
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out, nil
	}
	io, err := LocationIO(ctx, loc)
	if err != nil {
		return nil, err
	}
	l, ok := io.(icebergio.ListableIO)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "object store of \"%s\" cannot list objects", loc)
	}
	prefix := strings.TrimSuffix(loc, "/") + "/"
	var out []string
	err = l.WalkDir(strings.TrimSuffix(loc, "/"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if rest, ok := strings.CutPrefix(p, prefix); ok && rest != "" && !strings.Contains(rest, "/") && !d.IsDir() {
			out = append(out, rest)
		}
		return nil
	})
	if err != nil {
		return nil, objectError(err, loc, "list")
	}
	return out, nil
}

// readLocation reads the whole file or object loc.
func readLocation(ctx context.Context, loc string) ([]byte, error) {
	if !IsObjectURI(loc) {
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, FileError(err, loc, "read")
		}
		return b, nil
	}
	io, err := LocationIO(ctx, loc)
	if err != nil {
		return nil, err
	}
	r, ok := io.(icebergio.ReadFileIO)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "object store of \"%s\" cannot read objects whole", loc)
	}
	b, err := r.ReadFile(loc)
	if err != nil {
		return nil, objectError(err, loc, "read")
	}
	return b, nil
}

// writeLocation writes data as the file or object loc, durably: a local
// file and its directory are fsynced; an object PUT is complete when it
// returns.
func writeLocation(ctx context.Context, loc string, data []byte) error {
	if !IsObjectURI(loc) {
		if err := os.MkdirAll(filepath.Dir(loc), 0o755); err != nil {
			return FileError(err, filepath.Dir(loc), "create")
		}
		if err := (syncFS{}).WriteFile(loc, data); err != nil {
			return FileError(err, loc, "write")
		}
		return nil
	}
	io, err := LocationIO(ctx, loc)
	if err != nil {
		return err
	}
	w, ok := io.(icebergio.WriteFileIO)
	if !ok {
		return pgerr.New(pgerr.FeatureNotSupported, "object store of \"%s\" cannot write objects", loc)
	}
	if err := w.WriteFile(loc, data); err != nil {
		return objectError(err, loc, "write")
	}
	return nil
}

// objectError words an object store failure as FileError words a file's.
func objectError(err error, loc, what string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return pgerr.Wrap(err, codeUndefinedFile, "could not %s object \"%s\": no such object", what, loc)
	}
	if errors.Is(err, fs.ErrPermission) {
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "could not %s object \"%s\": permission denied", what, loc)
	}
	return pgerr.Wrap(err, codeIOError, "could not %s object \"%s\": %v", what, loc, err)
}
