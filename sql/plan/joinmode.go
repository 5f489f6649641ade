package plan

// JoinMode is how a hash join spreads over partitions. It is the one
// partition-mode type: the optimizer decides it and operators/join executes
// it (join.Mode is this type).
type JoinMode uint8

const (
	// CollectLeft: the build side is collected once from all its partitions
	// and shared read-only by every probe partition.
	CollectLeft JoinMode = iota
	// Partitioned: both inputs arrive hash-repartitioned on the keys (an
	// explicit exchange below each); partition i joins its own pair.
	Partitioned
)

func (m JoinMode) String() string {
	if m == Partitioned {
		return "Partitioned"
	}
	return "CollectLeft"
}
