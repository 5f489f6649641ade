package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Domains: CREATE DOMAIN name AS type [DEFAULT e] [NOT NULL | NULL]
// [[CONSTRAINT c] CHECK (e)]..., over a base type or another domain, and
// coercion to a domain: a value converted to the base type, then the
// constraints of the domain and the domains under it checked
// (types.DomainCheck) with each CHECK bound over the value, as
// PostgreSQL's CoerceToDomain. A domain's value is read as its base type
// everywhere else, so coercing from a domain is coercing from its base.
// To an array of a domain (dom[]) the elements are checked by the array
// cast (types' castArray). ALTER DOMAIN is domain_alter.go.

// CreateDomain is CREATE DOMAIN.
type CreateDomain struct {
	Schema  uint64
	Name    string
	Base    types.Type
	NotNull bool
	Default string
	Checks  []types.DomainConstraint
}

func (*CreateDomain) statement() {}

func (b *binder) bindCreateDomain(cd *pg_query.CreateDomainStmt) (Statement, error) {
	schema, name, err := b.createNamed(nameParts(cd.Domainname), "types") // names.go
	if err != nil {
		return nil, err
	}
	base, err := b.typeFromName(cd.TypeName)
	if err != nil {
		return nil, err
	}
	if base.ID == types.Record && !base.IsComposite() || base.ID == types.Unknown || base.ID == types.Void {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "\"%s\" is not a valid base type for a domain", base.SQLName()), cd.TypeName.Location)
	}
	if cd.CollClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE DOMAIN ... COLLATE is not supported")
	}
	out := &CreateDomain{Schema: schema, Name: name, Base: base}
	used := b.usedConstraintNames(schema)
	b.noteDomainConstraintNames(schema, used)
	ownDefault := false
	sawNull, sawNotNull := false, false
	for _, n := range cd.Constraints {
		c := n.GetConstraint()
		if c == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this CREATE DOMAIN constraint is not supported")
		}
		switch c.Contype {
		case pg_query.ConstrType_CONSTR_NOTNULL:
			if sawNull {
				return nil, pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			sawNotNull, out.NotNull = true, true
		case pg_query.ConstrType_CONSTR_NULL:
			if sawNotNull {
				return nil, pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			sawNull = true
		case pg_query.ConstrType_CONSTR_DEFAULT:
			if out.Default != "" {
				return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "multiple default expressions"), c.Location)
			}
			if out.Default, err = b.bindDomainDefault(c.RawExpr, base.BaseType()); err != nil {
				return nil, err
			}
			ownDefault = true
		case pg_query.ConstrType_CONSTR_CHECK:
			if c.Conname != "" && used[c.Conname] {
				return nil, pgerr.New("42710", "constraint \"%s\" for domain \"%s\" already exists", c.Conname, name)
			}
			check, err := b.bindDomainCheck(c, base.BaseType(), name, used)
			if err != nil {
				return nil, err
			}
			out.Checks = append(out.Checks, check)
		default:
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "this CREATE DOMAIN constraint is not supported"), c.Location)
		}
	}
	if !ownDefault && base.Domain != 0 {
		// A domain over a domain starts with its DEFAULT, as DefineDomain.
		if d, ok := b.lookupDomain(base.Domain); ok {
			out.Default = d.Default
		}
	}
	return out, nil
}

// coerceDomain is coerce where either side is a domain: from a domain as
// from its base type, to a domain by way of its base type, then its
// constraints.
func (b *binder) coerceDomain(e plan.Expr, t types.Type, ctx coerceCtx, loc int32) (plan.Expr, error) {
	from := e.Type()
	if from.Domain != 0 && from.BaseType() == t.BaseType() && t.Domain == 0 {
		return b.keepLoc(&plan.Cast{Input: e, T: t, Explicit: ctx == coerceExplicit}, e), nil
	}
	if from.Domain != 0 {
		e = b.keepLoc(&plan.Cast{Input: e, T: from.BaseType(), Explicit: true}, e)
	}
	if t.Domain == 0 {
		return b.coerce(e, t, ctx, loc)
	}
	v, err := b.coerce(e, t.BaseType(), ctx, loc)
	if err != nil {
		return nil, err
	}
	return b.coerceToDomain(v, t)
}

// coerceToDomain checks value v (of the domain's base type) against
// domain t's constraints and those of the domains it is over.
func (b *binder) coerceToDomain(v plan.Expr, t types.Type) (plan.Expr, error) {
	name, notNull, checks, err := b.domainConstraints(t.Domain) // domain_alter.go
	if err != nil {
		return nil, err
	}
	args := []plan.Expr{v}
	for _, c := range checks {
		tree, err := pg_query.Parse("SELECT " + c.Expr)
		if err != nil {
			return nil, err
		}
		node := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().GetVal()
		saved := b.domainValue
		b.domainValue = v
		e, err := b.bindExpr(&scope{}, node)
		b.domainValue = saved
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	return b.keepLoc(&plan.Call{Func: types.DomainCheck(t, name, notNull, checks), Args: args}, v), nil
}

// domainDefault is the default of a column of a domain type without one
// of its own: the domain's DEFAULT, else NULL, checked against the domain
// (a NOT NULL domain refuses it) as PostgreSQL's build_column_default.
func (b *binder) domainDefault(def storage.ColumnDef) (plan.Expr, error) {
	if d, ok := b.lookupDomain(def.Type.Domain); ok && d.Default != "" {
		def.Default = d.Default
		return b.bindDefault(def)
	}
	return b.coerceToDomain(&plan.Const{Val: types.NullValue, T: def.Type.BaseType()}, def.Type)
}

// DomainCheckExpr is domain_check of the value v (of domain t's base type)
// at execution, where types reaches a domain no bound expression coerces
// to (json[b]_populate_record): the coercion to t of the constant v, its
// constraints read through cat, for the caller to evaluate.
func DomainCheckExpr(cat storage.Catalog, t types.Type, v types.Value) (plan.Expr, error) {
	b := newBinder("", cat, &BindOptions{})
	return b.coerceToDomain(&plan.Const{Val: v, T: t.BaseType()}, t)
}
