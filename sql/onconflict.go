package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// INSERT ... ON CONFLICT: the arbiter indexes, as PostgreSQL infers them
// (its infer_arbiter_indexes), and the action.

// OnConflict is an INSERT's ON CONFLICT clause.
type OnConflict struct {
	// Update is DO UPDATE (else DO NOTHING).
	Update bool
	// Arbiters are the unique indexes a proposed row may conflict with;
	// empty for DO NOTHING without a target: every unique index.
	Arbiters []storage.IndexDef
}

func (b *binder) bindOnConflict(oc *pg_query.OnConflictClause, tbl storage.Table) (*OnConflict, error) {
	out := &OnConflict{Update: oc.Action == pg_query.OnConflictAction_ONCONFLICT_UPDATE}
	inf := oc.Infer
	if out.Update && inf == nil {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithHint("For example, ON CONFLICT (column_name)."), oc.Location)
	}
	if inf != nil {
		idx := storage.IndexesOf(tbl)
		if inf.Conname != "" {
			found := false
			for _, c := range storage.ConstraintsOf(tbl) {
				if c.Name != inf.Conname {
					continue
				}
				found = true
				if c.Kind != storage.ConPrimary && c.Kind != storage.ConUnique {
					return nil, pgerr.New(pgerr.WrongObjectType, "constraint in ON CONFLICT clause has no associated index")
				}
				for _, d := range idx {
					if d.Name == c.Name {
						out.Arbiters = append(out.Arbiters, d)
					}
				}
			}
			if !found {
				return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", inf.Conname, storage.BareName(tbl.Name()))
			}
		} else {
			var cols []string
			for _, n := range inf.IndexElems {
				el := n.GetIndexElem()
				if el == nil || el.Name == "" || len(el.Collation) > 0 || len(el.Opclass) > 0 {
					return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "ON CONFLICT inference by expressions, collations or operator classes is not supported"), inf.Location)
				}
				found := false
				for _, d := range tbl.Columns() {
					found = found || d.Name == el.Name
				}
				if !found {
					return nil, b.errAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", el.Name), inf.Location)
				}
				cols = append(cols, el.Name)
			}
			// Every unique index on exactly these columns (joind's
			// indexes are never partial, so an inference WHERE clause is
			// implied by each).
			for _, d := range idx {
				if d.Unique && sameSet(d.Cols, cols) && len(d.Cols) == len(dedup(cols)) {
					out.Arbiters = append(out.Arbiters, d)
				}
			}
			if len(out.Arbiters) == 0 {
				return nil, pgerr.New(pgerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
			}
		}
	}
	if out.Update {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "INSERT ... ON CONFLICT DO UPDATE is not supported"), oc.Location)
	}
	return out, nil
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// bindInsertOnConflict binds the INSERT without its clause, then the clause
// against the target table.
func (b *binder) bindInsertOnConflict(is *pg_query.InsertStmt) (Statement, error) {
	plain := proto.Clone(is).(*pg_query.InsertStmt)
	plain.OnConflictClause = nil
	st, err := b.bindInsert(plain)
	if err != nil {
		return nil, err
	}
	ins := st.(*Insert)
	if ins.OnConflict, err = b.bindOnConflict(is.OnConflictClause, ins.Table); err != nil {
		return nil, err
	}
	return ins, nil
}
