package sqlfuzz

import (
	"math/rand"
	"strings"
	"testing"
)

func genRoleScript(seed int64) string {
	k := DefaultKnobs()
	r := rand.New(rand.NewSource(seed))
	sch := genSchema(r, &k, defaultPrefix)
	g := &gen{r: r, cat: newCatalog(&k), k: k, s: sch}
	return g.roleCase(defaultPrefix).script()
}

// TestRoleScripts: role scripts are seeded, name the worker's roles and
// the round's tables, and reach every kind of statement.
func TestRoleScripts(t *testing.T) {
	if genRoleScript(3) != genRoleScript(3) {
		t.Fatal("seed 3 generated two role scripts")
	}
	var all strings.Builder
	for seed := int64(0); seed < 40; seed++ {
		all.WriteString(genRoleScript(seed))
	}
	for _, want := range []string{"CREATE ROLE fz_r0", "GRANT ", "REVOKE ", " ON SEQUENCE fz_sq", "SET ROLE fz_r", "RESET ROLE",
		"nextval('fz_sq')", "has_table_privilege(", "relacl::text", "WITH GRANT OPTION", "TO PUBLIC", "FROM fz_t"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no role script has %q", want)
		}
	}
}
