package engine

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// regNames is the reg* types' I/O (types.Format.Reg) of a session's rows
// and run-time casts: names read from the catalog of the statement
// running (s.cur), snapshotted once per catalog. Outside a statement there
// is no catalog: a reg* value prints as its number.
type regNames struct {
	s   *session
	cat storage.Catalog
	rc  types.RegCatalog
}

func (r *regNames) catalog() types.RegCatalog {
	if r.s.cur == nil {
		return nil
	}
	if cat := storage.Catalog(r.s.cur); r.rc == nil || cat != r.cat {
		r.cat, r.rc = cat, sql.RegCatalog(cat, r.s.sessionInfo())
	}
	return r.rc
}

func (r *regNames) RegIn(id types.ID, name string) (uint32, error) {
	rc := r.catalog()
	if rc == nil {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "%s input by name needs a running statement", types.Type{ID: id}.PgTypeName())
	}
	return rc.RegIn(id, name)
}

func (r *regNames) RegOut(id types.ID, oid uint32) string {
	if rc := r.catalog(); rc != nil {
		return rc.RegOut(id, oid)
	}
	return types.TextOf(types.IntValue(int64(oid)), types.OidType)
}
