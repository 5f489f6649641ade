package sql

import (
	"fmt"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// ALTER DOMAIN (PostgreSQL's AlterDomainDefault, AlterDomainNotNull,
// AlterDomainAddConstraint, AlterDomainDropConstraint,
// AlterDomainValidateConstraint and RenameConstraint on a domain): the
// binder resolves the domain and binds a new CHECK; commands/domain.go
// checks the stored values of the columns that use the domain
// (DomainValuesQuery) and changes the catalog.

// AlterDomain is one ALTER DOMAIN subcommand.
type AlterDomain struct {
	Type storage.UserType
	// Action is AlterDomainStmt's subtype: 'T' SET/DROP DEFAULT, 'N' DROP
	// NOT NULL, 'O' SET NOT NULL, 'C' ADD CONSTRAINT, 'X' DROP
	// CONSTRAINT, 'V' VALIDATE CONSTRAINT; 'R' is RENAME CONSTRAINT.
	Action  byte
	Default string                 // 'T': the new DEFAULT's text, "" drops it
	Check   types.DomainConstraint // 'C'
	Name    string                 // 'X', 'V', 'R': the constraint named
	NewName string                 // 'R'
	// MissingOk is DROP CONSTRAINT IF EXISTS.
	MissingOk bool
}

func (*AlterDomain) statement() {}

// lookupDomainType resolves names to a domain: 42704 if no type has the
// name, 42809 if it is no domain.
func (b *binder) lookupDomainType(names []string) (storage.UserType, error) {
	u, ok := b.lookupUserType(names)
	if !ok {
		if t, err := types.FromTypeName(names, nil, 0); err == nil {
			return storage.UserType{}, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", t.SQLName())
		}
		return storage.UserType{}, errNoType(names)
	}
	if u.Kind != 'd' {
		return storage.UserType{}, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", u.Name)
	}
	return u, nil
}

func (b *binder) bindAlterDomain(ad *pg_query.AlterDomainStmt) (Statement, error) {
	u, err := b.lookupDomainType(nameParts(ad.TypeName))
	if err != nil {
		return nil, err
	}
	if len(ad.Subtype) != 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this ALTER DOMAIN is not supported")
	}
	out := &AlterDomain{Type: u, Action: ad.Subtype[0], Name: ad.Name, MissingOk: ad.MissingOk}
	switch out.Action {
	case 'T':
		if ad.Def != nil {
			if out.Default, err = b.bindDomainDefault(ad.Def, u.Type().BaseType()); err != nil {
				return nil, err
			}
		}
	case 'N', 'O', 'X', 'V':
	case 'C':
		c := ad.Def.GetConstraint()
		if c == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this ALTER DOMAIN constraint is not supported")
		}
		switch c.Contype {
		case pg_query.ConstrType_CONSTR_CHECK:
		case pg_query.ConstrType_CONSTR_NOTNULL, pg_query.ConstrType_CONSTR_NULL:
			return nil, pgerr.New(pgerr.SyntaxError, "use ALTER DOMAIN .. [ SET | DROP ] NOT NULL instead")
		case pg_query.ConstrType_CONSTR_UNIQUE, pg_query.ConstrType_CONSTR_PRIMARY:
			return nil, pgerr.New(pgerr.SyntaxError, "unique constraints not possible for domains")
		case pg_query.ConstrType_CONSTR_EXCLUSION:
			return nil, pgerr.New(pgerr.SyntaxError, "exclusion constraints not possible for domains")
		case pg_query.ConstrType_CONSTR_FOREIGN:
			return nil, pgerr.New(pgerr.SyntaxError, "foreign key constraints not possible for domains")
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this ALTER DOMAIN constraint is not supported")
		}
		if c.Conname != "" {
			for _, x := range u.Checks {
				if x.Name == c.Conname {
					return nil, pgerr.New("42710", "constraint \"%s\" for domain \"%s\" already exists", c.Conname, u.Name)
				}
			}
		}
		used := b.usedConstraintNames(u.Schema)
		b.noteDomainConstraintNames(u.Schema, used)
		check, err := b.bindDomainCheck(c, u.Type().BaseType(), u.Name, used)
		if err != nil {
			return nil, err
		}
		check.NotValid = c.SkipValidation
		out.Check = check
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this ALTER DOMAIN is not supported")
	}
	return out, nil
}

// bindRenameDomainConstraint is ALTER DOMAIN d RENAME CONSTRAINT a TO b.
func (b *binder) bindRenameDomainConstraint(rs *pg_query.RenameStmt) (Statement, error) {
	var names []string
	if l := rs.Object.GetList(); l != nil {
		names = nameParts(l.Items)
	} else if tn := rs.Object.GetTypeName(); tn != nil {
		names = nameParts(tn.Names)
	}
	u, err := b.lookupDomainType(names)
	if err != nil {
		return nil, err
	}
	return &AlterDomain{Type: u, Action: 'R', Name: rs.Subname, NewName: rs.Newname}, nil
}

// bindDomainDefault binds a domain's DEFAULT expression (coercible to
// base by assignment) and returns its text.
func (b *binder) bindDomainDefault(n *pg_query.Node, base types.Type) (string, error) {
	e, err := b.bindExpr(&scope{}, n)
	if err != nil {
		return "", err
	}
	if _, err := b.coerce(e, base, coerceAssignment, nodeLocation(n)); err != nil {
		return "", err
	}
	return deparseExpr(n)
}

// bindDomainCheck binds a domain's CHECK over VALUE of type base and
// names it (domain_check as ChooseConstraintName, unless named).
func (b *binder) bindDomainCheck(c *pg_query.Constraint, base types.Type, domain string, used map[string]bool) (types.DomainConstraint, error) {
	b.domainValue = &plan.Const{Val: types.NullValue, T: base}
	e, err := b.bindExpr(&scope{exprKind: "check constraints"}, c.RawExpr)
	b.domainValue = nil
	if err != nil {
		return types.DomainConstraint{}, err
	}
	if e.Type().ID != types.Bool {
		return types.DomainConstraint{}, pgerr.New(pgerr.DatatypeMismatch, "argument of CHECK must be type boolean, not type %s", typeName(e.Type()))
	}
	text, err := deparseExpr(c.RawExpr)
	if err != nil {
		return types.DomainConstraint{}, err
	}
	name := c.Conname
	if name == "" {
		name = chooseName(domain, "", "check", used)
	}
	used[name] = true
	return types.DomainConstraint{Name: name, Expr: text}, nil
}

// noteDomainConstraintNames adds the names of the CHECK constraints of
// the domains in schema to used (pg_constraint's names share a schema).
func (b *binder) noteDomainConstraintNames(schema uint64, used map[string]bool) {
	tc := b.typeCatalog()
	if tc == nil {
		return
	}
	for _, u := range tc.UserTypes() {
		if u.Kind == 'd' && u.Schema == schema {
			for _, c := range u.Checks {
				used[c.Name] = true
			}
		}
	}
}

// lookupDomain is the description of domain oid as the statement's
// transaction sees it (an ALTER DOMAIN not yet committed by another
// session is not seen).
func (b *binder) lookupDomain(oid uint32) (*types.DomainDesc, bool) {
	if tc := b.typeCatalog(); tc != nil {
		if u, ok := tc.TypeByOID(oid); ok && u.Kind == 'd' && u.OID() == oid {
			return u.DomainDesc(), true
		}
	}
	return types.LookupDomain(oid)
}

// domainConstraints are the NOT NULL and CHECK constraints coercion to
// domain oid applies: its own and those of the domains it is over, the
// innermost domain's first and each domain's CHECKs by name, as
// PostgreSQL's load_domaintype_info orders them.
func (b *binder) domainConstraints(oid uint32) (name string, notNull bool, checks []types.DomainConstraint, err error) {
	var stack []*types.DomainDesc
	for next := oid; next != 0; {
		d, ok := b.lookupDomain(next)
		if !ok {
			return "", false, nil, pgerr.New(pgerr.InternalError, "domain %d is not known", next)
		}
		stack = append(stack, d)
		next = d.Base.Domain
	}
	for i := len(stack) - 1; i >= 0; i-- {
		own := append([]types.DomainConstraint(nil), stack[i].Checks...)
		sort.SliceStable(own, func(a, c int) bool { return own[a].Name < own[c].Name })
		checks = append(checks, own...)
		notNull = notNull || stack[i].NotNull
	}
	return stack[0].Name, notNull, checks, nil
}

// DomainValuesQuery yields, per row of recs (rows of t), whether column
// col's value satisfies check (nil: NOT NULL): ALTER DOMAIN's test of the
// values stored in a column of the domain (or of a domain over it).
func DomainValuesQuery(t storage.Table, col int, check *types.DomainConstraint, recs []arrow.Record, cat storage.Catalog) (*Query, error) {
	b := newBinder("", cat, &BindOptions{})
	s, scan := b.tableScope(t.Name(), t.Columns(), rowsTable{t, recs}, "check constraints")
	c := scan.Cols[col]
	text := "VALUE IS NOT NULL"
	if check != nil {
		text = "(" + check.Expr + ") IS NOT FALSE"
	}
	tree, err := pg_query.Parse("SELECT " + text)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "invalid stored domain constraint: %v", err)
	}
	b.query = "SELECT " + text
	b.domainValue = &plan.Cast{Input: &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}, T: c.Type.BaseType(), Explicit: true}
	e, err := b.bindExpr(s, tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)
	b.domainValue = nil
	if err != nil {
		return nil, withoutPosition(err)
	}
	p := &plan.Project{Input: scan, Exprs: []plan.Expr{e}, Cols: []plan.Column{{ID: b.ids.Next(), Name: "ok", Type: types.BoolType}}}
	return &Query{Plan: p, IDs: b.ids, Names: []string{"ok"}}, nil
}

// DomainTest is one test DomainTestsQuery makes of a column's values:
// NOT NULL (Check "") or a CHECK constraint, of the column's domain or of
// one it is over; errors name Domain, the column's.
type DomainTest struct {
	Column int // the table column
	Domain string
	Check  string // the constraint's name; "" for NOT NULL
	// ElemErr, for a column of an array of a domain, is the error the
	// elements of a failing value raised (the test is their cast).
	ElemErr func(types.Value) error
}

// DomainTestsQuery yields, per row of recs (rows of t) in order, one
// boolean per test, false where the row's value fails it: COPY FROM's
// domain_in, each column in order, NOT NULL and then the CHECKs in the
// order coercion applies them. nil when no column has a constrained
// domain.
func DomainTestsQuery(t storage.Table, recs []arrow.Record, cat storage.Catalog) (*Query, []DomainTest, error) {
	b := newBinder("", cat, &BindOptions{})
	_, scan := b.tableScope(t.Name(), t.Columns(), rowsTable{t, recs}, "domain constraints")
	p := &plan.Project{Input: scan}
	var tests []DomainTest
	var names []string
	add := func(e plan.Expr, test DomainTest) {
		p.Exprs = append(p.Exprs, e)
		col := plan.Column{ID: b.ids.Next(), Name: fmt.Sprintf("t%d", len(tests)), Type: types.BoolType}
		p.Cols = append(p.Cols, col)
		names = append(names, col.Name)
		tests = append(tests, test)
	}
	for i, d := range t.Columns() {
		if d.Type.ElemDomain != 0 {
			// An array of a domain: the elements cast from the base
			// type's array (castArray checks each), the error kept by
			// value for the failing row's message.
			c := scan.Cols[i]
			ct, base := c.Type, types.ArrayOf(c.Type.ElemType().BaseType())
			var errs sync.Map
			key := func(v types.Value) string { return string(types.FormatText(nil, v, base, nil)) }
			add(&plan.Call{Func: &types.Overload{Name: "array_domain_check", Args: []types.Type{ct}, Result: types.BoolType,
				Eval: func(ctx *types.EvalContext, v []types.Value) (types.Value, error) {
					if _, err := types.CastValue(ctx, v[0], base, ct, false); err != nil {
						errs.LoadOrStore(key(v[0]), err)
						return types.BoolValue(false), nil
					}
					return types.BoolValue(true), nil
				}}, Args: []plan.Expr{&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}}},
				DomainTest{Column: i, ElemErr: func(v types.Value) error {
					if err, ok := errs.Load(key(v)); ok {
						return err.(error)
					}
					return pgerr.New(pgerr.InternalError, "array domain check failed without an error")
				}})
			continue
		}
		if d.Type.Domain == 0 {
			continue
		}
		name, notNull, checks, err := b.domainConstraints(d.Type.Domain)
		if err != nil {
			return nil, nil, err
		}
		c := scan.Cols[i]
		v := &plan.Cast{Input: &plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}, T: c.Type.BaseType(), Explicit: true}
		texts := []string{}
		if notNull {
			texts = append(texts, "VALUE IS NOT NULL")
		}
		for _, ck := range checks {
			texts = append(texts, "("+ck.Expr+") IS NOT FALSE")
		}
		for k, text := range texts {
			tree, err := pg_query.Parse("SELECT " + text)
			if err != nil {
				return nil, nil, pgerr.Wrap(err, pgerr.InternalError, "invalid stored domain constraint: %v", err)
			}
			b.domainValue = v
			e, err := b.bindExpr(&scope{}, tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)
			b.domainValue = nil
			if err != nil {
				return nil, nil, withoutPosition(err)
			}
			test := DomainTest{Column: i, Domain: name}
			if !notNull || k > 0 {
				test.Check = checks[k-btoi(notNull)].Name
			}
			add(e, test)
		}
	}
	if len(tests) == 0 {
		return nil, nil, nil
	}
	return &Query{Plan: p, IDs: b.ids, Names: names}, tests, nil
}

func btoi(x bool) int {
	if x {
		return 1
	}
	return 0
}

// domainConstrained reports whether t is a domain with NOT NULL or CHECK
// constraints (of its own or of a domain it is over): a new column of it
// is computed row by row, so the stored rows fail the constraints as
// PostgreSQL's table rewrite does.
func (b *binder) domainConstrained(t types.Type) bool {
	if t.Domain == 0 {
		return false
	}
	_, notNull, checks, err := b.domainConstraints(t.Domain)
	return err == nil && (notNull || len(checks) > 0)
}

// TypeOwner is ALTER DOMAIN | TYPE name OWNER TO role.
type TypeOwner struct {
	Type   storage.UserType
	Owner  string
	Domain bool // ALTER DOMAIN
}

func (*TypeOwner) statement() {}

func (b *binder) bindTypeOwner(as *pg_query.AlterOwnerStmt) (Statement, error) {
	var names []string
	if l := as.Object.GetList(); l != nil {
		names = nameParts(l.Items)
	} else if tn := as.Object.GetTypeName(); tn != nil {
		names = nameParts(tn.Names)
	}
	domain := as.ObjectType == pg_query.ObjectType_OBJECT_DOMAIN
	var u storage.UserType
	var err error
	if domain {
		u, err = b.lookupDomainType(names)
	} else if found, ok := b.lookupUserType(names); ok {
		u = found
	} else {
		err = errNoType(names)
	}
	if err != nil {
		return nil, err
	}
	owner, err := b.roleName(as.Newowner)
	if err != nil {
		return nil, err
	}
	return &TypeOwner{Type: u, Owner: owner, Domain: domain}, nil
}
