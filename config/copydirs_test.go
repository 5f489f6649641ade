package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyDirsOverlappingDataDirRefused: a copy directory that is the data
// directory, holds it, lies inside it or reaches it through a symbolic link
// is refused at start-up; a separate one is accepted.
func TestCopyDirsOverlappingDataDirRefused(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	other := filepath.Join(root, "exports")
	for _, d := range []string{data, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dirs string
		ok   bool
	}{
		{other, true},
		{data, false},
		{root, false},
		{filepath.Join(data, "sub"), false},
		{link, false},
		{other + "," + data + "/", false},
		{filepath.Join(root, "data2"), true},
	} {
		_, err := Load([]string{"--data-dir", data, "--copy-dirs", c.dirs}, nil)
		if c.ok && err != nil {
			t.Errorf("copy_dirs %s: %v", c.dirs, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "overlaps the data directory")) {
			t.Errorf("copy_dirs %s: %v, want it refused", c.dirs, err)
		}
	}
}

// TestCopyDirsObjectPrefixes: s3://bucket/prefix entries are accepted
// beside directories (never compared with the data directory); one with
// no bucket or a .. segment, or a relative path, is refused.
func TestCopyDirsObjectPrefixes(t *testing.T) {
	data := t.TempDir()
	for _, c := range []struct {
		dirs string
		ok   bool
	}{
		{"s3://lake", true},
		{"s3://lake/warehouse/," + t.TempDir(), true},
		{"S3://Lake/x", true},
		{"s3://", false},
		{"s3:///x", false},
		{"s3://lake/../other", false},
		{"lake/warehouse", false},
	} {
		cfg, err := Load([]string{"--data-dir", data, "--copy-dirs", c.dirs}, nil)
		if c.ok && err != nil {
			t.Errorf("copy_dirs %s: %v", c.dirs, err)
		}
		if !c.ok && err == nil {
			t.Errorf("copy_dirs %s accepted as %q, want it refused", c.dirs, cfg.CopyDirs)
		}
	}
}
