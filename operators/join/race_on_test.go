//go:build race

package join

// raceEnabled: under the race detector the spilling matrix runs its
// partitioned (concurrent) configuration only; the single-partition one
// adds no goroutines for the detector to watch and costs minutes there.
const raceEnabled = true
