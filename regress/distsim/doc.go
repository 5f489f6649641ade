// Package distsim simulates joind's plans over several worker processes
// that exchange Arrow batches through Arrow Flight (docs/distributed.md),
// to test plan fragmentation and the null-aware global-facts protocol
// against joind's single-node answers. It is a test harness, not an
// engine: the join a worker runs is the optimizer's (fragment.go: the
// physical plan cut at its exchanges, its hash join's kind, keys and
// scopes), executed by hand-written fragments (hash partitioning, hash
// joins over int8 keys), and the test compares what the fragments give,
// coordinated as the design says, with what joind answers for the same
// SQL over the same rows.
//
// The workers are the test binary itself, started again with
// DISTSIM_WORKER=1 (worker.go): each serves Flight on a loopback port,
// keeps the partitions a coordinator puts (DoPut), reports a side's facts
// (DoAction "facts") and streams a fragment's result (DoGet).
package distsim
