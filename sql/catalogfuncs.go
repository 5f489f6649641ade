package sql

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// SessionInfo answers the functions about the session that clients call at
// connect: current_setting(), current_database(), current_user, ...
type SessionInfo struct {
	User     string
	Database string
	// Setting returns a run-time setting's current value (SHOW's text).
	Setting func(name string) (string, error)
}

// VersionString is what version() returns; drivers parse "PostgreSQL N.M".
const VersionString = "PostgreSQL 15.0 (joind) on x86_64-pc-linux-gnu, compiled by Go, 64-bit"

// catalogFunc binds the session and catalog functions that the types
// package cannot answer because they depend on the session; ok is false
// when name is not one of them.
func (b *binder) catalogFunc(name string, args []plan.Expr, loc int32) (e plan.Expr, ok bool, err error) {
	var si SessionInfo
	if b.opts != nil && b.opts.Session != nil {
		si = *b.opts.Session
	}
	text := func(s string) plan.Expr { return &plan.Const{Val: types.TextValue(s), T: types.TextType} }
	switch name {
	case "version":
		if len(args) == 0 {
			return text(VersionString), true, nil
		}
	case "current_database", "current_catalog":
		if len(args) == 0 {
			db := si.Database
			if db == "" {
				db = "joind"
			}
			return text(db), true, nil
		}
	case "current_schema":
		if len(args) == 0 {
			return text("public"), true, nil
		}
	case "current_user", "session_user", "user", "current_role", "getpgusername":
		if len(args) == 0 {
			u := si.User
			if u == "" {
				u = "joind"
			}
			return text(u), true, nil
		}
	case "pg_backend_pid":
		// Answered by the engine through the connection, not here.
		return nil, false, nil
	case "current_setting":
		if len(args) < 1 || len(args) > 2 {
			return nil, false, nil
		}
		c, isConst := args[0].(*plan.Const)
		if !isConst || (c.T.ID != types.Unknown && c.T.ID != types.Text && c.T.ID != types.Varchar) {
			return nil, true, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "current_setting() needs a constant setting name"), loc)
		}
		if c.Val.Null {
			return &plan.Const{Val: types.NullValue, T: types.TextType}, true, nil
		}
		missingOK := false
		if len(args) == 2 {
			if m, isC := args[1].(*plan.Const); isC && !m.Val.Null {
				missingOK = m.Val.I != 0 || strings.EqualFold(m.Val.S, "true") || m.Val.S == "t"
			}
		}
		if si.Setting == nil {
			return nil, true, b.errAt(pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", c.Val.S), loc)
		}
		v, err := si.Setting(c.Val.S)
		if err != nil {
			if missingOK {
				return &plan.Const{Val: types.NullValue, T: types.TextType}, true, nil
			}
			return nil, true, b.wrapAt(err, loc)
		}
		return text(v), true, nil
	}
	return nil, false, nil
}

// catalogTable returns the few pg_catalog tables that clients query while
// connecting (psqlODBC aborts the connect if pg_type is missing). A user
// table of the same name wins unless pg_catalog is named explicitly.
func (b *binder) catalogTable(schema, name string) (storage.Table, bool) {
	if schema != "" && schema != "pg_catalog" {
		return nil, false
	}
	if schema == "" {
		if _, ok := b.cat.Lookup(name); ok {
			return nil, false
		}
	}
	switch name {
	case "pg_type":
		return pgType, true
	}
	return nil, false
}

// virtualTable is a read-only table built once from constant rows.
type virtualTable struct {
	name string
	cols []storage.ColumnDef
	recs []arrow.Record
}

func (t *virtualTable) Name() string                 { return t.name }
func (t *virtualTable) Columns() []storage.ColumnDef { return t.cols }
func (t *virtualTable) Snapshot() []arrow.Record     { return t.recs }
func (t *virtualTable) Stats() storage.Stats {
	var n int64
	for _, r := range t.recs {
		n += r.NumRows()
	}
	return storage.Stats{Rows: n}
}

func newVirtualTable(name string, cols []storage.ColumnDef, rows [][]types.Value) *virtualTable {
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for c, d := range cols {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
		bld := array.NewBuilder(memory.DefaultAllocator, d.Type.ArrowType())
		for _, r := range rows {
			types.AppendValue(bld, d.Type, r[c])
		}
		arrs[c] = bld.NewArray()
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(len(rows)))
	return &virtualTable{name: name, cols: cols, recs: []arrow.Record{rec}}
}

// pgType lists joind's types with the pg_type columns drivers read.
var pgType = func() *virtualTable {
	cols := []storage.ColumnDef{
		{Name: "oid", Type: types.Int8Type},
		{Name: "typname", Type: types.TextType},
		{Name: "typnamespace", Type: types.Int8Type},
		{Name: "typlen", Type: types.Int2Type},
		{Name: "typtype", Type: types.TextType},
		{Name: "typbasetype", Type: types.Int8Type},
		{Name: "typtypmod", Type: types.Int4Type},
		{Name: "typrelid", Type: types.Int8Type},
		{Name: "typelem", Type: types.Int8Type},
		{Name: "typarray", Type: types.Int8Type},
		{Name: "typnotnull", Type: types.BoolType},
	}
	var rows [][]types.Value
	for _, t := range []struct {
		name string
		t    types.Type
	}{
		{"bool", types.BoolType}, {"int2", types.Int2Type}, {"int4", types.Int4Type}, {"int8", types.Int8Type},
		{"float4", types.Float4Type}, {"float8", types.Float8Type}, {"numeric", types.NumericType},
		{"text", types.TextType}, {"varchar", types.VarcharType}, {"bpchar", types.CharType},
		{"date", types.DateType}, {"timestamp", types.TimestampType}, {"timestamptz", types.TimestampTZType}, {"interval", types.IntervalType},
	} {
		rows = append(rows, []types.Value{
			types.IntValue(int64(t.t.OID())), types.TextValue(t.name), types.IntValue(11), types.IntValue(int64(t.t.Size())),
			types.TextValue("b"), types.IntValue(0), types.IntValue(-1), types.IntValue(0), types.IntValue(0), types.IntValue(0),
			types.BoolValue(false),
		})
	}
	return newVirtualTable("pg_type", cols, rows)
}()
