package vfs

// Open file description locks (Linux 3.15+): held per open file, not per
// process, so closing another handle on the same file keeps them, and two
// handles in one process exclude each other.
const (
	fGetLk = 36 // F_OFD_GETLK
	fSetLk = 37 // F_OFD_SETLK
)
