package txn

import "unsafe"

// keyArena hands out immutable strings copied into large chunks, so
// buffering a tombstone does not allocate per key. Bytes are never reused
// while the transaction lives: a string stays valid as long as anything
// references it.
type keyArena struct {
	chunk []byte
}

const (
	arenaFirst = 256            // first chunk: a one-row DELETE stays cheap
	arenaChunk = 64 << 10       // chunks double up to this size
	arenaLarge = arenaChunk / 8 // keys this long get their own allocation
)

// str returns a string holding a copy of b.
func (a *keyArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) >= arenaLarge {
		return string(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		size := min(max(2*cap(a.chunk), arenaFirst), arenaChunk)
		a.chunk = make([]byte, 0, max(size, len(b)))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[start], len(b))
}
