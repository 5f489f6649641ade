package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
)

// bindAnalyze binds ANALYZE and VACUUM. Their options are checked as
// PostgreSQL's ExecVacuum checks them; VERBOSE, whose INFO report joind
// cannot give, is refused.
func (b *binder) bindAnalyze(vs *pg_query.VacuumStmt) (Statement, error) {
	out := &Analyze{Vacuum: vs.IsVacuumcmd}
	what := "ANALYZE"
	if vs.IsVacuumcmd {
		what = "VACUUM"
	}
	analyze := !vs.IsVacuumcmd
	for _, o := range vs.Options {
		d := o.GetDefElem()
		known := d.Defname == "verbose" || d.Defname == "skip_locked"
		if vs.IsVacuumcmd {
			switch d.Defname {
			case "analyze", "freeze", "full", "disable_page_skipping", "process_toast", "truncate":
				known = true
			case "index_cleanup", "parallel":
				known = true
				continue // not Boolean options
			}
		}
		if !known {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "unrecognized %s option \"%s\"", what, d.Defname), d.Location)
		}
		on, err := defElemBool(d)
		if err != nil {
			return nil, pgerr.New(pgerr.SyntaxError, "%s", pgerr.As(err).Message)
		}
		switch d.Defname {
		case "verbose":
			if on {
				return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s VERBOSE is not supported", what), d.Location)
			}
		case "analyze":
			analyze = on
		case "full":
			out.Full = on
		}
	}
	for _, n := range vs.Rels {
		vr := n.GetVacuumRelation()
		rv := vr.Relation
		rel := AnalyzeRel{Name: rv.Relname}
		for _, c := range vr.VaCols {
			rel.Cols = append(rel.Cols, c.GetString_().Sval)
		}
		if _, ok := b.snapshot().NamespaceByName(rv.Schemaname); rv.Schemaname != "" && !ok && !strings.HasPrefix(rv.Schemaname, "pg_temp") {
			return nil, pgerr.New("3F000", "schema \"%s\" does not exist", rv.Schemaname)
		}
		r, err := b.resolveRelation(rv)
		if err != nil {
			// PostgreSQL looks the relations up without a parse state:
			// no cursor position.
			return nil, withoutPosition(err)
		}
		// A view, or an information_schema relation (views in
		// PostgreSQL): skipped with a WARNING.
		if r.kind == relView || r.ns.Kind == pgcatalog.NsInfo {
			out.Rels = append(out.Rels, rel)
			continue
		}
		rel.Table = r.table
		out.Rels = append(out.Rels, rel)
	}
	out.Analyzes = analyze
	if !analyze {
		for _, r := range out.Rels {
			if len(r.Cols) > 0 {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ANALYZE option must be specified when a column list is provided")
			}
		}
	}
	return out, nil
}
