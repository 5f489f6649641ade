package external

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/joind/joind/pgerr"
)

// IcebergMetadataFile picks the version a table directory's readers take:
// the version hint's, else the highest-numbered metadata file of either
// naming; joind's own staged files (NNNNN-joind-uuid) are never versions.
func TestIcebergMetadataFile(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "tbl", "metadata")
	if err := os.MkdirAll(md, 0o755); err != nil {
		t.Fatal(err)
	}
	touch := func(name string) {
		if err := os.WriteFile(filepath.Join(md, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(want string) {
		t.Helper()
		got, err := IcebergMetadataFile([]string{dir}, "tbl")
		if err != nil || got != filepath.Join(md, want) {
			t.Errorf("got %q, %v; want %s", got, err, want)
		}
	}
	for _, n := range []string{"v1.metadata.json", "v3.metadata.json", "v2.metadata.json", "snap-1.avro"} {
		touch(n)
	}
	check("v3.metadata.json")
	touch("00009-joind-0b7e6c1e-1d5c-4a43-9d0e-6c3f3f8b8a11.metadata.json")
	check("v3.metadata.json")
	touch("00004-0b7e6c1e-1d5c-4a43-9d0e-6c3f3f8b8a11.metadata.json")
	check("00004-0b7e6c1e-1d5c-4a43-9d0e-6c3f3f8b8a11.metadata.json")
	touch("version-hint.text")
	if err := os.WriteFile(filepath.Join(md, "version-hint.text"), []byte("2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("v2.metadata.json")
	// A metadata file named directly is taken as it is.
	if got, err := IcebergMetadataFile([]string{dir}, filepath.Join("tbl", "metadata", "v1.metadata.json")); err != nil || got != filepath.Join(md, "v1.metadata.json") {
		t.Errorf("a metadata file: %q, %v", got, err)
	}
	for loc, code := range map[string]string{
		"gs://bucket/tbl":  pgerr.FeatureNotSupported,   // a store joind has no client for
		"s3://bucket/tbl":  pgerr.InsufficientPrivilege, // no s3:// entry in copy_dirs
		"s3://bucket/../x": pgerr.InvalidParameterValue,
		"/etc":             pgerr.InsufficientPrivilege,
		".":                codeUndefinedFile, // no metadata directory
		"missing":          codeUndefinedFile,
	} {
		if _, err := IcebergMetadataFile([]string{dir}, loc); pgerr.As(err) == nil || pgerr.As(err).Code != code {
			t.Errorf("%s: %v, want %s", loc, err, code)
		}
	}
}
