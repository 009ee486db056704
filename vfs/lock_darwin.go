package vfs

import "syscall"

// macOS has no open file description locks: classic POSIX record locks are
// held per process and dropped when the process closes any handle on the
// file. The store keeps one handle per file open for its whole life and
// opens no other on the same file while it is in use.
const (
	fGetLk = syscall.F_GETLK
	fSetLk = syscall.F_SETLK
)
