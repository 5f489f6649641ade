package hashtable

import "hash/maphash"

// The one hash function family of joind's execution layer: joins, hash
// aggregation, DISTINCT, set operations and repartition routing all hash
// keys with these two functions (in the not-distinct key encoding of
// operators/keys.go: every key is an int64 or a byte string). The seed
// chains columns: a row's hash is the hash of its last column seeded with
// the hash of the ones before.

// HashInt64 hashes a fixed-width key, widened to int64, with a seed. It is
// the mixer of the Swiss table itself (hashInt64): invertible, so distinct
// keys under one seed never collide.
func HashInt64(k int64, seed uint64) uint64 { return hashInt64(k, seed) }

// strSeed keys maphash for the process: hashes are never stored or sent.
var strSeed = maphash.MakeSeed()

// HashString hashes a byte-string key with a seed.
func HashString(s string, seed uint64) uint64 {
	return hashInt64(int64(maphash.String(strSeed, s)), seed)
}
