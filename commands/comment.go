package commands

import (
	"context"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
)

// COMMENT ON TABLE / VIEW / COLUMN (and TYPE / DOMAIN, commentType): the text is kept with the object in
// the catalog (a table's and its columns' in their definitions, a view's
// in the view), durable like the rest of it, and pg_description lists it.

func comment(ctx context.Context, s Session, x *sql.Comment) (string, error) {
	cat := s.Catalog()
	if x.View {
		v, ok := cat.LookupView(x.Key)
		if !ok {
			return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Table)
		}
		if x.Column == "" {
			v.Comment = x.Text
		} else {
			cc := make([]string, len(v.Columns))
			copy(cc, v.ColumnComments)
			for i, n := range v.Columns {
				if n == x.Column {
					cc[i] = x.Text
				}
			}
			v.ColumnComments = cc
		}
		return "COMMENT", cat.CreateView(ctx, v, true)
	}
	tb, ok := cat.lookupKey(x.Key, x.Temp)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Table)
	}
	txn := cat.txnOf(tb)
	if x.Column == "" {
		return "COMMENT", txn.SetComment(ctx, tb, x.Text)
	}
	cols, ord := columns(tb, x.Column)
	cols[ord].Comment = x.Text
	return "COMMENT", txn.Alter(ctx, tb, tb.Name(), cols)
}

// commentType is COMMENT ON TYPE / DOMAIN / CONSTRAINT ... ON DOMAIN:
// the text kept with the type (or its domain constraint).
func commentType(ctx context.Context, s Session, x *sql.CommentType) (string, error) {
	u := x.Type
	if x.Constraint >= 0 {
		u.Checks = append([]types.DomainConstraint(nil), u.Checks...)
		u.Checks[x.Constraint].Comment = x.Text
	} else {
		u.Comment = x.Text
	}
	if _, err := s.Catalog().Txn.AlterType(ctx, u); err != nil {
		return "", err
	}
	return "COMMENT", nil
}
