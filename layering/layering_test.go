package layering

import (
	"bufio"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/joind/joind/"

func root(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// picture parses ARCHITECTURE.md's import picture: "pkg → a, b (note), c"
// lines between the fences after the "Imports, as a picture" heading; "—"
// on the right means no joind imports.
func picture(t *testing.T, arch string) map[string][]string {
	f, err := os.Open(arch)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	state := 0 // 0: before the heading, 1: before the fence, 2: inside
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case state == 0 && strings.HasPrefix(line, "Imports, as a picture"):
			state = 1
		case state == 1 && line == "```":
			state = 2
		case state == 2 && line == "```":
			return out
		case state == 2:
			lhs, rhs, ok := strings.Cut(line, "→")
			if !ok {
				t.Fatalf("ARCHITECTURE.md picture: line %q has no →", line)
			}
			pkg := strings.TrimSpace(lhs)
			if _, dup := out[pkg]; dup {
				t.Fatalf("ARCHITECTURE.md picture: %s has two lines", pkg)
			}
			deps := []string{}
			for _, d := range strings.Split(rhs, ",") {
				if i := strings.Index(d, "("); i >= 0 {
					d = d[:i]
				}
				if d = strings.TrimSpace(d); d != "" && d != "—" {
					deps = append(deps, d)
				}
			}
			out[pkg] = deps
		}
	}
	t.Fatal("ARCHITECTURE.md has no import picture")
	return nil
}

// packages returns every package directory of the module (the bench module
// and testdata excluded) with its non-test joind imports.
func packages(t *testing.T, top string) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != top && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bench") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(top, path)
		deps := []string{}
		for _, imp := range bp.Imports {
			if strings.HasPrefix(imp, module) {
				deps = append(deps, strings.TrimPrefix(imp, module))
			}
		}
		out[filepath.ToSlash(rel)] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportsMatchThePicture(t *testing.T) {
	top := root(t)
	want := picture(t, filepath.Join(top, "ARCHITECTURE.md"))
	got := packages(t, top)
	for pkg, deps := range got {
		allowed, ok := want[pkg]
		if !ok {
			t.Errorf("package %s is not in ARCHITECTURE.md's import picture: add a line %q", pkg, pkg+" → "+strings.Join(deps, ", "))
			continue
		}
		if a, b := set(deps), set(allowed); !equal(a, b) {
			t.Errorf("%s imports %v, but ARCHITECTURE.md's picture says %v", pkg, keys(a), keys(b))
		}
	}
	for pkg := range want {
		if _, ok := got[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md's picture names %s, which is not a package", pkg)
		}
	}
}

func TestPictureHasNoCycle(t *testing.T) {
	g := picture(t, filepath.Join(root(t), "ARCHITECTURE.md"))
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var visit func(p string, path []string)
	visit = func(p string, path []string) {
		switch state[p] {
		case active:
			t.Fatalf("import cycle: %s", strings.Join(append(path, p), " → "))
		case done:
			return
		}
		state[p] = active
		for _, d := range g[p] {
			visit(d, append(path, p))
		}
		state[p] = done
	}
	for _, p := range keys(set(mapKeys(g))) {
		visit(p, nil)
	}
}

func set(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func equal(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mapKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
