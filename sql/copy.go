package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// Copy is COPY table [(cols)] FROM STDIN|'file' and COPY table|(query) TO
// STDOUT|'file'.
type Copy struct {
	From bool
	// Filename is the server-side file of COPY ... FROM/TO 'file' as
	// written ("" = STDIN/STDOUT). The engine resolves it against its
	// allowed directories.
	Filename string
	// Table is the target of COPY FROM, and the source of COPY table TO.
	Table storage.Table
	// Columns are the table's column indexes, in input/output field order.
	Columns []int
	// Query yields the rows of COPY TO (for a table too: SELECT cols FROM t).
	Query *Query
	// Format is "text", "csv", "binary" or "parquet".
	Format    string
	Header    bool
	Delimiter string // one byte: tab for text, comma for csv
	Null      string // \N for text, "" for csv
	Quote     string // csv only: one byte, default "
	Escape    string // csv only: one byte, default the quote
	// ForceNotNull/ForceNull name columns (indexes into Columns) whose csv
	// empty/NULL-string handling is overridden.
	ForceNotNull []bool
	ForceNull    []bool
	ForceQuote   []bool // COPY TO csv: always quote these output columns
	// Defaults are, for COPY FROM, the DEFAULTs of the table columns the
	// column list omits, in table column order, bound as INSERT binds them
	// (bindDefault). An omitted column without a DEFAULT is NULL.
	Defaults []CopyDefault
	// Iceberg is set for COPY FROM into an Iceberg foreign table, which
	// appends a snapshot (iceberg.go).
	Iceberg *IcebergAppend
}

// CopyDefault is the DEFAULT of a column COPY FROM omits.
type CopyDefault struct {
	Column int       // table column index
	Expr   plan.Expr // of the column's type
	// Volatile is set when Expr calls a volatile function (random(),
	// clock_timestamp()): it gets a value per row. Other defaults have one
	// value for the whole statement.
	Volatile bool
	// Ordered is set when Expr calls a function with side effects
	// (set_config): it is evaluated a row at a time, in input order.
	Ordered bool
}

func (*Copy) statement() {}

func (b *binder) bindCopy(cs *pg_query.CopyStmt) (Statement, error) {
	if cs.IsProgram {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY to or from a program is not supported").
			WithHint("Use COPY ... FROM STDIN / TO STDOUT, or psql's \\copy.")
	}
	if cs.WhereClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM ... WHERE is not supported")
	}
	c := &Copy{From: cs.IsFrom, Format: "text", Filename: cs.Filename}
	var names []string
	if cs.Relation != nil {
		t, err := b.lookupTable(cs.Relation)
		if err != nil {
			what := "copy to"
			if cs.IsFrom {
				what = "copy from"
			}
			if verr := b.notATable(cs.Relation, what); verr != nil {
				return nil, verr
			}
			// PostgreSQL reports COPY's relation without a position.
			return nil, pgerr.As(err).WithPosition(0)
		}
		what := "copy to"
		if c.From {
			what = "insert"
		}
		if c.From {
			c.Iceberg = b.icebergAppend(t) // iceberg.go
		}
		if c.Iceberg == nil {
			if err := foreignWriteErr(t, what); err != nil { // foreign.go
				return nil, err
			}
		}
		c.Table = t
		copyPerm := len(b.perms)
		if cs.IsFrom {
			b.notePermRV(cs.Relation, storage.PrivInsert)
		} else {
			b.notePermRV(cs.Relation, storage.PrivSelect)
		}
		defs := t.Columns()
		if len(cs.Attlist) == 0 {
			for i := range defs {
				c.Columns = append(c.Columns, i)
			}
		}
		seen := map[int]bool{}
		for _, a := range cs.Attlist {
			name := a.GetString_().GetSval()
			idx := -1
			for i, d := range defs {
				if d.Name == name {
					idx = i
				}
			}
			if idx < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, storage.BareName(t.Name()))
			}
			if seen[idx] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
			}
			seen[idx] = true
			c.Columns = append(c.Columns, idx)
		}
		for _, i := range c.Columns {
			names = append(names, defs[i].Name)
		}
		if copyPerm < len(b.perms) { // the privilege is on the columns copied
			var cols []int16
			for _, i := range c.Columns {
				cols = append(cols, attnumOf(defs[i], i))
			}
			b.perms[copyPerm].Cols, b.perms[copyPerm].colsKnown = cols, true
		}
		if c.From {
			for i, d := range defs {
				if seen[i] || len(cs.Attlist) == 0 || d.Default == "" && d.Type.Domain == 0 {
					continue
				}
				e, err := b.bindDefault(d)
				if err != nil {
					return nil, err
				}
				ordered := false
				plan.Walk(e, func(x plan.Expr) bool {
					if c, ok := x.(*plan.Call); ok && c.Func.SideEffects {
						ordered = true
					}
					return !ordered
				})
				c.Defaults = append(c.Defaults, CopyDefault{Column: i, Expr: e, Volatile: exprHasVolatile(e), Ordered: ordered})
			}
		}
		if !c.From {
			quoted := make([]string, len(names))
			for i, n := range names {
				quoted[i] = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
			}
			sel := "SELECT " + strings.Join(quoted, ", ") + " FROM " + b.qualifiedText(t)
			q, err := b.bindSubQueryText(sel)
			if err != nil {
				return nil, err
			}
			c.Query = q
		}
	} else {
		if c.From {
			return nil, pgerr.New(pgerr.SyntaxError, "COPY FROM requires a table")
		}
		sel := cs.Query.GetSelectStmt()
		if sel == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY (%s) TO is not supported", statementName(cs.Query))
		}
		q, err := b.bindQueryStmt(sel)
		if err != nil {
			return nil, err
		}
		c.Query = q
		names = q.Names
	}
	if err := b.copyOptions(c, cs.Options, names); err != nil {
		return nil, err
	}
	return c, nil
}

// bindSubQueryText binds a SELECT given as text with this binder (COPY
// table TO is COPY (SELECT cols FROM table) TO).
func (b *binder) bindSubQueryText(text string) (*Query, error) {
	raws, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return b.bindQueryStmt(raws[0].stmt.GetSelectStmt())
}

func (b *binder) copyOptions(c *Copy, opts []*pg_query.Node, names []string) error {
	set := map[string]bool{}
	var delim, null, quote, escape *string
	colFlags := func(d *pg_query.DefElem) ([]bool, error) {
		flags := make([]bool, len(names))
		if d.Arg.GetAStar() != nil {
			for i := range flags {
				flags[i] = true
			}
			return flags, nil
		}
		for _, n := range d.Arg.GetList().GetItems() {
			name := n.GetString_().GetSval()
			found := false
			for i, cn := range names {
				if cn == name {
					flags[i], found = true, true
				}
			}
			if !found {
				return nil, pgerr.New(pgerr.InvalidColumnReference, "%s column \"%s\" not referenced by COPY", strings.ToUpper(d.Defname), name)
			}
		}
		return flags, nil
	}
	for _, o := range opts {
		d := o.GetDefElem()
		if set[d.Defname] {
			return b.errAt(pgerr.New(pgerr.SyntaxError, "conflicting or redundant options"), d.Location)
		}
		set[d.Defname] = true
		s := defElemString(d)
		var err error
		switch d.Defname {
		case "format":
			switch strings.ToLower(s) {
			case "text", "csv", "binary", "parquet":
				c.Format = strings.ToLower(s)
			default:
				return b.errAt(pgerr.New(pgerr.InvalidParameterValue, "COPY format \"%s\" not recognized", s), d.Location)
			}
		case "header":
			if strings.EqualFold(s, "match") {
				c.Header = true
				continue
			}
			if bv := d.Arg.GetBoolean(); bv != nil {
				c.Header = bv.Boolval // the pre-9.0 syntax: WITH CSV HEADER
				continue
			}
			if c.Header, err = defElemBool(d); err != nil {
				// defGetCopyHeaderChoice's error.
				return b.errAt(pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value or \"match\"", d.Defname), d.Location)
			}
		case "delimiter":
			delim = &s
		case "null":
			null = &s
		case "quote":
			quote = &s
		case "escape":
			escape = &s
		case "encoding":
			if e := strings.ToUpper(strings.ReplaceAll(s, "-", "")); e != "UTF8" && e != "UNICODE" && e != "SQL_ASCII" {
				return pgerr.New(pgerr.FeatureNotSupported, "COPY encoding \"%s\" is not supported", s)
			}
		case "freeze":
		case "force_quote":
			if c.ForceQuote, err = colFlags(d); err != nil {
				return err
			}
		case "force_not_null":
			if c.ForceNotNull, err = colFlags(d); err != nil {
				return err
			}
		case "force_null":
			if c.ForceNull, err = colFlags(d); err != nil {
				return err
			}
		default:
			return b.errAt(pgerr.New(pgerr.SyntaxError, "option \"%s\" not recognized", d.Defname), d.Location)
		}
	}
	if c.Format == "binary" || c.Format == "parquet" {
		mode := strings.ToUpper(c.Format)
		switch {
		case delim != nil:
			return pgerr.New(pgerr.SyntaxError, "cannot specify DELIMITER in %s mode", mode)
		case null != nil:
			return pgerr.New(pgerr.SyntaxError, "cannot specify NULL in %s mode", mode)
		case c.Header:
			return pgerr.New(pgerr.FeatureNotSupported, "cannot specify HEADER in %s mode", mode)
		}
	}
	csv := c.Format == "csv"
	c.Delimiter, c.Null = "\t", `\N`
	if csv {
		c.Delimiter, c.Null, c.Quote = ",", "", `"`
	}
	if delim != nil {
		c.Delimiter = *delim
	}
	if null != nil {
		c.Null = *null
	}
	if quote != nil {
		if !csv {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY quote available only in CSV mode")
		}
		c.Quote = *quote
	}
	c.Escape = c.Quote
	if escape != nil {
		if !csv {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY escape available only in CSV mode")
		}
		c.Escape = *escape
	}
	if len(c.Delimiter) != 1 {
		return pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
	}
	if csv && len(c.Quote) != 1 {
		return pgerr.New(pgerr.FeatureNotSupported, "COPY quote must be a single one-byte character")
	}
	if csv && len(c.Escape) != 1 {
		return pgerr.New(pgerr.FeatureNotSupported, "COPY escape must be a single one-byte character")
	}
	if strings.ContainsAny(c.Delimiter, "\r\n") {
		return pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter cannot be newline or carriage return")
	}
	if csv && c.Delimiter == c.Quote {
		return pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter and quote must be different")
	}
	if (c.ForceNotNull != nil || c.ForceNull != nil) && (!c.From || !csv) {
		return pgerr.New(pgerr.FeatureNotSupported, "COPY force not null/null available only in CSV mode and COPY FROM")
	}
	if c.ForceQuote != nil && (c.From || !csv) {
		return pgerr.New(pgerr.FeatureNotSupported, "COPY force quote available only in CSV mode and COPY TO")
	}
	return nil
}
