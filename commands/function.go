package commands

import (
	"context"
	"fmt"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// CREATE / DROP FUNCTION of SQL functions (the binder checked the body):
// PostgreSQL's ProcedureCreate rules for OR REPLACE, the creating role the
// owner, only the owner replacing or dropping one.

func createFunction(ctx context.Context, s Session, x *sql.CreateFunction) (string, error) {
	cat := s.Catalog().Txn
	f := x.Func
	for _, old := range cat.Functions() {
		if old.Schema != f.Schema || old.Name != f.Name || !sql.SameTypeOIDs(old.InputTypes(), f.InputTypes()) {
			continue
		}
		if !x.Replace {
			return "", pgerr.New("42723", "function \"%s\" already exists with same argument types", f.Name)
		}
		if err := checkOwner(s, old.OID(), "function", f.Name); err != nil { // roles.go
			return "", err
		}
		if old.Result != f.Result || old.RetSet != f.RetSet {
			return "", pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change return type of existing function").
				WithHint("Use DROP FUNCTION %s first.", sql.FuncSignature(old))
		}
		f.ID = old.ID
		return "CREATE FUNCTION", cat.ReplaceFunction(ctx, f)
	}
	if err := checkCreateInSchemaID(s, f.Schema); err != nil { // roles.go
		return "", err
	}
	nf, err := cat.CreateFunction(ctx, f)
	if err != nil {
		return "", err
	}
	return "CREATE FUNCTION", recordOwnerOf(s, nf.OID(), schemaOIDOfID(s, nf.Schema), storage.KindFunction) // roles.go
}

func dropFunction(ctx context.Context, s Session, x *sql.DropFunction) (string, error) {
	for _, m := range x.Missing {
		if err := s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000", Message: m}); err != nil {
			return "", err
		}
	}
	cat := s.Catalog().Txn
	for _, f := range x.Funcs {
		if err := checkOwner(s, f.OID(), "function", f.Name); err != nil {
			return "", err
		}
		if err := cat.DropFunction(ctx, f.ID); err != nil {
			return "", fmt.Errorf("drop function %s: %w", f.Name, err)
		}
	}
	return "DROP FUNCTION", nil
}

// alterFunction is ALTER FUNCTION's attribute changes, by the owner.
func alterFunction(ctx context.Context, s Session, x *sql.AlterFunction) (string, error) {
	if err := checkOwner(s, x.Func.OID(), "function", x.Func.Name); err != nil {
		return "", err
	}
	return "ALTER FUNCTION", s.Catalog().Txn.ReplaceFunction(ctx, x.Func)
}

// schemaFunctions are the functions of the schemas DROP SCHEMA drops,
// with the lines its NOTICE or error lists for them.
func schemaFunctions(cat *Catalog, names []string, cascade bool) ([]storage.Function, []string) {
	var out []storage.Function
	var lines []string
	for _, name := range names {
		sc, ok := schemas(cat).LookupSchema(name)
		if !ok {
			continue
		}
		for _, f := range cat.Txn.Functions() {
			if f.Schema != sc.ID {
				continue
			}
			out = append(out, f)
			sig := name + "." + sql.FuncSignature(f)
			if cascade {
				lines = append(lines, "drop cascades to function "+sig)
			} else {
				lines = append(lines, fmt.Sprintf("function %s depends on schema %s", sig, name))
			}
		}
	}
	return out, lines
}
