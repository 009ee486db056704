//go:build invariants

package factorized

// invariants turns on the checks of check functions; builds with
// -tags invariants (tests in CI) pay for them, others compile them away.
const invariants = true
