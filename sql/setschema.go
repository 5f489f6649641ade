package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/storage"
)

// SetSchema is ALTER TABLE / VIEW / SEQUENCE name SET SCHEMA schema: the
// relation's storage key moves to the schema (commands/setschema.go).
type SetSchema struct {
	Name string // as written, for messages
	// Key is the relation's storage key; Kind is 'r' (table), 'v'
	// (view) or 'S' (sequence).
	Key  string
	Kind byte
	// SchemaID and SchemaName name the target schema.
	SchemaID   uint64
	SchemaName string
	Missing    bool // IF EXISTS and there is no such relation
	Tag        string
	opts       *BindOptions
}

func (*SetSchema) statement() {}

// bindSetSchema binds ALTER ... SET SCHEMA of a relation; ok is false for
// any other object (not supported).
func (b *binder) bindSetSchema(st *pg_query.AlterObjectSchemaStmt) (_ Statement, ok bool, _ error) {
	tags := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_TABLE: "ALTER TABLE",
		pg_query.ObjectType_OBJECT_VIEW: "ALTER VIEW", pg_query.ObjectType_OBJECT_SEQUENCE: "ALTER SEQUENCE"}
	tag, ok := tags[st.ObjectType]
	if !ok || st.Relation == nil {
		return nil, false, nil
	}
	rv := st.Relation
	out := &SetSchema{Name: rv.Relname, Tag: tag, opts: b.opts}
	r, err := b.resolveRelation(rv)
	if err != nil {
		if st.MissingOk && pgerr.Code(err) == pgerr.UndefinedTable {
			out.Missing = true
			return out, true, nil
		}
		return nil, true, withoutPosition(err)
	}
	switch r.kind {
	case relTable:
		out.Kind, out.Key = 'r', r.key
	case relView:
		out.Kind, out.Key = 'v', r.key
	case relSequence:
		out.Kind, out.Key = 'S', r.key
		if r.seq.OwnedTable != "" {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot move an owned sequence into another schema").
				WithDetail("Sequence \"%s\" is linked to table \"%s\".", rv.Relname, storage.BareName(r.seq.OwnedTable))
		}
	default:
		return nil, true, pgerr.New(pgerr.InsufficientPrivilege, "permission denied: \"%s\" is a system catalog", rv.Relname)
	}
	switch {
	case st.ObjectType == pg_query.ObjectType_OBJECT_VIEW && out.Kind != 'v':
		return nil, true, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", rv.Relname)
	case st.ObjectType == pg_query.ObjectType_OBJECT_SEQUENCE && out.Kind != 'S':
		return nil, true, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", rv.Relname)
	}
	ns, found := b.snapshot().NamespaceByName(st.Newschema)
	if !found {
		return nil, true, pgerr.New("3F000", "schema \"%s\" does not exist", st.Newschema)
	}
	if r.temp || ns.Kind == pgcatalog.NsTemp {
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
	}
	if ns.Kind != pgcatalog.NsUser {
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "moving relations into schema \"%s\" is not supported", ns.Name)
	}
	out.SchemaID, out.SchemaName = ns.ID, ns.Name
	return out, true, nil
}
