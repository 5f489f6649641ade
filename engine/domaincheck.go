package engine

import (
	"context"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// domainChecker is types.EvalContext.Domains: a domain's constraints
// tested at execution (json[b]_populate_record's domain fields and
// results), bound over the catalog of the statement running (s.cur) and
// evaluated as a constant expression.
type domainChecker struct{ s *session }

func (d domainChecker) CheckDomain(ectx *types.EvalContext, t types.Type, v types.Value) error {
	cat := d.s.cur
	if cat == nil {
		cat = d.s.binding // a constant folded while the statement binds
	}
	if cat == nil {
		return pgerr.New(pgerr.FeatureNotSupported, "checking the constraints of a domain needs a running statement")
	}
	e, err := sql.DomainCheckExpr(cat, t, v)
	if err != nil {
		return err
	}
	c, err := operators.Compile(e, nil, &operators.Env{Eval: ectx})
	if err != nil {
		return err
	}
	ctx := ectx.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	_, err = c.EvalConst(ctx)
	return err
}

// bind is sql.Bind with cat the catalog domain checks read meanwhile.
func (s *session) bind(raw *sql.RawStatement, cat storage.Catalog, opts *sql.BindOptions) (sql.Statement, error) {
	if c, ok := cat.(*commands.Catalog); ok && c != nil {
		prev := s.binding
		s.binding = c
		defer func() { s.binding = prev }()
	}
	return sql.Bind(raw, cat, opts)
}
