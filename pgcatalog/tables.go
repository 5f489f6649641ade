package pgcatalog

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Column types of a row struct. A field's Go type gives its column's
// type; a pointer field is a column that may be NULL (nil). An int64
// field tagged `type:"timestamptz"` is a timestamptz column, a Name field
// tagged `type:"name"` a name column.
type (
	// OID is an object identifier (an oid column).
	OID = uint32
	// Name is a value of type name (a name column when tagged `type:"name"`).
	Name = string
	// Char is a value of type "char" (a text column of one character, or
	// empty for the zero byte).
	Char = byte
	// Int2Vector and OIDVector are int2vector and oidvector columns
	// (pg_index.indkey, pg_proc.proargtypes): arrays from subscript 0.
	Int2Vector []int16
	OIDVector  []uint32
	// RegProcName is a regproc column given by the function's name
	// (pg_type.typinput and its siblings); "-" is 0.
	RegProcName string
	// XID is an xid column, LSN a pg_lsn column.
	XID uint32
	LSN uint64
)

var (
	int2VectorGo = reflect.TypeOf(Int2Vector(nil))
	oidVectorGo  = reflect.TypeOf(OIDVector(nil))
	regProcGo    = reflect.TypeOf(RegProcName(""))
	xidGo        = reflect.TypeOf(XID(0))
	lsnGo        = reflect.TypeOf(LSN(0))
)

// Def is one virtual system relation.
type Def struct {
	Schema, Name string
	OID          uint32
	Kind         byte // 'r' table, 'v' view
	Cols         []storage.ColumnDef
	// rows yields the relation's rows as a slice of its row struct; nil
	// for a relation joind keeps empty whatever the catalog holds.
	rows  func(*Snapshot) any
	field [][]int // the struct field index of each column
}

var (
	defs   []*Def
	byName = map[string]*Def{}
)

// declare registers a system relation whose columns are the tagged fields
// of R (`pg:"name"`, in order) and whose rows are rows(snapshot); rows nil
// declares a relation that is always empty.
func declare[R any](schema, name string, oid uint32, kind byte, rows func(*Snapshot) []R) *Def {
	d := &Def{Schema: schema, Name: name, OID: oid, Kind: kind}
	rt := reflect.TypeOf((*R)(nil)).Elem()
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		col, ok := f.Tag.Lookup("pg")
		if !ok {
			panic(fmt.Sprintf("pgcatalog: %s.%s: field %s has no pg tag", schema, name, f.Name))
		}
		t := columnType(f.Type, schema+"."+name+"."+col)
		if f.Tag.Get("type") == "timestamptz" && t.ID == types.Int8 {
			t = types.TimestampTZType // microseconds since 1970-01-01 UTC (pgTime)
		}
		if f.Tag.Get("type") == "numeric" && t.ID == types.Int8 {
			t = types.NumericType // an integer shown as numeric (pg_stat_statements.wal_bytes)
		}
		if f.Tag.Get("type") == "inet" && t.ID == types.Text {
			t = types.InetType // the field holds the value's key (inetKey)
		}
		if f.Tag.Get("type") == "name" && t.ID == types.Text {
			t = types.NameType // a Name field: the column is of type name, as in PostgreSQL
		}
		d.Cols = append(d.Cols, storage.ColumnDef{Name: col, Type: t})
		d.field = append(d.field, f.Index)
	}
	if rows != nil {
		d.rows = func(s *Snapshot) any { return rows(s) }
	}
	defs = append(defs, d)
	byName[schema+"."+name] = d
	return d
}

// columnType maps a row field's Go type to its column's SQL type.
func columnType(t reflect.Type, where string) types.Type {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case int2VectorGo:
		return types.Int2VectorType
	case oidVectorGo:
		return types.OidVectorType
	case regProcGo:
		return types.RegProcType
	case xidGo:
		return types.XidType
	case lsnGo:
		return types.PgLSNType
	}
	switch t.Kind() {
	case reflect.Slice: // an array column
		return types.ArrayOf(columnType(t.Elem(), where))
	case reflect.Uint32:
		return types.OidType
	case reflect.Int64:
		return types.Int8Type
	case reflect.String, reflect.Uint8:
		return types.TextType
	case reflect.Bool:
		return types.BoolType
	case reflect.Int16:
		return types.Int2Type
	case reflect.Int32:
		return types.Int4Type
	case reflect.Float32:
		return types.Float4Type
	case reflect.Float64:
		return types.Float8Type
	}
	panic("pgcatalog: no column type for field " + where + " of Go type " + t.String())
}

// fieldValue is a row field's SQL value.
func fieldValue(v reflect.Value) types.Value {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return types.NullValue
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice:
		elems := make([]types.Value, v.Len())
		for i := range elems {
			elems[i] = fieldValue(v.Index(i))
		}
		if t := v.Type(); t == int2VectorGo || t == oidVectorGo {
			return types.Value{Arr: types.NewVector(elems)}
		}
		return types.Value{Arr: types.NewArray(elems)}
	case reflect.Uint32:
		return types.IntValue(int64(v.Uint()))
	case reflect.Uint64: // LSN
		return types.WordValue(v.Uint(), types.PgLSN)
	case reflect.Int16, reflect.Int32, reflect.Int64:
		return types.IntValue(v.Int())
	case reflect.String:
		if v.Type() == regProcGo {
			return types.IntValue(int64(procOIDByName(v.String())))
		}
		return types.TextValue(v.String())
	case reflect.Uint8:
		if v.Uint() == 0 {
			return types.TextValue("")
		}
		return types.TextValue(string(rune(v.Uint())))
	case reflect.Bool:
		return types.BoolValue(v.Bool())
	case reflect.Float32, reflect.Float64:
		return types.FloatValue(v.Float())
	}
	panic("pgcatalog: bad field kind " + v.Kind().String())
}

// record builds the Arrow batch of d's rows over s.
func (d *Def) record(s *Snapshot) arrow.Record {
	rows := d.rowValues(s)
	fields := make([]arrow.Field, len(d.Cols))
	arrs := make([]arrow.Array, len(d.Cols))
	for c, col := range d.Cols {
		fields[c] = arrow.Field{Name: col.Name, Type: col.Type.ArrowType(), Nullable: true}
		bld := array.NewBuilder(memory.DefaultAllocator, col.Type.ArrowType())
		for _, r := range rows {
			types.AppendValue(bld, col.Type, r[c])
		}
		arrs[c] = bld.NewArray()
	}
	return array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(len(rows)))
}

// rowValues are d's rows over s, a value per column.
func (d *Def) rowValues(s *Snapshot) [][]types.Value {
	if d.rows == nil {
		return nil
	}
	rows := reflect.ValueOf(d.rows(s))
	out := make([][]types.Value, rows.Len())
	for i := range out {
		row := make([]types.Value, len(d.Cols))
		for c, col := range d.Cols {
			v := fieldValue(rows.Index(i).FieldByIndex(d.field[c]))
			if col.Type.ID == types.Numeric && !v.Null {
				v = types.NumericValue(apd.New(v.I, 0))
			}
			row[c] = v
		}
		out[i] = row
	}
	return out
}

// Defs lists every virtual system relation in declaration order.
func Defs() []*Def { return defs }

// IsSystemName reports whether an unqualified relation name is a system
// catalog: PostgreSQL searches pg_catalog before the user's schemas.
func IsSystemName(name string) bool { return byName["pg_catalog."+name] != nil }

// Lookup returns the system relation schema.name ("" = pg_catalog) over
// snapshot s; ok is false if there is none. information_schema's
// relations are found only qualified.
func Lookup(s *Snapshot, schema, name string) (storage.Table, bool) {
	if schema == "" {
		schema = "pg_catalog"
	}
	d := byName[schema+"."+name]
	if d == nil {
		return nil, false
	}
	return &table{def: d, snap: s}, true
}

// AlwaysEmpty reports whether t is a system catalog joind keeps empty
// whatever the catalog holds (pg_policy, pg_index, ...).
func AlwaysEmpty(t storage.Table) bool {
	st, ok := t.(*table)
	return ok && st.def.rows == nil
}

// table is a system relation over a snapshot; its rows are computed at the
// first Snapshot and kept, so a statement sees one state.
type table struct {
	def  *Def
	snap *Snapshot
	recs []arrow.Record
}

func (t *table) Name() string                 { return t.def.Name }
func (t *table) Columns() []storage.ColumnDef { return t.def.Cols }
func (t *table) Snapshot() []arrow.Record {
	if t.recs == nil {
		t.recs = []arrow.Record{t.def.record(t.snap)}
	}
	return t.recs
}
func (t *table) Stats() storage.Stats {
	var n int64
	for _, r := range t.Snapshot() {
		n += r.NumRows()
	}
	return storage.Stats{Rows: n}
}

// ObjectID is the system relation's PostgreSQL OID.
func (t *table) ObjectID() uint32 { return t.def.OID }

// staticTable is a read-only table of constant rows (a set-returning
// catalog function's result, such as pg_get_keywords()).
type staticTable struct {
	name string
	cols []storage.ColumnDef
	recs []arrow.Record
}

// newStaticTable returns a read-only table of the rows (values by column).
func newStaticTable(name string, cols []storage.ColumnDef, rows [][]types.Value) storage.Table {
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
	return &staticTable{name: name, cols: cols, recs: []arrow.Record{rec}}
}

func (t *staticTable) Name() string                 { return t.name }
func (t *staticTable) Columns() []storage.ColumnDef { return t.cols }
func (t *staticTable) Snapshot() []arrow.Record     { return t.recs }
func (t *staticTable) Stats() storage.Stats         { return storage.Stats{Rows: t.recs[0].NumRows()} }

// procOIDByName is the OID of the PostgreSQL 15 function of that name (the
// first, for an overloaded one; 0 for "-" or an unknown name).
func procOIDByName(name string) uint32 {
	procOIDsOnce.Do(func() {
		procOIDs = map[string]uint32{}
		for _, r := range pgdata("pg_proc") {
			if _, ok := procOIDs[r[ppName]]; !ok {
				procOIDs[r[ppName]] = parseOID(r[ppOID])
			}
		}
	})
	return procOIDs[name]
}

var (
	procOIDsOnce sync.Once
	procOIDs     map[string]uint32
)
