package pgcatalog

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The disk-size functions of PostgreSQL's dbsize.c over the data
// directory's files (storage.TableSizer, storage.DirSizer): a table is its
// segment files (and the log records of segments not yet in a file); an
// index is built in memory from the segments and has no file, so it
// measures 0, as do views and sequences (manifest entries). Every database
// name is the one catalog, so each measures the whole data directory, and
// so does the pg_default tablespace; pg_global holds nothing of joind's.
// A relation, database or tablespace OID that names nothing answers NULL,
// a name that names nothing fails, as in PostgreSQL.

// relationBytes is pg_table_size's figure for r: a table's files.
func relationBytes(r Relation) int64 { return r.Bytes }

// tableBytes is the bytes of table t in the data directory.
func tableBytes(t storage.Table) int64 {
	if ts, ok := t.(storage.TableSizer); ok {
		return ts.DiskBytes()
	}
	return 0
}

// dirBytes is the data directory's bytes.
func (s *Snapshot) dirBytes() int64 {
	if d, ok := s.cat.(storage.DirSizer); ok {
		return d.DirBytes()
	}
	return 0
}

// relationSize answers one of the relation size functions for regclass
// v[0]: size of the relation itself (table or index), with its indexes
// when total, only its indexes when indexesOnly.
func relationSize(total, indexesOnly bool) func(*Snapshot, []types.Value) types.Value {
	return func(s *Snapshot, v []types.Value) types.Value {
		r, ok := s.RelationByOID(uint32(v[0].I))
		if !ok {
			return types.NullValue
		}
		var n int64
		if !indexesOnly {
			n = relationBytes(r)
		}
		if total || indexesOnly {
			for _, ix := range s.Relations() {
				if ix.Index != nil && ix.Index.TableOID == r.OID {
					n += relationBytes(ix)
				}
			}
		}
		return types.IntValue(n)
	}
}

func init() {
	int8T := types.Int8Type
	reg := types.RegClassType
	name := types.TextType
	// Into funcs before funcs.go's init indexes it and pgproc.go's reads
	// it (this file's init runs first).
	add := func(f *Func) { funcs = append(funcs, f) }
	add(&Func{Names: []string{"pg_relation_size"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{reg, text}, Result: int8T,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) {
			if len(v) == 2 {
				switch v[1].S {
				case "main":
				case "fsm", "vm", "init":
					if _, ok := s.RelationByOID(uint32(v[0].I)); !ok {
						return types.NullValue, nil
					}
					return types.IntValue(0), nil
				default:
					return types.NullValue, pgerr.New(pgerr.InvalidParameterValue, "invalid fork name").
						WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".")
				}
			}
			return relationSize(false, false)(s, v), nil
		}})
	add(&Func{Names: []string{"pg_table_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{reg}, Result: int8T, Eval: relationSize(false, false)})
	add(&Func{Names: []string{"pg_total_relation_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{reg}, Result: int8T, Eval: relationSize(true, false)})
	add(&Func{Names: []string{"pg_indexes_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{reg}, Result: int8T, Eval: relationSize(false, true)})

	add(&Func{Names: []string{"pg_database_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{name}, Result: int8T,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) {
			for _, d := range databaseNames(s.database()) {
				if d == v[0].S {
					return types.IntValue(s.dirBytes()), nil
				}
			}
			return types.NullValue, pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", v[0].S)
		}})
	add(&Func{Names: []string{"pg_database_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: int8T,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			for _, d := range databaseNames(s.database()) {
				if int64(DatabaseOID(d)) == v[0].I {
					return types.IntValue(s.dirBytes())
				}
			}
			return types.NullValue
		}})
	spc := func(s *Snapshot, o uint32) (int64, bool) {
		switch o {
		case OIDTablespaceDefault:
			return s.dirBytes(), true
		case OIDTablespaceGlobal:
			return 0, true
		}
		return 0, false
	}
	add(&Func{Names: []string{"pg_tablespace_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{name}, Result: int8T,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) {
			o := map[string]uint32{"pg_default": OIDTablespaceDefault, "pg_global": OIDTablespaceGlobal}[v[0].S]
			if n, ok := spc(s, o); ok {
				return types.IntValue(n), nil
			}
			return types.NullValue, pgerr.New(pgerr.UndefinedObject, "tablespace \"%s\" does not exist", v[0].S)
		}})
	add(&Func{Names: []string{"pg_tablespace_size"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{oid}, Result: int8T,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			if n, ok := spc(s, uint32(v[0].I)); ok {
				return types.IntValue(n)
			}
			return types.NullValue
		}})
}
