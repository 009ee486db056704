//go:build invariants

package factorized

// invariants turns on the checks of check functions; builds with
// -tags invariants (./test.sh runs the factorized, engine/exec and engine
// tests so) pay for them, others compile them away.
const invariants = true
