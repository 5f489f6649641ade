package operators

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Test helpers: building records from rows, reading them back, a memory table.

func cols(ts ...types.Type) []plan.Column {
	out := make([]plan.Column, len(ts))
	for i, t := range ts {
		out[i] = plan.Column{ID: plan.ColumnID(i + 1), Name: fmt.Sprintf("c%d", i+1), Type: t}
	}
	return out
}

func mkRecord(cs []plan.Column, rows [][]types.Value) arrow.Record {
	bs := make([]array.Builder, len(cs))
	for i, c := range cs {
		bs[i] = newBuilder(c.Type, len(rows))
	}
	for _, r := range rows {
		for i := range cs {
			types.AppendValue(bs[i], cs[i].Type, r[i])
		}
	}
	arrs := make([]arrow.Array, len(cs))
	for i, b := range bs {
		arrs[i] = b.NewArray()
	}
	return array.NewRecord(schemaOf(cs), arrs, int64(len(rows)))
}

func I(v int64) types.Value   { return types.IntValue(v) }
func F(v float64) types.Value { return types.FloatValue(v) }
func S(v string) types.Value  { return types.TextValue(v) }
func B(v bool) types.Value    { return types.BoolValue(v) }

var N = types.NullValue

func recRows(rec arrow.Record, cs []plan.Column) [][]types.Value {
	var out [][]types.Value
	for i := 0; i < int(rec.NumRows()); i++ {
		row := make([]types.Value, len(cs))
		for j := range cs {
			row[j] = types.GetValue(rec.Column(j), cs[j].Type, i)
		}
		out = append(out, row)
	}
	return out
}

func fmtVal(v types.Value, t types.Type) string {
	if v.Null {
		return "NULL"
	}
	switch t.ID {
	case types.Bool:
		if v.I != 0 {
			return "t"
		}
		return "f"
	case types.Float4, types.Float8:
		return fmt.Sprint(v.F)
	case types.Text, types.Varchar, types.Char, types.Unknown:
		return v.S
	case types.Numeric:
		return v.Num.Text('f')
	case types.Interval:
		return fmt.Sprintf("%d mons %d days %d us", v.Iv.Months, v.Iv.Days, v.Iv.Micros)
	}
	return fmt.Sprint(v.I)
}

func fmtRow(row []types.Value, cs []plan.Column) string {
	parts := make([]string, len(row))
	for i, v := range row {
		parts[i] = fmtVal(v, cs[i].Type)
	}
	return strings.Join(parts, "|")
}

// collectRows runs op and returns its rows formatted, in output order.
func collectRows(t testing.TB, op Operator) []string {
	t.Helper()
	recs, err := Collect(context.Background(), op)
	if err != nil {
		t.Fatalf("collect: %v", err)
	}
	var out []string
	for _, r := range recs {
		if r.NumRows() == 0 {
			t.Fatalf("operator returned an empty batch")
		}
		for _, row := range recRows(r, op.Columns()) {
			out = append(out, fmtRow(row, op.Columns()))
		}
	}
	return out
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

func sameMultiset(t *testing.T, got, want []string) {
	t.Helper()
	g, w := sorted(got), sorted(want)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Fatalf("rows differ\ngot:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got none", code)
	}
	if c := pgerr.Code(err); c != code {
		t.Fatalf("want error %s, got %s (%v)", code, c, err)
	}
}

// memTable is an in-memory storage.Table for tests.
type memTable struct {
	name string
	defs []storage.ColumnDef
	recs []arrow.Record
}

func (m *memTable) Name() string                 { return m.name }
func (m *memTable) Columns() []storage.ColumnDef { return m.defs }
func (m *memTable) Snapshot() []arrow.Record     { return m.recs }
func (m *memTable) Stats() storage.Stats {
	var n int64
	for _, r := range m.recs {
		n += r.NumRows()
	}
	return storage.Stats{Rows: n}
}

// newMemTable stores rows (shuffled, split into batches of random sizes).
func newMemTable(cs []plan.Column, rows [][]types.Value, seed int64) *memTable {
	rng := rand.New(rand.NewSource(seed))
	rows = append([][]types.Value(nil), rows...)
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	m := &memTable{name: "t"}
	for _, c := range cs {
		m.defs = append(m.defs, storage.ColumnDef{Name: c.Name, Type: c.Type})
	}
	for len(rows) > 0 {
		k := 1 + rng.Intn(7)
		if k > len(rows) {
			k = len(rows)
		}
		m.recs = append(m.recs, mkRecord(cs, rows[:k]))
		rows = rows[k:]
	}
	return m
}

func scanOf(t *memTable, cs []plan.Column, parts int) Operator {
	ords := make([]int, len(cs))
	for i := range ords {
		ords[i] = i
	}
	return NewScan(t, ords, cs, parts)
}

// drain reads a stream to the end.
func drain(s Stream) (int, error) {
	n := 0
	for {
		r, err := s.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += int(r.NumRows())
	}
}
