package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// nsColumn is one column a namespace item exposes to name resolution.
type nsColumn struct {
	name    string
	expr    plan.Expr // usually a *plan.ColRef; a Coalesce for FULL JOIN USING columns
	table   string    // range-table alias, for error messages
	notNull bool
	noStar  bool // not expanded by * (SEARCH's and CYCLE's columns in a recursive term)
}

// nsItem is one FROM item visible in a scope (PostgreSQL's
// ParseNamespaceItem): a table, subquery or join.
type nsItem struct {
	name        string // alias visible for qualification ("" for an unaliased join)
	relVisible  bool   // can be named as name.col
	colsVisible bool   // its columns can be referenced unqualified
	cols        []nsColumn
	// lateralBad marks the left input of a RIGHT or FULL join as seen from
	// a LATERAL right input: visible, but an error to reference.
	lateralBad bool
	// stored marks a table (which has PostgreSQL's system columns).
	stored bool
	// schema is the schema of an unaliased table or view (what a
	// schema.table.column reference must name); "" otherwise.
	schema string
	// hidden are columns reachable only for *-expansion bookkeeping (none yet).
	// rowType names the composite type of a table's or view's whole row
	// ("" for a record); nullSide is set for an item below the nullable
	// side of an outer join, whose whole row may be NULL (rowtype.go).
	rowType  string
	nullSide *nullSide
	// rowTypeOID is a table's row type's pg_type OID (0: none).
	rowTypeOID uint32
	// rowFields are a table's own column names, its row type's fields
	// whatever aliases the FROM item gives the columns (nil: cols' names).
	rowFields []string
}

// systemColumns are the columns PostgreSQL gives every table.
var systemColumns = map[string]bool{"tableoid": true, "cmax": true, "xmax": true, "cmin": true, "xmin": true, "ctid": true}

// scope is the name-resolution context of one query level.
type scope struct {
	parent *scope
	items  []*nsItem
	// outerRefs collects the columns of enclosing levels referenced from
	// this level (or deeper): the OuterRefs of the subquery this level is.
	outerRefs []plan.ColumnID
	ctes      *cteEnv
	// aggs is non-nil while binding the target list/HAVING/ORDER BY of a
	// level that may aggregate.
	agg *aggState
	// win collects the level's window functions (nil where none may occur).
	win *winState
	// exprKind names the clause being bound, for "not allowed in X" errors.
	exprKind string
	// setFuncsAllowed admits set-returning calls whatever exprKind says
	// (an INSERT's single VALUES row, PostgreSQL's EXPR_KIND_VALUES_SINGLE).
	setFuncsAllowed bool
	// rtes lists every FROM entry bound at this level so far, visible or
	// not (PostgreSQL's p_rtable), for error hints.
	rtes []rteInfo
	// selfRef: a FROM item of this level is a recursive query's working
	// table (no aggregates may be computed here).
	selfRef bool
}

// rteInfo is a range-table entry's names.
type rteInfo struct {
	alias   string // the name it is referenced by
	relname string // the stored table's name ("" for subqueries etc.)
}

func (s *scope) addOuterRef(id plan.ColumnID) {
	for _, x := range s.outerRefs {
		if x == id {
			return
		}
	}
	s.outerRefs = append(s.outerRefs, id)
}

// lookupColumn resolves an unqualified column name, searching enclosing
// levels when the current one has none. It records outer references.
func (b *binder) lookupColumn(s *scope, name string, loc int32) (nsColumn, error) {
	for lvl, cur := 0, s; cur != nil; lvl, cur = lvl+1, cur.parent {
		var found *nsColumn
		var foundIn *nsItem
		for _, it := range cur.items {
			if !it.colsVisible {
				continue
			}
			for i := range it.cols {
				if it.cols[i].name == name {
					if found != nil {
						return nsColumn{}, b.errAt(pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", name), loc)
					}
					found, foundIn = &it.cols[i], it
				}
			}
		}
		if found != nil {
			if foundIn.lateralBad {
				return nsColumn{}, b.badLateral(found.table, loc)
			}
			b.noteOuterAt(s, lvl, found.expr, loc)
			return *found, nil
		}
	}
	for cur := s; cur != nil; cur = cur.parent {
		for _, it := range cur.items {
			if it.relVisible && it.name == name {
				e, err := b.wholeRow(s, name, loc) // rowtype.go
				return nsColumn{name: name, table: name, expr: e}, err
			}
		}
	}
	return nsColumn{}, b.missingColumn(s, "", name, loc)
}

// lookupQualified resolves rel.col.
func (b *binder) lookupQualified(s *scope, rel, name string, loc int32) (nsColumn, error) {
	return b.lookupQualifiedIn(s, "", rel, name, loc)
}

// lookupQualifiedIn is lookupQualified for schema.rel.name ("" = no
// schema): only an unaliased relation of that schema matches.
func (b *binder) lookupQualifiedIn(s *scope, schema, rel, name string, loc int32) (nsColumn, error) {
	for lvl, cur := 0, s; cur != nil; lvl, cur = lvl+1, cur.parent {
		it, err := b.relItem(cur, schema, rel, loc)
		if err != nil {
			return nsColumn{}, err
		}
		if it == nil {
			continue
		}
		var found *nsColumn
		for i := range it.cols {
			if it.cols[i].name == name {
				if found != nil {
					return nsColumn{}, b.errAt(pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", rel+"."+name), loc)
				}
				found = &it.cols[i]
			}
		}
		if found == nil {
			return nsColumn{}, b.missingColumn(s, rel, name, loc)
		}
		if it.lateralBad {
			return nsColumn{}, b.badLateral(rel, loc)
		}
		b.noteOuterAt(s, lvl, found.expr, loc)
		return *found, nil
	}
	return nsColumn{}, b.missingRTE(s, rel, loc)
}

// relItem is the item of one query level that [schema.]rel names (nil:
// none). Two unaliased relations of one name from different schemas may
// share a FROM clause: rel alone is then ambiguous, as in PostgreSQL's
// refnameNamespaceItem.
func (b *binder) relItem(cur *scope, schema, rel string, loc int32) (*nsItem, error) {
	var match *nsItem
	named := false
	for _, it := range cur.items {
		if !it.relVisible || it.name != rel {
			continue
		}
		named = true
		if schema != "" && it.schema != schema {
			continue
		}
		if match != nil {
			return nil, b.errAt(pgerr.New("42P09", "table reference \"%s\" is ambiguous", rel), loc)
		}
		match = it
	}
	if match == nil && named {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table \"%s\"", rel).
			WithHint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", rel), loc)
	}
	return match, nil
}

// lookupRel finds the namespace item named rel (for rel.*).
func (b *binder) lookupRel(s *scope, rel string, loc int32) (*nsItem, int, error) {
	for lvl, cur := 0, s; cur != nil; lvl, cur = lvl+1, cur.parent {
		it, err := b.relItem(cur, "", rel, loc)
		if err != nil {
			return nil, 0, err
		}
		if it != nil {
			return it, lvl, nil
		}
	}
	return nil, 0, b.missingRTE(s, rel, loc)
}

// badLateral is PostgreSQL's error for a LATERAL reference to the left
// input of a RIGHT or FULL join.
func (b *binder) badLateral(rel string, loc int32) error {
	return b.errAt(pgerr.New(pgerr.InvalidColumnReference, "invalid reference to FROM-clause entry for table \"%s\"", rel).
		WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference."), loc)
}

// missingRTE is errorMissingRTE: a table name that is not visible here.
func (b *binder) missingRTE(s *scope, rel string, loc int32) error {
	for cur := s; cur != nil; cur = cur.parent {
		for _, r := range cur.rtes {
			if r.alias != rel && r.relname != rel {
				continue
			}
			e := pgerr.New(pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table \"%s\"", rel)
			if r.alias != rel {
				e = e.WithHint("Perhaps you meant to reference the table alias \"%s\".", r.alias)
			} else {
				e = e.WithHint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", rel)
			}
			return b.errAt(e, loc)
		}
	}
	return b.errAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", rel), loc)
}

// noteOuterAt is noteOuter remembering where the reference was written.
func (b *binder) noteOuterAt(s *scope, lvl int, e plan.Expr, loc int32) {
	if lvl > 0 {
		var ids []plan.ColumnID
		collectColRefs(e, &ids)
		for _, id := range ids {
			if _, ok := b.outerLoc[id]; !ok {
				b.outerLoc[id] = loc
			}
		}
	}
	b.noteOuter(s, lvl, e)
}

// noteOuter records that expr, found lvl levels up, is referenced from s.
func (b *binder) noteOuter(s *scope, lvl int, e plan.Expr) {
	if lvl == 0 {
		return
	}
	var ids []plan.ColumnID
	collectColRefs(e, &ids)
	cur := s
	for i := 0; i < lvl; i++ {
		for _, id := range ids {
			cur.addOuterRef(id)
		}
		cur = cur.parent
	}
}

// missingColumn builds PostgreSQL's 42703 with its fuzzy-match hint.
func (b *binder) missingColumn(s *scope, rel, name string, loc int32) error {
	if systemColumns[name] {
		// A table's system column exists in PostgreSQL; joind has none.
		for cur := s; cur != nil; cur = cur.parent {
			for _, it := range cur.items {
				if it.stored && (rel == "" && it.colsVisible || rel != "" && it.relVisible && it.name == rel) {
					return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "system column \"%s\" is not supported", name), loc)
				}
			}
		}
	}
	var e *pgerr.Error
	if rel != "" {
		e = pgerr.New(pgerr.UndefinedColumn, "column %s.%s does not exist", rel, name)
	} else {
		e = pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name)
	}
	// PostgreSQL searches every range-table entry of every level for the
	// closest column name (at most 3 edits, at most half the name).
	type cand struct{ table, col string }
	best := maxFuzzyDistance + 1
	var first, second *cand
	exactHidden := ""
	for cur := s; cur != nil; cur = cur.parent {
		for _, it := range cur.allItems() {
			if it.name == "" {
				continue
			}
			penalty := 0
			if rel != "" && it.name != rel {
				penalty = levenshtein(rel, it.name)
				if penalty > maxFuzzyDistance {
					continue
				}
			}
			for _, c := range it.cols {
				if c.name == name && penalty == 0 && !it.colsVisible && rel == "" {
					exactHidden = it.name
				}
				d := levenshtein(name, c.name)
				if d > len(name)/2 {
					continue
				}
				d += penalty
				if d > maxFuzzyDistance {
					continue
				}
				switch {
				case d < best:
					best = d
					first, second = &cand{it.name, c.name}, nil
				case d == best && first != nil:
					if second == nil {
						second = &cand{it.name, c.name}
					} else {
						// Too many equally good matches: no hint.
						first, second = nil, nil
					}
				}
			}
		}
	}
	switch {
	case exactHidden != "":
		e = e.WithHint("There is a column named \"%s\" in table \"%s\", but it cannot be referenced from this part of the query.", name, exactHidden)
	case first != nil && second == nil:
		e = e.WithHint("Perhaps you meant to reference the column \"%s.%s\".", first.table, first.col)
	case first != nil && second != nil:
		e = e.WithHint("Perhaps you meant to reference the column \"%s.%s\" or the column \"%s.%s\".", first.table, first.col, second.table, second.col)
	}
	return b.errAt(e, loc)
}

const maxFuzzyDistance = 3

// allItems returns the items of s that correspond to base range-table
// entries (tables, subqueries), for error hints.
func (s *scope) allItems() []*nsItem {
	var out []*nsItem
	for _, it := range s.items {
		if it.name != "" && it.relVisible {
			out = append(out, it)
		}
	}
	return out
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// collectColRefs appends the ColumnIDs e reads (not descending into subquery plans).
func collectColRefs(e plan.Expr, out *[]plan.ColumnID) { *out = plan.ColumnRefs(e, *out) }
