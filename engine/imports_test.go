package engine

import (
	"go/build"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/joind/joind/"

// allowedImports is the one-way layering of ARCHITECTURE.md: each package
// may import only the joind packages listed (tests excluded).
var allowedImports = map[string][]string{
	"pgerr":                    {},
	"types":                    {"pgerr"},
	"settings":                 {"types", "pgerr"},
	"storage":                  {"settings", "types", "pgerr"},
	"sql/plan":                 {"storage", "types"},
	"sql":                      {"sql/plan", "settings", "storage", "types", "pgerr"},
	"optimizer":                {"sql/plan", "storage", "types", "pgerr"},
	"operators":                {"sql/plan", "storage", "types", "pgerr"},
	"operators/join/hashtable": {"pgerr"},
	"operators/join":           {"operators", "operators/join/hashtable", "sql/plan", "storage", "types", "pgerr"},
	"wire":                     {"pgerr"},
	"config":                   {},
}

func TestImportsFlowOneWay(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	for pkg, allowed := range allowedImports {
		bp, err := build.ImportDir(filepath.Join(root, pkg), 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				continue
			}
			t.Fatalf("%s: %v", pkg, err)
		}
		ok := map[string]bool{}
		for _, a := range allowed {
			ok[a] = true
		}
		for _, imp := range bp.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if !ok[dep] {
				t.Errorf("%s imports %s, which the layering forbids (allowed: %v)", pkg, dep, allowed)
			}
		}
	}
}
