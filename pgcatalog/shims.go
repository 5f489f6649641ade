package pgcatalog

// A client shim answers one client's catalog query by a rule narrower than
// SQL (a pattern joind recognises instead of implementing the general
// feature). Each sits in a file shim_<client>_<query>.go of its own with
// the query it serves, registered here, and regress/psqlmeta's
// TestShimReplay sends every registered query to joind and to PostgreSQL
// 15 and requires the same answer.

// Shim is one client query a shim serves.
type Shim struct {
	Client string // the client and the call that sends the query
	// Setup creates the objects the query reads (run first on both servers).
	Setup []string
	// Query is the client's query as it sends it, except that "{oid}"
	// stands for the OID of relation OIDOf, which the client looked up
	// before (psql's \d sends the number).
	Query string
	OIDOf string
}

// Shims lists the client queries the shims serve.
var Shims []Shim

func registerShim(s Shim) bool {
	Shims = append(Shims, s)
	return true
}
