package storage

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestZZColSizes(t *testing.T) {
	path := os.Getenv("SEGFILE")
	if path == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(path)
	r, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sc := r.Schema()
	var recs []arrow.Record
	for i := 0; i < r.NumRecords(); i++ {
		rec, _ := r.RecordBatchAt(i)
		rec.Retain()
		recs = append(recs, rec)
	}
	fmt.Println("batches", len(recs))
	for c, f := range sc.Fields() {
		fs := arrow.NewSchema([]arrow.Field{f}, nil)
		var buf bytes.Buffer
		w, _ := ipc.NewFileWriter(&buf, ipc.WithSchema(fs), ipc.WithZstd(), ipc.WithMinSpaceSavings(0.1))
		step := 1
		if os.Getenv("GROUP") != "" {
			step = 16
		}
		for i := 0; i < len(recs); i += step {
			var parts []arrow.Array
			var n int64
			for j := i; j < i+step && j < len(recs); j++ {
				parts = append(parts, recs[j].Column(c))
				n += recs[j].NumRows()
			}
			a, err := array.Concatenate(parts, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(array.NewRecord(fs, []arrow.Array{a}, n)); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		fmt.Printf("%-20s %-40s %10d\n", f.Name, f.Type, buf.Len())
	}
}
