package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Statement is one bound statement, ready for the engine to run.
type Statement interface{ statement() }

// Query is a SELECT / VALUES / set operation / WITH query.
type Query struct {
	Plan  plan.Node
	IDs   *plan.IDAllocator // continue allocating column IDs from here
	Names []string          // output column names (also in Plan.Columns()[i].Name)
	Perms []PermCheck       // the privileges it needs (privileges.go)
}

// CreateTable is CREATE TABLE name (cols).
type CreateTable struct {
	Name        string
	Columns     []storage.ColumnDef
	IfNotExists bool
	Temp        bool     // CREATE TEMP TABLE (sql/temp.go)
	OnCommit    OnCommit // a temporary table's ON COMMIT action
	// Constraints are its PRIMARY KEY, UNIQUE, CHECK and FOREIGN KEY
	// constraints, named (sql/constraint.go).
	Constraints []storage.Constraint
	// Sequences are the sequences its serial and identity columns own,
	// created before it; each column's DEFAULT is then its nextval
	// (NextvalDefault).
	Sequences []storage.Sequence
}

// CreateTableAs is CREATE TABLE name [(col names)] AS query [WITH [NO] DATA].
type CreateTableAs struct {
	Name        string
	Columns     []storage.ColumnDef // names (after the optional column list) and types of Query
	Query       *Query
	WithNoData  bool
	IfNotExists bool
	Temp        bool
	OnCommit    OnCommit
}

// DropTable is DROP TABLE [IF EXISTS] names [CASCADE | RESTRICT].
type DropTable struct {
	Targets  []DropTarget // the names, resolved by the binder (names.go)
	IfExists bool
	Cascade  bool    // also drop the views that depend on the tables
	RelName  RelName // names relations in messages
}

// DropTarget is one name of DROP TABLE / DROP VIEW as the search path
// resolved it.
type DropTarget struct {
	Name string // the bare name, for messages
	// Key is the relation's storage key (a temporary table's bare name);
	// "" when no relation has the name.
	Key    string
	Temp   bool
	IsView bool
	IsSeq  bool // a sequence (DROP TABLE and DROP VIEW refuse it)
	// NoSchema is the named schema that does not exist ("" = none).
	NoSchema string
}

// CreateView is CREATE [OR REPLACE] VIEW name [(cols)] AS query. The view
// holds the query as SQL text; the binder checked that it binds.
type CreateView struct {
	View    storage.View
	Replace bool
}

// DropView is DROP VIEW [IF EXISTS] names [CASCADE | RESTRICT].
type DropView struct {
	Targets  []DropTarget
	IfExists bool
	Cascade  bool // also drop the views that depend on them
	RelName  RelName
}

// Insert is INSERT INTO table [(cols)] source. Source yields one column per
// table column, in table order (omitted columns filled with their DEFAULT or
// NULL, values cast to the column types); the engine checks NOT NULL.
// With RETURNING, Source's rows end with the Returning columns.
type Insert struct {
	Table  storage.Table
	Source *Query
	// OnConflict is the ON CONFLICT clause (nil: none; sql/onconflict.go).
	OnConflict *OnConflict
	// Returning are the RETURNING columns (nil: none; sql/returning.go),
	// computed after the table's in the source's rows.
	Returning []plan.Column
	// Iceberg is set for an INSERT into an Iceberg foreign table, which
	// appends a snapshot (sql/iceberg.go).
	Iceberg *IcebergAppend
}

// Truncate is TRUNCATE [TABLE] names.
type Truncate struct {
	Tables []storage.Table
	// RestartSeqs: RESTART IDENTITY (the sequences the tables' columns
	// own restart).
	RestartSeqs bool
	// Cascade also truncates the tables whose FOREIGN KEYs reference
	// them.
	Cascade bool
}

// Analyze is ANALYZE [table [(columns)], ...] and VACUUM [ANALYZE] ...
// (Vacuum). joind's statistics are kept current by every commit (per
// segment, merged per version: storage.Stats), so the statement checks its
// relations and columns and changes nothing. No relations: every table.
type Analyze struct {
	Vacuum bool
	Full   bool // VACUUM FULL
	// Analyzes: ANALYZE, or VACUUM (ANALYZE) (pg_stat_all_tables.last_analyze).
	Analyzes bool
	Rels     []AnalyzeRel
}

// AnalyzeRel is one relation of ANALYZE: Table is nil for a view, which
// PostgreSQL skips with a WARNING.
type AnalyzeRel struct {
	Table storage.Table
	Name  string
	Cols  []string
}

// Explain is EXPLAIN [ANALYZE] query, or of a data-modifying statement
// (DML set; Query is then the query producing its rows).
type Explain struct {
	Query   *Query
	DML     *ExplainDML
	Analyze bool
	Verbose bool
	Costs   bool
	// Format is "" (text), "json", "yaml" or "xml".
	Format string
}

// PlanType is the type of EXPLAIN's QUERY PLAN column: json for FORMAT
// JSON, else text (FORMAT XML's is xml in PostgreSQL; joind has no xml
// type).
func (x *Explain) PlanType() types.Type {
	if x.Format == "json" {
		return types.JSONType
	}
	return types.TextType
}

// Set is SET [SESSION|LOCAL] name TO value / = value, and RESET (Value "" and Reset true).
type Set struct {
	Name    string   // lower-case
	Value   string   // the value as text (list values joined with ", ")
	Args    []string // the list values, each as text (settings flattens them)
	Local   bool
	Reset   bool
	Default bool // SET name TO DEFAULT: a reset whose command tag is SET
	All     bool // RESET ALL
	// Transaction marks SET TRANSACTION (a SET LOCAL of transaction_*).
	Transaction bool
	// Also are the further settings of one SET TRANSACTION (ISOLATION
	// LEVEL ..., READ ONLY), applied after this one.
	Also []Set
}

// Show is SHOW name / SHOW ALL.
type Show struct {
	Name string // as written, lower-cased; the column is named as PostgreSQL names it
}

// TxKind is a transaction-control statement.
type TxKind uint8

const (
	TxBegin TxKind = iota
	TxCommit
	TxRollback
	TxSavepoint
	TxRelease
	TxRollbackTo
)

// Transaction is BEGIN / START TRANSACTION / COMMIT / END / ROLLBACK / ABORT /
// SAVEPOINT / RELEASE / ROLLBACK TO.
type Transaction struct {
	Kind      TxKind
	Savepoint string
	// Modes are BEGIN's ISOLATION LEVEL / READ ONLY / READ WRITE, as SET
	// LOCALs of the new block.
	Modes []Set
	// Start is BEGIN spelled START TRANSACTION, whose command tag is
	// its own.
	Start bool
}

// Discard is DISCARD ALL (and friends).
type Discard struct{ What string }

// NoOp is a statement the binder answered itself (e.g. a no-op it
// accepts for compatibility); the engine returns Tag.
type NoOp struct {
	Tag string
	// Notice, if set, is sent to the client first (a skipped IF NOT EXISTS).
	Notice *pgerr.Error
}

func (*Query) statement()         {}
func (*CreateTable) statement()   {}
func (*CreateTableAs) statement() {}
func (*DropTable) statement()     {}
func (*CreateView) statement()    {}
func (*DropView) statement()      {}
func (*Insert) statement()        {}
func (*Truncate) statement()      {}
func (*Explain) statement()       {}
func (*Analyze) statement()       {}
func (*Set) statement()           {}
func (*Show) statement()          {}
func (*Transaction) statement()   {}
func (*Discard) statement()       {}
func (*NoOp) statement()          {}

var _ = types.BoolType
