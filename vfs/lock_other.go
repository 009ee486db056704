//go:build !linux && !darwin

package vfs

// lockArg is unused where the OS file system has no record locks here.
type lockArg struct{}
