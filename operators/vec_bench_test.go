package operators

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// BenchmarkKernels times expressions of TPC-H's shapes over one 4096-row
// batch with their kernels and on the generic row-by-row path:
//
//	go test ./operators/ -run '^$' -bench Kernels -benchtime 200x
func BenchmarkKernels(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	char10 := types.Type{ID: types.Char, Typmod: 10 + 4}
	cs := cols(types.DateType, char10, types.TextType, types.Int4Type)
	modes := []string{"MAIL", "SHIP", "AIR", "RAIL", "TRUCK", "FOB", "REG AIR"}
	words := []string{"special", "requests", "green", "furiously", "ironic", "deposits", "PROMO", "BRUSHED"}
	rows := make([][]types.Value, 4096)
	for i := range rows {
		m := modes[r.Intn(len(modes))]
		for len(m) < 10 {
			m += " "
		}
		s := ""
		for k := 0; k < 6; k++ {
			s += words[r.Intn(len(words))] + " "
		}
		rows[i] = []types.Value{I(8000 + r.Int63n(2500)), S(m), S(s), I(r.Int63n(50))}
	}
	rec := mkRecord(cs, rows)
	d, c, s := col(1, types.DateType), col(2, char10), col(3, types.TextType)
	op := func(name string, l, r plan.Expr) plan.Expr {
		fn, err := types.ResolveOperator(name, l.Type(), r.Type())
		if err != nil {
			b.Fatal(err)
		}
		return &plan.Call{Func: fn, Args: []plan.Expr{coerce(l, fn.Args[0]), coerce(r, fn.Args[1])}}
	}
	ts := &plan.Const{Val: I(8766 * 86400000000), T: types.TimestampType}
	mail := &plan.Const{Val: S("MAIL"), T: char10}
	ship := &plan.Const{Val: S("SHIP"), T: char10}
	extract, err := types.ResolveFunction("extract", []types.Type{types.TextType, types.DateType})
	if err != nil {
		b.Fatal(err)
	}
	exprs := []struct {
		name string
		e    plan.Expr
	}{
		{"date<timestamp", op("<", d, ts)},
		{"char=const", op("=", c, mail)},
		{"like_contains", op("!~~", s, &plan.Const{Val: S("%special%requests%"), T: types.TextType})},
		{"like_prefix", op("~~", s, &plan.Const{Val: S("PROMO%"), T: types.TextType})},
		{"in_list", &plan.Or{Args: []plan.Expr{op("=", c, mail), op("=", c, ship)}}},
		{"case", &plan.Case{T: types.Int4Type, Whens: []plan.When{
			{Cond: op("=", c, mail), Result: &plan.Const{Val: I(1), T: types.Int4Type}},
			{Cond: op("=", c, ship), Result: &plan.Const{Val: I(2), T: types.Int4Type}}},
			Else: &plan.Const{Val: I(0), T: types.Int4Type}}},
		{"date+int", op("+", d, col(4, types.Int4Type))},
		{"extract_year", &plan.Call{Func: extract, Args: []plan.Expr{&plan.Const{Val: S("year"), T: types.TextType}, d}}},
	}
	for _, x := range exprs {
		for _, generic := range []bool{false, true} {
			mode := "kernel"
			if generic {
				mode = "generic"
			}
			b.Run(fmt.Sprintf("%s/%s", x.name, mode), func(b *testing.B) {
				cp, err := compile(x.e, cs, &Env{Eval: &types.EvalContext{}}, generic)
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < b.N; i++ {
					if _, err := cp.Eval(context.Background(), rec); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
