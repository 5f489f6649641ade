package pgcopy

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// BenchmarkCopyChunkParse is one worker parsing one 2 MiB chunk of the
// issue-7 CSV: the per-row cost of the parser alone, on plain records (the
// fast scan) and with the text quoted (splitRecord and appendRow).
func BenchmarkCopyChunkParse(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchChunkParse(b, genCopyCSV(100_000)) })
	b.Run("quoted", func(b *testing.B) {
		plain := genCopyCSV(100_000)
		var data []byte
		for _, line := range bytes.SplitAfter(plain, []byte("\n")) {
			if i := bytes.LastIndexByte(line, ','); i >= 0 {
				data = append(append(append(data, line[:i+1]...), `"a ""q"" `...), line[i+1:len(line)-1]...)
				data = append(data, "\"\n"...)
			}
		}
		benchChunkParse(b, data)
	})
}

func benchChunkParse(b *testing.B, data []byte) {
	data = data[:bytes.LastIndexByte(data[:min(len(data), copyChunkSize)], '\n')+1]
	x := copyBenchStmt(b)
	l := NewLoader(x, noDefaults(x), nil, time.Time{}, 4096, 1)
	p := newChunkParser(l)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := p.parse(data, true); res.err != nil {
			b.Fatal(res.err)
		}
	}
}

// copyBenchStmt is COPY t (id bigint, n int, s text) FROM STDIN (FORMAT csv).
func copyBenchStmt(b *testing.B) *sql.Copy {
	return copyStmtFor(b, []storage.ColumnDef{
		{Name: "id", Type: types.Type{ID: types.Int8, Typmod: -1}},
		{Name: "n", Type: types.Type{ID: types.Int4, Typmod: -1}},
		{Name: "s", Type: types.Type{ID: types.Text, Typmod: -1}},
	}, "COPY t FROM STDIN (FORMAT csv)")
}

// copyStmtFor binds query (a COPY of table t) over a table t of cols.
func copyStmtFor(tb testing.TB, cols []storage.ColumnDef, query string) *sql.Copy {
	cat := storage.NewMemoryCatalog()
	if _, err := cat.Create(context.Background(), "t", cols); err != nil {
		tb.Fatal(err)
	}
	raws, err := sql.Parse(query)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := sql.Bind(raws[0], cat, &sql.BindOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return st.(*sql.Copy)
}

// noDefaults is the Defaults of a COPY whose omitted columns are all NULL
// (x binds over a table without DEFAULTs).
func noDefaults(x *sql.Copy) *Defaults {
	if len(x.Defaults) > 0 {
		panic("noDefaults: the table has DEFAULTs")
	}
	return NewDefaults(context.Background(), x)
}

// genCopyCSV is the issue-7 CSV engine's COPY benchmarks load too: id,
// id % 1000, 'row-' || id.
func genCopyCSV(rows int) []byte {
	var buf []byte
	for i := 0; i < rows; i++ {
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(i%1000), 10)
		buf = append(buf, ",row-"...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, '\n')
	}
	return buf
}
