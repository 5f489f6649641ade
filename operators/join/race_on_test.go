//go:build race

package join

// raceEnabled: under the race detector the spilling matrix runs its
// partitioned (concurrent) configuration only; the single-partition one
// adds no goroutines for the detector to watch and costs minutes there;
// the matrix's index variants (which change no concurrency) and most of the
// completion explorer's scenarios (whose schedules it serializes) run only
// without it.
const raceEnabled = true
