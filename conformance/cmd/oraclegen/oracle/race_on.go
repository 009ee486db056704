//go:build race

package oracle

// Race reports a -race build, where the live tests run shorter sequences.
const Race = true
