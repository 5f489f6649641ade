package spill

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/pgerr"
)

func TestBudget(t *testing.T) {
	s := NewSpace(t.TempDir(), 100)
	if !s.Reserve(60) || s.Reserve(41) || !s.Reserve(40) {
		t.Fatal("reserve past the limit must fail, within it succeed")
	}
	s.Force(10)
	if s.Used() != 110 || s.Reserve(1) {
		t.Fatalf("after force: used %d", s.Used())
	}
	s.Release(110)
	if s.Used() != 0 {
		t.Fatalf("after release: used %d", s.Used())
	}
	var none *Space
	if !none.Reserve(1<<40) || none.CanSpill() || NewSpace("", 10).CanSpill() || NewSpace("x", 0).CanSpill() {
		t.Fatal("no space / no dir / no limit: never limited, never spills")
	}
}

func TestFileRoundTripAndCleanup(t *testing.T) {
	dir := t.TempDir()
	s := NewSpace(dir, 1)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	mk := func(lo, n int) arrow.Record {
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := lo; i < lo+n; i++ {
			if i%3 == 0 {
				ib.AppendNull()
			} else {
				ib.Append(int64(i))
			}
			sb.Append(string(rune('a' + i%26)))
		}
		return array.NewRecord(schema, []arrow.Array{ib.NewArray(), sb.NewArray()}, int64(n))
	}
	f, err := s.Create(schema)
	if err != nil {
		t.Fatal(err)
	}
	whole := mk(0, 100)
	if part, all := RecordBytes(whole.NewSlice(10, 20)), RecordBytes(whole); part*5 > all || part == 0 {
		t.Fatalf("a tenth of the rows counts %d bytes of %d", part, all)
	}
	for _, r := range []arrow.Record{mk(0, 10), whole.NewSlice(10, 60), mk(60, 40)} {
		if err := f.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Finish(); err != nil {
		t.Fatal(err)
	}
	rd, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	var got []arrow.Record
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r) // kept past the next Next
	}
	rd.Close()
	row := 0
	for _, r := range got {
		for i := 0; i < int(r.NumRows()); i++ {
			a, s := r.Column(0).(*array.Int64), r.Column(1).(*array.String)
			if a.IsNull(i) != whole.Column(0).IsNull(row) || !a.IsNull(i) && a.Value(i) != whole.Column(0).(*array.Int64).Value(row) ||
				s.Value(i) != whole.Column(1).(*array.String).Value(row) {
				t.Fatalf("row %d differs", row)
			}
			row++
		}
	}
	if row != 100 || f.Rows() != 100 {
		t.Fatalf("read %d rows, wrote %d", row, f.Rows())
	}
	if s.LiveFiles() != 1 || s.Created() != 1 {
		t.Fatalf("live %d created %d", s.LiveFiles(), s.Created())
	}
	f.Remove()
	f.Remove()
	if fs, _ := Files(dir); len(fs) != 0 || s.LiveFiles() != 0 {
		t.Fatalf("after Remove: %v, live %d", fs, s.LiveFiles())
	}
	// Clean removes spill files only.
	for _, n := range []string{"spill-1", "spill-2", "other"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := Clean(dir); err != nil {
		t.Fatal(err)
	}
	if fs, _ := Files(dir); len(fs) != 0 {
		t.Fatalf("after Clean: %v", fs)
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); err != nil {
		t.Fatal("Clean removed a file that is not a spill file")
	}
}

// TestHold: an operator without a spill path fails when its own bytes
// would pass the query's limit or all queries' the server's, not because
// the query's spilling operators hold bytes past the limit.
func TestHold(t *testing.T) {
	sp := NewSpace(t.TempDir(), 1000)
	spilling, held := sp.NewAccount(), sp.NewAccount()
	spilling.Force(1500) // a sort past the limit, about to spill
	if err := held.Hold(600, "TopN"); err != nil {
		t.Fatalf("600 of its own under a 1000-byte limit: %v", err)
	}
	if err := held.Hold(600, "TopN"); pgerr.Code(err) != pgerr.OutOfMemory {
		t.Fatalf("1200 of its own: %v, want 53200", err)
	}
	if held.Held() != 600 {
		t.Fatalf("a failed Hold counted: held %d", held.Held())
	}
	spilling.Close()
	held.Close()
	if sp.Used() != 0 {
		t.Fatalf("%d bytes left", sp.Used())
	}

	SetServerLimit(1000)
	defer SetServerLimit(0)
	other, mine := NewSpace("", 0).NewAccount(), NewSpace("", 0).NewAccount()
	other.Force(900)
	if err := mine.Hold(200, "WindowAgg"); pgerr.Code(err) != pgerr.OutOfMemory || !strings.Contains(err.(*pgerr.Error).Hint, "server's memory limit") {
		t.Fatalf("past the server's limit: %v", err)
	}
	other.Close()
	if err := mine.Hold(200, "WindowAgg"); err != nil {
		t.Fatal(err)
	}
	mine.Close()
	if ServerUsed() != 0 {
		t.Fatalf("%d bytes left server-wide", ServerUsed())
	}
}
