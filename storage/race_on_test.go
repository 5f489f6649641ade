//go:build race

package storage

// raceEnabled: the race detector slows the explorer's coroutine switches
// about tenfold, so the largest scenario runs only without it.
const raceEnabled = true
