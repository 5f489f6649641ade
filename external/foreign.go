package external

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// Rename presents an External table (a Parquet file a foreign table of
// format 'parquet' names) as the foreign table name of columns cols:
// each column is the file's column of its name, which must have its type.
// Units keep their statistics, reordered to the table's columns, so
// row-group skipping works as for read_parquet.
func Rename(t storage.External, name string, cols []storage.ColumnDef) (storage.External, error) {
	src := t.Columns()
	r := &renamed{t: t, name: name, cols: cols, ords: make([]int, len(cols))}
	for i, c := range cols {
		r.ords[i] = -1
		for j, s := range src {
			if s.Name == c.Name {
				r.ords[i] = j
			}
		}
		if r.ords[i] < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of foreign table \"%s\" is not in file \"%s\"", c.Name, name, t.Source()).
				WithDetail("The file has %s.", describeColumns(src))
		}
		if s := src[r.ords[i]]; s.Type != c.Type {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" of foreign table \"%s\" is %s but the file's column is %s", c.Name, name, c.Type.SQLName(), s.Type.SQLName())
		}
	}
	for _, u := range t.Units() {
		nu := u
		if u.Columns != nil {
			nu.Columns = make([]storage.ColumnStats, len(cols))
			for i, o := range r.ords {
				nu.Columns[i] = u.Columns[o]
			}
		}
		r.units = append(r.units, nu)
	}
	return r, nil
}

type renamed struct {
	t     storage.External
	name  string
	cols  []storage.ColumnDef
	ords  []int // each column's ordinal in t
	units []storage.Segment
}

func (r *renamed) Name() string                 { return r.name }
func (r *renamed) Columns() []storage.ColumnDef { return r.cols }
func (r *renamed) Units() []storage.Segment     { return r.units }
func (r *renamed) Source() string               { return r.t.Source() }

func (r *renamed) Stats() storage.Stats {
	st := r.t.Stats()
	if st.Nulls != nil {
		n := make([]int64, len(r.ords))
		for i, o := range r.ords {
			n[i] = st.Nulls[o]
		}
		st.Nulls = n
	}
	return storage.Stats{Rows: st.Rows, Nulls: st.Nulls}
}

func (r *renamed) Snapshot() []arrow.Record { return readAll(r) }

func (r *renamed) ReadUnit(ctx context.Context, i int, ordinals []int) ([]arrow.Record, error) {
	ords := make([]int, len(ordinals))
	for k, o := range ordinals {
		ords[k] = r.ords[o]
	}
	return r.t.ReadUnit(ctx, i, ords)
}

func allOrdinals(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
