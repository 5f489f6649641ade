package storage

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/joind/joind/types"
)

// lineitemLike is n rows shaped as TPC-H's lineitem columns that Q1 and Q6
// read: an ascending key, random keys, whole quantities, prices, small
// discounts, dates over seven years, one- and few-valued flags, comments.
func lineitemLike(n int) ([]ColumnDef, []arrow.Record) {
	m := types.Type{ID: types.Numeric, Typmod: types.NumericTypmod(15, 2)}
	cols := []ColumnDef{
		{Name: "l_orderkey", Type: types.Int8Type}, {Name: "l_partkey", Type: types.Int4Type},
		{Name: "l_quantity", Type: m}, {Name: "l_extendedprice", Type: m}, {Name: "l_discount", Type: m},
		{Name: "l_shipdate", Type: types.DateType}, {Name: "l_returnflag", Type: types.TextType},
		{Name: "l_shipmode", Type: types.TextType}, {Name: "l_comment", Type: types.TextType},
	}
	words := strings.Fields("furiously quickly final ironic pending regular express special bold even careful blithely packages deposits requests accounts")
	modes := []string{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}
	x := uint64(42)
	rnd := func(k int) int64 { x = x*6364136223846793005 + 1442695040888963407; return int64(x>>33) % int64(k) }
	var recs []arrow.Record
	const batch = 4096 // COPY's batches are small; the file's are not
	for lo := 0; lo < n; lo += batch {
		k := min(batch, n-lo)
		ints := make([][]int64, 6)
		strs := make([][]string, 3)
		for i := lo; i < lo+k; i++ {
			for c, v := range []int64{int64(i / 4), rnd(200000), 100 * (1 + rnd(50)), 90000 + rnd(10000000), rnd(11), 8036 + rnd(2526)} {
				ints[c] = append(ints[c], v)
			}
			cm := words[rnd(len(words))] + " " + words[rnd(len(words))] + " " + words[rnd(len(words))]
			for c, v := range []string{[]string{"A", "N", "R"}[rnd(3)], modes[rnd(7)], cm} {
				strs[c] = append(strs[c], v)
			}
		}
		arrs := make([]arrow.Array, len(cols))
		for c := range ints {
			t := cols[c].Type.ArrowType()
			arrs[c] = intArray(t, intWidth(t), ints[c], nil, 0)
		}
		for c := range strs {
			sb := array.NewStringBuilder(memory.DefaultAllocator)
			sb.AppendValues(strs[c], nil)
			arrs[6+c] = sb.NewArray()
		}
		recs = append(recs, array.NewRecord(arrowSchema(cols), arrs, int64(k)))
	}
	return cols, recs
}

// zstdOnlySegment writes recs as the segment files were written before
// encodings: plain Arrow columns, zstd on every buffer.
func zstdOnlySegment(tb testing.TB, dir string, id uint64, cols []ColumnDef, recs []arrow.Record) *segment {
	f, err := os.Create(filepath.Join(dir, segmentFile(id)))
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	cw := &crcWriter{w: bw}
	w, err := ipc.NewFileWriter(cw, ipc.WithSchema(arrowSchema(cols)), ipc.WithZstd(), ipc.WithMinSpaceSavings(0.1))
	if err != nil {
		tb.Fatal(err)
	}
	s := &segment{id: id, layout: cols}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			tb.Fatal(err)
		}
		s.rows += r.NumRows()
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	bw.Flush()
	f.Close()
	s.size, s.crc = cw.n, cw.crc
	return s
}

// BenchmarkSegmentRead reads one 1M-row lineitem-like segment file (what a
// table's first scan after start-up pays) in three formats: plain Arrow,
// zstd only (before encodings), and encoded + zstd (writeSegment's).
// file-bytes is the file's size.
//
//	go test ./storage -run '^$' -bench SegmentRead -benchtime 5x
func BenchmarkSegmentRead(b *testing.B) {
	cols, recs := lineitemLike(1 << 20)
	dir := b.TempDir()
	formats := []struct {
		name  string
		write func(id uint64) *segment
	}{
		{"plain", func(id uint64) *segment {
			s, err := writeSegment(dir, id, cols, recs, false, false)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"zstd", func(id uint64) *segment { return zstdOnlySegment(b, dir, id, cols, recs) }},
		{"encoded-zstd", func(id uint64) *segment {
			s, err := writeSegment(dir, id, cols, recs, false, true)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	segs := make([]*segment, len(formats))
	for i, f := range formats {
		segs[i] = f.write(uint64(i + 1))
	}
	for i, f := range formats {
		s := segs[i]
		b.Run(f.name, func(b *testing.B) {
			path := filepath.Join(dir, segmentFile(s.id))
			b.ResetTimer()
			for k := 0; k < b.N; k++ {
				if _, err := readSegment(path, s, cols); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.size), "file-bytes")
		})
	}
}
