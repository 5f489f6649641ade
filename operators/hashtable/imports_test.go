package hashtable

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports enforces doc.go: no joind package other than pgerr.
func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fs := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fs, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "github.com/joind/joind/") && p != "github.com/joind/joind/pgerr" {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
