package commands

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// fakeSession is a Session over an in-memory catalog; it records notices.
type fakeSession struct {
	cat     *Catalog
	notices []string
}

func (f *fakeSession) Catalog() *Catalog { return f.cat }

func (f *fakeSession) Sequences() *SeqState { return NewSeqState() }
func (f *fakeSession) Roles() RoleContext   { return RoleContext{Current: storage.OIDBootstrapRole} }

func (f *fakeSession) RowMoves(storage.Table) func(from, to []storage.RowID) {
	return nil
}
func (f *fakeSession) Collect(context.Context, *sql.Query) ([]arrow.Record, error) {
	panic("no queries in these tests")
}
func (f *fakeSession) Format() *types.Format {
	return &types.Format{DateStyle: "ISO, MDY", IntervalStyle: "postgres"}
}
func (f *fakeSession) Notice(n *pgerr.Error) error {
	f.notices = append(f.notices, n.Message)
	return nil
}
func (f *fakeSession) SendRows([]plan.Column, []arrow.Record) error {
	panic("no rows in these tests")
}

func newFake(t *testing.T) (*fakeSession, *storage.DB, *TempTables) {
	t.Helper()
	db, err := storage.Open("", storage.Options{NoSync: true, NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tt := NewTempTables(slog.Default())
	t.Cleanup(tt.Close)
	return &fakeSession{cat: NewCatalog(db.Begin(), tt)}, db, tt
}

var intCol = []storage.ColumnDef{{Name: "a", Type: types.Int4Type, NotNull: true}, {Name: "b", Type: types.TextType}}

func run(t *testing.T, s Session, st sql.Statement) (string, error) {
	t.Helper()
	tag, ok, err := Execute(context.Background(), s, st)
	if !ok {
		t.Fatalf("Execute(%T) did not run it", st)
	}
	return tag, err
}

func TestTempTableShadowsAndOnCommit(t *testing.T) {
	ctx := context.Background()
	s, _, tt := newFake(t)
	for _, st := range []*sql.CreateTable{
		{Name: "t", Columns: intCol},
		{Name: "t", Columns: intCol, Temp: true, OnCommit: sql.DeleteRows},
		{Name: "d", Columns: intCol, Temp: true, OnCommit: sql.DropOnCommit},
	} {
		if tag, err := run(t, s, st); err != nil || tag != "CREATE TABLE" {
			t.Fatalf("%+v: %q %v", st, tag, err)
		}
	}
	tb, ok := s.cat.Lookup("t")
	if !ok || !s.cat.IsTemp(tb) {
		t.Fatal("t should resolve to the temporary table first")
	}
	if _, ok := s.cat.LookupIn("public", "t"); !ok {
		t.Fatal("public.t is gone")
	}
	if _, err := AppendRecords(ctx, s.cat, tb, []arrow.Record{record(t, 1)}, s.Format()); err != nil {
		t.Fatal(err)
	}
	if tb, _ := s.cat.Lookup("t"); tb.Stats().Rows != 1 {
		t.Fatalf("the temporary table has %d rows, want 1", tb.Stats().Rows)
	}
	tt.End(ctx, true)
	cat := NewCatalog(s.cat.Txn, tt)
	if _, ok := cat.LookupIn("pg_temp", "d"); ok {
		t.Error("ON COMMIT DROP left d")
	}
	tb, ok = cat.LookupIn("pg_temp", "t")
	if !ok {
		t.Fatal("ON COMMIT DELETE ROWS dropped t")
	}
	if n := tb.Stats().Rows; n != 0 {
		t.Errorf("ON COMMIT DELETE ROWS left %d rows", n)
	}
}

func TestDropTableDependents(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newFake(t)
	if _, err := run(t, s, &sql.CreateTable{Name: "t", Columns: intCol}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []storage.View{{Name: "v1", Deps: []string{"t"}}, {Name: "v2", Deps: []string{"v1"}}} {
		if err := s.cat.CreateView(ctx, v, false); err != nil {
			t.Fatal(err)
		}
	}
	_, err := run(t, s, &sql.DropTable{Targets: []sql.DropTarget{{Name: "t", Key: "t"}}, RelName: storage.BareName})
	e, _ := err.(*pgerr.Error)
	if pgerr.Code(err) != "2BP01" || e == nil || e.Message != "cannot drop table t because other objects depend on it" ||
		e.Detail != "view v1 depends on table t\nview v2 depends on view v1" {
		t.Fatalf("RESTRICT: %#v", err)
	}
	if _, err := run(t, s, &sql.DropView{Targets: []sql.DropTarget{{Name: "t", Key: "t"}}, RelName: storage.BareName}); pgerr.Code(err) != pgerr.WrongObjectType {
		t.Fatalf("DROP VIEW of a table: %v", err)
	}
	if tag, err := run(t, s, &sql.DropTable{Targets: []sql.DropTarget{{Name: "t", Key: "t"}, {Name: "nope"}},
		IfExists: true, Cascade: true, RelName: storage.BareName}); err != nil || tag != "DROP TABLE" {
		t.Fatalf("CASCADE: %q %v", tag, err)
	}
	want := []string{`table "nope" does not exist, skipping`, "drop cascades to 2 other objects"}
	if strings.Join(s.notices, "|") != strings.Join(want, "|") {
		t.Fatalf("notices %q, want %q", s.notices, want)
	}
	if _, ok := s.cat.LookupView("v2"); ok {
		t.Fatal("CASCADE left v2")
	}
}

func TestNotNullViolation(t *testing.T) {
	s, _, _ := newFake(t)
	tb, err := s.cat.Create(context.Background(), "t", intCol)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AppendRecords(context.Background(), s.cat, tb, []arrow.Record{record(t, 1), record(t, -1)}, s.Format())
	e, _ := err.(*pgerr.Error)
	if e == nil || e.Code != pgerr.NotNullViolation || e.Detail != "Failing row contains (null, x)." {
		t.Fatalf("%#v", err)
	}
	if tb.Stats().Rows != 0 {
		t.Fatal("a failed append left rows")
	}
}

func TestReadOnlyErr(t *testing.T) {
	s, _, _ := newFake(t)
	for _, st := range []*sql.CreateTable{{Name: "p", Columns: intCol}, {Name: "tmp", Columns: intCol, Temp: true}} {
		if _, err := run(t, s, st); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := s.cat.Lookup("p")
	tmp, _ := s.cat.Lookup("tmp")
	if err := ReadOnlyErr(s.cat, &sql.Insert{Table: tmp}); err != nil {
		t.Errorf("INSERT into a temporary table: %v", err)
	}
	err := ReadOnlyErr(s.cat, &sql.Insert{Table: p})
	if pgerr.Code(err) != "25006" || !strings.Contains(err.Error(), "cannot execute INSERT in a read-only transaction") {
		t.Errorf("INSERT into a permanent table: %v", err)
	}
	if err := ReadOnlyErr(s.cat, &sql.CreateTable{Name: "x", Temp: true}); pgerr.Code(err) != "25006" {
		t.Errorf("CREATE TEMP TABLE: %v", err)
	}
}

// record is one row (a, 'x'); a < 0 makes a NULL.
func record(t *testing.T, a int32) arrow.Record {
	t.Helper()
	ab := array.NewInt32Builder(memory.DefaultAllocator)
	if a < 0 {
		ab.AppendNull()
	} else {
		ab.Append(a)
	}
	bb := array.NewStringBuilder(memory.DefaultAllocator)
	bb.Append("x")
	fields := []arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}}
	return array.NewRecord(arrow.NewSchema(fields, nil), []arrow.Array{ab.NewArray(), bb.NewArray()}, 1)
}
