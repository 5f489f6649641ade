package pgcatalog

import "github.com/joind/joind/storage"

// Well-known object ids, as PostgreSQL 15 assigns them.
const (
	OIDNamespacePgToast    = 99
	OIDNamespacePgCatalog  = 11
	OIDNamespacePublic     = 2200
	OIDNamespaceInfoSchema = 13207
	// The session's temporary schema and its toast schema. PostgreSQL
	// numbers them by backend slot (pg_temp_3 for the first client of a
	// quiet cluster); joind gives every session the same.
	OIDNamespaceTemp      = 1<<31 - 1
	OIDNamespaceToastTemp = 1<<31 - 2
	OIDBootstrapUser      = 10   // the session user owns everything
	OIDDatabaseOwnerRole  = 6171 // pg_database_owner, owner of public
	OIDDatabase           = 5
	OIDAmHeap             = 2
	OIDAmBtree            = 403
	OIDAmHash             = 405
	OIDCollationDefault   = 100
	OIDCollationC         = 950
	OIDCollationPOSIX     = 951
	OIDTablespaceDefault  = 1663
	OIDTablespaceGlobal   = 1664
	// FirstUserOID is PostgreSQL's FirstNormalObjectId: user relations
	// get OIDs from here (storage.FirstUserOID).
	FirstUserOID = storage.FirstUserOID
)

// RelationOID is the OID of a user or system table (0 if unknown): a
// stored table's comes from its storage identity, a system relation's is
// PostgreSQL's.
func RelationOID(t storage.Table) uint32 {
	if x, ok := t.(interface{ ObjectID() uint32 }); ok {
		return x.ObjectID()
	}
	return 0
}

// ViewOID is the OID of a view: odd, so disjoint from the tables' even ones.
func ViewOID(v storage.View) uint32 { return FirstUserOID + 1 + 2*uint32(v.ID) }

// ViewRowTypeOID is pg_type's OID of the row type of the view of OID
// viewOID; the next OID is its array type's. Apart from the tables' row
// types (storage.RowTypeOID, from 2^31): from 3·2^30, two per view OID.
func ViewRowTypeOID(viewOID uint32) uint32 { return 3<<30 + 2*(viewOID-FirstUserOID) }

// TempSchema and TempToastSchema name the session's temporary schemas.
const (
	TempSchema      = "pg_temp_3"
	TempToastSchema = "pg_toast_temp_3"
)

func schemaOID(s string) uint32 {
	switch s {
	case "pg_catalog":
		return OIDNamespacePgCatalog
	case "information_schema":
		return OIDNamespaceInfoSchema
	case TempSchema:
		return OIDNamespaceTemp
	}
	return OIDNamespacePublic
}

// SchemaName is the name of the schema with the given OID ("" if none).
func SchemaName(oid uint32) string {
	switch oid {
	case OIDNamespacePgCatalog:
		return "pg_catalog"
	case OIDNamespacePublic:
		return "public"
	case OIDNamespaceInfoSchema:
		return "information_schema"
	case OIDNamespaceTemp:
		return TempSchema
	case OIDNamespaceToastTemp:
		return TempToastSchema
	}
	return ""
}

// SchemaOID is the OID of a schema by name.
func SchemaOID(name string) (uint32, bool) {
	switch name {
	case "pg_catalog", "public", "information_schema", TempSchema:
		return schemaOID(name), true
	case TempToastSchema:
		return OIDNamespaceToastTemp, true
	}
	return 0, false
}

// The databases of a fresh PostgreSQL cluster, with their OIDs; any other
// database name a client connects to is listed with OIDCurrentDatabase.
var builtinDatabases = []struct {
	name string
	oid  uint32
}{{"template1", 1}, {"template0", 4}, {"postgres", OIDDatabase}}

// OIDCurrentDatabase is the OID of a connected database that is not one
// of the built-in three.
const OIDCurrentDatabase = FirstUserOID

// DatabaseOID is the OID pg_database gives a database name.
func DatabaseOID(name string) uint32 {
	for _, d := range builtinDatabases {
		if d.name == name {
			return d.oid
		}
	}
	return OIDCurrentDatabase
}

// databaseNames are pg_database's rows in OID order: the built-in three,
// then current if it is another.
func databaseNames(current string) []string {
	var out []string
	for _, d := range builtinDatabases {
		out = append(out, d.name)
	}
	if DatabaseOID(current) == OIDCurrentDatabase {
		out = append(out, current)
	}
	return out
}
