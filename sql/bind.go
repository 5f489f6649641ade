package sql

import (
	"context"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

type storageTable = storage.Table

// BindOptions carries what binding needs beyond the statement and catalog.
//
// ParamTypes gives the types of $1..$n (types.Unknown or missing entries
// mean "infer"). On return, Bind has extended ParamTypes to the highest
// parameter referenced and replaced unknown entries with the inferred types
// (text when nothing constrains a parameter), as PostgreSQL reports them in
// ParameterDescription.
type BindOptions struct {
	ParamTypes  []types.Type
	EvalContext *types.EvalContext
	Session     *SessionInfo // answers current_setting(), current_user, ... (catalogfuncs.go)
	// Prepared gives EXECUTE its statement's parameter types (cursor.go).
	Prepared PreparedLookup
	// CurrentOf gives WHERE CURRENT OF its cursor's row (cursor.go).
	CurrentOf CurrentOfLookup
	// Perms is set by Bind: the privileges the statement needs
	// (privileges.go); a Query also keeps them (Query.Perms).
	Perms []PermCheck
}

// binder holds the state of binding one statement.
type binder struct {
	query string
	cat   storage.Catalog
	// domainValue is what VALUE reads while a domain's CHECK is bound
	// (usertypes_domain.go).
	domainValue plan.Expr
	// assignChecks are the domain coercions subscripted or field
	// assignments made (bindArrayAssign): a later assignment to the same
	// column applies its own, once, over the value before this one.
	assignChecks map[plan.Expr]plan.Expr
	// usedTemp is set when a temporary table was bound (sql/temp.go).
	usedTemp bool
	opts     *BindOptions
	ids      *plan.IDAllocator
	// locs maps bound expressions to the byte offset of their source, for
	// error positions.
	locs map[plan.Expr]int32
	// wholeRows maps bound whole-row references to their FROM item's name.
	wholeRows map[plan.Expr]string
	params    map[int]*plan.Param
	// untypedParams are the parameters used where they take no type
	// ("any" arguments, ROW fields): finishParams' 42P18 / 42P08.
	untypedParams map[int]bool
	aggRefs       map[plan.ColumnID]bool
	colTable      map[plan.ColumnID]string
	colName       map[plan.ColumnID]string
	// colOrigin maps columns that pass a stored column through unchanged to
	// that column (for RowDescription's table OID and attribute number).
	colOrigin map[plan.ColumnID]plan.Column
	outerLoc  map[plan.ColumnID]int32 // where a column was first referenced from a subquery
	// viewDeps collects the relations a CREATE VIEW's query reads directly
	// (not through the views it reads: views.go); nil otherwise.
	viewDeps []string
	// expanding lists the views being expanded, innermost last;
	// expandingOIDs their OIDs (privileges.go).
	expanding     []string
	expandingOIDs []uint32
	// funcScope is the parameters of the SQL function body being bound,
	// funcStack the functions being expanded (function.go).
	funcScope *scope
	funcStack []uint64
	// perms are the privileges the statement needs (privileges.go);
	// noScanPerm suppresses SELECT for a DML target's scan.
	perms      []PermCheck
	noScanPerm bool
	// storedLits collects, while binding SQL that is stored (a view, a
	// DEFAULT), literal locations and their settings-free spelling
	// (storedlit.go); nil otherwise.
	storedLits map[int32]string
	// lazyCasts leaves a cast of a constant that fails for run time
	// instead of failing the statement: a DEFAULT is checked, not
	// evaluated, by CREATE TABLE (`numeric(3,1) DEFAULT 12345` fails when
	// it is used).
	lazyCasts bool
	// collation is the collation the statement's COLLATE clauses name ("" = none; collate.go).
	collation string
	// colUse collects the stored columns the statement
	// references (a view's dependencies on columns: sql/alter_views.go).
	colUse map[ColumnUse]bool
	snap   *pgcatalog.Snapshot // the statement's system catalogs (pgcatalog.go)
	// searchPath overrides the session's search_path ("" = none): the
	// elements of CREATE SCHEMA (schema.go).
	searchPath string
	// lockingCursor is the SELECT of a DECLARE CURSOR, whose locking
	// clause the cursor implements (cursor.go); any other SELECT's is
	// refused.
	lockingCursor *pg_query.SelectStmt
	// fkFromTemp: the FOREIGN KEYs being bound belong to a temporary
	// table (they may reference only temporary tables, and a permanent
	// table's only permanent ones).
	fkFromTemp bool
	// topWith is the top-level statement's WITH, and modifying its
	// data-modifying queries (modifyingwith.go).
	topWith   *pg_query.WithClause
	modifying []*ModifyingCTE
	// dmlCTEs are the WITH queries a data-modifying WITH query's statement
	// sees; futureCTEs the names of WITH queries not yet visible where
	// binding is (PostgreSQL's p_future_ctes, for 42P01's hint).
	dmlCTEs    *cteEnv
	futureCTEs []string
}

func newBinder(query string, cat storage.Catalog, opts *BindOptions) *binder {
	return &binder{
		query: query, cat: cat, opts: opts, ids: &plan.IDAllocator{},
		locs:      map[plan.Expr]int32{},
		aggRefs:   map[plan.ColumnID]bool{},
		colTable:  map[plan.ColumnID]string{},
		colName:   map[plan.ColumnID]string{},
		colOrigin: map[plan.ColumnID]plan.Column{},
		outerLoc:  map[plan.ColumnID]int32{},
		colUse:    map[ColumnUse]bool{}, // column privileges (privileges.go)
	}
}

// errAt positions e at byte offset loc of the query (unless it has a position).
func (b *binder) errAt(e *pgerr.Error, loc int32) error {
	if loc >= 0 && e.Position == 0 {
		return e.WithPosition(charPos(b.query, loc))
	}
	return e
}

// withoutPosition drops the cursor position of a binder error.
func withoutPosition(err error) error {
	e := pgerr.As(err)
	if e.Position == 0 {
		return e
	}
	return e.WithPosition(0)
}

// wrapAt positions an error returned by another package.
func (b *binder) wrapAt(err error, loc int32) error {
	return b.errAt(pgerr.As(err), loc)
}

// Bind binds a parsed statement against the catalog.
func Bind(raw *RawStatement, cat storage.Catalog, opts *BindOptions) (Statement, error) {
	if opts == nil {
		opts = &BindOptions{}
	}
	b := newBinder(raw.query, cat, opts)
	b.topWith = topWith(raw.stmt)
	st, err := b.bindStatement(raw.stmt)
	if err == nil {
		st, err = b.wrapModifying(st)
	}
	if err != nil {
		return nil, err
	}
	if err := b.finishParams(); err != nil {
		return nil, err
	}
	b.fillColumnPerms()
	switch st.(type) {
	case *CreateView:
		b.perms = nil // a view's relations are checked when it is used, as its owner
	case *CreateFunction:
		b.perms = nil // a body's relations and calls are checked when it runs
	}
	opts.Perms = b.perms
	if q, ok := st.(*Query); ok {
		q.Perms = b.perms
	}
	return st, nil
}

// finishParams reports inferred parameter types back through opts. A
// parameter neither given a type nor used (a gap: $2 without $1), or
// used only where any type is accepted, has none to infer: 42P18, as
// PostgreSQL's check_variable_parameters.
func (b *binder) finishParams() error {
	maxIdx := len(b.opts.ParamTypes)
	for idx := range b.params {
		if idx > maxIdx {
			maxIdx = idx
		}
	}
	pts := make([]types.Type, maxIdx)
	copy(pts, b.opts.ParamTypes)
	for i := range pts {
		if i >= len(b.opts.ParamTypes) {
			pts[i] = types.UnknownType
		}
	}
	for idx := 1; idx <= maxIdx; idx++ {
		if !b.untypedParams[idx] {
			continue
		}
		// Used where it took no type: another use typing it later
		// leaves that first use inconsistent (42P08).
		code := "42P18"
		if b.params[idx].T.ID != types.Unknown {
			code = "42P08"
		}
		return pgerr.New(code, "could not determine data type of parameter $%d", idx)
	}
	for idx := 1; idx <= maxIdx; idx++ {
		p := b.params[idx]
		if p == nil {
			continue
		}
		if p.T.ID == types.Unknown {
			// Used only where any type goes ($1 IS NULL): no context
			// gave it one, and PostgreSQL does not guess.
			return pgerr.New("42P18", "could not determine data type of parameter $%d", idx)
		}
		pts[idx-1] = p.T
	}
	for i := range pts {
		if pts[i].ID == types.Unknown {
			if b.params[i+1] == nil {
				return pgerr.New("42P18", "could not determine data type of parameter $%d", i+1)
			}
			pts[i] = types.TextType
		}
	}
	b.opts.ParamTypes = pts
	return nil
}

func (b *binder) bindStatement(n *pg_query.Node) (Statement, error) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		if into := x.SelectStmt.IntoClause; into != nil {
			return b.bindSelectInto(x.SelectStmt, into)
		}
		return b.bindQueryStmt(x.SelectStmt)
	case *pg_query.Node_CreateStmt:
		return b.bindCreateTable(x.CreateStmt)
	case *pg_query.Node_CreateTableAsStmt:
		return b.bindCreateTableAs(x.CreateTableAsStmt)
	case *pg_query.Node_DropStmt:
		return b.bindDrop(x.DropStmt)
	case *pg_query.Node_ViewStmt:
		return b.bindCreateView(x.ViewStmt)
	case *pg_query.Node_CreateFunctionStmt:
		return b.bindCreateFunction(x.CreateFunctionStmt) // function.go
	case *pg_query.Node_AlterFunctionStmt:
		if x.AlterFunctionStmt.Objtype == pg_query.ObjectType_OBJECT_FUNCTION {
			return b.bindAlterFunction(x.AlterFunctionStmt)
		}
	case *pg_query.Node_InsertStmt:
		return b.bindInsert(x.InsertStmt)
	case *pg_query.Node_UpdateStmt:
		return b.bindUpdate(x.UpdateStmt)
	case *pg_query.Node_DeleteStmt:
		return b.bindDelete(x.DeleteStmt)
	case *pg_query.Node_MergeStmt:
		return b.bindMerge(x.MergeStmt)
	case *pg_query.Node_TruncateStmt:
		return b.bindTruncate(x.TruncateStmt)
	case *pg_query.Node_CopyStmt:
		return b.bindCopy(x.CopyStmt)
	case *pg_query.Node_ExplainStmt:
		return b.bindExplain(x.ExplainStmt)
	case *pg_query.Node_VacuumStmt:
		return b.bindAnalyze(x.VacuumStmt)
	case *pg_query.Node_CreateExtensionStmt:
		return bindCreateExtension(x.CreateExtensionStmt) // extension.go
	case *pg_query.Node_CreateForeignServerStmt:
		return b.bindCreateServer(x.CreateForeignServerStmt) // foreign.go
	case *pg_query.Node_CreateForeignTableStmt:
		return b.bindCreateForeignTable(x.CreateForeignTableStmt) // foreign.go
	case *pg_query.Node_VariableSetStmt:
		switch strings.ToLower(x.VariableSetStmt.Name) {
		case "role", "session_authorization":
			return b.bindSetRole(x.VariableSetStmt) // roles.go
		}
		return b.bindSet(x.VariableSetStmt)
	case *pg_query.Node_CreateRoleStmt:
		return b.bindCreateRole(x.CreateRoleStmt)
	case *pg_query.Node_AlterRoleStmt:
		return b.bindAlterRole(x.AlterRoleStmt)
	case *pg_query.Node_DropRoleStmt:
		return b.bindDropRole(x.DropRoleStmt)
	case *pg_query.Node_DropOwnedStmt:
		return b.bindDropOwned(x.DropOwnedStmt) // roles.go
	case *pg_query.Node_AlterDefaultPrivilegesStmt:
		return b.bindAlterDefaultPrivileges(x.AlterDefaultPrivilegesStmt)
	case *pg_query.Node_ReassignOwnedStmt:
		return b.bindReassignOwned(x.ReassignOwnedStmt)
	case *pg_query.Node_GrantRoleStmt:
		return b.bindGrantRole(x.GrantRoleStmt)
	case *pg_query.Node_GrantStmt:
		return b.bindGrant(x.GrantStmt)
	case *pg_query.Node_VariableShowStmt:
		return &Show{Name: strings.ToLower(x.VariableShowStmt.Name)}, nil
	case *pg_query.Node_TransactionStmt:
		return b.bindTransaction(x.TransactionStmt)
	case *pg_query.Node_IndexStmt:
		return b.bindCreateIndex(x.IndexStmt)
	case *pg_query.Node_ReindexStmt:
		return b.bindReindex(x.ReindexStmt)
	case *pg_query.Node_CreateSeqStmt:
		return b.bindCreateSequence(x.CreateSeqStmt)
	case *pg_query.Node_AlterSeqStmt:
		return b.bindAlterSequence(x.AlterSeqStmt)
	case *pg_query.Node_CreateSchemaStmt:
		return b.bindCreateSchema(x.CreateSchemaStmt)
	case *pg_query.Node_CreateEnumStmt:
		return b.bindCreateEnum(x.CreateEnumStmt) // usertypes.go
	case *pg_query.Node_CompositeTypeStmt:
		return b.bindCreateComposite(x.CompositeTypeStmt) // usertypes_composite.go
	case *pg_query.Node_AlterEnumStmt:
		return b.bindAlterEnum(x.AlterEnumStmt)
	case *pg_query.Node_CreateDomainStmt:
		return b.bindCreateDomain(x.CreateDomainStmt) // usertypes_domain.go
	case *pg_query.Node_AlterDomainStmt:
		return b.bindAlterDomain(x.AlterDomainStmt) // domain_alter.go
	case *pg_query.Node_RenameStmt:
		switch rs := x.RenameStmt; {
		case rs.RenameType == pg_query.ObjectType_OBJECT_SCHEMA:
			return b.bindRenameSchema(rs)
		case rs.RenameType == pg_query.ObjectType_OBJECT_INDEX:
			return b.bindAlterIndexRename(rs)
		case rs.RenameType == pg_query.ObjectType_OBJECT_TYPE || rs.RenameType == pg_query.ObjectType_OBJECT_DOMAIN:
			return b.bindRenameType(rs) // usertypes.go
		case rs.RenameType == pg_query.ObjectType_OBJECT_DOMCONSTRAINT:
			return b.bindRenameDomainConstraint(rs) // domain_alter.go
		case rs.RenameType == pg_query.ObjectType_OBJECT_ATTRIBUTE:
			return b.bindRenameAttribute(rs) // usertypes_composite.go
		case rs.RenameType == pg_query.ObjectType_OBJECT_SEQUENCE ||
			rs.RenameType == pg_query.ObjectType_OBJECT_TABLE && rs.Relation != nil && b.isSequence(rs.Relation):
			// ALTER TABLE renames a sequence too, as in PostgreSQL.
			return b.bindRenameSequence(rs)
		}
		return b.bindRename(x.RenameStmt)
	case *pg_query.Node_AlterObjectSchemaStmt:
		if st, ok, err := b.bindSetSchema(x.AlterObjectSchemaStmt); ok { // setschema.go
			return st, err
		}
	case *pg_query.Node_AlterOwnerStmt:
		if x.AlterOwnerStmt.ObjectType == pg_query.ObjectType_OBJECT_SCHEMA {
			return b.bindSchemaOwner(x.AlterOwnerStmt)
		}
		if t := x.AlterOwnerStmt.ObjectType; t == pg_query.ObjectType_OBJECT_DOMAIN || t == pg_query.ObjectType_OBJECT_TYPE {
			return b.bindTypeOwner(x.AlterOwnerStmt) // domain_alter.go
		}
	case *pg_query.Node_AlterTableStmt:
		if x.AlterTableStmt.Objtype == pg_query.ObjectType_OBJECT_TYPE {
			return b.bindAlterComposite(x.AlterTableStmt) // usertypes_composite.go
		}
		return b.bindAlterTable(x.AlterTableStmt)
	case *pg_query.Node_CommentStmt:
		return b.bindComment(x.CommentStmt)
	case *pg_query.Node_ConstraintsSetStmt:
		return b.bindSetConstraints(x.ConstraintsSetStmt) // constraint.go
	case *pg_query.Node_DiscardStmt:
		what := "ALL"
		switch x.DiscardStmt.Target {
		case pg_query.DiscardMode_DISCARD_PLANS:
			what = "PLANS"
		case pg_query.DiscardMode_DISCARD_SEQUENCES:
			what = "SEQUENCES"
		case pg_query.DiscardMode_DISCARD_TEMP:
			what = "TEMP"
		}
		return &Discard{What: what}, nil
	case *pg_query.Node_DeclareCursorStmt:
		return b.bindDeclareCursor(x.DeclareCursorStmt)
	case *pg_query.Node_FetchStmt:
		return b.bindFetch(x.FetchStmt)
	case *pg_query.Node_ClosePortalStmt:
		return &ClosePortal{Name: x.ClosePortalStmt.Portalname, All: x.ClosePortalStmt.Portalname == ""}, nil
	case *pg_query.Node_PrepareStmt:
		return b.bindPrepare(x.PrepareStmt)
	case *pg_query.Node_ExecuteStmt:
		return b.bindExecute(x.ExecuteStmt)
	case *pg_query.Node_CheckPointStmt:
		return &Checkpoint{}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported", statementName(n))
}

// statementName names a statement for the "not supported" error.
func statementName(n *pg_query.Node) string {
	switch n.GetNode().(type) {
	case *pg_query.Node_UpdateStmt:
		return "UPDATE"
	case *pg_query.Node_DeleteStmt:
		return "DELETE"
	case *pg_query.Node_MergeStmt:
		return "MERGE"
	case *pg_query.Node_IndexStmt:
		return "CREATE INDEX"
	case *pg_query.Node_ViewStmt:
		return "CREATE VIEW"
	case *pg_query.Node_AlterTableStmt:
		return "ALTER TABLE"
	case *pg_query.Node_CreateSchemaStmt:
		return "CREATE SCHEMA"
	case *pg_query.Node_CreateFunctionStmt:
		return "CREATE FUNCTION"
	case *pg_query.Node_CreateSeqStmt:
		return "CREATE SEQUENCE"
	case *pg_query.Node_CopyStmt:
		return "COPY"
	case *pg_query.Node_PrepareStmt:
		return "PREPARE"
	case *pg_query.Node_ExecuteStmt:
		return "EXECUTE"
	case *pg_query.Node_DeallocateStmt:
		return "DEALLOCATE"
	case *pg_query.Node_DeclareCursorStmt:
		return "DECLARE CURSOR"
	case *pg_query.Node_FetchStmt:
		return "FETCH"
	case *pg_query.Node_ClosePortalStmt:
		return "CLOSE"
	case *pg_query.Node_GrantStmt:
		return "GRANT"
	case *pg_query.Node_AlterDefaultPrivilegesStmt:
		return "ALTER DEFAULT PRIVILEGES"
	case *pg_query.Node_AlterRoleSetStmt:
		return "ALTER ROLE ... SET"
	case *pg_query.Node_DropOwnedStmt:
		return "DROP OWNED"
	case *pg_query.Node_ReassignOwnedStmt:
		return "REASSIGN OWNED"
	case *pg_query.Node_CreatedbStmt:
		return "CREATE DATABASE"
	case *pg_query.Node_DoStmt:
		return "DO"
	case *pg_query.Node_CommentStmt:
		return "COMMENT"
	case *pg_query.Node_LockStmt:
		return "LOCK"
	case *pg_query.Node_ListenStmt:
		return "LISTEN"
	case *pg_query.Node_NotifyStmt:
		return "NOTIFY"
	case *pg_query.Node_RenameStmt:
		return "ALTER ... RENAME"
	case *pg_query.Node_AlterObjectSchemaStmt:
		return "ALTER ... SET SCHEMA"
	case *pg_query.Node_CallStmt:
		return "CALL"
	}
	name := strings.TrimSuffix(nodeTypeName(n), "Stmt")
	return strings.ToUpper(name) + " statement"
}

// bindQueryStmt binds a top-level SELECT/VALUES/set operation.
func (b *binder) bindQueryStmt(sel *pg_query.SelectStmt) (*Query, error) {
	q, _, err := b.bindSelect(sel, nil, nil, true)
	if err != nil {
		return nil, err
	}
	return b.finalQuery(q), nil
}

// finalQuery renames the plan's output columns to the query's output names
// and resolves any unknown-typed outputs (VALUES / set operations) to text.
func (b *binder) finalQuery(q *boundQuery) *Query {
	cols := q.node.Columns()
	needProj := false
	for i, c := range cols {
		if c.Name != q.names[i] || c.Type.ID == types.Unknown {
			needProj = true
		}
	}
	if needProj {
		p := &plan.Project{Input: q.node}
		for i, c := range cols {
			e := b.resolveUnknown(&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name})
			p.Exprs = append(p.Exprs, e)
			p.Cols = append(p.Cols, plan.Column{ID: b.ids.Next(), Name: q.names[i], Table: c.Table, Type: e.Type(), NotNull: c.NotNull})
		}
		q.node = p
	}
	return &Query{Plan: q.node, IDs: b.ids, Names: q.names}
}

// columnDefType resolves a column definition's type.
func (b *binder) bindCreateTable(cs *pg_query.CreateStmt) (Statement, error) {
	if len(cs.InhRelations) > 0 || cs.Partspec != nil || cs.Partbound != nil || cs.OfTypename != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "inheritance, partitioning and typed tables are not supported")
	}
	name, err := b.tableName(cs.Relation)
	if err != nil {
		if pgerr.Code(err) == "3F000" {
			err = b.wrapAt(err, cs.Relation.Location)
		}
		return nil, err
	}
	ct := &CreateTable{Name: name, IfNotExists: cs.IfNotExists}
	if ct.Temp, ct.OnCommit, err = b.tempTarget(cs.Relation, cs.Oncommit); err != nil {
		return nil, err
	}
	if err := checkTableColumnCount(cs.TableElts); err != nil {
		return nil, err
	}
	index := map[string]int{}
	var cons []conSpec // constraint.go
	var takenSeqs map[string]bool
	for _, el := range cs.TableElts {
		switch x := el.GetNode().(type) {
		case *pg_query.Node_ColumnDef:
			cd := x.ColumnDef
			if _, dup := index[cd.Colname]; dup {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", cd.Colname)
			}
			if systemColumns[cd.Colname] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" conflicts with a system column name", cd.Colname)
			}
			if cd.StorageName != "" {
				return nil, b.pg16Keyword("storage", cd.Location) // a PostgreSQL 16 column option
			}
			serial, isSerial := serialType(cd.TypeName)
			t := types.Type{ID: serial, Typmod: -1}
			if !isSerial {
				if t, err = b.typeFromName(cd.TypeName); err != nil {
					return nil, err
				}
				if err := checkColumnType(cd.Colname, t); err != nil { // rowtype.go
					return nil, b.errAt(err, cd.TypeName.Location)
				}
			}
			def := storage.ColumnDef{Name: cd.Colname, Type: t, NotNull: cd.IsNotNull}
			var identity *pg_query.Constraint
			defaultLoc := int32(-1)
			sawNull, sawNotNull := false, cd.IsNotNull
			for _, cn := range cd.Constraints {
				c := cn.GetConstraint()
				switch c.Contype {
				case pg_query.ConstrType_CONSTR_NOTNULL:
					sawNotNull = true
					def.NotNull = true
				case pg_query.ConstrType_CONSTR_NULL:
					sawNull = true
				case pg_query.ConstrType_CONSTR_IDENTITY:
					if identity != nil {
						return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "multiple identity specifications for column \"%s\" of table \"%s\"", cd.Colname, name), c.Location)
					}
					identity = c
				case pg_query.ConstrType_CONSTR_DEFAULT:
					defaultLoc = c.Location
					if isSerial {
						// PostgreSQL reports it without a position.
						return nil, pgerr.New(pgerr.SyntaxError, "multiple default values specified for column \"%s\" of table \"%s\"", cd.Colname, name)
					}
					if def.Default != "" {
						return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "multiple default values specified for column \"%s\" of table \"%s\"", cd.Colname, name), c.Location)
					}
					text, err := b.checkDefault(c.RawExpr, def)
					if err != nil {
						return nil, err
					}
					def.Default = text
				default:
					var ok bool
					if cons, ok = collectConstraint(cons, c, cd.Colname); !ok {
						return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "constraint %s is not supported", constraintName(c.Contype)), c.Location)
					}
				}
			}
			if identity != nil && isSerial {
				// PostgreSQL reports it without a position.
				return nil, pgerr.New(pgerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", cd.Colname, name)
			}
			if identity != nil && def.Default != "" {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", cd.Colname, name), max(identity.Location, defaultLoc))
			}
			if isSerial || identity != nil {
				if identity != nil && sawNull {
					return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", cd.Colname, name), cd.Location)
				}
				if takenSeqs == nil {
					takenSeqs = map[string]bool{}
				}
				seq, err := b.columnSequence(name, &def, identity, takenSeqs)
				if err != nil {
					return nil, err
				}
				seq.Temp = ct.Temp
				ct.Sequences = append(ct.Sequences, seq)
			}
			if sawNull && sawNotNull {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", cd.Colname, name), cd.Location)
			}
			if cc := cd.CollClause; cc != nil {
				if t.ID != types.Text && t.ID != types.Varchar && t.ID != types.Char && t.ID != types.Name {
					return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", typeName(t)), cc.Location)
				}
				if err := b.checkCollation(cc.Collname, cc.Location); err != nil {
					return nil, err
				}
				b.collation = "" // each column's own: none is kept
			}
			index[cd.Colname] = len(ct.Columns)
			ct.Columns = append(ct.Columns, def)
		case *pg_query.Node_TableLikeClause:
			cols, err := b.likeColumns(x.TableLikeClause)
			if err != nil {
				return nil, err
			}
			for _, def := range cols {
				if _, dup := index[def.Name]; dup {
					return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", def.Name)
				}
				index[def.Name] = len(ct.Columns)
				ct.Columns = append(ct.Columns, def)
			}
		case *pg_query.Node_Constraint:
			c := x.Constraint
			var ok bool
			if cons, ok = collectConstraint(cons, c, ""); !ok {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "constraint %s is not supported", constraintName(c.Contype)), c.Location)
			}
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "%s in CREATE TABLE is not supported", nodeTypeName(el))
		}
	}
	b.fkFromTemp = ct.Temp
	if ct.Constraints, err = b.bindConstraints(name, ct.Columns, cons, nil); err != nil {
		return nil, err
	}
	return ct, nil
}

// pg16Keyword is PostgreSQL 15's syntax error at the first keyword word at
// or after byte offset from: grammar PostgreSQL 16 added.
func (b *binder) pg16Keyword(word string, from int32) error {
	at := int32(-1)
	if from >= 0 && int(from) <= len(b.query) {
		if i := strings.Index(strings.ToLower(b.query[from:]), word); i >= 0 {
			at = from + int32(i)
			word = b.query[at : int(at)+len(word)]
		}
	}
	return b.errAt(pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", word), at)
}

func constraintName(t pg_query.ConstrType) string {
	switch t {
	case pg_query.ConstrType_CONSTR_CHECK:
		return "CHECK"
	case pg_query.ConstrType_CONSTR_FOREIGN:
		return "FOREIGN KEY"
	case pg_query.ConstrType_CONSTR_EXCLUSION:
		return "EXCLUDE"
	case pg_query.ConstrType_CONSTR_IDENTITY:
		return "GENERATED AS IDENTITY"
	case pg_query.ConstrType_CONSTR_GENERATED:
		return "GENERATED"
	case pg_query.ConstrType_CONSTR_PRIMARY:
		return "PRIMARY KEY"
	}
	return strings.TrimPrefix(t.String(), "CONSTR_")
}

// checkDefault validates a DEFAULT expression and returns its SQL text.
func (b *binder) checkDefault(n *pg_query.Node, def storage.ColumnDef) (string, error) {
	s := &scope{exprKind: "DEFAULT expressions"}
	b.storedLits, b.lazyCasts = map[int32]string{}, true
	defer func() { b.storedLits, b.lazyCasts = nil, false }()
	e, err := b.bindExpr(s, n)
	if err != nil {
		return "", err
	}
	if len(b.colTable) > 0 {
		// (column references fail above: the scope has no items)
	}
	if _, err := b.coerceAssign(e, def.Type, def.Name, nodeLocation(n)); err != nil {
		return "", err
	}
	rewriteStoredLiterals(n.ProtoReflect(), b.storedLits)
	b.storeRegclassArgs(n)
	return deparseExpr(n)
}

// deparseExpr renders an expression back to SQL text.
func deparseExpr(n *pg_query.Node) (string, error) {
	tree := &pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{
		SelectStmt: &pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: n}}}}},
	}}}}}
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "cannot deparse expression: %v", err)
	}
	return strings.TrimPrefix(out, "SELECT "), nil
}

// bindDefault binds a stored DEFAULT text for an INSERT.
func (b *binder) bindDefault(def storage.ColumnDef) (plan.Expr, error) {
	if def.Default == "" && def.Type.Domain != 0 {
		return b.domainDefault(def) // usertypes_domain.go
	}
	if def.Default == "" {
		return &plan.Const{Val: types.NullValue, T: def.Type}, nil
	}
	tree, err := pg_query.Parse("SELECT " + def.Default)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "invalid stored default for column \"%s\": %v", def.Name, err)
	}
	rt := tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget()
	sub := newBinder("SELECT "+def.Default, b.cat, b.opts)
	sub.ids = b.ids
	// A failing cast of a constant fails when the planner folds it, in
	// the column order of the statement's defaults (PlanTimeError).
	sub.lazyCasts = true
	e, err := sub.bindExpr(&scope{exprKind: "DEFAULT expressions"}, rt.Val)
	if err != nil {
		pe := *pgerr.As(err)
		pe.Position = 0
		return nil, &pe
	}
	if def.Identity != 0 {
		e = identityNextval(e)
	}
	out, err := sub.coerceAssign(e, def.Type, def.Name, -1)
	if err != nil {
		pe := *pgerr.As(err)
		pe.Position = 0
		return nil, &pe
	}
	return out, nil
}

// identityNextval turns the nextval call of an identity column's default
// into PostgreSQL's NextValueExpr, which checks no sequence privilege.
func identityNextval(e plan.Expr) plan.Expr {
	switch x := e.(type) {
	case *plan.Call:
		if x.Func.Name == "nextval" {
			return &plan.Call{Func: types.IdentityNextval(x.Func), Args: x.Args}
		}
	case *plan.Cast:
		return &plan.Cast{Input: identityNextval(x.Input), T: x.T, Explicit: x.Explicit}
	}
	return e
}

// tableName is the name a CREATE gives its relation: the storage key in
// the schema it names or the search path's creation schema, or the bare
// name of a temporary table (createTarget, names.go).
func (b *binder) tableName(rv *pg_query.RangeVar) (string, error) {
	key, _, err := b.createTarget(rv)
	return key, err
}

// bindSelectInto binds SELECT ... INTO t as PostgreSQL does: CREATE TABLE
// t AS the query without its INTO (the raw tree is left as it was, for a
// statement bound again).
func (b *binder) bindSelectInto(sel *pg_query.SelectStmt, into *pg_query.IntoClause) (Statement, error) {
	sel.IntoClause = nil
	defer func() { sel.IntoClause = into }()
	return b.bindCreateTableAs(&pg_query.CreateTableAsStmt{Query: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}},
		Into: into, Objtype: pg_query.ObjectType_OBJECT_TABLE})
}

func (b *binder) bindCreateTableAs(cs *pg_query.CreateTableAsStmt) (Statement, error) {
	if cs.Objtype != pg_query.ObjectType_OBJECT_TABLE {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE MATERIALIZED VIEW is not supported")
	}
	name, err := b.tableName(cs.Into.Rel)
	if err != nil {
		return nil, err
	}
	sel := cs.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE TABLE AS %s is not supported", statementName(cs.Query))
	}
	q, err := b.bindQueryStmt(sel)
	if err != nil {
		return nil, err
	}
	cols := q.Plan.Columns()
	if len(cs.Into.ColNames) > len(cols) {
		return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
	}
	if len(cols) > maxTableColumns {
		return nil, errTooManyTableColumns()
	}
	out := &CreateTableAs{Name: name, Query: q, WithNoData: cs.Into.SkipData, IfNotExists: cs.IfNotExists}
	if out.Temp, out.OnCommit, err = b.tempTarget(cs.Into.Rel, cs.Into.OnCommit); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, c := range cols {
		cn := q.Names[i]
		if i < len(cs.Into.ColNames) {
			cn = cs.Into.ColNames[i].GetString_().GetSval()
		}
		if seen[cn] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", cn)
		}
		if systemColumns[cn] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" conflicts with a system column name", cn)
		}
		seen[cn] = true
		if err := checkColumnType(cn, c.Type); err != nil { // rowtype.go
			return nil, err
		}
		out.Columns = append(out.Columns, storage.ColumnDef{Name: cn, Type: c.Type})
	}
	return out, nil
}

func (b *binder) bindDrop(ds *pg_query.DropStmt) (Statement, error) {
	switch ds.RemoveType {
	case pg_query.ObjectType_OBJECT_INDEX:
		return b.bindDropIndex(ds)
	case pg_query.ObjectType_OBJECT_SCHEMA:
		return b.bindDropSchema(ds)
	case pg_query.ObjectType_OBJECT_TYPE, pg_query.ObjectType_OBJECT_DOMAIN:
		return b.bindDropType(ds) // usertypes.go
	case pg_query.ObjectType_OBJECT_FOREIGN_SERVER, pg_query.ObjectType_OBJECT_EXTENSION:
		return b.bindDropForeign(ds) // foreign.go
	case pg_query.ObjectType_OBJECT_FUNCTION:
		return b.bindDropFunction(ds) // function.go
	}
	if ds.RemoveType != pg_query.ObjectType_OBJECT_TABLE && ds.RemoveType != pg_query.ObjectType_OBJECT_FOREIGN_TABLE && ds.RemoveType != pg_query.ObjectType_OBJECT_VIEW && ds.RemoveType != pg_query.ObjectType_OBJECT_SEQUENCE {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP %s is not supported", strings.TrimPrefix(ds.RemoveType.String(), "OBJECT_"))
	}
	out := &DropTable{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE, RelName: b.relNamer()}
	for _, o := range ds.Objects {
		var parts []string
		for _, p := range o.GetList().GetItems() {
			parts = append(parts, p.GetString_().GetSval())
		}
		rv := &pg_query.RangeVar{Relname: parts[len(parts)-1], Location: -1}
		switch len(parts) {
		case 1:
		case 2:
			rv.Schemaname = parts[0]
		case 3:
			rv.Catalogname, rv.Schemaname = parts[0], parts[1]
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", strings.Join(parts, "."))
		}
		t := DropTarget{Name: rv.Relname}
		if rv.Schemaname != "" {
			if _, ok := b.snapshot().NamespaceByName(rv.Schemaname); !ok && rv.Schemaname != "pg_temp" {
				if !ds.MissingOk {
					return nil, pgerr.New("3F000", "schema \"%s\" does not exist", rv.Schemaname)
				}
				t.NoSchema = rv.Schemaname
				out.Targets = append(out.Targets, t)
				continue
			}
		}
		r, err := b.resolveRelation(rv)
		if err != nil && pgerr.As(err).Code != pgerr.UndefinedTable {
			return nil, withoutPosition(err)
		}
		switch r.kind {
		case relTable:
			t.Key, t.Temp = r.key, r.temp
			if r.temp {
				t.Key = rv.Relname
			}
		case relView:
			t.Key, t.IsView = r.key, true
		case relSequence:
			t.Key, t.IsSeq = r.key, true
		case relSystem:
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied: \"%s\" is a system catalog", rv.Relname)
		}
		out.Targets = append(out.Targets, t)
	}
	switch ds.RemoveType {
	case pg_query.ObjectType_OBJECT_VIEW:
		return &DropView{Targets: out.Targets, IfExists: out.IfExists, Cascade: out.Cascade, RelName: out.RelName}, nil
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return &DropSequence{Targets: out.Targets, IfExists: out.IfExists, Cascade: out.Cascade, RelName: out.RelName}, nil
	case pg_query.ObjectType_OBJECT_FOREIGN_TABLE:
		return &DropForeignTable{DropTable: *out}, nil // foreign.go
	}
	return out, nil
}

func (b *binder) bindTruncate(ts *pg_query.TruncateStmt) (Statement, error) {
	out := &Truncate{RestartSeqs: ts.RestartSeqs, Cascade: ts.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, r := range ts.Relations {
		rv := r.GetRangeVar()
		t, err := b.lookupTable(rv)
		if err != nil {
			if verr := b.notATable(rv, "truncate"); verr != nil {
				return nil, verr
			}
			// PostgreSQL opens TRUNCATE's relations without a parse
			// state, so its errors carry no cursor position.
			return nil, withoutPosition(err)
		}
		b.notePermRV(rv, storage.PrivTruncate)
		if err := foreignWriteErr(t, "truncate"); err != nil { // foreign.go
			return nil, err
		}
		out.Tables = append(out.Tables, t)
	}
	return out, nil
}

func (b *binder) bindExplain(es *pg_query.ExplainStmt) (Statement, error) {
	out := &Explain{Costs: true}
	for _, o := range es.Options {
		d := o.GetDefElem()
		val, err := defElemBool(d)
		if d.Defname == "format" {
			switch f := strings.ToLower(defElemString(d)); f {
			case "text":
				out.Format = ""
			case "json", "yaml", "xml":
				out.Format = f
			default:
				return nil, b.errAt(pgerr.New(pgerr.InvalidParameterValue, "unrecognized value for EXPLAIN option \"format\": \"%s\"", f), d.Location)
			}
			continue
		}
		switch d.Defname {
		case "analyze", "verbose", "costs", "buffers", "timing", "summary", "settings", "wal":
			if err != nil {
				return nil, b.errAt(pgerr.New(pgerr.InvalidParameterValue, "%s", err.Error()), d.Location)
			}
		default:
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "unrecognized EXPLAIN option \"%s\"", d.Defname), d.Location)
		}
		switch d.Defname {
		case "analyze":
			out.Analyze = val
		case "verbose":
			out.Verbose = val
		case "costs":
			out.Costs = val
		}
	}
	sel := es.Query.GetSelectStmt()
	if hasModifyingCTE(topWith(es.Query)) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of a statement with data-modifying WITH queries is not supported")
	}
	if dml, source, ok, err := b.bindExplainDML(es.Query); ok { // explaindml.go
		if err != nil {
			return nil, err
		}
		if out.Format != "" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN (FORMAT %s) of %s is not supported", strings.ToUpper(out.Format), statementName(es.Query))
		}
		out.DML, out.Query = dml, source
		return out, nil
	}
	if sel == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of %s is not supported", statementName(es.Query))
	}
	q, err := b.bindQueryStmt(sel)
	if err != nil {
		return nil, err
	}
	out.Query = q
	return out, nil
}

// defElemBool is defGetBoolean.
func defElemBool(d *pg_query.DefElem) (bool, error) {
	if d.Arg == nil {
		return true, nil
	}
	if c := d.Arg.GetAConst(); c != nil && c.GetIval() != nil {
		switch c.GetIval().Ival {
		case 0:
			return false, nil
		case 1:
			return true, nil
		}
	}
	switch strings.ToLower(defElemString(d)) {
	case "true", "on":
		return true, nil
	case "false", "off":
		return false, nil
	}
	return false, pgerr.New(pgerr.InvalidParameterValue, "%s requires a Boolean value", d.Defname)
}

func defElemString(d *pg_query.DefElem) string {
	if d.Arg == nil {
		return ""
	}
	if s := d.Arg.GetString_(); s != nil {
		return s.Sval
	}
	if c := d.Arg.GetAConst(); c != nil {
		return constText(c)
	}
	return ""
}

// constText renders a literal as SET would receive it.
func constText(c *pg_query.A_Const) string {
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return strconvItoa(int64(v.Ival.Ival))
	case *pg_query.A_Const_Fval:
		return v.Fval.Fval
	case *pg_query.A_Const_Sval:
		return v.Sval.Sval
	case *pg_query.A_Const_Boolval:
		if v.Boolval.Boolval {
			return "on"
		}
		return "off"
	}
	return ""
}

func (b *binder) bindSet(vs *pg_query.VariableSetStmt) (Statement, error) {
	name := strings.ToLower(vs.Name)
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		var parts []string
		for _, a := range vs.Args {
			switch x := a.GetNode().(type) {
			case *pg_query.Node_AConst:
				parts = append(parts, constText(x.AConst))
			case *pg_query.Node_TypeCast:
				// SET TIME ZONE INTERVAL '...' and typed literals.
				c := x.TypeCast.Arg.GetAConst()
				if c == nil {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "unsupported SET value")
				}
				if isIntervalName(x.TypeCast.TypeName) {
					var f *types.Format
					if b.opts != nil && b.opts.EvalContext != nil {
						f = b.opts.EvalContext.Format
					}
					v, err := setIntervalArg(constText(c), x.TypeCast.TypeName, f)
					if err != nil {
						return nil, err
					}
					parts = append(parts, v)
					continue
				}
				parts = append(parts, constText(c))
			default:
				return nil, pgerr.New(pgerr.FeatureNotSupported, "unsupported SET value")
			}
		}
		return &Set{Name: name, Value: strings.Join(parts, ", "), Args: parts, Local: vs.IsLocal}, nil
	case pg_query.VariableSetKind_VAR_SET_DEFAULT:
		return &Set{Name: name, Reset: true, Default: true, Local: vs.IsLocal}, nil
	case pg_query.VariableSetKind_VAR_RESET:
		return &Set{Name: name, Reset: true, Local: vs.IsLocal}, nil
	case pg_query.VariableSetKind_VAR_RESET_ALL:
		return &Set{Reset: true, All: true}, nil
	case pg_query.VariableSetKind_VAR_SET_MULTI:
		// SET TRANSACTION / SET SESSION CHARACTERISTICS (settx.go).
		return b.bindSetMulti(vs)
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "SET %s FROM CURRENT is not supported", name)
}

func (b *binder) bindTransaction(ts *pg_query.TransactionStmt) (Statement, error) {
	if ts.Chain {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "AND CHAIN is not supported")
	}
	switch ts.Kind {
	case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN, pg_query.TransactionStmtKind_TRANS_STMT_START:
		return &Transaction{Kind: TxBegin, Modes: transactionModes(ts.Options, ""), Start: ts.Kind == pg_query.TransactionStmtKind_TRANS_STMT_START}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT:
		return &Transaction{Kind: TxCommit}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		return &Transaction{Kind: TxRollback}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		return &Transaction{Kind: TxSavepoint, Savepoint: ts.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_RELEASE:
		return &Transaction{Kind: TxRelease, Savepoint: ts.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return &Transaction{Kind: TxRollbackTo, Savepoint: ts.SavepointName}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "two-phase commit is not supported")
}

var _ = context.Background
