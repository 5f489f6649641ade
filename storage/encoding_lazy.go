package storage

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// lazyRecord is a batch of an encoded segment file whose encoded columns
// are decoded on first use, one column at a time, and then kept: a scan
// materializes only the columns it reads (Q6 reads 4 of lineitem's 16),
// each once, and every reader still sees the plain Arrow columns. It is safe
// for concurrent use (the scan's partitions share batches).
type lazyRecord struct {
	schema *arrow.Schema // the plain layout
	file   *arrow.Schema // the file's fields: each column's encoding
	rows   int64
	cols   []lazyColumn
	size   atomic.Int64 // the buffers' bytes: encoded columns as read, decoded ones decoded
}

type lazyColumn struct {
	once  sync.Once
	enc   arrow.Array // as read; dropped once decoded
	plain arrow.Array
	dict  *array.Dictionary // a dictionary-encoded column, kept (Dictionary)
}

var _ arrow.Record = (*lazyRecord)(nil)

// newLazyRecord wraps batch r of a file with schema file, laid out as cols.
// Columns the file holds plain are used as they are.
func newLazyRecord(r arrow.Record, file *arrow.Schema, cols []ColumnDef) *lazyRecord {
	lr := &lazyRecord{schema: arrowSchema(cols), file: file, rows: r.NumRows(), cols: make([]lazyColumn, len(cols))}
	for i := range lr.cols {
		a := r.Column(i)
		if name, _ := file.Field(i).Metadata.GetValue(encKey); name == "" {
			lr.cols[i].plain = a
			lr.cols[i].once.Do(func() {})
			continue
		}
		lr.cols[i].enc = a
		lr.cols[i].dict, _ = a.(*array.Dictionary)
	}
	for i := range lr.cols {
		if c := &lr.cols[i]; c.enc != nil {
			lr.size.Add(arrayDataBytes(c.enc.Data()))
		} else {
			lr.size.Add(arrayDataBytes(c.plain.Data()))
		}
	}
	return lr
}

// Dictionary returns column i of batch r as codes into a dictionary when r
// was read from a segment file holding that column dictionary-encoded
// (ok=false otherwise): a filter can test each distinct value once. codes
// is an *array.Int8 or *array.Int16 whose NULL rows are the column's; dict
// holds the distinct values and is the same array for every batch of the
// segment.
func Dictionary(r arrow.Record, i int) (codes arrow.Array, dict *array.String, ok bool) {
	lr, isLazy := r.(*lazyRecord)
	if !isLazy || lr.cols[i].dict == nil {
		return nil, nil, false
	}
	d := lr.cols[i].dict
	return d.Indices(), d.Dictionary().(*array.String), true
}

func (r *lazyRecord) Column(i int) arrow.Array {
	c := &r.cols[i]
	c.once.Do(func() {
		c.plain = decodeColumn(c.enc, r.file.Field(i), r.schema.Field(i).Type)
		r.size.Add(arrayDataBytes(c.plain.Data()) - arrayDataBytes(c.enc.Data()))
		c.enc = nil
	})
	return c.plain
}

func (r *lazyRecord) Columns() []arrow.Array {
	out := make([]arrow.Array, len(r.cols))
	for i := range out {
		out[i] = r.Column(i)
	}
	return out
}

// bytes is what the batch's buffers take now.
func (r *lazyRecord) bytes() int64 { return r.size.Load() }

func (r *lazyRecord) Schema() *arrow.Schema        { return r.schema }
func (r *lazyRecord) NumRows() int64               { return r.rows }
func (r *lazyRecord) NumCols() int64               { return int64(len(r.cols)) }
func (r *lazyRecord) ColumnName(i int) string      { return r.schema.Field(i).Name }
func (r *lazyRecord) Retain()                      {}
func (r *lazyRecord) Release()                     {}
func (r *lazyRecord) MarshalJSON() ([]byte, error) { return r.plain().MarshalJSON() }

// plain is the batch with every column decoded.
func (r *lazyRecord) plain() arrow.Record { return array.NewRecord(r.schema, r.Columns(), r.rows) }

func (r *lazyRecord) SetColumn(i int, col arrow.Array) (arrow.Record, error) {
	return r.plain().SetColumn(i, col)
}

func (r *lazyRecord) NewSlice(i, j int64) arrow.Record { return r.plain().NewSlice(i, j) }
