//go:build race

package engine

// raceEnabled scales heavy tests down under the race detector, which
// slows them about tenfold.
const raceEnabled = true
