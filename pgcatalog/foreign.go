package pgcatalog

import (
	"sort"
	"strings"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// file_fdw's catalogs: pg_extension's file_fdw row, pg_foreign_data_wrapper
// (the extension's wrapper, with the extension's OID), pg_foreign_server
// and pg_foreign_table, from the catalog's storage.ForeignObjects and the
// tables' storage.ForeignTableDef. A foreign table's pg_class row has
// relkind 'f' (relations.go).

// pgForeignDataWrapperRow is a row of pg_catalog.pg_foreign_data_wrapper.
type pgForeignDataWrapperRow struct {
	Oid          OID       `pg:"oid"`
	Fdwname      Name      `pg:"fdwname" type:"name"`
	Fdwowner     OID       `pg:"fdwowner"`
	Fdwhandler   OID       `pg:"fdwhandler"`
	Fdwvalidator OID       `pg:"fdwvalidator"`
	Fdwacl       *[]string `pg:"fdwacl"`
	Fdwoptions   *[]string `pg:"fdwoptions"`
}

// pgForeignServerRow is a row of pg_catalog.pg_foreign_server.
type pgForeignServerRow struct {
	Oid        OID       `pg:"oid"`
	Srvname    Name      `pg:"srvname" type:"name"`
	Srvowner   OID       `pg:"srvowner"`
	Srvfdw     OID       `pg:"srvfdw"`
	Srvtype    *string   `pg:"srvtype"`
	Srvversion *string   `pg:"srvversion"`
	Srvacl     *[]string `pg:"srvacl"`
	Srvoptions *[]string `pg:"srvoptions"`
}

// pgForeignTableRow is a row of pg_catalog.pg_foreign_table.
type pgForeignTableRow struct {
	Ftrelid   OID       `pg:"ftrelid"`
	Ftserver  OID       `pg:"ftserver"`
	Ftoptions *[]string `pg:"ftoptions"`
}

func declareForeign() {
	declare(pc, "pg_foreign_data_wrapper", 2328, 'r', func(s *Snapshot) []pgForeignDataWrapperRow {
		var out []pgForeignDataWrapperRow
		for _, o := range foreignObjects(s, 'e') {
			out = append(out, pgForeignDataWrapperRow{Oid: OID(o.OID()), Fdwname: Name(o.Name), Fdwowner: OIDBootstrapUser})
		}
		return out
	})
	declare(pc, "pg_foreign_server", 1417, 'r', func(s *Snapshot) []pgForeignServerRow {
		var out []pgForeignServerRow
		for _, o := range foreignObjects(s, 's') {
			out = append(out, pgForeignServerRow{Oid: OID(o.OID()), Srvname: Name(o.Name), Srvowner: OIDBootstrapUser,
				Srvfdw: OID(wrapperOID(s, o.Wrapper)), Srvoptions: optionArray(o.Options)})
		}
		return out
	})
	declare(pc, "pg_foreign_table", 3118, 'r', func(s *Snapshot) []pgForeignTableRow {
		servers := map[string]uint32{}
		for _, o := range foreignObjects(s, 's') {
			servers[o.Name] = o.OID()
		}
		var out []pgForeignTableRow
		for _, t := range s.cat.Tables() {
			if d := storage.ForeignDefOf(t); d != nil {
				out = append(out, pgForeignTableRow{Ftrelid: OID(RelationOID(t)), Ftserver: OID(servers[d.Server]), Ftoptions: optionArray(d.Options)})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Ftrelid < out[j].Ftrelid })
		return out
	})
}

// foreignExtensionRows are pg_extension's rows of the installed file_fdw.
func foreignExtensionRows(s *Snapshot) []pgExtensionRow {
	var out []pgExtensionRow
	for _, o := range foreignObjects(s, 'e') {
		out = append(out, pgExtensionRow{Oid: OID(o.OID()), Extname: Name(o.Name), Extowner: OIDBootstrapUser,
			Extnamespace: OIDNamespacePublic, Extrelocatable: true, Extversion: "1.0"})
	}
	return out
}

func foreignObjects(s *Snapshot, kind byte) []storage.ForeignObject {
	fc, ok := s.cat.(storage.ForeignCatalog)
	if !ok {
		return nil
	}
	var out []storage.ForeignObject
	for _, o := range fc.ForeignObjects() {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// wrapperOID is the OID of the foreign-data wrapper of that name: its
// extension's.
func wrapperOID(s *Snapshot, name string) uint32 {
	for _, o := range foreignObjects(s, 'e') {
		if o.Name == name {
			return o.OID()
		}
	}
	return 0
}

// optionArray is OPTIONS as PostgreSQL keeps them: name=value text[],
// NULL for none.
func optionArray(opts []storage.ForeignOption) *[]string {
	if len(opts) == 0 {
		return nil
	}
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Name + "=" + o.Value
	}
	return &out
}

// optionsToTable is pg_options_to_table's rows of a text[] of name=value
// entries (an entry without = is a name with a NULL value).
func optionsToTable(arr types.Value) [][]types.Value {
	var out [][]types.Value
	if arr.Arr == nil {
		return nil
	}
	for _, e := range arr.Arr.Elems {
		if e.Null {
			continue
		}
		name, value, ok := strings.Cut(e.S, "=")
		v := types.Value{S: value}
		if !ok {
			v = types.NullValue
		}
		out = append(out, []types.Value{{S: name}, v})
	}
	return out
}

// relKind is pg_class.relkind of a stored table: 'f' for a foreign table.
func relKind(t storage.Table) byte {
	if storage.ForeignDefOf(t) != nil {
		return 'f'
	}
	return 'r'
}
