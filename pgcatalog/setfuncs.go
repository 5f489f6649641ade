package pgcatalog

import "github.com/joind/joind/types"

// SetFunc is a set-returning catalog function, called in FROM (psql's \d
// reads pg_partition_ancestors): package sql binds a call to one, its
// arguments coerced to Args, and Rows computes its rows over the
// statement's Snapshot.
type SetFunc struct {
	Name   string
	Args   []types.Type
	Result types.Type
	Rows   func(s *Snapshot, v []types.Value) []types.Value
	// Out names the columns of a function of several (OUT parameters),
	// OutTypes their types; RowsOut computes its rows, a value per column.
	Out      []string
	OutTypes []types.Type
	RowsOut  func(s *Snapshot, v []types.Value) ([][]types.Value, error)
}

var setFuncs = []*SetFunc{
	// joind has no partitioned tables: a relation's only ancestor is
	// itself, and an OID no relation has has none.
	{Name: "pg_partition_ancestors", Args: []types.Type{oid}, Result: types.RegClassType,
		Rows: func(s *Snapshot, v []types.Value) []types.Value {
			if _, ok := s.RelationByOID(uint32(v[0].I)); ok {
				return []types.Value{v[0]}
			}
			return nil
		}},
	// The name=value entries of an OPTIONS array (foreign.go) as
	// (option_name, option_value) rows: psql's \d of a foreign table.
	{Name: "pg_options_to_table", Args: []types.Type{types.ArrayOf(types.TextType)},
		Out: []string{"option_name", "option_value"}, OutTypes: []types.Type{types.TextType, types.TextType},
		RowsOut: func(_ *Snapshot, v []types.Value) ([][]types.Value, error) { return optionsToTable(v[0]), nil }},
}

// LookupSetFunc finds the set-returning catalog function name of nargs
// arguments.
// relationFunc is a set-returning function whose rows are relation d's
// (pg_show_all_settings() is pg_settings', pg_stat_statements(showtext)
// the view's), each changed by edit (nil: none) for the call's arguments.
func relationFunc(name string, args []types.Type, d *Def, edit func(args, row []types.Value)) *SetFunc {
	f := &SetFunc{Name: name, Args: args}
	for _, c := range d.Cols {
		f.Out = append(f.Out, c.Name)
		f.OutTypes = append(f.OutTypes, c.Type)
	}
	f.RowsOut = func(s *Snapshot, v []types.Value) ([][]types.Value, error) {
		rows := d.rowValues(s)
		if edit != nil {
			for _, r := range rows {
				edit(v, r)
			}
		}
		return rows, nil
	}
	return f
}

func LookupSetFunc(name string, nargs int) (*SetFunc, bool) {
	for _, f := range setFuncs {
		if f.Name == name && len(f.Args) == nargs {
			return f, true
		}
	}
	return nil, false
}
