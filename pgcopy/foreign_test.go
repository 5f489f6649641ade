package pgcopy

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// A big file is read in several units where cutting is safe, and their
// rows are the one-unit read's; a bad row's error (its line number too)
// is the one the whole file gives, the first in the file even when a later
// unit fails too; data a cut could misread stays one unit.
func TestFileTableSplit(t *testing.T) {
	defer func(n int64) { splitUnitBytes = n }(splitUnitBytes)
	cols := []storage.ColumnDef{
		{Name: "id", Type: types.Int8Type},
		{Name: "n", Type: types.Int4Type},
		{Name: "s", Type: types.TextType},
	}
	dir := t.TempDir()
	open := func(name string, data []byte, opts string) *fileTable {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		x := copyStmtFor(t, cols, "COPY t FROM STDIN "+opts)
		ext, err := openCopyFile(x, path, &types.Format{}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return ext.(*fileTable)
	}
	read := func(ft *fileTable) (string, error) {
		var b strings.Builder
		for i := range ft.Units() {
			recs, err := ft.ReadUnit(context.Background(), i, []int{0, 1, 2})
			if err != nil {
				return "", err
			}
			for _, r := range recs {
				b.WriteString(recordText(r))
			}
		}
		return b.String(), nil
	}
	csv := genCopyCSV(20000)
	text := bytes.ReplaceAll(csv, []byte(","), []byte("\t"))
	header := append([]byte("id,n,s\n"), csv...)
	for _, c := range []struct {
		name, opts string
		data       []byte
		split      bool
	}{
		{"plain.csv", "(FORMAT csv)", csv, true},
		{"header.csv", "(FORMAT csv, HEADER)", header, true},
		{"plain.txt", "", text, true},
		{"quoted.csv", "(FORMAT csv)", bytes.Replace(csv, []byte("row-7\n"), []byte("\"row-7\"\n"), 1), false},
		{"crlf.csv", "(FORMAT csv)", bytes.ReplaceAll(csv, []byte("\n"), []byte("\r\n")), false},
		{"marker.txt", "", bytes.Replace(text, []byte("\n5000\t"), []byte("\n\\.\n5000\t"), 1), false},
		{"escaped.txt", "", bytes.Replace(text, []byte("row-9\n"), []byte("row-9\\\n"), 1), false},
	} {
		splitUnitBytes = 1 << 62
		want, werr := read(open(c.name, c.data, c.opts))
		splitUnitBytes = 16 << 10
		ft := open(c.name, c.data, c.opts)
		if n := len(ft.Units()); (n > 1) != c.split {
			t.Errorf("%s: %d units", c.name, n)
		}
		got, gerr := read(ft)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%s: the units read %d bytes of rows, %v; one unit %d, %v", c.name, len(got), gerr, len(want), werr)
		}
	}
	// Bad rows in units 2 and 5: each unit's error is the file's first.
	bad := bytes.Replace(csv, []byte("\n15000,"), []byte("\n15x,"), 1)
	bad = bytes.Replace(bad, []byte("\n3000,"), []byte("\n3x,"), 1)
	splitUnitBytes = 1 << 62
	_, want := read(open("bad.csv", bad, "(FORMAT csv)"))
	splitUnitBytes = 16 << 10
	ft := open("bad.csv", bad, "(FORMAT csv)")
	if want == nil || !strings.Contains(fmt.Sprint(want), "3x") || len(ft.Units()) < 6 {
		t.Fatalf("one unit: %v; %d units", want, len(ft.Units()))
	}
	for i := range ft.Units() {
		_, err := ft.ReadUnit(context.Background(), i, []int{0, 1, 2})
		if err != nil && fmt.Sprint(err) != fmt.Sprint(want) {
			t.Errorf("unit %d: %v, want %v", i, err, want)
		}
	}
}

// recordText is a record's rows as text, a line each.
func recordText(r arrow.Record) string {
	var b strings.Builder
	for i := 0; i < int(r.NumRows()); i++ {
		for c := 0; c < int(r.NumCols()); c++ {
			fmt.Fprintf(&b, "%v|", r.Column(c).ValueStr(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
