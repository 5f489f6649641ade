package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Sequences: CREATE/ALTER/DROP SEQUENCE with PostgreSQL's option rules
// (sequence.c's init_params), serial and identity columns (the sequence a
// column owns), the nextval family's regclass argument, and SELECT * FROM
// a sequence.

// CreateSequence is CREATE SEQUENCE [IF NOT EXISTS] name [options].
type CreateSequence struct {
	Def         storage.Sequence
	IfNotExists bool
}

// AlterSequence is ALTER SEQUENCE [IF EXISTS] name options | RENAME TO.
type AlterSequence struct {
	Name     string
	Def      storage.Sequence // the new definition (Def.Name: RENAME TO)
	Restart  *int64
	IfExists bool
	Missing  bool // IF EXISTS and there is no such sequence
	// Tag is the command tag: ALTER SEQUENCE, or ALTER TABLE when that
	// syntax renamed the sequence.
	Tag string
	// KeepCache: the change (a COMMENT) leaves the session's cached
	// values of the sequence usable.
	KeepCache bool
}

// DropSequence is DROP SEQUENCE [IF EXISTS] names [CASCADE | RESTRICT].
type DropSequence struct {
	Targets  []DropTarget // the names, resolved by the binder (names.go)
	IfExists bool
	Cascade  bool
	RelName  RelName // names relations in messages
}

func (*CreateSequence) statement() {}
func (*AlterSequence) statement()  {}
func (*DropSequence) statement()   {}

// seqCatalog is the statement's catalog as a keeper of sequences.
func (b *binder) seqCatalog() (storage.SequenceCatalog, error) {
	sc, ok := b.cat.(storage.SequenceCatalog)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "sequences are not supported by this catalog")
	}
	return sc, nil
}

// seqName validates a sequence's name (public only: temporary sequences
// are not supported).
func (b *binder) seqName(rv *pg_query.RangeVar) (string, bool, error) {
	temp := rv.Relpersistence == "t" || rv.Schemaname == "pg_temp"
	if rv.Relpersistence == "u" {
		return "", false, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "unlogged sequences are not supported"), rv.Location)
	}
	name, err := b.tableName(rv)
	return name, temp, err
}

func (b *binder) bindCreateSequence(cs *pg_query.CreateSeqStmt) (Statement, error) {
	name, temp, err := b.seqName(cs.Sequence)
	if err != nil {
		return nil, err
	}
	def := storage.Sequence{Name: name, Temp: temp}
	p, err := b.seqParams(cs.Options, &def, nil, true, false)
	if err != nil {
		return nil, err
	}
	if p.owned != nil {
		def.OwnedTable, def.OwnedColumn = p.owned[0], p.owned[1]
	}
	return &CreateSequence{Def: def, IfNotExists: cs.IfNotExists}, nil
}

// alterTarget resolves the sequence an ALTER SEQUENCE names: its catalog,
// key and definition, or (IF EXISTS) the no-op statement for a missing one.
func (b *binder) alterTarget(rv *pg_query.RangeVar, missingOk bool) (storage.SequenceCatalog, string, storage.Sequence, *AlterSequence, error) {
	sc, err := b.seqCatalog()
	if err != nil {
		return nil, "", storage.Sequence{}, nil, err
	}
	name, err := b.tableName(rv)
	if err != nil {
		return nil, "", storage.Sequence{}, nil, err
	}
	cur, ok := sc.LookupSequence(name)
	if !ok {
		if err := b.notASequence(name); err != nil {
			return nil, "", storage.Sequence{}, nil, err
		}
		written := rv.Relname // as PostgreSQL's RangeVar message writes it
		if rv.Schemaname != "" {
			written = rv.Schemaname + "." + written
		}
		if missingOk {
			return nil, name, storage.Sequence{}, &AlterSequence{Name: written, IfExists: true, Missing: true}, nil
		}
		return nil, "", storage.Sequence{}, nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", written)
	}
	return sc, name, cur, nil, nil
}

func (b *binder) bindAlterSequence(as *pg_query.AlterSeqStmt) (Statement, error) {
	sc, name, cur, missing, err := b.alterTarget(as.Sequence, as.MissingOk)
	if err != nil {
		return nil, err
	}
	if missing != nil {
		return missing, nil
	}
	st, _ := sc.SequenceState(name)
	def := cur
	p, err := b.seqParams(as.Options, &def, &st, false, false)
	if err != nil {
		return nil, err
	}
	if p.owned != nil {
		if tb, ok := b.cat.Lookup(cur.OwnedTable); ok && cur.OwnedTable != "" {
			for _, c := range tb.Columns() {
				if c.Name == cur.OwnedColumn && c.Identity != 0 {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot change ownership of identity sequence").
						WithDetail("Sequence \"%s\" is linked to table \"%s\".", name, cur.OwnedTable)
				}
			}
		}
		def.OwnedTable, def.OwnedColumn = p.owned[0], p.owned[1]
	}
	return &AlterSequence{Name: name, Def: def, Restart: p.restart, IfExists: as.MissingOk}, nil
}

// bindCommentOnSequence is COMMENT ON SEQUENCE name IS 'text' | NULL: the
// text is part of the sequence's definition (pg_description lists it).
func (b *binder) bindCommentOnSequence(cs *pg_query.CommentStmt, names []string) (Statement, error) {
	rv := commentTarget(names)
	_, name, cur, _, err := b.alterTarget(rv, false)
	if err != nil {
		return nil, withoutPosition(err)
	}
	cur.Comment = cs.Comment
	return &AlterSequence{Name: name, Def: cur, Tag: "COMMENT", KeepCache: true}, nil
}

// bindRenameSequence is ALTER SEQUENCE name RENAME TO new.
func (b *binder) bindRenameSequence(rs *pg_query.RenameStmt) (Statement, error) {
	_, name, cur, missing, err := b.alterTarget(rs.Relation, rs.MissingOk)
	if err != nil {
		return nil, err
	}
	if missing != nil {
		return missing, nil
	}
	if !cur.Temp {
		// The sequence stays in its schema.
		sid, _ := storage.SplitKey(name)
		cur.Name = storage.TableKey(sid, rs.Newname)
	} else {
		cur.Name = rs.Newname
	}
	tag := "ALTER SEQUENCE"
	if rs.RenameType == pg_query.ObjectType_OBJECT_TABLE {
		tag = "ALTER TABLE"
	}
	return &AlterSequence{Name: name, Def: cur, IfExists: rs.MissingOk, Tag: tag}, nil
}

// notASequence is 42809 for a table or view named where a sequence must be.
func (b *binder) notASequence(name string) error {
	if _, ok := b.cat.Lookup(name); ok {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
	}
	if _, ok := b.cat.LookupView(name); ok {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
	}
	return nil
}

// seqParamsOut is what seqParams found besides the definition.
type seqParamsOut struct {
	restart *int64
	owned   []string // [table, column]; ["", ""] for OWNED BY NONE
	seqName string   // an identity's SEQUENCE NAME
}

var seqTypeBounds = map[types.ID][2]int64{
	types.Int2: {math.MinInt16, math.MaxInt16},
	types.Int4: {math.MinInt32, math.MaxInt32},
	types.Int8: {math.MinInt64, math.MaxInt64},
}

// seqParams is PostgreSQL's init_params: it applies options to def (a new
// sequence's when isInit, else the current definition with st its
// counter) in PostgreSQL's order of checks and errors.
func (b *binder) seqParams(options []*pg_query.Node, def *storage.Sequence, st *storage.SequenceState, isInit, forIdentity bool) (seqParamsOut, error) {
	var out seqParamsOut
	seen := map[string]*pg_query.DefElem{}
	for _, o := range options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := d.Defname
		switch name {
		case "as", "increment", "start", "restart", "maxvalue", "minvalue", "cache", "cycle", "owned_by", "sequence_name":
		default:
			return out, pgerr.New(pgerr.InternalError, "option \"%s\" not recognized", name)
		}
		if name == "sequence_name" && !forIdentity {
			return out, b.errAt(pgerr.New(pgerr.SyntaxError, "invalid sequence option SEQUENCE NAME"), d.Location)
		}
		if seen[name] != nil {
			return out, b.errAt(pgerr.New(pgerr.SyntaxError, "conflicting or redundant options"), d.Location)
		}
		seen[name] = d
	}
	num := func(d *pg_query.DefElem) (int64, error) {
		switch x := d.Arg.GetNode().(type) {
		case *pg_query.Node_Integer:
			return int64(x.Integer.Ival), nil
		case *pg_query.Node_Float:
			v, err := strconv.ParseInt(x.Float.Fval, 10, 64)
			if err != nil {
				return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bigint: \"%s\"", x.Float.Fval)
			}
			return v, nil
		}
		return 0, pgerr.New(pgerr.SyntaxError, "%s requires a numeric value", d.Defname)
	}
	var err error
	resetMax, resetMin := false, false
	if d := seen["as"]; d != nil {
		t, err := b.typeFromName(d.Arg.GetTypeName())
		if err != nil {
			return out, err
		}
		if _, ok := seqTypeBounds[t.ID]; !ok {
			if forIdentity {
				return out, pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
			}
			return out, pgerr.New(pgerr.InvalidParameterValue, "sequence type must be smallint, integer, or bigint")
		}
		if !isInit {
			old := seqTypeBounds[def.Type]
			resetMax = def.Max == old[1]
			resetMin = def.Min == old[0]
		}
		def.Type = t.ID
	} else if isInit {
		def.Type = types.Int8
	}
	if d := seen["increment"]; d != nil {
		if def.Increment, err = num(d); err != nil {
			return out, err
		}
		if def.Increment == 0 {
			return out, pgerr.New(pgerr.InvalidParameterValue, "INCREMENT must not be zero")
		}
	} else if isInit {
		def.Increment = 1
	}
	if d := seen["cycle"]; d != nil {
		def.Cycle = d.Arg.GetBoolean().GetBoolval()
	} else if isInit {
		def.Cycle = false
	}
	bounds := seqTypeBounds[def.Type]
	typeName := map[types.ID]string{types.Int2: "smallint", types.Int4: "integer", types.Int8: "bigint"}[def.Type]
	if d := seen["maxvalue"]; d != nil && d.Arg != nil {
		if def.Max, err = num(d); err != nil {
			return out, err
		}
	} else if isInit || d != nil || resetMax {
		if def.Increment > 0 || resetMax {
			def.Max = bounds[1]
		} else {
			def.Max = -1
		}
	}
	if def.Max < bounds[0] || def.Max > bounds[1] {
		return out, pgerr.New(pgerr.InvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", def.Max, typeName)
	}
	if d := seen["minvalue"]; d != nil && d.Arg != nil {
		if def.Min, err = num(d); err != nil {
			return out, err
		}
	} else if isInit || d != nil || resetMin {
		if def.Increment < 0 || resetMin {
			def.Min = bounds[0]
		} else {
			def.Min = 1
		}
	}
	if def.Min < bounds[0] || def.Min > bounds[1] {
		return out, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", def.Min, typeName)
	}
	if def.Min >= def.Max {
		return out, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", def.Min, def.Max)
	}
	if d := seen["start"]; d != nil {
		if def.Start, err = num(d); err != nil {
			return out, err
		}
	} else if isInit {
		if def.Increment > 0 {
			def.Start = def.Min
		} else {
			def.Start = def.Max
		}
	}
	if def.Start < def.Min {
		return out, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", def.Start, def.Min)
	}
	if def.Start > def.Max {
		return out, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", def.Start, def.Max)
	}
	last := def.Start
	if st != nil {
		last = st.LastValue
	}
	if d := seen["restart"]; d != nil {
		r := def.Start
		if d.Arg != nil {
			if r, err = num(d); err != nil {
				return out, err
			}
		}
		out.restart, last = &r, r
	}
	if last < def.Min {
		return out, pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be less than MINVALUE (%d)", last, def.Min)
	}
	if last > def.Max {
		return out, pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", last, def.Max)
	}
	if d := seen["cache"]; d != nil {
		if def.Cache, err = num(d); err != nil {
			return out, err
		}
		if def.Cache <= 0 {
			return out, pgerr.New(pgerr.InvalidParameterValue, "CACHE (%d) must be greater than zero", def.Cache)
		}
	} else if isInit {
		def.Cache = 1
	}
	if d := seen["owned_by"]; d != nil {
		if out.owned, err = b.ownedBy(d, def.Name); err != nil {
			return out, err
		}
	}
	if d := seen["sequence_name"]; d != nil {
		var parts []string
		for _, p := range d.Arg.GetList().GetItems() {
			parts = append(parts, p.GetString_().GetSval())
		}
		if len(parts) == 2 && parts[0] != "public" || len(parts) > 2 {
			return out, pgerr.New(pgerr.FeatureNotSupported, "schemas other than public are not supported")
		}
		out.seqName = parts[len(parts)-1]
	}
	return out, nil
}

// ownedBy checks OWNED BY table.column | NONE (process_owned_by).
func (b *binder) ownedBy(d *pg_query.DefElem, seq string) ([]string, error) {
	var parts []string
	for _, p := range d.Arg.GetList().GetItems() {
		parts = append(parts, p.GetString_().GetSval())
	}
	if len(parts) == 1 {
		if parts[0] != "none" {
			return nil, pgerr.New(pgerr.SyntaxError, "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
		}
		return []string{"", ""}, nil
	}
	col := parts[len(parts)-1]
	rel := parts[:len(parts)-1]
	if len(rel) > 2 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(parts, "."))
	}
	table := rel[len(rel)-1]
	if _, system := b.catalogTable("", table); system && len(rel) == 1 || len(rel) == 2 && rel[0] != "public" {
		return nil, pgerr.New("55000", "sequence must be in same schema as table it is linked to")
	}
	tb, ok := b.cat.Lookup(table)
	if !ok {
		if _, isView := b.cat.LookupView(table); isView {
			return nil, pgerr.New(pgerr.WrongObjectType, "sequence cannot be owned by relation \"%s\"", table).
				WithDetail("This operation is not supported for views.")
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", table)
	}
	if tc, isTC := b.cat.(TempCatalog); isTC && tc.IsTemp(tb) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a sequence owned by a temporary table is not supported")
	}
	for _, c := range tb.Columns() {
		if c.Name == col {
			return []string{table, col}, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, table)
}

// chooseSeqName is ChooseRelationName(table, column, "seq"): the first of
// t_c_seq, t_c_seq1, ... no relation has (nor one of taken).
// The sequence goes to the table's schema: the result is a storage key.
func (b *binder) chooseSeqName(table, column string, taken map[string]bool) string {
	sid, bare := storage.SplitKey(table)
	for pass := 0; ; pass++ {
		label := "seq"
		if pass > 0 {
			label += strconv.Itoa(pass)
		}
		name := storage.TableKey(sid, MakeObjectName(bare, column, label))
		if !taken[name] && !b.relationNamed(name) {
			return name
		}
	}
}

func (b *binder) relationNamed(name string) bool {
	if _, ok := b.cat.Lookup(name); ok {
		return true
	}
	if _, ok := b.cat.LookupView(name); ok {
		return true
	}
	if sc, ok := b.cat.(storage.SequenceCatalog); ok {
		if _, ok := sc.LookupSequence(name); ok {
			return true
		}
	}
	return false
}

// NextvalDefault is the stored DEFAULT of a serial or identity column
// owning the sequence of that OID (the catalogs print its name).
func NextvalDefault(oid uint32) string {
	return "nextval('" + strconv.FormatUint(uint64(oid), 10) + "'::regclass)"
}

// serialType is the column type of a serial pseudo-type name.
func serialType(tn *pg_query.TypeName) (types.ID, bool) {
	if tn == nil || len(tn.Names) != 1 || tn.PctType || len(tn.ArrayBounds) > 0 {
		return 0, false
	}
	switch tn.Names[0].GetString_().GetSval() {
	case "smallserial", "serial2":
		return types.Int2, true
	case "serial", "serial4":
		return types.Int4, true
	case "bigserial", "serial8":
		return types.Int8, true
	}
	return 0, false
}

// columnSequence makes the sequence a serial or identity column owns and
// sets the column's DEFAULT (and identity) to use it; identity is the
// column's CONSTR_IDENTITY constraint (nil: serial). taken are the names
// of the statement's other new sequences.
func (b *binder) columnSequence(table string, col *storage.ColumnDef, identity *pg_query.Constraint, taken map[string]bool) (storage.Sequence, error) {
	if _, ok := seqTypeBounds[col.Type.ID]; !ok {
		return storage.Sequence{}, pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
	}
	def := storage.Sequence{OwnedTable: table, OwnedColumn: col.Name}
	var opts []*pg_query.Node
	if identity != nil {
		opts = identity.Options
	}
	// The column's type is the sequence's (an AS option may not differ).
	p, err := b.seqParams(append([]*pg_query.Node{asOption(col.Type.ID)}, opts...), &def, nil, true, identity != nil)
	if err != nil {
		return storage.Sequence{}, err
	}
	def.OwnedTable, def.OwnedColumn = table, col.Name
	if p.seqName != "" {
		def.Name = p.seqName
	} else {
		def.Name = b.chooseSeqName(table, col.Name, taken)
	}
	taken[def.Name] = true
	// The DEFAULT names the sequence by OID, known once it is created
	// (commands sets it).
	col.NotNull = true
	if identity != nil {
		col.Identity = identity.GeneratedWhen[0]
	}
	return def, nil
}

// asOption is the AS option of a serial or identity column's sequence.
func asOption(t types.ID) *pg_query.Node {
	name := map[types.ID]string{types.Int2: "int2", types.Int4: "int4", types.Int8: "int8"}[t]
	return &pg_query.Node{Node: &pg_query.Node_DefElem{DefElem: &pg_query.DefElem{Defname: "as", Location: -1,
		Arg: &pg_query.Node{Node: &pg_query.Node_TypeName{TypeName: &pg_query.TypeName{Location: -1, Typemod: -1,
			Names: []*pg_query.Node{pg_query.MakeStrNode("pg_catalog"), pg_query.MakeStrNode(name)}}}}}}}
}

// sequenceFunc binds nextval/currval/setval: their first argument is a
// regclass, so a literal names the sequence and is resolved when the call
// is bound (an unknown name fails here, with its position, as in
// PostgreSQL); any other argument must be an OID.
func (b *binder) sequenceFunc(name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	switch name {
	case "nextval", "currval", "setval":
	default:
		return nil, false, nil
	}
	if len(args) == 0 {
		return nil, false, nil
	}
	if c, ok := args[0].(*plan.Const); ok && (c.T.ID == types.Unknown || c.T.ID == types.Text) && !c.Val.Null {
		oid, err := b.snapshot().RegIn("regclass", c.Val.S)
		if err != nil {
			return nil, true, b.wrapAt(err, b.locOf(args[0]))
		}
		args[0] = oidConst(oid)
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	ov, err := types.ResolveFunction(name, argTypes)
	if err != nil {
		return nil, true, b.wrapAt(err, loc)
	}
	if err := b.castArgs(args, ov.Args); err != nil {
		return nil, true, err
	}
	return &plan.Call{Func: ov, Args: args}, true, nil
}

// sequenceTable is a sequence read as a relation (SELECT * FROM s): one
// row of its counter, read when the scan runs.
type sequenceTable struct {
	sc  storage.SequenceCatalog
	def storage.Sequence
}

var seqColumns = []storage.ColumnDef{
	{Name: "last_value", Type: types.Int8Type, NotNull: true},
	{Name: "log_cnt", Type: types.Int8Type, NotNull: true},
	{Name: "is_called", Type: types.BoolType, NotNull: true},
}

func (t *sequenceTable) Name() string                 { return t.def.Name }
func (t *sequenceTable) Columns() []storage.ColumnDef { return seqColumns }
func (t *sequenceTable) Stats() storage.Stats         { return storage.Stats{Rows: 1} }
func (t *sequenceTable) ObjectID() uint32             { return t.def.ObjectID() }

func (t *sequenceTable) Snapshot() []arrow.Record {
	st, _ := t.sc.SequenceState(t.def.Name)
	vals := []types.Value{types.IntValue(st.LastValue), types.IntValue(st.LogCnt), types.BoolValue(st.IsCalled)}
	fields := make([]arrow.Field, len(seqColumns))
	arrs := make([]arrow.Array, len(seqColumns))
	for i, c := range seqColumns {
		bld := array.NewBuilder(memory.DefaultAllocator, c.Type.ArrowType())
		types.AppendValue(bld, c.Type, vals[i])
		arrs[i] = bld.NewArray()
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	return []arrow.Record{array.NewRecord(arrow.NewSchema(fields, nil), arrs, 1)}
}

// identityInsert applies an identity column's rule to a value an INSERT
// gives it: GENERATED ALWAYS refuses one (428C9) unless OVERRIDING SYSTEM
// VALUE; OVERRIDING USER VALUE replaces it by the DEFAULT (useDefault).
func identityInsert(d storage.ColumnDef, override pg_query.OverridingKind) (useDefault bool, err error) {
	if d.Identity == 0 {
		return false, nil
	}
	switch override {
	case pg_query.OverridingKind_OVERRIDING_USER_VALUE:
		return true, nil
	case pg_query.OverridingKind_OVERRIDING_SYSTEM_VALUE:
		return false, nil
	}
	if d.Identity == storage.IdentityAlways {
		return false, pgerr.New("428C9", "cannot insert a non-DEFAULT value into column \"%s\"", d.Name).
			WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", d.Name).
			WithHint("Use OVERRIDING SYSTEM VALUE to override.")
	}
	return false, nil
}

// storeRegclassArgs rewrites a DEFAULT's nextval('name') to
// nextval('<oid>'::regclass): the sequence itself, as PostgreSQL stores
// it, so the DEFAULT follows a rename and DROP SEQUENCE finds it as a
// dependency (NextvalDefault); the catalogs print the name
// (pgcatalog's regclassNames), as pg_get_expr does.
func (b *binder) storeRegclassArgs(n *pg_query.Node) {
	var calls []*pg_query.FuncCall
	walkProto(n.ProtoReflect(), func(m protoreflect.Message) {
		if fc, ok := m.Interface().(*pg_query.FuncCall); ok {
			calls = append(calls, fc)
		}
	})
	for _, fc := range calls {
		switch funcName(fc.Funcname) {
		case "nextval", "currval", "setval":
		default:
			continue
		}
		if len(fc.Args) == 0 || fc.Args[0].GetAConst() == nil || fc.Args[0].GetAConst().GetSval() == nil {
			continue
		}
		oid, err := b.snapshot().RegIn("regclass", fc.Args[0].GetAConst().GetSval().Sval)
		if err != nil {
			continue
		}
		name := strconv.FormatUint(uint64(oid), 10)
		fc.Args[0] = &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
			Arg:      &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Sval{Sval: &pg_query.String{Sval: name}}, Location: -1}}},
			TypeName: &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("regclass")}, Typemod: -1, Location: -1}, Location: -1}}}
	}
}

// isSequence reports whether rv names a sequence (over the search path,
// as every relation name: resolveRelation).
func (b *binder) isSequence(rv *pg_query.RangeVar) bool {
	r, err := b.resolveRelation(rv)
	return err == nil && r.kind == relSequence
}

// SplitQualifiedName splits a dotted, possibly quoted name as regclass
// input does (unquoted parts folded to lower case).
func SplitQualifiedName(s string) []string { return pgcatalog.SplitQualified(s) }

// sequenceNotATable is the error for a statement that needs a table but
// names a sequence (what: "insert", "truncate", "copy from", "copy to").
func sequenceNotATable(name, what string) error {
	switch what {
	case "insert":
		return pgerr.New(pgerr.WrongObjectType, "cannot change sequence \"%s\"", name)
	case "copy from":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy to sequence \"%s\"", name)
	case "copy to":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy from sequence \"%s\"", name)
	}
	return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", name)
}
