package sql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// TestLongInListResolvesOnce: a long IN list resolves its operator once per
// item type (the terms share one overload), so binding 100,000 constants
// costs no overload search each; mixed item types still resolve apart.
func TestLongInListResolvesOnce(t *testing.T) {
	items := make([]string, 0, 2002)
	for i := range 2000 {
		items = append(items, fmt.Sprint(i))
	}
	items = append(items, "'7'", "2.5")
	raws, err := Parse("SELECT a FROM t WHERE a IN (" + strings.Join(items, ",") + ")")
	if err != nil {
		t.Fatal(err)
	}
	st, err := bindNoPanic(raws[0], &BindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var or *plan.Or
	var find func(n plan.Node)
	find = func(n plan.Node) {
		if f, ok := n.(*plan.Filter); ok {
			or, _ = f.Pred.(*plan.Or)
		}
		for _, c := range n.Children() {
			find(c)
		}
	}
	find(st.(*Query).Plan)
	if or == nil || len(or.Args) != len(items) {
		t.Fatalf("no IN list of %d terms in %s", len(items), plan.Format(st.(*Query).Plan))
	}
	distinct := map[*types.Overload]bool{}
	for _, a := range or.Args {
		distinct[a.(*plan.Call).Func] = true
	}
	// One each for the integer items, the unknown literal '7' and 2.5.
	if len(distinct) != 3 {
		t.Errorf("%d overloads resolved for %d terms, want 3", len(distinct), len(or.Args))
	}
}
