//go:build !invariants

package factorized

// invariants is off: check functions compile away.
const invariants = false
