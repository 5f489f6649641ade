package spill

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestStatsPeakSpillAndUsage(t *testing.T) {
	before := Usage()[KindSort]
	st := &Stats{Kind: KindSort}
	sp := NewSpace(t.TempDir(), 1<<20)
	a := sp.NewAccount().Track(st)
	a.Force(3000)
	a.Release(1000)
	a.Force(500) // held 2500, peak 3000
	if got := Usage()[KindSort].InUse - before.InUse; got != 2500 {
		t.Fatalf("process-wide sort memory %d, want 2500", got)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 3}, nil)
	rec := array.NewRecord(schema, []arrow.Array{b.NewArray()}, 3)
	f, err := a.Create(schema)
	if err != nil {
		t.Fatal(err)
	}
	// The file's write buffer counts until Finish (peak 2500 + buffer).
	if a.Held() != 2500+writeBuffer {
		t.Fatalf("held %d with a file open, want %d", a.Held(), 2500+writeBuffer)
	}
	if err := f.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := f.Finish(); err != nil {
		t.Fatal(err)
	}
	st.Count(f)
	if a.Held() != 2500 {
		t.Fatalf("held %d after Finish, want 2500", a.Held())
	}
	a.Close()
	if st.Peak() != 2500+writeBuffer || st.SpilledBytes() != f.DiskBytes() || f.DiskBytes() <= 0 {
		t.Fatalf("peak %d, spilled %d (file %d bytes)", st.Peak(), st.SpilledBytes(), f.DiskBytes())
	}
	after := Usage()[KindSort]
	if after.InUse != before.InUse {
		t.Errorf("closing the account left %d bytes counted", after.InUse-before.InUse)
	}
	if after.Spilled-before.Spilled != f.DiskBytes() {
		t.Errorf("process-wide spilled %d, want %d", after.Spilled-before.Spilled, f.DiskBytes())
	}
	note := st.Note()
	if !strings.HasPrefix(note, "(memory: peak 67 kB) (spilled: 1 files, 3 rows, ") {
		t.Errorf("note %q", note)
	}
	if (&Stats{}).Note() != "" {
		t.Errorf("an idle operator has a note")
	}
}
