package storage

import "hash/fnv"

// FirstUserOID is PostgreSQL's FirstNormalObjectId: a table's object id
// (ObjectID) is derived from its storage id from here on, even for tables;
// package pgcatalog numbers views odd and presents both to clients.
const FirstUserOID = 16384

// ObjectID is the table's OID: derived from its storage id, stable for the
// table's life.
func (tt *txnTable) ObjectID() uint32 { return FirstUserOID + 2*uint32(tt.id) }

// ObjectID of an in-memory table: a hash of its name (no ids are kept).
func (t *memTable) ObjectID() uint32 {
	h := fnv.New32a()
	h.Write([]byte(t.name))
	return FirstUserOID + 2*(h.Sum32()%(1<<29))
}
