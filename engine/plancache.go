package engine

import (
	"slices"

	"github.com/joind/joind/commands"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// The prepared-statement binding cache: an Execute of a prepared SELECT
// reuses the query its statement bound last time instead of binding the
// text again, as PostgreSQL's plancache.c reuses a plan after
// RevalidateCachedQuery. The optimizer still plans each execution (with
// the parameter values, as PostgreSQL's custom plans), so only the binding
// is shared. A cached binding is used only while nothing it was bound from
// changed:
//
//   - the committed definitions (storage's definition generation: any
//     DDL, view, sequence or schema change) and the transaction has no
//     definition change of its own;
//   - the session's settings (settings.Values.Gen: search_path, the
//     session user, DateStyle, ...), and it has no temporary tables, which
//     could shadow a name;
//   - READ COMMITTED, where names resolve in the statement's snapshot;
//   - the same parameter types.
//
// and only for queries that fold nothing from the moment they are bound:
// scans of stored tables (each rebound to the executing transaction's
// handle of the same table), filters, projections and sorts over column
// references, parameters, constants and immutable functions — no
// subqueries, no LIMIT (bound to its parameter values in place), no
// stable or volatile function, no cast to or from a date/time type.

// bindCache is a prepared statement's cached binding.
type bindCache struct {
	q          *sql.Query
	defGen     uint64
	settings   uint64
	paramTypes []types.Type
}

// cacheKey is what a binding depends on in the session now; ok is false
// when no binding can be cached at all.
func (s *session) cacheKey(txn *storage.Txn) (defGen, settingsGen uint64, ok bool) {
	if txn == nil || s.temp.Any() || storage.ParseIsolation(s.settings.Get("transaction_isolation")) != storage.ReadCommitted {
		return 0, 0, false
	}
	defGen, ok = txn.DefinitionGen()
	return defGen, s.settings.Gen(), ok
}

// cachedBind returns the statement's cached query rebound to txn, or nil.
func (ps *preparedStmt) cachedBind(txn *storage.Txn, pts []types.Type) *sql.Query {
	c := ps.cache
	if c == nil {
		return nil
	}
	defGen, setGen, ok := ps.s.cacheKey(txn)
	if !ok || defGen != c.defGen || setGen != c.settings || !slices.Equal(pts, c.paramTypes) {
		return nil
	}
	root, ok := rebindScans(c.q.Plan, txn)
	if !ok {
		return nil
	}
	q := *c.q
	q.Plan = root
	if c.q.IDs != nil {
		// Planning allocates column IDs after the bound ones: each
		// execution from the same point, not one counter growing forever.
		ids := *c.q.IDs
		q.IDs = &ids
	}
	return &q
}

// keepBind caches q, bound in txn, if it qualifies.
func (ps *preparedStmt) keepBind(txn *storage.Txn, q *sql.Query, pts []types.Type) {
	ps.cache = nil
	defGen, setGen, ok := ps.s.cacheKey(txn)
	if !ok || !cacheable(q.Plan, txn) {
		return
	}
	kept := *q
	if q.IDs != nil {
		ids := *q.IDs // as bound: this execution's planning goes on allocating from q's
		kept.IDs = &ids
	}
	ps.cache = &bindCache{q: &kept, defGen: defGen, settings: setGen, paramTypes: append([]types.Type(nil), pts...)}
}

// cacheable reports whether the plan depends on nothing but the catalog
// and the settings (see above); its scans must read stored tables txn
// finds by their names.
func cacheable(n plan.Node, txn *storage.Txn) bool {
	switch x := n.(type) {
	case *plan.Scan:
		if _, ok := storedTable(x.Table, txn); !ok {
			return false
		}
	case *plan.Filter, *plan.Project, *plan.Sort:
	default:
		return false
	}
	for _, e := range n.Expressions() {
		if !immutableExpr(e) {
			return false
		}
	}
	for _, c := range n.Children() {
		if !cacheable(c, txn) {
			return false
		}
	}
	return true
}

func immutableExpr(e plan.Expr) bool {
	ok := true
	plan.Walk(e, func(x plan.Expr) bool {
		switch x := x.(type) {
		case *plan.ColRef, *plan.Const, *plan.Param, *plan.And, *plan.Or, *plan.Not, *plan.IsNull,
			*plan.BoolTest, *plan.IsDistinct, *plan.Coalesce, *plan.NullIf, *plan.Case:
		case *plan.Call:
			ok = !x.Func.Volatile && !x.Func.Stable
		case *plan.Cast:
			ok = !datetime(x.T) && !datetime(x.Input.Type())
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// datetime: a type whose conversions read TimeZone, DateStyle or the
// transaction's start ('now').
func datetime(t types.Type) bool {
	switch t.ID {
	case types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.Time, types.TimeTZ:
		return true
	}
	return false
}

// storedTable is txn's handle of the stored table t is a handle of (ok
// false if t is a system catalog or temporary table, or txn's name now
// finds another table).
func storedTable(t storage.Table, txn *storage.Txn) (storage.Table, bool) {
	id, ok := t.(interface{ ObjectID() uint32 })
	if !ok {
		return nil, false
	}
	now, found := txn.Lookup(t.Name())
	if !found {
		return nil, false
	}
	nid, ok := now.(interface{ ObjectID() uint32 })
	if !ok || nid.ObjectID() != id.ObjectID() {
		return nil, false
	}
	return now, true
}

// rebindScans copies the plan with each scan's table replaced by txn's
// handle of it (the other nodes are shared: nothing mutates a bound plan
// but BindLimitParams, and a cached plan has no LIMIT).
func rebindScans(n plan.Node, txn *storage.Txn) (plan.Node, bool) {
	if x, ok := n.(*plan.Scan); ok {
		t, ok := storedTable(x.Table, txn)
		if !ok {
			return nil, false
		}
		c := *x
		c.Table = t
		return &c, true
	}
	kids := n.Children()
	if len(kids) == 0 {
		return n, true
	}
	out := make([]plan.Node, len(kids))
	for i, k := range kids {
		var ok bool
		if out[i], ok = rebindScans(k, txn); !ok {
			return nil, false
		}
	}
	return n.WithChildren(out), true
}

// txnOf is the stored-table transaction of a session catalog (nil: none).
func txnOf(cat storage.Catalog) *storage.Txn {
	if c, ok := cat.(*commands.Catalog); ok && c != nil {
		return c.Txn
	}
	return nil
}
