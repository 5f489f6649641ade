package commands

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// ALTER DOMAIN, as PostgreSQL's typecmds.c: SET NOT NULL and a new (or
// validated) CHECK test the values stored in every column of the domain
// or of a domain over it first (get_rels_with_domain,
// validateDomainConstraint), and refuse a domain some container type
// (an array) uses in a column, which they cannot look inside; then the
// catalog changes. And COPY FROM's domain checks (CheckDomains).

// domainColumn is a table column whose type is the domain or a domain
// over it.
type domainColumn struct {
	table storage.Table
	col   int
}

// domainOver reports whether t is domain oid or a domain over it.
func domainOver(cat *Catalog, t types.Type, oid uint32) bool {
	for next, n := t.Domain, 0; next != 0 && n < 64; n++ {
		if next == oid {
			return true
		}
		u, ok := cat.Txn.TypeByOID(next)
		if !ok || u.Kind != 'd' {
			return false
		}
		next = u.Base.Domain
	}
	return false
}

// typeContainsDomain reports whether domain oid is inside type t: an
// array's element, a composite's attribute or a domain's base, at any
// depth (PostgreSQL's find_composite_type_dependencies refuses those
// columns: their values are not tested).
func typeContainsDomain(cat *Catalog, t types.Type, oid uint32, depth int) bool {
	if depth > 32 {
		return false
	}
	if t.Domain != 0 {
		if t.Domain == oid && depth > 0 {
			return true
		}
		u, ok := cat.Txn.TypeByOID(t.Domain)
		if !ok || u.Kind != 'd' {
			return false
		}
		return typeContainsDomain(cat, u.Base, oid, depth+1)
	}
	switch {
	case t.ID == types.Array:
		return typeContainsDomain(cat, t.ElemType(), oid, depth+1)
	case t.ID == types.Record && t.UserOID != 0:
		u, ok := cat.Txn.TypeByOID(t.UserOID)
		if !ok || u.Kind != 'c' {
			return false
		}
		for _, a := range u.Attrs {
			if typeContainsDomain(cat, a.Type, oid, depth+1) {
				return true
			}
		}
	}
	return false
}

// domainColumns lists the columns that use domain u, by table name and
// column order; a column of a type it is inside (an array, a composite,
// a domain over those) is 0A000.
func domainColumns(cat *Catalog, u storage.UserType) ([]domainColumn, error) {
	tables := cat.Txn.Tables()
	if temp, ok := cat.TempTables(); ok {
		tables = append(tables, temp...)
	}
	var out []domainColumn
	for _, tb := range tables {
		for i, c := range tb.Columns() {
			if domainOver(cat, c.Type, u.OID()) {
				out = append(out, domainColumn{tb, i})
				continue
			}
			if typeContainsDomain(cat, c.Type, u.OID(), 0) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type \"%s\" because column \"%s.%s\" uses it",
					u.Name, storage.BareName(tb.Name()), c.Name)
			}
		}
	}
	return out, nil
}

// checkDomainValues tests the stored values of the columns using u
// against check (nil: NOT NULL).
func checkDomainValues(ctx context.Context, s Session, u storage.UserType, check *types.DomainConstraint) error {
	cat := s.Catalog()
	cols, err := domainColumns(cat, u)
	if err != nil {
		return err
	}
	for _, dc := range cols {
		rows := dc.table.Snapshot()
		if len(rows) == 0 {
			continue
		}
		q, err := sql.DomainValuesQuery(dc.table, dc.col, check, rows, cat)
		if err != nil {
			return err
		}
		out, err := s.Collect(ctx, q)
		if err != nil {
			return err
		}
		for _, o := range out {
			for i := 0; i < int(o.NumRows()); i++ {
				if v := types.GetValue(o.Column(0), types.BoolType, i); v.Null || v.I != 0 {
					continue
				}
				name, table := dc.table.Columns()[dc.col].Name, storage.BareName(dc.table.Name())
				if check == nil {
					return pgerr.New("23502", "column \"%s\" of table \"%s\" contains null values", name, table)
				}
				return pgerr.New(codeCheckViolation, "column \"%s\" of table \"%s\" contains values that violate the new constraint", name, table)
			}
		}
	}
	return nil
}

func alterDomain(ctx context.Context, s Session, x *sql.AlterDomain) (string, error) {
	u := x.Type
	u.Checks = append([]types.DomainConstraint(nil), u.Checks...)
	find := func(name string) int {
		for i, c := range u.Checks {
			if c.Name == name {
				return i
			}
		}
		return -1
	}
	switch x.Action {
	case 'T':
		u.Default = x.Default
	case 'N':
		u.NotNull = false
	case 'O':
		if u.NotNull {
			return "ALTER DOMAIN", nil
		}
		if err := checkDomainValues(ctx, s, u, nil); err != nil {
			return "", err
		}
		u.NotNull = true
	case 'C':
		if !x.Check.NotValid {
			if err := checkDomainValues(ctx, s, u, &x.Check); err != nil {
				return "", err
			}
		}
		u.Checks = append(u.Checks, x.Check)
	case 'X':
		i := find(x.Name)
		if i < 0 {
			if x.MissingOk {
				return "ALTER DOMAIN", s.Notice(&pgerr.Error{Severity: "NOTICE", Code: "00000",
					Message: fmt.Sprintf("constraint \"%s\" of domain \"%s\" does not exist, skipping", x.Name, u.Name)})
			}
			return "", pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", x.Name, u.Name)
		}
		u.Checks = append(u.Checks[:i], u.Checks[i+1:]...)
	case 'V':
		i := find(x.Name)
		if i < 0 {
			return "", pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", x.Name, u.Name)
		}
		if !u.Checks[i].NotValid {
			return "ALTER DOMAIN", nil
		}
		if err := checkDomainValues(ctx, s, u, &u.Checks[i]); err != nil {
			return "", err
		}
		u.Checks[i].NotValid = false
	case 'R':
		i := find(x.Name)
		if i < 0 {
			return "", pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for domain %s does not exist", x.Name, u.Name)
		}
		if find(x.NewName) >= 0 {
			return "", pgerr.New("42710", "constraint \"%s\" for domain %s already exists", x.NewName, u.Name)
		}
		u.Checks[i].Name = x.NewName
	}
	if _, err := s.Catalog().Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	return "ALTER DOMAIN", nil
}

// CheckDomains checks recs, rows COPY FROM is about to add to t, against
// the constraints of the domains of t's columns (INSERT's coercion to
// the column type checks them in its plan): the first failing row's
// first failing column is the error, with COPY's CONTEXT line; header
// tells whether the input's first line was a header.
func CheckDomains(ctx context.Context, s Session, t storage.Table, recs []arrow.Record, header bool) error {
	if len(recs) == 0 {
		return nil
	}
	q, tests, err := sql.DomainTestsQuery(t, recs, s.Catalog())
	if err != nil || q == nil {
		return err
	}
	out, err := s.Collect(ctx, q)
	if err != nil {
		return err
	}
	// The query's rows are recs' rows in order.
	ri, row, line := 0, 0, int64(1)
	if header {
		line++
	}
	for _, o := range out {
		for i := 0; i < int(o.NumRows()); i++ {
			for ri < len(recs) && row >= int(recs[ri].NumRows()) {
				ri, row = ri+1, 0
			}
			for k, test := range tests {
				if v := types.GetValue(o.Column(k), types.BoolType, i); v.Null || v.I != 0 {
					continue
				}
				def := t.Columns()[test.Column]
				val := types.GetValue(recs[ri].Column(test.Column), def.Type, row)
				where := fmt.Sprintf("COPY %s, line %d, column %s: null input", storage.BareName(t.Name()), line, def.Name)
				if !val.Null {
					where = fmt.Sprintf("COPY %s, line %d, column %s: \"%s\"", storage.BareName(t.Name()), line, def.Name,
						types.FormatText(nil, val, def.Type, s.Format()))
				}
				if test.ElemErr != nil {
					if e, ok := test.ElemErr(val).(*pgerr.Error); ok {
						return e.WithWhere(where)
					}
					return test.ElemErr(val)
				}
				if test.Check == "" {
					return pgerr.New("23502", "domain %s does not allow null values", test.Domain).WithWhere(where)
				}
				return pgerr.New(codeCheckViolation, "value for domain %s violates check constraint \"%s\"", test.Domain, test.Check).WithWhere(where)
			}
			row++
			line++
		}
	}
	return nil
}

// typeOwner is ALTER DOMAIN | TYPE ... OWNER TO.
func typeOwner(ctx context.Context, s Session, x *sql.TypeOwner) (string, error) {
	u := x.Type
	u.Owner = x.Owner
	if _, err := s.Catalog().Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	if x.Domain {
		return "ALTER DOMAIN", nil
	}
	return "ALTER TYPE", nil
}
