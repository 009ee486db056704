//go:build !unix

package ladybug

// processAlive is false where ladybug lets one process at a time open a
// database (Windows): a lock row from another process is always stale.
func processAlive(int) bool { return false }
