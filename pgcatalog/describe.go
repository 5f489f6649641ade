package pgcatalog

import (
	"strconv"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// pg_describe_object and the extensions' members in pg_depend, as psql's
// \dx+ reads them: "function plpgsql_validator(oid)", "language plpgsql".

// The system catalogs an object's classid names.
const (
	oidPgType      = 1247
	oidPgNamespace = 2615
	oidPgLanguage  = 2612
)

// plpgsqlMembers are the objects of initdb's plpgsql extension: its
// language and the language's handler, inline and validator functions
// (pgdata/pg_language.tsv), each as (classid, objid).
var plpgsqlMembers = func() [][2]uint32 {
	for _, r := range pgdata("pg_language") {
		if r[1] == "plpgsql" {
			return [][2]uint32{{OIDPgProc, parseOID(r[4])}, {OIDPgProc, parseOID(r[5])}, {OIDPgProc, parseOID(r[6])},
				{oidPgLanguage, parseOID(r[0])}}
		}
	}
	panic("pgcatalog: pgdata/pg_language.tsv has no plpgsql")
}()

// extensionDependRows are pg_depend's deptype 'e' rows of plpgsql's
// members.
func extensionDependRows() []pgDependRow {
	var out []pgDependRow
	for _, m := range plpgsqlMembers {
		out = append(out, pgDependRow{Classid: m[0], Objid: m[1], Refclassid: OIDPgExtension, Refobjid: OIDExtPlpgsql, Deptype: 'e'})
	}
	return out
}

// relKindNames are getRelationDescription's words for each relkind.
var relKindNames = map[byte]string{'r': "table", 'i': "index", 'S': "sequence", 't': "toast table", 'v': "view",
	'm': "materialized view", 'c': "composite type", 'f': "foreign table", 'p': "partitioned table", 'I': "partitioned index"}

// describeObject is getObjectDescription (missing_ok): the description
// of object objid (column subid) of catalog classid; ok is false for an
// object that does not exist (NULL). A catalog joind does not describe
// yet answers 0A000.
func (s *Snapshot) describeObject(classid, objid uint32, subid int32) (string, bool, error) {
	switch classid {
	case OIDPgClass:
		r, ok := s.RelationByOID(objid)
		if !ok {
			return "", false, nil
		}
		kind := r.Kind
		if r.Index != nil {
			kind = 'i'
		}
		name := relKindNames[kind] + " " + s.RegOut("regclass", int64(objid))
		if subid != 0 {
			for i, c := range r.Columns {
				if int32(r.Attnum(i)) == subid {
					return "column " + c.Name + " of " + name, true, nil
				}
			}
			return "", false, nil
		}
		return name, true, nil
	case OIDPgProc:
		name := s.RegOut("regprocedure", int64(objid))
		if name == strconv.FormatUint(uint64(objid), 10) {
			return "", false, nil // regprocedureout prints the number of a function nothing has
		}
		return "function " + name, true, nil
	case oidPgType:
		if _, ok := TypeByOID(objid); !ok {
			if _, ok := builtinTypeRow(objid); !ok {
				return "", false, nil
			}
		}
		return "type " + s.RegOut("regtype", int64(objid)), true, nil
	case oidPgNamespace:
		if n, ok := s.NamespaceByOID(objid); ok {
			return "schema " + n.Name, true, nil
		}
		return "", false, nil
	case oidPgLanguage:
		for _, r := range pgdata("pg_language") {
			if parseOID(r[0]) == objid {
				return "language " + r[1], true, nil
			}
		}
		return "", false, nil
	case OIDPgExtension:
		for _, e := range pgExtensionRows(s) {
			if e.Oid == objid {
				return "extension " + e.Extname, true, nil
			}
		}
		return "", false, nil
	}
	return "", false, pgerr.New(pgerr.FeatureNotSupported, "pg_describe_object of an object of catalog %d is not supported", classid)
}

func init() {
	f := &Func{Names: []string{"pg_describe_object"}, MinArgs: 3, MaxArgs: 3, Args: []types.Type{oid, oid, i4}, Result: text,
		EvalErr: func(s *Snapshot, v []types.Value) (types.Value, error) {
			d, ok, err := s.describeObject(uint32(v[0].I), uint32(v[1].I), int32(v[2].I))
			if err != nil || !ok {
				return types.NullValue, err
			}
			return types.TextValue(d), nil
		}}
	funcs = append(funcs, f) // funcs.go's init, which runs after this file's, indexes it
}
