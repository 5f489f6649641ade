package pgcatalog

import (
	"strings"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Indexes in the catalogs: each index of a table (storage.IndexesOf: its
// own and its PRIMARY KEY / UNIQUE constraints') is a pg_class relation of
// kind 'i' in the table's schema, with its pg_index row, its pg_indexes
// line and its pg_get_indexdef text.

// IndexRel is what an index relation adds to its Relation.
type IndexRel struct {
	Def      storage.IndexDef
	TableOID uint32
	Table    string
	// Keys are the key columns' attribute numbers in the table (indkey).
	Keys []int16
}

// indexRelations are the index relations of table t (of relation r).
func indexRelations(t storage.Table, r Relation) []Relation {
	var out []Relation
	for _, d := range storage.IndexesOf(t) {
		ir := &IndexRel{Def: d, TableOID: r.OID, Table: r.Name}
		var cols []storage.ColumnDef
		for _, name := range d.Cols {
			for i, c := range r.Columns {
				if c.Name == name {
					ir.Keys = append(ir.Keys, int16(i+1))
					cols = append(cols, storage.ColumnDef{Name: c.Name, Type: c.Type})
				}
			}
		}
		out = append(out, Relation{OID: d.ObjectID(), Name: d.Name, Namespace: r.Namespace, Schema: r.Schema,
			Kind: 'i', Columns: cols, Rows: r.Rows, Temp: r.Temp, Index: ir})
	}
	return out
}

// withIndexes appends the index relations of each table of rels after
// rels, and marks the tables that have any (relhasindex).
func withIndexes(rels []Relation, tables []storage.Table) []Relation {
	n := len(rels)
	for i := 0; i < n; i++ {
		if ix := indexRelations(tables[i], rels[i]); len(ix) > 0 {
			rels[i].HasIndex = true
			rels = append(rels, ix...)
		}
	}
	return rels
}

// amOID is an index method's pg_am OID.
func amOID(method string) uint32 {
	if method == storage.MethodHash {
		return OIDAmHash
	}
	return OIDAmBtree
}

// opclassOID is the default operator class of t for method (indclass).
func opclassOID(method string, t types.Type) uint32 {
	btree := map[types.ID]uint32{types.Bool: 10003, types.Char: 10004, types.Date: 3122, types.Float4: 10012,
		types.Float8: 3123, types.Int2: 1979, types.Int4: 1978, types.Int8: 3124, types.Interval: 10022,
		types.Numeric: 3125, types.Text: 3126, types.Varchar: 3126, types.Timestamp: 3128, types.TimestampTZ: 3127,
		types.Time: 10038, types.TimeTZ: 10041}
	hash := map[types.ID]uint32{types.Bool: 10048, types.Char: 10005, types.Date: 10011, types.Float4: 10013,
		types.Float8: 10014, types.Int2: 10019, types.Int4: 10020, types.Int8: 10021, types.Interval: 10023,
		types.Numeric: 10030, types.Text: 10037, types.Varchar: 10037, types.Timestamp: 10046, types.TimestampTZ: 10040,
		types.Time: 10039, types.TimeTZ: 10042}
	if method == storage.MethodHash {
		return hash[t.ID]
	}
	return btree[t.ID]
}

// oidVector reads an oidvector's text ("23 25").
func oidVector(s string) OIDVector {
	var out OIDVector
	for _, f := range strings.Fields(s) {
		out = append(out, parseOID(f))
	}
	return out
}

func pgIndexRows(s *Snapshot) []pgIndexRow {
	var out []pgIndexRow
	for _, r := range s.Relations() {
		ir := r.Index
		if ir == nil {
			continue
		}
		var colls, classes []uint32
		var opts []int16
		for _, c := range r.Columns {
			st, _ := TypeByOID(c.Type.OID())
			colls = append(colls, st.Collation)
			classes = append(classes, opclassOID(ir.Def.Method, c.Type))
			opts = append(opts, 0)
		}
		out = append(out, pgIndexRow{Indexrelid: r.OID, Indrelid: ir.TableOID, Indnatts: int16(len(ir.Keys)),
			Indnkeyatts: int16(len(ir.Keys)), Indisunique: ir.Def.Unique, Indisprimary: ir.Def.Primary,
			Indimmediate: true, Indisvalid: true, Indisready: true, Indislive: true,
			Indkey: Int2Vector(ir.Keys), Indcollation: OIDVector(colls), Indclass: OIDVector(classes), Indoption: Int2Vector(opts)})
	}
	return out
}

func pgIndexesRows(s *Snapshot) []pgIndexesRow {
	var out []pgIndexesRow
	for _, r := range s.Relations() {
		if r.Index != nil {
			out = append(out, pgIndexesRow{Schemaname: r.Schema, Tablename: r.Index.Table, Indexname: r.Name,
				Indexdef: indexDef(r, true)})
		}
	}
	return out
}

// indexDef is pg_get_indexdef(index): the CREATE INDEX statement, the
// table schema-qualified unless !qualify (pretty: joind's schemas are all
// on the search path).
func indexDef(r Relation, qualify bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if r.Index.Def.Unique {
		b.WriteString("UNIQUE ")
	}
	b.WriteString("INDEX " + QuoteIdentifier(r.Name) + " ON ")
	if qualify {
		b.WriteString(QuoteIdentifier(r.Schema) + ".")
	}
	b.WriteString(QuoteIdentifier(r.Index.Table) + " USING " + r.Index.Def.Method + " (")
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdentifier(c.Name))
	}
	b.WriteString(")")
	return b.String()
}

// pgGetIndexdef is pg_get_indexdef(index [, column, pretty]): the whole
// definition for column 0, else that key column's name; NULL for an OID
// that is no index.
func pgGetIndexdef(s *Snapshot, v []types.Value) types.Value {
	r, ok := s.RelationByOID(uint32(v[0].I))
	if !ok || r.Index == nil {
		return types.NullValue
	}
	if len(v) > 1 && v[1].I != 0 {
		if c := int(v[1].I); c >= 1 && c <= len(r.Columns) {
			return types.TextValue(QuoteIdentifier(r.Columns[c-1].Name))
		}
		return types.TextValue("")
	}
	return types.TextValue(indexDef(r, len(v) < 3 || v[2].Null || v[2].I == 0))
}
