package external

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

func TestParsePartitionBy(t *testing.T) {
	for in, want := range map[string]string{
		"day":                          "day:identity",
		"id, Day":                      "id:identity day:identity",
		`bucket(16, id), "Mixed"`:      "id:bucket[16] Mixed:identity",
		" truncate( 4 ,k ) , days(ts)": "k:truncate[4] ts:day",
		"YEAR(d), month(d2), hours(t), identity(x)": "d:year d2:month t:hour x:identity",
	} {
		terms, err := ParsePartitionBy(in)
		got := ""
		for i, pt := range terms {
			if i > 0 {
				got += " "
			}
			got += pt.Column + ":" + pt.Transform.String()
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a,", "bucket(id)", "bucket(x, id)", "bucket(-1, id)", "truncate(0, k)", "frob(a)", "day(a, b)", "day(a", "a b", `""`} {
		if _, err := ParsePartitionBy(in); pgerr.As(err) == nil || pgerr.As(err).Code != pgerr.InvalidParameterValue {
			t.Errorf("%q: %v, want 22023", in, err)
		}
	}
}

// ExcludedUnits never excludes a data file holding a row that passes the
// test (checked against every file's rows), and a bucket equality keeps
// only files of the value's bucket.
func TestIcebergExcludedUnits(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	loc := filepath.Join(dir, "t")
	cols := []storage.ColumnDef{
		{Name: "id", Type: types.Int8Type, Attnum: 1},
		{Name: "k", Type: types.TextType, Attnum: 2},
		{Name: "d", Type: types.DateType, Attnum: 3},
	}
	if err := CreateIceberg(loc, cols, "bucket(4, id), truncate(2, k), month(d)"); err != nil {
		t.Fatal(err)
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for g := int64(0); g < 300; g++ {
		b.Field(0).(*array.Int64Builder).Append(g)
		if g%10 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("%c%c%d", 'a'+g%3, 'a'+g%4, g))
		}
		b.Field(2).(*array.Date32Builder).Append(arrow.Date32(19700 + g/3))
	}
	rec := b.NewRecord()
	defer rec.Release()
	meta, err := IcebergMetadataFile([]string{dir}, loc)
	if err != nil {
		t.Fatal(err)
	}
	if meta, err = AppendIceberg(ctx, []string{dir}, meta, cols, []arrow.Record{rec}); err != nil {
		t.Fatal(err)
	}
	tbl, err := OpenIceberg(ctx, []string{dir}, meta, "t", cols, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Each unit's rows, to check exclusions against.
	type row struct {
		id int64
		k  *string
		d  int64
	}
	units := make([][]row, len(tbl.Units()))
	for i := range units {
		recs, err := tbl.ReadUnit(ctx, i, []int{0, 1, 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			for n := 0; n < int(r.NumRows()); n++ {
				x := row{id: r.Column(0).(*array.Int64).Value(n), d: int64(r.Column(2).(*array.Date32).Value(n))}
				if s := r.Column(1).(*array.String); s.IsValid(n) {
					v := s.Value(n)
					x.k = &v
				}
				units[i] = append(units[i], x)
			}
		}
	}
	holds := func(op string, c int) bool {
		switch op {
		case "=":
			return c == 0
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		case ">":
			return c > 0
		}
		return c >= 0
	}
	var tests []storage.UnitTest
	for _, op := range []string{"=", "<", "<=", ">", ">="} {
		tests = append(tests,
			storage.UnitTest{Ordinal: 0, Op: op, Value: types.IntValue(37), Type: types.Int8Type},
			storage.UnitTest{Ordinal: 1, Op: op, Value: types.TextValue("bc"), Type: types.TextType},
			storage.UnitTest{Ordinal: 1, Op: op, Value: types.TextValue("ca7"), Type: types.TextType},
			storage.UnitTest{Ordinal: 2, Op: op, Value: types.IntValue(19731), Type: types.DateType})
	}
	tests = append(tests, storage.UnitTest{Ordinal: 1, IsNull: true, Type: types.TextType}, storage.UnitTest{Ordinal: 1, Type: types.TextType})
	for _, ut := range tests {
		excluded := tbl.ExcludedUnits([]storage.UnitTest{ut})
		n := 0
		for i, rows := range units {
			pass := false
			for _, r := range rows {
				switch {
				case ut.Op == "":
					pass = pass || (r.k == nil) == ut.IsNull
				case ut.Ordinal == 0:
					pass = pass || holds(ut.Op, cmp.Compare(r.id, ut.Value.I))
				case ut.Ordinal == 1:
					pass = pass || (r.k != nil && holds(ut.Op, cmp.Compare(*r.k, ut.Value.S)))
				default:
					pass = pass || holds(ut.Op, cmp.Compare(r.d, ut.Value.I))
				}
			}
			if excluded[i] {
				n++
				if pass {
					t.Errorf("%+v excludes unit %d, which has a row passing it", ut, i)
				}
			}
		}
		if n == 0 && (ut.Op == "=" || ut.Op == "") {
			t.Errorf("%+v excludes no unit of %d", ut, len(units))
		}
	}
}
