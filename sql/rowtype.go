package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Record values (types/composite.go): ROW(...) outside a row comparison,
// and a FROM item's whole row `t` / `t.*` outside a select list's
// top level, are record-valued expressions, as PostgreSQL's RowExpr and
// whole-row Var. Comparisons between two row constructors are expanded
// field by field at bind time (rowexpr.go); any other comparison of
// record values is record_eq / record_cmp at run time.

// bindRowValue binds ROW(...) as a value: an anonymous record whose fields
// are the elements (t.* expanded), unknown literals read as text.
func (b *binder) bindRowValue(s *scope, r *pg_query.RowExpr) (plan.Expr, error) {
	elems, err := b.bindRowElems(s, r.Args)
	if err != nil {
		return nil, err
	}
	ts := make([]types.Type, len(elems))
	for i, e := range elems {
		if p, ok := e.(*plan.Param); ok && p.T.ID == types.Unknown {
			b.noteUntypedParam(p) // a field takes the parameter's type, which it has none of
		} else {
			elems[i] = b.resolveUnknown(e)
		}
		ts[i] = elems[i].Type()
	}
	return &plan.Call{Func: types.RowConstructor(types.AnonymousRecord(ts)), Args: elems}, nil
}

// wholeRow binds the whole-row reference to FROM item rel: a record of
// its columns, of the table's (view's) row type or an anonymous record.
// Below the nullable side of an outer join the row is NULL when
// null-extended, which a NOT NULL column of the item tells, or else the
// side's presence marker.
func (b *binder) wholeRow(s *scope, rel string, loc int32) (plan.Expr, error) {
	it, lvl, err := b.lookupRel(s, rel, loc)
	if err != nil {
		return nil, err
	}
	elems := make([]plan.Expr, len(it.cols))
	desc := types.RecordDesc{Name: it.rowType, Fields: make([]string, len(it.cols)), Types: make([]types.Type, len(it.cols))}
	var notNull plan.Expr
	for i, c := range it.cols {
		b.noteOuter(s, lvl, c.expr)
		b.noteColumnUse(c.expr)
		e := c.expr
		if ref, ok := e.(*plan.ColRef); ok {
			cp := *ref
			e = &cp
		}
		elems[i] = e
		desc.Fields[i], desc.Types[i] = c.name, e.Type()
		if len(it.rowFields) == len(it.cols) {
			desc.Fields[i] = it.rowFields[i] // the table's row type names its columns
		}
		if c.notNull && notNull == nil {
			notNull = e
		}
	}
	t := types.RecordOf(desc)
	t.UserOID = it.rowTypeOID // a table's row type: its OID goes to the client
	row := plan.Expr(&plan.Call{Func: types.RowConstructor(t), Args: elems})
	if it.nullSide != nil {
		if notNull == nil {
			notNull = b.presentMarker(it.nullSide)
			b.noteOuter(s, lvl, notNull)
		}
		row = &plan.Case{Whens: []plan.When{{Cond: &plan.IsNull{Arg: notNull}, Result: &plan.Const{Val: types.NullValue, T: t}}}, Else: row, T: t}
	}
	if b.wholeRows == nil {
		b.wholeRows = map[plan.Expr]string{}
	}
	b.wholeRows[row] = rel
	return row, nil
}

// checkWholeRow is the grouping check of a whole-row reference that is
// not itself a group key: as a whole-row Var in PostgreSQL, it may not read
// the grouped level's rows (42803 naming rel.*).
func (r *regrouper) checkWholeRow(e plan.Expr) error {
	rel, ok := r.b.wholeRows[e]
	if !ok {
		return nil
	}
	ungrouped := false
	plan.Walk(e, func(x plan.Expr) bool {
		if ref, ok := x.(*plan.ColRef); ok && r.inputIDs[ref.ID] {
			ungrouped = true
		}
		return !ungrouped
	})
	if !ungrouped {
		return nil
	}
	return r.b.errAt(pgerr.New(pgerr.GroupingError, "column \"%s.*\" must appear in the GROUP BY clause or be used in an aggregate function", rel), r.b.locOf(e))
}

// recordNullTest is `x IS [NOT] NULL` of a record value: every field NULL
// (not NULL), as ExecEvalRowNull; a NULL record is NULL either way.
func recordNullTest(arg plan.Expr, negate bool) plan.Expr {
	return &plan.Call{Func: types.RecordNullTest(arg.Type(), negate), Args: []plan.Expr{arg}}
}

// selectRecordField binds (e).field of a record-valued expression.
func (b *binder) selectRecordField(e plan.Expr, field string, loc int32) (plan.Expr, error) {
	t := e.Type()
	d := t.Desc()
	if d == nil {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "field selection from a record of unknown type is not supported"), loc)
	}
	for i, f := range d.Fields {
		if f == field {
			return &plan.Call{Func: types.FieldSelect(t, i), Args: []plan.Expr{e}}, nil
		}
	}
	if d.Name == "" {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "could not identify column \"%s\" in record data type", field), loc)
	}
	return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" not found in data type %s", field, d.Name), loc)
}

// columnNamed reports whether an unqualified name is a column of some
// query level, which a whole-row reference of that name yields to.
func (b *binder) columnNamed(s *scope, name string) bool {
	for cur := s; cur != nil; cur = cur.parent {
		for _, it := range cur.items {
			if !it.colsVisible {
				continue
			}
			for _, c := range it.cols {
				if c.name == name {
					return true
				}
			}
		}
	}
	return false
}

// relationRowType is the composite type of the table [schema.]name used
// as a type name ('(1,x)'::t, ROW(...)::t); false when no table is named.
func (b *binder) relationRowType(names []string) (types.Type, bool) {
	if len(names) == 0 || len(names) > 2 {
		return types.Type{}, false
	}
	rv := &pg_query.RangeVar{Relname: names[len(names)-1], Location: -1}
	if len(names) == 2 {
		rv.Schemaname = names[0]
	}
	rel, err := b.resolveRelation(rv)
	if err != nil || rel.kind != relTable {
		return types.Type{}, false
	}
	return types.CompositeType(registerRowType(rel.table, rv.Relname, rel.table.Columns())), true
}

// registerRowType is the OID of table tbl's row type, its fields (the
// table's columns defs, its name name) registered as this statement sees
// them: a table created or altered by the statement's transaction, or a
// temporary one, is known to package types no other way.
func registerRowType(tbl storage.Table, name string, defs []storage.ColumnDef) uint32 {
	oid := pgcatalog.RelationOID(tbl)
	if oid == 0 {
		return 0
	}
	storage.RegisterRowType(oid, name, defs)
	return storage.RowTypeOID(oid)
}

// checkColumnType refuses a record type for a stored column: an
// anonymous record as PostgreSQL does (42P16), a table's row type because
// joind gives it no persistent identity (a record type's typmod is this
// process's). A named composite type is stored by its OID.
func checkColumnType(name string, t types.Type) *pgerr.Error {
	if t.UserOID != 0 && (t.ID == types.Record || t.ID == types.Array && t.Elem == types.Record) {
		return nil
	}
	if t.ID == types.Array && t.Elem == types.Record {
		if d := t.ElemType().Desc(); d == nil || d.Name == "" {
			return pgerr.New(codeInvalidTableDefinition, "column \"%s\" has pseudo-type record[]", name)
		}
		return pgerr.New(pgerr.FeatureNotSupported, "columns of composite type %s are not supported", t.SQLName())
	}
	if t.ID != types.Record {
		return nil
	}
	if d := t.Desc(); d == nil || d.Name == "" {
		return pgerr.New("42P16", "column \"%s\" has pseudo-type record", name)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "columns of composite type %s are not supported", t.SQLName())
}

// rowToComposite binds ROW(...)::t for a composite type t: each element
// cast to its field's type, as coerce_record_to_complex does.
func (b *binder) rowToComposite(s *scope, args []*pg_query.Node, t types.Type, tc *pg_query.TypeCast) (plan.Expr, error) {
	if t.Domain != 0 {
		// ROW(...)::d for a domain over a composite: the row as the
		// composite, then the domain's constraints.
		v, err := b.rowToComposite(s, args, t.BaseType(), tc)
		if err != nil {
			return nil, err
		}
		return b.coerceToDomain(v, t)
	}
	elems, err := b.bindRowElems(s, args)
	if err != nil {
		return nil, err
	}
	loc := tc.Location
	if loc < 0 {
		loc = tc.TypeName.Location
	}
	d := t.Desc()
	if d == nil {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "casts to a record of unknown type are not supported"), loc)
	}
	cannot := func() *pgerr.Error {
		return pgerr.New(pgerr.CannotCoerce, "cannot cast type record to %s", t.SQLName())
	}
	if len(elems) < len(d.Types) {
		return nil, b.errAt(cannot().WithDetail("Input has too few columns."), loc)
	}
	if len(elems) > len(d.Types) {
		return nil, b.errAt(cannot().WithDetail("Input has too many columns."), loc)
	}
	for i, e := range elems {
		c, err := b.coerce(e, d.Types[i], coerceExplicit, loc)
		if err != nil {
			return nil, b.errAt(cannot().WithDetail("Cannot cast type %s to %s in column %d.", typeName(e.Type()), typeName(d.Types[i]), i+1), loc)
		}
		elems[i] = c
	}
	return &plan.Call{Func: types.RowConstructor(t), Args: elems}, nil
}

// commonRecordType is select_common_type over inputs of which one is a
// record: records of one type (composite, or anonymous) match, unknown
// literals read as that type, anything else cannot be matched. Anonymous
// records of different field types make a record of unknown fields.
func (b *binder) commonRecordType(ctx string, ts []types.Type, locs []int32) (types.Type, bool, error) {
	isRecord := false
	for _, t := range ts {
		isRecord = isRecord || t.ID == types.Record
	}
	if !isRecord {
		return types.Type{}, false, nil
	}
	var out types.Type
	have := false
	for i, t := range ts {
		switch {
		case t.ID == types.Unknown:
		case !have:
			out, have = t, true
		case t.ID == types.Record && out.ID == types.Record && typeName(t) == typeName(out):
			if t != out {
				out.Typmod = -1
			}
		case t.ID != types.Record && out.ID != types.Record:
			// Two other types: a record further on fails against the first.
		case t.ID == types.Record && out.ID == types.Record && t.Desc() != nil && t.Desc().Name != "" && out.Desc() != nil && out.Desc().Name != "":
			// Two composite types: one category, no cast between them.
			return types.Type{}, true, b.errAt(pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s",
				ctx, typeName(t), typeName(out)), locs[i])
		default:
			return types.Type{}, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched",
				ctx, typeName(out), typeName(t)), locs[i])
		}
	}
	return out, true, nil
}

// nullSide is the nullable input of an outer join as the whole-row
// references of the items below it see it: slot is the join's field
// holding the input, marker a column that is TRUE on every input row and
// NULL on a null-extended one, added on first use by wrapping the input in
// a projection that passes its columns through.
type nullSide struct {
	slot   *plan.Node
	marker *plan.ColRef
	// wrapper is the projection made for the marker; enclosing are the
	// nullable sides of outer joins above this one, whose wrappers must
	// pass a marker made after them through.
	wrapper   *plan.Project
	enclosing []*nullSide
}

// below is the side an item already below ns (nil: none) sees when the
// nullable side outer contains it: the innermost side, which learns that
// outer encloses it.
func (ns *nullSide) below(outer *nullSide) *nullSide {
	if ns == nil {
		return outer
	}
	for _, e := range ns.enclosing {
		if e == outer {
			return ns
		}
	}
	ns.enclosing = append(ns.enclosing, outer)
	return ns
}

// presentMarker is ns's marker column, made on first use.
func (b *binder) presentMarker(ns *nullSide) plan.Expr {
	if ns.marker == nil {
		in := *ns.slot
		cols := in.Columns()
		exprs := make([]plan.Expr, 0, len(cols)+1)
		for _, c := range cols {
			exprs = append(exprs, &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
		}
		m := plan.Column{ID: b.ids.Next(), Name: "?row?", Type: types.BoolType, NotNull: true}
		exprs = append(exprs, &plan.Const{Val: types.BoolValue(true), T: types.BoolType})
		ns.wrapper = &plan.Project{Input: in, Exprs: exprs, Cols: append(append([]plan.Column(nil), cols...), m)}
		*ns.slot = ns.wrapper
		ns.marker = &plan.ColRef{ID: m.ID, T: m.Type, Name: m.Name}
		for _, e := range ns.enclosing {
			if e.wrapper != nil {
				e.wrapper.Exprs = append(e.wrapper.Exprs, &plan.ColRef{ID: m.ID, T: m.Type, Name: m.Name})
				e.wrapper.Cols = append(e.wrapper.Cols, m)
			}
		}
	}
	c := *ns.marker
	return &c
}

// recordFields binds a record-valued expression and selects each of its
// fields, for `(x).*`.
func (b *binder) recordFields(s *scope, n *pg_query.Node) ([]plan.Expr, []string, error) {
	e, err := b.bindExpr(s, n)
	if err != nil {
		return nil, nil, err
	}
	loc := nodeLocation(n)
	if e.Type().ID != types.Record {
		// PostgreSQL reports it without a position.
		return nil, nil, pgerr.New(pgerr.WrongObjectType, "type %s is not composite", typeName(e.Type()))
	}
	d := e.Type().Desc()
	if d == nil {
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "field selection from a record of unknown type is not supported"), loc)
	}
	if len(d.Fields) > 0 && d.Fields[0] == "" {
		// A SEARCH or CYCLE record (searchCycleRecord); PostgreSQL fails
		// on it with an internal error.
		return nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "field selection from a SEARCH or CYCLE column is not supported"), loc)
	}
	elems := make([]plan.Expr, len(d.Fields))
	for i := range d.Fields {
		elems[i] = &plan.Call{Func: types.FieldSelect(e.Type(), i), Args: []plan.Expr{e}}
	}
	return elems, d.Fields, nil
}

// recordColumnDefs handles a FROM function returning an anonymous record
// (unnest of record[]): PostgreSQL needs a column definition list for
// it, whose types must be the record's (tupledesc_match: the type, and
// the typmod unless the list's is -1); the list names the fields, so the
// function's result becomes a record of those names. defined reports
// whether a list was used (the caller then skips its own checks of it).
func (b *binder) recordColumnDefs(rf *pg_query.RangeFunction, fs []plan.SetFunc, loc int32) (defined bool, err error) {
	for i, f := range fs {
		if f.Func.Result.ID != types.Record {
			continue
		}
		d := f.Func.Result.Desc()
		if d != nil && d.Name != "" {
			continue
		}
		if len(rf.Coldeflist) == 0 {
			return false, b.errAt(pgerr.New(pgerr.SyntaxError, "a column definition list is required for functions returning \"record\""), loc)
		}
		if len(fs) != 1 || rf.Ordinality {
			return false, nil // checkColumnDefinitionLists reports it
		}
		if d == nil {
			return false, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "a column definition list over records of unknown type is not supported"), nodeLocation(rf.Coldeflist[0]))
		}
		names := make([]string, len(rf.Coldeflist))
		want := make([]types.Type, len(rf.Coldeflist))
		for j, n := range rf.Coldeflist {
			cd := n.GetColumnDef()
			if want[j], err = b.typeFromName(cd.TypeName); err != nil {
				return false, err
			}
			names[j] = cd.Colname
		}
		mismatch := func(format string, args ...any) error {
			// At run time in PostgreSQL: no position.
			return pgerr.New(pgerr.DatatypeMismatch, "function return row and query-specified return row do not match").WithDetail(format, args...)
		}
		if len(want) != len(d.Types) {
			attrs := "attributes"
			if len(d.Types) == 1 {
				attrs = "attribute"
			}
			return false, mismatch("Returned row contains %d %s, but query expects %d.", len(d.Types), attrs, len(want))
		}
		fieldTypes := append([]types.Type(nil), d.Types...)
		for j, w := range want {
			got := d.Types[j]
			if got.ID != w.ID && !(textLike(got.ID) && textLike(w.ID)) || (w.Typmod >= 0 && got.Typmod != w.Typmod) {
				return false, mismatch("Returned type %s at ordinal position %d, but query expects %s.", got.SQLName(), j+1, w.SQLName())
			}
			fieldTypes[j].ID = w.ID // binary coercible: the list's type
		}
		ov := *f.Func
		ov.Result = types.RecordOf(types.RecordDesc{Fields: names, Types: fieldTypes})
		fs[i].Func = &ov
		return true, nil
	}
	return false, nil
}

// textLike reports text and varchar, binary coercible to each other.
func textLike(id types.ID) bool { return id == types.Text || id == types.Varchar }

// compositeSetFuncs reports whether a FROM function returns a record
// whose fields PostgreSQL makes the function's columns: a composite type
// (unnest of a table row type's array) or a record a column definition
// list named (recordColumnDefs).
func compositeSetFuncs(fs []plan.SetFunc) bool {
	for _, f := range fs {
		if d := f.Func.Result.Desc(); d != nil && len(d.Fields) > 0 && d.Fields[0] != "" {
			return true
		}
	}
	return false
}

// expandCompositeColumns is the projection of a function scan's columns
// (the functions' results, then ordinality) that replaces each composite
// result by its fields, with the columns' default names.
func expandCompositeColumns(b *binder, scan *plan.FunctionScan, alias string) (*plan.Project, []string) {
	p := &plan.Project{Input: scan}
	cols, nFuncs := scan.Cols, len(scan.Funcs)
	var names []string
	add := func(e plan.Expr, name string) {
		c := plan.Column{ID: b.ids.Next(), Name: name, Table: alias, Type: e.Type()}
		p.Exprs, p.Cols, names = append(p.Exprs, e), append(p.Cols, c), append(names, name)
	}
	for i, c := range cols {
		ref := &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}
		if d := c.Type.Desc(); i < nFuncs && d != nil && len(d.Fields) > 0 && d.Fields[0] != "" {
			for f, name := range d.Fields {
				add(&plan.Call{Func: types.FieldSelect(c.Type, f), Args: []plan.Expr{ref}}, name)
			}
			continue
		}
		add(ref, c.Name)
	}
	return p, names
}

// bindFieldAssign is the new value of record column col (of type d) after
// `col.f... = val`: base with field f replaced by the assignment of the
// rest of the path to base's f, as transformAssignmentIndirection's
// FieldStore. base is NULL for an INSERT: the other fields are NULL.
func (b *binder) bindFieldAssign(s *scope, base plan.Expr, d types.Type, col string, ind []*pg_query.Node, val plan.Expr, loc int32) (plan.Expr, error) {
	desc := d.Desc()
	field := ind[0].GetString_().Sval
	if desc == nil {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "assignment to a field of a record of unknown type is not supported"), loc)
	}
	at := -1
	for i, f := range desc.Fields {
		if f == field {
			at = i
		}
	}
	if at < 0 {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "cannot assign to field \"%s\" of column \"%s\" because there is no such column in data type %s",
			field, col, typeName(d)), loc)
	}
	ft := desc.Types[at]
	var v plan.Expr
	if len(ind) > 1 {
		inner := &plan.Call{Func: types.FieldSelect(d, at), Args: []plan.Expr{base}}
		var err error
		if v, err = b.bindArrayAssign(s, inner, ft, col, ind[1:], val, loc); err != nil { // array.go
			return nil, err
		}
	} else {
		var err error
		v, err = b.coerce(val, ft, coerceAssignment, b.locOf(val))
		if err == errCannotCoerce {
			return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "subfield \"%s\" is of type %s but expression is of type %s",
				field, typeName(ft), typeName(val.Type())).WithHint("You will need to rewrite or cast the expression."), b.locOf(val))
		}
		if err != nil {
			return nil, err
		}
	}
	return &plan.Call{Func: types.FieldStore(d, at), Args: []plan.Expr{base, v}}, nil
}
