package types

import (
	"sync"

	"github.com/joind/joind/pgerr"
)

// Domains (CREATE DOMAIN). A domain's values are its base type's: a
// domain type is the base Type with Type.Domain set to the domain's
// pg_type OID, so every operator, cast and storage path reads it as the
// base type (as PostgreSQL's getBaseType does), and only coercion to the
// domain checks its NOT NULL and CHECK constraints (the binder's
// coerceToDomain, through DomainCheck). The catalog (storage) registers
// each domain here for names and checks, as it does enums. An array of a
// domain (posint[], the domain's own pg_type array type) is the base
// type's array with Type.ElemDomain set: a cast to it checks each element
// (castArray, through EvalContext.Domains).

// DomainDesc is a domain type.
type DomainDesc struct {
	OID      uint32
	ArrayOID uint32 // its array type's (posint[])
	Name     string
	Base     Type // the type it is over: a base type, or a domain type (Domain set)
	NotNull  bool
	// Checks are the CHECK constraints, in creation order: a name and the
	// expression's text, VALUE naming the value.
	Checks []DomainConstraint
	// Default is the domain's DEFAULT expression text ("" none).
	Default string
}

// DomainConstraint is one CHECK constraint of a domain.
type DomainConstraint struct {
	Name string
	Expr string
	// NotValid marks a constraint added NOT VALID: new values are checked,
	// the stored ones were not (pg_constraint.convalidated false).
	NotValid bool `json:"not_valid,omitempty"`
	// Comment is COMMENT ON CONSTRAINT ... ON DOMAIN's text.
	Comment string `json:"comment,omitempty"`
}

var domainRegistry struct {
	sync.RWMutex
	byOID   map[uint32]*DomainDesc
	byArray map[uint32]uint32 // array type OID → domain OID
}

// RegisterDomain makes d the description of domain d.OID.
func RegisterDomain(d *DomainDesc) {
	r := &domainRegistry
	r.Lock()
	defer r.Unlock()
	if r.byOID == nil {
		r.byOID, r.byArray = map[uint32]*DomainDesc{}, map[uint32]uint32{}
	}
	r.byOID[d.OID] = d
	if d.ArrayOID != 0 {
		r.byArray[d.ArrayOID] = d.OID
	}
}

// DomainArrayOf is the array type over elements of domain elem
// (posint[]): its base type's array, with the element domain kept.
func DomainArrayOf(elem Type) Type {
	t := ArrayOf(elem.BaseType())
	t.ElemDomain = elem.Domain
	return t
}

// domainArrayByOID is the array type of domain whose array type OID is oid.
func domainArrayByOID(oid uint32) (Type, bool) {
	r := &domainRegistry
	r.RLock()
	dom, ok := r.byArray[oid]
	d := r.byOID[dom]
	r.RUnlock()
	if !ok || d == nil {
		return Type{}, false
	}
	return DomainArrayOf(DomainType(d)), true
}

// domainArrayOID is the OID of the array type over domain dom.
func domainArrayOID(dom uint32) uint32 {
	if d, ok := LookupDomain(dom); ok {
		return d.ArrayOID
	}
	return 0
}

// LookupDomain is the registered description of domain oid.
func LookupDomain(oid uint32) (*DomainDesc, bool) {
	r := &domainRegistry
	r.RLock()
	defer r.RUnlock()
	d, ok := r.byOID[oid]
	return d, ok
}

// DomainType is the type of domain d.
func DomainType(d *DomainDesc) Type {
	t := d.Base
	t.Domain = d.OID
	return t
}

// BaseType is t without its domain.
func (t Type) BaseType() Type {
	t.Domain = 0
	return t
}

// CatalogOID is the pg_type OID naming t in the catalogs (pg_attribute,
// pg_typeof): the domain's own, where RowDescription sends the base
// type's (OID), as PostgreSQL does.
func (t Type) CatalogOID() uint32 {
	if t.Domain != 0 {
		return t.Domain
	}
	return t.OID()
}

func domainName(t Type) string {
	if d, ok := LookupDomain(t.Domain); ok {
		return d.Name
	}
	return t.BaseType().BaseSQLName()
}

// DomainCheck is the coercion to domain t: its arguments are the value
// (of the base type) and then one boolean per CHECK constraint, the
// constraint computed over the value; it returns the value, or fails with
// 23502 (NOT NULL) or 23514 (a check false) as domain_check_input. checks
// are the constraints of t and of the domains under it, in the order
// PostgreSQL's domain constraint cache applies them; errors name t.
func DomainCheck(t Type, name string, notNull bool, checks []DomainConstraint) *Overload {
	args := []Type{t.BaseType()}
	for range checks {
		args = append(args, BoolType)
	}
	return &Overload{Name: "coerce_to_domain", Args: args, Result: t,
		Eval: func(_ *EvalContext, vs []Value) (Value, error) {
			if vs[0].Null && notNull {
				return NullValue, pgerr.New("23502", "domain %s does not allow null values", name)
			}
			for i, c := range checks {
				if v := vs[i+1]; !v.Null && v.I == 0 {
					return NullValue, pgerr.New("23514", "value for domain %s violates check constraint \"%s\"", name, c.Name)
				}
			}
			return vs[0], nil
		}}
}

// checkDomainValue is domain_check for a value converted to domain t's
// base type, where no bound expression coerces to t (json[b]_populate_record,
// the elements of an array of a domain): through ctx.Domains.
func checkDomainValue(ctx *EvalContext, t Type, v Value) (Value, error) {
	if ctx != nil && ctx.Domains != nil {
		if err := ctx.Domains.CheckDomain(ctx, t, v); err != nil {
			return Value{}, err
		}
		return v, nil
	}
	d, ok := LookupDomain(t.Domain)
	if !ok {
		return v, nil
	}
	if v.Null && d.NotNull {
		return Value{}, pgerr.New(pgerr.NotNullViolation, "domain %s does not allow null values", d.Name)
	}
	if !v.Null && len(d.Checks) > 0 {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "checking the constraints of domain %s here is not supported", d.Name)
	}
	return v, nil
}

// DomainChecker is domain_check at execution, where no bound expression
// coerces to the domain (json[b]_populate_record's fields and results):
// v, of domain t's base type, tested against the NOT NULL and CHECK
// constraints of t and of the domains under it; nil when it passes, else
// 23502 / 23514 naming t. The session implements it over the running
// statement's catalog.
type DomainChecker interface {
	CheckDomain(ctx *EvalContext, t Type, v Value) error
}
