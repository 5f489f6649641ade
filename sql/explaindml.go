package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// EXPLAIN of INSERT, UPDATE, DELETE and MERGE: the bound statement itself
// (EXPLAIN ANALYZE runs it, as PostgreSQL does) and the title of the top
// node PostgreSQL's ModifyTable shows over the plan producing the rows.

// ExplainDML is the data-modifying statement of an Explain.
type ExplainDML struct {
	// Stmt is the bound *Insert, *Update, *Delete or *Merge.
	Stmt Statement
	// Title is the top node: "Update on t" (with the alias after, as
	// PostgreSQL's ExplainModifyTarget prints it).
	Title string
	// Details are the top node's detail lines (ON CONFLICT's).
	Details []string
}

// bindExplainDML binds the statement under EXPLAIN when it modifies a
// table; ok is false for any other statement.
func (b *binder) bindExplainDML(n *pg_query.Node) (dml *ExplainDML, source *Query, ok bool, err error) {
	var verb string
	var rel *pg_query.RangeVar
	switch x := n.GetNode().(type) {
	case *pg_query.Node_InsertStmt:
		verb, rel = "Insert", x.InsertStmt.Relation
	case *pg_query.Node_UpdateStmt:
		verb, rel = "Update", x.UpdateStmt.Relation
	case *pg_query.Node_DeleteStmt:
		verb, rel = "Delete", x.DeleteStmt.Relation
	case *pg_query.Node_MergeStmt:
		verb, rel = "Merge", x.MergeStmt.Relation
	default:
		return nil, nil, false, nil
	}
	st, err := b.bindStatement(n)
	if err != nil {
		return nil, nil, true, err
	}
	var table storage.Table
	dml = &ExplainDML{Stmt: st}
	switch x := st.(type) {
	case *Insert:
		table, source = x.Table, x.Source
		dml.Details = conflictDetails(x.OnConflict)
	case *Update:
		table, source = x.Table, x.Source
	case *Delete:
		table, source = x.Table, x.Source
	case *Merge:
		table, source = x.Table, x.Source
	}
	name := plan.TableName(table)
	dml.Title = verb + " on " + name
	if a := rel.GetAlias(); a != nil && a.Aliasname != "" && a.Aliasname != name {
		dml.Title += " " + a.Aliasname
	}
	return dml, source, true, nil
}

// conflictDetails are ExplainModifyTarget's ON CONFLICT lines.
func conflictDetails(oc *OnConflict) []string {
	if oc == nil {
		return nil
	}
	action := "NOTHING"
	if oc.Update {
		action = "UPDATE"
	}
	out := []string{"Conflict Resolution: " + action}
	if len(oc.Arbiters) > 0 {
		names := ""
		for i, ix := range oc.Arbiters {
			if i > 0 {
				names += ", "
			}
			names += ix.Name
		}
		out = append(out, "Conflict Arbiter Indexes: "+names)
	}
	return out
}
