package engine

import (
	"context"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// SQL-level prepared statements: PREPARE makes the same preparedStmt the
// extended protocol's Parse makes (extended.go: prepareRaw) and keeps it
// in the same statement table (wire.Objects), so Bind can use a PREPAREd
// name, Parse of one is 42P05, and DEALLOCATE (which wire runs) removes
// either kind, as in PostgreSQL. EXECUTE binds the statement again, in
// the catalog as it is then, with its arguments as the $n values.

// preparedParams is the binder's view of the statement table, for
// EXECUTE's argument count and types.
func (s *session) preparedParams(name string) ([]types.Type, bool) {
	ps, ok := s.preparedByName(name)
	if !ok {
		return nil, false
	}
	return ps.paramTypes, true
}

func (s *session) preparedByName(name string) (*preparedStmt, bool) {
	if name == "" {
		return nil, false // the unnamed statement is the protocol's alone
	}
	p, ok := s.objs.Statement(name)
	if !ok {
		return nil, false
	}
	ps, ok := p.(*preparedStmt)
	return ps, ok
}

// prepareSQL runs PREPARE: the statement is bound now (inferring the
// parameter types not given), and stored under its name.
func (s *session) prepareSQL(x *sql.Prepare) (string, error) {
	pts := append([]types.Type(nil), x.ParamTypes...)
	ps, _, err := s.prepareRaw(x.Stmt, pts, s.cur)
	if err != nil {
		return "", err
	}
	ps.text, ps.fromSQL = x.Stmt.Query(), true
	if !s.objs.AddStatement(x.Name, ps) {
		return "", pgerr.New("42P05", "prepared statement \"%s\" already exists", x.Name)
	}
	return "PREPARE", nil
}

// executeSQL runs EXECUTE: the arguments are evaluated, then the
// statement runs with them as its parameters.
func (s *session) executeSQL(ctx context.Context, x *sql.Execute, ectx *types.EvalContext, w wire.ResultWriter) (string, error) {
	ps, ok := s.preparedByName(x.Name)
	if !ok {
		return "", pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", x.Name)
	}
	if ps.raw == nil {
		return "", nil
	}
	vals := make([]types.Value, len(ps.paramTypes))
	if len(vals) > 0 {
		recs, err := s.collect(ctx, x.Args, ectx)
		if err != nil {
			return "", err
		}
		for _, rec := range recs {
			if rec.NumRows() == 0 {
				continue
			}
			for i := range vals {
				vals[i] = types.GetValue(rec.Column(i), ps.paramTypes[i], 0)
			}
		}
	}
	opts := s.bindOptions(ectx, append([]types.Type(nil), ps.paramTypes...))
	bound, err := s.bind(ps.raw, s.cur, opts)
	if err == nil {
		err = ps.sameResult(bound)
	}
	if err == nil {
		err = s.checkPrivileges(bound, opts.Perms) // roles.go
	}
	if err != nil {
		return "", err
	}
	if q, ok := bound.(*sql.Query); ok {
		plan.BindLimitParams(q.Plan, vals)
	}
	saved := s.params
	s.params = vals
	defer func() { s.params = saved }()
	return s.run(ctx, bound, ectx, w)
}

// sessionObjects lists the session's cursors and prepared statements for
// pg_cursors and pg_prepared_statements (pgcatalog.SessionObjects).
type sessionObjects struct{ s *session }

// PreparedStatements implements pgcatalog.SessionObjects.
func (o sessionObjects) PreparedStatements() []pgcatalog.PreparedInfo {
	var out []pgcatalog.PreparedInfo
	for _, name := range o.s.objs.StatementNames() {
		ps, ok := o.s.preparedByName(name)
		if !ok {
			continue
		}
		out = append(out, pgcatalog.PreparedInfo{Name: name, Statement: ps.text, Prepared: ps.created,
			ParamTypes: ps.paramTypes, FromSQL: ps.fromSQL})
	}
	return out
}

// sameResult refuses a statement whose rows, bound again, are no longer
// the ones it was prepared with (a column renamed, retyped, added), as
// PostgreSQL's RevalidateCachedQuery does for every prepared statement.
func (ps *preparedStmt) sameResult(bound sql.Statement) error {
	cols := statementColumns(bound)
	if x, ok := bound.(*sql.Execute); ok {
		inner, ok := ps.s.preparedByName(x.Name)
		if !ok {
			return nil
		}
		cols = inner.cols
	}
	same := len(cols) == len(ps.cols)
	for i := 0; same && i < len(cols); i++ {
		a, b := cols[i], ps.cols[i]
		same = a.Name == b.Name && a.TypeOID == b.TypeOID && a.TypeMod == b.TypeMod
	}
	if !same {
		return pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
	}
	return nil
}
