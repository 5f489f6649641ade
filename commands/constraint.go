package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Constraint enforcement for rows a statement adds (INSERT, COPY FROM),
// in PostgreSQL's order: row by row NOT NULL, then the CHECK constraints
// (by name), then the unique keys (PRIMARY KEY first, then UNIQUE, in
// creation order) — the first failing row's first failure is the error;
// then, after the statement, the foreign keys (in creation order).

const (
	codeUniqueViolation     = "23505"
	codeCheckViolation      = "23514"
	codeForeignKeyViolation = "23503"
)

// createConstrained creates x's table with its constraints.
func createConstrained(ctx context.Context, cat *Catalog, x *sql.CreateTable) error {
	if len(x.Constraints) == 0 {
		_, err := createIn(ctx, cat, x.Name, x.Columns, x.Temp, x.OnCommit)
		return err
	}
	for _, c := range x.Constraints {
		if err := tempForeignKey(c, x.Temp, x.Name); err != nil {
			return err
		}
	}
	tb, err := createIn(ctx, cat, x.Name, x.Columns, x.Temp, x.OnCommit)
	if err != nil {
		return err
	}
	if x.Temp {
		return cat.temp().SetConstraints(ctx, tb, x.Constraints)
	}
	return cat.Txn.SetConstraints(ctx, tb, x.Constraints)
}

// CheckRows checks the constraints of t on recs, the rows a statement is
// about to add to it (the table's rows as the statement sees them are
// already there).
func CheckRows(ctx context.Context, s Session, t storage.Table, recs []arrow.Record) error {
	first, err := checkRows(ctx, s, t, recs, true)
	if err == nil && first != nil {
		err = first.err
	}
	return err
}

// rowFailure is the first row of a statement's rows that fails a
// constraint: row of recs[rec].
type rowFailure struct {
	rec, row int
	err      error
}

// checkRows is CheckRows, returning the failing row; without uniques,
// duplicate keys are not looked for (ON CONFLICT decides about them).
func checkRows(ctx context.Context, s Session, t storage.Table, recs []arrow.Record, uniques bool) (*rowFailure, error) {
	s.Catalog().txnOf(t).SetErrorFormat(s.Format()) // Append's duplicate-key DETAIL
	cons := storage.ConstraintsOf(t)
	if len(cons) == 0 {
		return nil, nil
	}
	f := s.Format()
	defs := t.Columns()
	var first *rowFailure
	note := func(ri, row int, err error) {
		if first == nil || ri < first.rec || (ri == first.rec && row < first.row) {
			first = &rowFailure{ri, row, err}
		}
	}
	// NOT NULL, for the row order of errors.
	for ri, r := range recs {
		for c, d := range defs {
			if d.NotNull && r.Column(c).NullN() > 0 {
				for i := 0; i < int(r.NumRows()); i++ {
					if r.Column(c).IsNull(i) {
						note(ri, i, NotNullViolation(t, r.NewSlice(int64(i), int64(i+1)), c, f))
						break
					}
				}
			}
		}
	}
	var checks []storage.Constraint
	for _, c := range cons {
		if c.Kind == storage.ConCheck {
			checks = append(checks, c)
		}
	}
	sort.Slice(checks, func(i, j int) bool { return checks[i].Name < checks[j].Name })
	if len(checks) > 0 {
		q, err := sql.CheckQuery(t, checks, recs, s.Catalog(), nil)
		if err != nil {
			return nil, err
		}
		out, err := s.Collect(ctx, q)
		if err != nil {
			return nil, err
		}
		// The query's rows are recs' rows in order.
		ri, row := 0, 0
		for _, o := range out {
			for i := 0; i < int(o.NumRows()); i++ {
				for ri < len(recs) && row >= int(recs[ri].NumRows()) {
					ri, row = ri+1, 0
				}
				for c := range checks {
					v := types.GetValue(o.Column(c), types.BoolType, i)
					if !v.Null && v.I == 0 {
						note(ri, row, checkViolation(t, checks[c].Name, recs[ri], row, f))
						break
					}
				}
				row++
			}
		}
	}
	if first == nil || !uniques {
		// Append checks the unique keys (storage's index) and reports
		// the first duplicate row itself.
		return first, nil
	}
	// A duplicate key on an earlier row than the failure found is the
	// error instead.
	if ix, ok := t.(storage.Indexed); ok {
		for _, d := range storage.IndexesOf(t) {
			if !d.Unique {
				continue
			}
			ords, err := storage.ColumnOrdinals(defs, d.Cols)
			if err != nil {
				return nil, err
			}
			// Each batch against the table and the earlier batches.
			var seen []arrow.Record
			for ri, r := range recs {
				if ri > first.rec {
					break
				}
				row, dup, err := findDuplicate(ix, d, r, seen, ords)
				if err != nil {
					return nil, err
				}
				if dup {
					note(ri, row, storage.UniqueViolation(d.Name, defs, ords, r, row, f))
					break
				}
				seen = append(seen, r)
			}
		}
	}
	return first, nil
}

// findDuplicate is FindDuplicate of r against the table and the batches
// seen before it in the same statement.
func findDuplicate(ix storage.Indexed, d storage.IndexDef, r arrow.Record, seen []arrow.Record, ords []int) (int, bool, error) {
	if len(seen) > 0 {
		all := append(append([]arrow.Record(nil), seen...), r)
		one, err := concat(ix.Columns(), all)
		if err != nil {
			return 0, false, err
		}
		var before int64
		for _, x := range seen {
			before += x.NumRows()
		}
		row, dup, err := ix.FindDuplicate(d, one)
		if err != nil || !dup || int64(row) < before {
			return 0, false, err
		}
		return row - int(before), true, nil
	}
	return ix.FindDuplicate(d, r)
}

func checkViolation(t storage.Table, name string, r arrow.Record, row int, f *types.Format) error {
	return pgerr.New(codeCheckViolation, "new row for relation \"%s\" violates check constraint \"%s\"", storage.BareName(t.Name()), name).
		WithDetail("Failing row contains %s.", rowText(t.Columns(), r, row, f))
}

// rowText is a row as PostgreSQL's "Failing row contains" quotes it.
func rowText(defs []storage.ColumnDef, r arrow.Record, row int, f *types.Format) string {
	vals := make([]string, len(defs))
	for c, d := range defs {
		v := types.GetValue(r.Column(c), d.Type, row)
		if v.Null {
			vals[c] = "null"
		} else {
			vals[c] = string(types.FormatText(nil, v, d.Type, f))
		}
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

// CheckForeignKeys checks, after a statement added recs to t, that every
// new row's key of each FOREIGN KEY of t is present in the referenced table
// (as the statement sees it, so with the new rows when t references
// itself), looked up through the referenced key's unique index.
// A deferred constraint (DEFERRABLE INITIALLY DEFERRED, or SET
// CONSTRAINTS ... DEFERRED) is checked at COMMIT instead, over every row
// the transaction added to t.
func CheckForeignKeys(s Session, t storage.Table, recs []arrow.Record) error {
	return checkFK(s.Catalog(), s.Format(), t, storage.ConstraintsOf(t), recs, true)
}

// deferKey names a deferred check: table and constraint.
func deferKey(table, con string) string { return table + "\x00" + con }

func checkFK(cat *Catalog, f *types.Format, t storage.Table, cons []storage.Constraint, recs []arrow.Record, allowDefer bool) error {
	defs := t.Columns()
	for _, c := range cons {
		if c.Kind != storage.ConForeign {
			continue
		}
		if txn := cat.txnOf(t); allowDefer && txn.IsDeferred(c) {
			name, cname := t.Name(), c.Name
			txn.Defer(deferKey(name, cname), func(ctx context.Context) error {
				tb, ok := txn.Lookup(name)
				if !ok {
					return nil // dropped since
				}
				for _, cur := range storage.ConstraintsOf(tb) {
					if cur.Name == cname {
						return checkFK(cat, f, tb, []storage.Constraint{cur}, txn.Appended(tb), false)
					}
				}
				return nil
			})
			continue
		}
		ords, err := storage.ColumnOrdinals(defs, c.Cols)
		if err != nil {
			return err
		}
		var parent storage.Table
		if c.RefTable == t.Name() {
			parent = t
		} else if parent, err = lookupReferenced(cat, t, c.RefTable); err != nil {
			return err
		}
		ix, ok := parent.(storage.Indexed)
		var key storage.IndexDef
		for _, d := range storage.IndexesOf(parent) {
			if d.Unique && sameCols(d.Cols, c.RefCols) {
				key = d
			}
		}
		if !ok || key.Name == "" {
			return pgerr.New(pgerr.InternalError, "the key of table %q that foreign key %q references has no index", storage.BareName(parent.Name()), c.Name)
		}
		// The index's columns in its order, the FK's columns matched to them.
		probe := make([]int, len(key.Cols))
		ptypes := make([]types.Type, len(key.Cols))
		pdefs := parent.Columns()
		for i, kc := range key.Cols {
			for j, rc := range c.RefCols {
				if rc == kc {
					probe[i] = ords[j]
				}
			}
			for _, d := range pdefs {
				if d.Name == kc {
					ptypes[i] = d.Type
				}
			}
		}
		for _, r := range recs {
			for i := 0; i < int(r.NumRows()); i++ {
				nulls := 0
				for _, o := range ords {
					if r.Column(o).IsNull(i) {
						nulls++
					}
				}
				if nulls > 0 {
					if c.Match == 'f' && nulls < len(ords) {
						return pgerr.New(codeForeignKeyViolation, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", storage.BareName(t.Name()), c.Name).
							WithDetail("MATCH FULL does not allow mixing of null and nonnull key values.")
					}
					continue
				}
				kv := make([]types.Value, len(probe))
				for k, o := range probe {
					// The referencing and referenced types are the same,
					// two integer or two string types (sql.fkComparable),
					// which share their Value fields.
					kv[k] = types.GetValue(r.Column(o), defs[o].Type, i)
				}
				m, err := ix.IndexLookup(key, storage.EqualRange(kv))
				if err != nil {
					return err
				}
				if len(m) == 0 {
					return pgerr.New(codeForeignKeyViolation, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", storage.BareName(t.Name()), c.Name).
						WithDetail("Key %s is not present in table \"%s\".", storage.KeyText(defs, ords, r, i, f), storage.BareName(parent.Name()))
				}
			}
		}
	}
	return nil
}

// lookupReferenced finds the table a FOREIGN KEY of t references, in t's
// own catalog.
func lookupReferenced(cat *Catalog, t storage.Table, name string) (storage.Table, error) {
	var p storage.Table
	var ok bool
	if cat.IsTemp(t) {
		p, ok = cat.LookupIn("pg_temp", name)
	} else {
		p, ok = cat.Txn.Lookup(name)
	}
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "table %q referenced by a foreign key of %q is missing", name, storage.BareName(t.Name()))
	}
	return p, nil
}

// referencing lists the FOREIGN KEYs of other tables that reference one of
// names, as "constraint c on table t" in creation order.
type fkRef struct {
	table string        // the referencing table's storage key
	tb    storage.Table // the referencing table
	con   storage.Constraint
}

// referencing lists the FOREIGN KEYs of other tables that reference one of
// names, among the session's temporary tables (temp) or the permanent
// ones: a FOREIGN KEY never crosses the two (the binder refuses it).
func referencing(cat *Catalog, names map[string]bool, temp bool) []fkRef {
	tables := cat.Txn.Tables()
	if temp {
		tables, _ = cat.TempTables()
	}
	var out []fkRef
	for _, t := range tables {
		if names[t.Name()] {
			continue
		}
		for _, c := range storage.ConstraintsOf(t) {
			if c.Kind == storage.ConForeign && names[c.RefTable] {
				out = append(out, fkRef{t.Name(), t, c})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].con.ID < out[j].con.ID })
	return out
}

// dropReferencing refuses to drop tables other tables' FOREIGN KEYs
// reference (2BP01), or with CASCADE drops those constraints. It returns
// the NOTICE lines of the constraints it dropped.
func dropReferencing(ctx context.Context, cat *Catalog, names []string, temp, cascade bool, name sql.RelName) ([]string, error) {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	refs := referencing(cat, set, temp)
	if len(refs) == 0 {
		return nil, nil
	}
	if temp {
		// pg_temp is on the search path: its tables go unqualified.
		name = func(key string) string { return key }
	}
	var lines []string
	for _, r := range refs {
		lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on table %s", r.con.Name, name(r.table), name(r.con.RefTable)))
	}
	if !cascade {
		return nil, pgerr.New(codeDependentObjects, "cannot drop table %s because other objects depend on it", name(names[0])).
			WithDetail("%s", strings.Join(lines, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	var notices []string
	drop := map[string]map[string]bool{}
	for _, r := range refs {
		if drop[r.table] == nil {
			drop[r.table] = map[string]bool{}
		}
		drop[r.table][r.con.Name] = true
		notices = append(notices, fmt.Sprintf("drop cascades to constraint %s on table %s", r.con.Name, name(r.table)))
	}
	for tname, gone := range drop {
		tb, ok := cat.lookupKey(tname, temp)
		if !ok {
			continue
		}
		var keep []storage.Constraint
		for _, c := range storage.ConstraintsOf(tb) {
			if !gone[c.Name] {
				keep = append(keep, c)
			}
		}
		if err := cat.txnOf(tb).SetConstraints(ctx, tb, keep); err != nil {
			return nil, err
		}
	}
	return notices, nil
}

// truncateTargets is the tables TRUNCATE empties. Without CASCADE it
// refuses to truncate a table another table's FOREIGN KEY references
// unless that table is truncated too; with CASCADE it adds the
// referencing tables, round by round in OID order as PostgreSQL does, with
// a NOTICE for each.
func truncateTargets(s Session, x *sql.Truncate) ([]storage.Table, error) {
	tables := x.Tables
	for _, temp := range []bool{false, true} {
		var err error
		if tables, err = truncateCascade(s, x, tables, temp); err != nil {
			return nil, err
		}
	}
	return tables, nil
}

// truncateCascade is truncateTargets over the temporary or the permanent
// tables of the statement.
func truncateCascade(s Session, x *sql.Truncate, tables []storage.Table, temp bool) ([]storage.Table, error) {
	cat := s.Catalog()
	set := map[string]bool{}
	for _, t := range tables {
		if cat.IsTemp(t) == temp {
			set[t.Name()] = true
		}
	}
	for {
		refs := referencing(cat, set, temp)
		if len(refs) == 0 {
			return tables, nil
		}
		if !x.Cascade {
			return nil, errTruncateReferenced(cat, tables, refs)
		}
		var added []storage.Table
		for _, r := range refs {
			if set[r.table] {
				continue
			}
			set[r.table] = true
			added = append(added, r.tb)
		}
		sort.SliceStable(added, func(i, j int) bool {
			return tableOID(added[i]) < tableOID(added[j])
		})
		for _, tb := range added {
			if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
				Message: fmt.Sprintf("truncate cascades to table \"%s\"", storage.BareName(tb.Name()))}); err != nil {
				return nil, err
			}
		}
		tables = append(tables[:len(tables):len(tables)], added...)
	}
}

// errTruncateReferenced is PostgreSQL's heap_truncate_check_FKs error:
// for the first table truncated (in the statement's order) that a table
// outside the statement references, the referencing table of lowest OID.
func errTruncateReferenced(cat *Catalog, tables []storage.Table, refs []fkRef) error {
	for _, t := range tables {
		var by []storage.Table
		for _, r := range refs {
			if r.con.RefTable != t.Name() || cat.IsTemp(t) != cat.IsTemp(r.tb) {
				continue
			}
			by = append(by, r.tb)
		}
		if len(by) == 0 {
			continue
		}
		sort.SliceStable(by, func(i, j int) bool { return tableOID(by[i]) < tableOID(by[j]) })
		return pgerr.New(pgerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
			WithDetail("Table \"%s\" references \"%s\".", storage.BareName(by[0].Name()), storage.BareName(t.Name())).
			WithHint("Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.", storage.BareName(by[0].Name()))
	}
	return nil
}

// dropForeignKeys is DROP TABLE's check of the foreign keys referencing
// the tables it drops (permanent ones: a temporary table's can only
// reference itself).
func dropForeignKeys(ctx context.Context, s Session, names []string, temp, cascade bool, name sql.RelName) error {
	lines, err := dropReferencing(ctx, s.Catalog(), names, temp, cascade, name)
	if err != nil || len(lines) == 0 {
		return err
	}
	n := &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: lines[0]}
	if len(lines) > 1 {
		n.Message = fmt.Sprintf("drop cascades to %d other objects", len(lines))
		n.Detail = strings.Join(lines, "\n")
	}
	return s.Notice(n)
}

func sameCols(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}

// concat makes one batch of recs (rows of a table with columns defs).
func concat(defs []storage.ColumnDef, recs []arrow.Record) (arrow.Record, error) {
	if len(recs) == 1 {
		return recs[0], nil
	}
	fields := make([]arrow.Field, len(defs))
	for c, d := range defs {
		fields[c] = arrow.Field{Name: d.Name, Type: d.Type.ArrowType(), Nullable: true}
	}
	return concatColumns(arrow.NewSchema(fields, nil), recs)
}

// concatColumns is the one batch of recs' rows, column by column, under sc.
func concatColumns(sc *arrow.Schema, recs []arrow.Record) (arrow.Record, error) {
	cols := make([]arrow.Array, sc.NumFields())
	var total int64
	for _, r := range recs {
		total += r.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.InternalError, "concatenating rows: %v", err)
		}
		cols[c] = a
	}
	return array.NewRecord(sc, cols, total), nil
}

// addConstraint is ALTER TABLE ... ADD CONSTRAINT: the table's rows are
// validated first (PostgreSQL's errors), then the constraint is added.
func addConstraint(ctx context.Context, s Session, tb storage.Table, st *sql.AddConstraint) error {
	cat := s.Catalog()
	txn := cat.txnOf(tb)
	c := st.Constraint
	if err := tempForeignKey(c, cat.IsTemp(tb), tb.Name()); err != nil {
		return err
	}
	rows := tb.Snapshot()
	switch c.Kind {
	case storage.ConPrimary, storage.ConUnique:
		if err := txn.CheckKeyUnique(tb, c.Name, c.Cols); err != nil {
			return err
		}
	case storage.ConCheck:
		if len(rows) > 0 {
			q, err := sql.CheckQuery(tb, []storage.Constraint{c}, rows, cat, nil)
			if err != nil {
				return err
			}
			out, err := s.Collect(ctx, q)
			if err != nil {
				return err
			}
			for _, o := range out {
				for i := 0; i < int(o.NumRows()); i++ {
					if v := types.GetValue(o.Column(0), types.BoolType, i); !v.Null && v.I == 0 {
						return pgerr.New(codeCheckViolation, "check constraint \"%s\" of relation \"%s\" is violated by some row", c.Name, storage.BareName(tb.Name()))
					}
				}
			}
		}
	}
	// A PRIMARY KEY makes its columns NOT NULL (checked against the rows).
	for _, col := range st.NotNull {
		if err := setNotNull(ctx, s, tb, &sql.SetNotNull{Column: col, NotNull: true}); err != nil {
			return err
		}
	}
	if len(st.NotNull) > 0 {
		var ok bool
		if tb, ok = cat.txnOf(tb).Lookup(tb.Name()); !ok {
			return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", storage.BareName(tb.Name()))
		}
	}
	cons := append(append([]storage.Constraint(nil), storage.ConstraintsOf(tb)...), c)
	if err := txn.SetConstraints(ctx, tb, cons); err != nil {
		return err
	}
	if c.Kind == storage.ConForeign && len(rows) > 0 {
		return checkFK(cat, s.Format(), tb, []storage.Constraint{c}, tb.Snapshot(), false)
	}
	return nil
}

// dropConstraint is ALTER TABLE ... DROP CONSTRAINT: a key other tables'
// FOREIGN KEYs reference is refused (2BP01) or, with CASCADE, drops them.
func dropConstraint(ctx context.Context, s Session, tb storage.Table, st *sql.DropConstraint) error {
	cat := s.Catalog()
	if st.Missing {
		return s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
			Message: fmt.Sprintf("constraint \"%s\" of relation \"%s\" does not exist, skipping", st.Name, storage.BareName(tb.Name()))})
	}
	var keep []storage.Constraint
	var gone storage.Constraint
	for _, c := range storage.ConstraintsOf(tb) {
		if c.Name == st.Name {
			gone = c
		} else {
			keep = append(keep, c)
		}
	}
	if gone.Kind == storage.ConPrimary || gone.Kind == storage.ConUnique {
		var deps []fkRef
		for _, r := range referencing(cat, map[string]bool{tb.Name(): true}, cat.IsTemp(tb)) {
			if sameCols(r.con.RefCols, gone.Cols) {
				deps = append(deps, r)
			}
		}
		// A self-reference is one of keep's.
		for _, c := range keep {
			if c.Kind == storage.ConForeign && c.RefTable == tb.Name() && sameCols(c.RefCols, gone.Cols) {
				deps = append(deps, fkRef{tb.Name(), tb, c})
			}
		}
		if len(deps) > 0 {
			var lines, notices []string
			for _, d := range deps {
				lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on index %s", d.con.Name, d.table, gone.Name))
				notices = append(notices, fmt.Sprintf("drop cascades to constraint %s on table %s", d.con.Name, d.table))
			}
			if !st.Cascade {
				return pgerr.New(codeDependentObjects, "cannot drop constraint %s on table %s because other objects depend on it", gone.Name, storage.BareName(tb.Name())).
					WithDetail("%s", strings.Join(lines, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			for _, d := range deps {
				if d.table == tb.Name() {
					keep = without(keep, d.con.Name)
					continue
				}
				other := d.tb
				if err := cat.txnOf(other).SetConstraints(ctx, other, without(storage.ConstraintsOf(other), d.con.Name)); err != nil {
					return err
				}
			}
			n := &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: notices[0]}
			if len(notices) > 1 {
				n.Message = fmt.Sprintf("drop cascades to %d other objects", len(notices))
				n.Detail = strings.Join(notices, "\n")
			}
			if err := s.Notice(n); err != nil {
				return err
			}
		}
	}
	return cat.txnOf(tb).SetConstraints(ctx, tb, keep)
}

func without(cons []storage.Constraint, name string) []storage.Constraint {
	var out []storage.Constraint
	for _, c := range cons {
		if c.Name != name {
			out = append(out, c)
		}
	}
	return out
}

// dropColumnConstraints drops, before column col of tb is dropped, the
// constraints of tb that involve it and, with cascade, other tables'
// FOREIGN KEYs referencing it (2BP01 without), as PostgreSQL's dependencies do.
func dropColumnConstraints(ctx context.Context, s Session, tb storage.Table, col string, cascade bool) error {
	cat := s.Catalog()
	has := func(cols []string) bool {
		for _, c := range cols {
			if c == col {
				return true
			}
		}
		return false
	}
	var keep []storage.Constraint
	for _, c := range storage.ConstraintsOf(tb) {
		if !has(c.Cols) && !(c.Kind == storage.ConForeign && c.RefTable == tb.Name() && has(c.RefCols)) {
			keep = append(keep, c)
		}
	}
	var deps []fkRef
	for _, r := range referencing(cat, map[string]bool{tb.Name(): true}, cat.IsTemp(tb)) {
		if has(r.con.RefCols) {
			deps = append(deps, r)
		}
	}
	if len(deps) > 0 {
		if !cascade {
			var lines []string
			for _, d := range deps {
				lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on column %s of table %s", d.con.Name, d.table, col, tb.Name()))
			}
			return pgerr.New(codeDependentObjects, "cannot drop column %s of table %s because other objects depend on it", col, storage.BareName(tb.Name())).
				WithDetail("%s", strings.Join(lines, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		var notices []string
		for _, d := range deps {
			other := d.tb
			if err := cat.txnOf(other).SetConstraints(ctx, other, without(storage.ConstraintsOf(other), d.con.Name)); err != nil {
				return err
			}
			notices = append(notices, fmt.Sprintf("drop cascades to constraint %s on table %s", d.con.Name, d.table))
		}
		n := &pgerr.Error{Severity: "NOTICE", Code: "00000", Message: notices[0]}
		if len(notices) > 1 {
			n.Message = fmt.Sprintf("drop cascades to %d other objects", len(notices))
			n.Detail = strings.Join(notices, "\n")
		}
		if err := s.Notice(n); err != nil {
			return err
		}
	}
	if len(keep) == len(storage.ConstraintsOf(tb)) {
		return nil
	}
	return cat.txnOf(tb).SetConstraints(ctx, tb, keep)
}

// renameInConstraints follows ALTER TABLE ... RENAME [COLUMN] in the
// constraints that name the table (now name, columns before → after): its
// own, CHECK expressions included, and other tables' FOREIGN KEYs.
func renameInConstraints(ctx context.Context, cat *Catalog, txn *storage.Txn, oldName, name string, before, after []string) error {
	tb, ok := txn.Lookup(name)
	if !ok {
		return nil
	}
	ren := map[string]string{}
	for i := range before {
		if before[i] != after[i] {
			ren[before[i]] = after[i]
		}
	}
	if len(ren) == 0 && oldName == name {
		return nil
	}
	cols := func(l []string) []string {
		out := make([]string, len(l))
		for i, c := range l {
			out[i] = c
			if n, ok := ren[c]; ok {
				out[i] = n
			}
		}
		return out
	}
	fix := func(c storage.Constraint, own bool) (storage.Constraint, error) {
		if own {
			c.Cols = cols(c.Cols)
			if c.DeleteSetCols != nil {
				c.DeleteSetCols = cols(c.DeleteSetCols)
			}
			if c.Check != "" && len(ren) > 0 {
				text, err := sql.RenameInCheck(c.Check, ren)
				if err != nil {
					return c, err
				}
				c.Check = text
			}
		}
		if c.Kind == storage.ConForeign && c.RefTable == oldName {
			c.RefTable, c.RefCols = name, cols(c.RefCols)
		}
		return c, nil
	}
	var mine []storage.Constraint
	for _, c := range storage.ConstraintsOf(tb) {
		f, err := fix(c, true)
		if err != nil {
			return err
		}
		mine = append(mine, f)
	}
	if len(mine) > 0 {
		if err := txn.SetConstraints(ctx, tb, mine); err != nil {
			return err
		}
	}
	for _, r := range referencing(cat, map[string]bool{oldName: true, name: true}, txn != cat.Txn) {
		other := r.tb
		var l []storage.Constraint
		for _, c := range storage.ConstraintsOf(other) {
			f, err := fix(c, false)
			if err != nil {
				return err
			}
			l = append(l, f)
		}
		if err := txn.SetConstraints(ctx, other, l); err != nil {
			return err
		}
	}
	return nil
}

// setConstraints is SET CONSTRAINTS: the mode lasts to the end of the
// transaction; IMMEDIATE checks the deferred rows of those constraints now.
func setConstraints(ctx context.Context, s Session, x *sql.SetConstraints) (string, error) {
	cat := s.Catalog()
	txns := []*storage.Txn{cat.Txn}
	if t := cat.temp(); t != nil {
		txns = append(txns, t)
	}
	named := map[string]bool{}
	for _, n := range x.Names {
		named[n] = true
	}
	for _, txn := range txns {
		if x.Names == nil {
			txn.SetConstraintMode("", x.Deferred)
		}
		for _, n := range x.Names {
			txn.SetConstraintMode(n, x.Deferred)
		}
		if x.Deferred {
			continue
		}
		err := txn.RunDeferred(ctx, func(key string) bool {
			con := key[strings.IndexByte(key, 0)+1:]
			return x.Names == nil || named[con]
		})
		if err != nil {
			return "", err
		}
	}
	return "SET CONSTRAINTS", nil
}

// AddRows is the one path of rows a statement adds to t (INSERT, UPDATE's
// new row versions): constraints checked in PostgreSQL's order, the rows
// appended as one batch, then the foreign keys checked.
func AddRows(ctx context.Context, s Session, t storage.Table, recs []arrow.Record) (int64, error) {
	return addRows(ctx, s, t, recs, nil, nil)
}

// addRows is AddRows of the new versions recs of the rows old (deleted
// already; nil for an INSERT), row for row, whose RowIDs were ids.
func addRows(ctx context.Context, s Session, t storage.Table, recs, old []arrow.Record, ids []storage.RowID) (int64, error) {
	if err := CheckRows(ctx, s, t, recs); err != nil {
		return 0, err
	}
	if old != nil {
		if err := checkUpdatedUnique(s, t, recs, old, ids); err != nil {
			return 0, err
		}
	}
	n, err := AppendRecords(ctx, s.Catalog(), t, recs, s.Format())
	if err != nil {
		return 0, err
	}
	return n, CheckForeignKeys(s, t, recs)
}

// checkUpdatedUnique is PostgreSQL's immediate unique check of an UPDATE's
// rows, taken in physical order (their RowIDs ids: segments are numbered
// in the order they were written): a new row whose key a row not yet
// updated still has is a duplicate then, even if that row's own new
// version would free the key. (Append sees the old versions deleted.)
func checkUpdatedUnique(s Session, t storage.Table, recs, old []arrow.Record, ids []storage.RowID) error {
	defs := t.Columns()
	nb, err := concat(defs, recs)
	if err != nil || nb.NumRows() == 0 {
		return err
	}
	ob, err := concat(defs, old)
	if err != nil {
		return err
	}
	n := int(nb.NumRows())
	if len(ids) != n {
		return pgerr.New(pgerr.InternalError, "%d row ids for %d updated rows", len(ids), n)
	}
	order := make([]int, n) // rows by RowID
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return ids[order[a]] < ids[order[b]] })
	first := n
	var ferr error
	for _, d := range storage.IndexesOf(t) {
		if !d.Unique {
			continue
		}
		ords, err := storage.ColumnOrdinals(defs, d.Cols)
		if err != nil {
			return err
		}
		last := map[string]int{} // old key → the last rank that has it
		for r, j := range order {
			if k, ok := keyString(ob, j, ords, defs); ok {
				last[k] = r
			}
		}
		for r := 0; r < first; r++ {
			i := order[r]
			if k, ok := keyString(nb, i, ords, defs); ok {
				if lr, hit := last[k]; hit && lr > r {
					first, ferr = r, storage.UniqueViolation(d.Name, defs, ords, nb, i, s.Format())
					break
				}
			}
		}
	}
	return ferr
}

// keyString renders row i's key at ords for equality across the two
// tables' column types (which sql.fkComparable keeps to the same type or
// two integer or two string types: their text forms compare as the values).
func keyString(r arrow.Record, i int, ords []int, defs []storage.ColumnDef) (string, bool) {
	var b strings.Builder
	for _, o := range ords {
		v := types.GetValue(r.Column(o), defs[o].Type, i)
		if v.Null {
			return "", false
		}
		b.Write(types.FormatText(nil, v, defs[o].Type, &types.DefaultFormat))
		b.WriteByte(0)
	}
	return b.String(), true
}

// tempForeignKey refuses the foreign keys of a temporary table joind cannot
// keep: a DEFERRABLE one (the temporary tables commit after the permanent
// ones, too late to fail the transaction). One to a permanent table the
// binder refuses, as PostgreSQL does (42P16).
func tempForeignKey(c storage.Constraint, temp bool, table string) error {
	if c.Kind != storage.ConForeign || !temp {
		return nil
	}
	if c.Deferrable {
		return pgerr.New(pgerr.FeatureNotSupported, "DEFERRABLE foreign keys of temporary tables are not supported")
	}
	return nil
}
