package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// INSERT, and the append every statement that adds rows shares.

func insert(ctx context.Context, s Session, x *sql.Insert) (string, error) {
	recs, err := s.Collect(ctx, x.Source)
	if err != nil {
		return "", err
	}
	if x.OnConflict != nil && x.OnConflict.Update {
		n, err := upsert(ctx, s, x, recs) // onconflict.go
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("INSERT 0 %d", n), nil
	}
	if x.OnConflict != nil {
		// DO NOTHING drops the conflicting rows (RETURNING's columns
		// ride along after the table's).
		if recs, err = insertOnConflict(ctx, s, x, recs); err != nil { // onconflict.go
			return "", err
		}
	}
	rows := recs
	if x.Returning != nil {
		ncols := len(x.Table.Columns())
		rows = make([]arrow.Record, len(recs))
		for i, r := range recs {
			rows[i] = columnRange(r, 0, ncols)
		}
	}
	var n int64
	if x.Iceberg != nil {
		n, err = IcebergAppend(ctx, s, x.Table, x.Iceberg, rows) // iceberg.go
	} else if x.OnConflict != nil {
		// insertOnConflict checked the rows' constraints already.
		if n, err = AppendRecords(ctx, s.Catalog(), x.Table, rows, s.Format()); err == nil {
			err = CheckForeignKeys(s, x.Table, rows)
		}
	} else {
		n, err = AddRows(ctx, s, x.Table, rows) // constraint.go
	}
	if err != nil {
		return "", err
	}
	if err := sendReturning(s, x.Returning, recs, len(x.Table.Columns())); err != nil {
		return "", err
	}
	return fmt.Sprintf("INSERT 0 %d", n), nil
}

// AppendRecords checks NOT NULL constraints and appends the rows to t as
// one batch, so the statement lands whole or not at all; f is the format
// of the values a 23502 error's detail quotes.
func AppendRecords(ctx context.Context, cat *Catalog, t storage.Table, recs []arrow.Record, f *types.Format) (int64, error) {
	defs := t.Columns()
	var total int64
	for _, r := range recs {
		total += r.NumRows()
		for c, d := range defs {
			if d.NotNull && r.Column(c).NullN() > 0 {
				return 0, NotNullViolation(t, r, c, f)
			}
		}
	}
	if total == 0 {
		return 0, nil
	}
	cols := make([]arrow.Array, len(defs))
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: !d.NotNull}
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		if len(parts) == 1 {
			cols[c] = parts[0]
			continue
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return 0, pgerr.Wrap(err, pgerr.InternalError, "concatenating inserted rows: %v", err)
		}
		cols[c] = a
	}
	batch := array.NewRecord(arrow.NewSchema(fields, nil), cols, total)
	cat.txnOf(t).SetErrorFormat(f) // a duplicate key's DETAIL (constraint.go)
	if err := cat.Append(ctx, t, batch); err != nil {
		return 0, err
	}
	return total, nil
}

// NotNullViolation builds PostgreSQL's 23502 error for the first row of r
// whose column col is NULL, its detail quoting the row in format f.
func NotNullViolation(t storage.Table, r arrow.Record, col int, f *types.Format) error {
	defs := t.Columns()
	row := 0
	for i := 0; i < int(r.NumRows()); i++ {
		if r.Column(col).IsNull(i) {
			row = i
			break
		}
	}
	vals := make([]types.Value, len(defs))
	for c, d := range defs {
		vals[c] = types.GetValue(r.Column(c), d.Type, row)
	}
	return NotNullRowError(t, col, vals, f)
}

// NotNullRowError is the 23502 error for row (one value per column of t)
// whose column col is NULL, with PostgreSQL's "Failing row contains" detail;
// INSERT and COPY FROM both report it.
func NotNullRowError(t storage.Table, col int, row []types.Value, f *types.Format) error {
	defs := t.Columns()
	vals := make([]string, len(defs))
	for c, d := range defs {
		if row[c].Null {
			vals[c] = "null"
		} else {
			vals[c] = string(types.FormatText(nil, row[c], d.Type, f))
		}
	}
	return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
		defs[col].Name, storage.BareName(t.Name())).WithDetail("Failing row contains (%s).", strings.Join(vals, ", "))
}
