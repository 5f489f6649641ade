package commands

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Session is what a command needs of the session running it, and all it
// may reach: the statement's catalog, its queries' results, the output
// format and the client's NOTICEs.
type Session interface {
	// Catalog is the statement's catalog: the session's temporary tables
	// in front of its transaction's permanent ones.
	Catalog() *Catalog
	// Collect runs a bound query in the statement's transaction and eval
	// context and returns all its batches (CREATE TABLE AS, INSERT).
	Collect(ctx context.Context, q *sql.Query) ([]arrow.Record, error)
	// Format is the session's output format (an error's detail quotes
	// values in it).
	Format() *types.Format
	// Notice sends n (a NOTICE or WARNING) to the client before the
	// command completes.
	Notice(n *pgerr.Error) error
	// SendRows sends rows of the columns cols to the client (RETURNING).
	SendRows(cols []plan.Column, recs []arrow.Record) error
	// Sequences is the session's sequence state (currval, lastval).
	Sequences() *SeqState
	// RowMoves is where an UPDATE of t reports the new RowIDs of the rows
	// it updated (WHERE CURRENT OF follows a cursor's row to its new
	// version); nil when no open cursor reads t.
	RowMoves(t storage.Table) func(from, to []storage.RowID)
	// Roles is who runs the statement (roles.go).
	Roles() RoleContext
}

// Execute runs st if it is a command of this package and returns its
// command tag; ok is false for any other statement (the caller runs it).
func Execute(ctx context.Context, s Session, st sql.Statement) (tag string, ok bool, err error) {
	switch x := st.(type) {
	case *sql.CreateTable:
		tag, err = createTable(ctx, s, x)
	case *sql.CreateTableAs:
		tag, err = createTableAs(ctx, s, x)
	case *sql.DropTable:
		tag, err = dropTable(ctx, s, x)
	case *sql.CreateForeignObject: // foreign.go
		tag, err = createForeignObject(ctx, s, x)
	case *sql.CreateForeignTable:
		tag, err = createForeignTable(ctx, s, x)
	case *sql.DropForeignObject:
		tag, err = dropForeignObject(ctx, s, x)
	case *sql.DropForeignTable:
		tag, err = dropRelations(ctx, s, &x.DropTable, "foreign table", "DROP FOREIGN TABLE")
	case *sql.CreateView:
		tag, err = createView(ctx, s, x)
	case *sql.DropView:
		tag, err = dropView(ctx, s, x)
	case *sql.Insert:
		tag, err = insert(ctx, s, x)
	case *sql.CreateRole:
		tag, err = createRole(ctx, s, x)
	case *sql.AlterRole:
		tag, err = alterRole(ctx, s, x)
	case *sql.DropRole:
		tag, err = dropRole(ctx, s, x)
	case *sql.DropOwned:
		tag, err = dropOwned(ctx, s, x) // owned.go
	case *sql.ReassignOwned:
		tag, err = reassignOwned(ctx, s, x)
	case *sql.GrantRole:
		tag, err = grantRole(ctx, s, x)
	case *sql.GrantPrivs:
		tag, err = grantPrivs(ctx, s, x)
	case *sql.Update:
		tag, err = update(ctx, s, x)
	case *sql.Delete:
		tag, err = deleteStmt(ctx, s, x)
	case *sql.Merge:
		tag, err = merge(ctx, s, x)
	case *sql.Truncate:
		var tables []storage.Table
		if tables, err = truncateTargets(s, x); err == nil {
			tag, err = truncate(ctx, s, x, tables)
		}
	case *sql.CreateSequence:
		tag, err = createSequence(ctx, s, x)
	case *sql.AlterSequence:
		tag, err = alterSequence(ctx, s, x)
	case *sql.SetSchema:
		tag, err = setSchema(ctx, s, x) // setschema.go
	case *sql.DropSequence:
		tag, err = dropSequence(ctx, s, x)
	case *sql.Analyze:
		tag, err = analyze(ctx, s, x)
	case *sql.CreateIndex:
		tag, err = createIndex(ctx, s, x)
	case *sql.DropIndex:
		tag, err = dropIndex(ctx, s, x)
	case *sql.Reindex:
		tag, err = reindex(s, x)
	case *sql.AlterIndexRename:
		tag, err = alterIndexRename(ctx, s, x)
	case *sql.AlterTable:
		tag, err = alterTable(ctx, s, x)
	case *sql.SetConstraints:
		tag, err = setConstraints(ctx, s, x) // constraint.go
	case *sql.Rename:
		tag, err = renameRelation(ctx, s, x)
	case *sql.Comment:
		tag, err = comment(ctx, s, x)
	case *sql.CommentType:
		tag, err = commentType(ctx, s, x) // comment.go
	case *sql.CreateSchema:
		tag, err = createSchema(ctx, s, x)
	case *sql.DropSchema:
		tag, err = dropSchema(ctx, s, x)
	case *sql.AlterSchema:
		tag, err = alterSchema(ctx, s, x)
	case *sql.CreateEnum:
		tag, err = createEnum(ctx, s, x) // usertypes.go
	case *sql.CreateComposite:
		tag, err = createComposite(ctx, s, x) // usertypes_composite.go
	case *sql.AlterComposite:
		tag, err = alterComposite(ctx, s, x)
	case *sql.AlterEnum:
		tag, err = alterEnum(ctx, s, x)
	case *sql.DropType:
		tag, err = dropType(ctx, s, x)
	case *sql.RenameType:
		tag, err = renameType(ctx, s, x)
	case *sql.CreateDomain:
		tag, err = createDomain(ctx, s, x)
	case *sql.AlterDomain:
		tag, err = alterDomain(ctx, s, x) // domain.go
	case *sql.TypeOwner:
		tag, err = typeOwner(ctx, s, x)
	case *sql.CreateFunction:
		tag, err = createFunction(ctx, s, x) // function.go
	case *sql.DropFunction:
		tag, err = dropFunction(ctx, s, x)
	case *sql.AlterFunction:
		tag, err = alterFunction(ctx, s, x)
	default:
		return "", false, nil
	}
	return tag, true, err
}

// ReadOnlyErr refuses a statement that writes, for a read-only
// transaction (transaction_read_only on), as PostgreSQL: writing rows to
// a temporary table is allowed, any DDL is not. It judges every statement,
// COPY FROM included.
func ReadOnlyErr(cat *Catalog, st sql.Statement) error {
	var what string
	switch x := st.(type) {
	case *sql.CreateTable:
		what = "CREATE TABLE"
	case *sql.CreateTableAs:
		what = "CREATE TABLE AS"
	case *sql.DropTable:
		what = "DROP TABLE"
	case *sql.CreateForeignObject:
		what = "CREATE SERVER"
		if x.Object.Kind == 'e' {
			what = "CREATE EXTENSION"
		}
	case *sql.CreateForeignTable:
		what = "CREATE FOREIGN TABLE"
	case *sql.DropForeignObject:
		what = "DROP SERVER"
		if x.Kind == 'e' {
			what = "DROP EXTENSION"
		}
	case *sql.DropForeignTable:
		what = "DROP FOREIGN TABLE"
	case *sql.CreateView:
		what = "CREATE VIEW"
	case *sql.DropView:
		what = "DROP VIEW"
	case *sql.Truncate:
		what = "TRUNCATE TABLE"
	case *sql.CreateIndex:
		what = "CREATE INDEX"
	case *sql.DropIndex:
		what = "DROP INDEX"
	case *sql.Reindex:
		what = "REINDEX"
	case *sql.AlterIndexRename:
		what = "ALTER INDEX"
	case *sql.CreateSequence:
		what = "CREATE SEQUENCE"
	case *sql.AlterSequence:
		what = "ALTER SEQUENCE"
		if x.Tag != "" {
			what = x.Tag // COMMENT, ALTER TABLE
		}
	case *sql.SetSchema:
		what = x.Tag
	case *sql.DropSequence:
		what = "DROP SEQUENCE"
	case *sql.AlterTable:
		what = x.Tag
	case *sql.Rename:
		what = x.Tag
	case *sql.Comment, *sql.CommentType:
		what = "COMMENT"
	case *sql.CreateSchema:
		what = "CREATE SCHEMA"
	case *sql.DropSchema:
		what = "DROP SCHEMA"
	case *sql.AlterSchema:
		what = "ALTER SCHEMA"
	case *sql.CreateEnum:
		what = "CREATE TYPE"
	case *sql.CreateComposite:
		what = "CREATE TYPE"
	case *sql.AlterComposite:
		what = "ALTER TYPE"
	case *sql.AlterEnum:
		what = "ALTER TYPE"
	case *sql.DropType:
		what = "DROP TYPE"
	case *sql.RenameType:
		what = "ALTER TYPE"
	case *sql.CreateDomain:
		what = "CREATE DOMAIN"
	case *sql.AlterDomain:
		what = "ALTER DOMAIN"
	case *sql.TypeOwner:
		what = "ALTER TYPE"
	case *sql.CreateFunction:
		what = "CREATE FUNCTION"
	case *sql.DropFunction:
		what = "DROP FUNCTION"
	case *sql.AlterFunction:
		what = "ALTER FUNCTION"
	case *sql.CreateRole:
		what = "CREATE ROLE"
	case *sql.AlterRole:
		what = "ALTER ROLE"
	case *sql.DropRole:
		what = "DROP ROLE"
	case *sql.DropOwned:
		what = "DROP OWNED"
	case *sql.ReassignOwned:
		what = "REASSIGN OWNED"
	case *sql.GrantRole:
		what = "GRANT ROLE"
	case *sql.GrantPrivs:
		what = "GRANT"
	case *sql.Insert:
		if !cat.IsTemp(x.Table) {
			what = "INSERT"
		}
	case *sql.Update:
		if !cat.IsTemp(x.Table) {
			what = "UPDATE"
		}
	case *sql.Delete:
		if !cat.IsTemp(x.Table) {
			what = "DELETE"
		}
	case *sql.Merge:
		if !cat.IsTemp(x.Table) {
			what = "MERGE"
		}
	case *sql.Copy:
		if x.From && !cat.IsTemp(x.Table) {
			what = "COPY FROM"
		}
	}
	if what == "" {
		return nil
	}
	return pgerr.New("25006", "cannot execute %s in a read-only transaction", what)
}
