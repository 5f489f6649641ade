package types

// The array types over uuid, time, timetz, json and jsonb (pg_type's
// typarray of each). Their elements are stored as the element type's
// Value (arraycodec.go: time and timetz in I, the others in S).
func init() {
	for id, oid := range map[ID]uint32{UUID: 2951, Time: 1183, TimeTZ: 1270, JSON: 199, JSONB: 3807} {
		arrayOIDs[id] = oid
	}
}
