package storage

// getWrite is Get in a write transaction. It finds the leaf the way a
// write does (findLeaf: the writer's last path when its leaf covers key,
// else a descent that becomes that path) and marks the path exact for
// key, so a Put or Delete of the same key right after it (an UPDATE
// rewriting the row it just read) neither descends nor searches the leaf
// again.
//
// The value is copied into the writer's value arena instead of handed out
// as a slice of the page: the page stays unexposed, so once the commit
// supersedes it its buffer is recycled for the next copy-on-write (see
// recycleSources) instead of a fresh page being allocated. The arena's
// bytes are never reused, so the value stays valid as long as the caller
// holds it, as a page slice would.
func (t *Tree) getWrite(key []byte) ([]byte, bool, error) {
	tx := t.tx
	pa, err := t.findLeaf(key)
	if err != nil {
		return nil, false, err
	}
	h := &tx.w.hint
	h.exact, h.key = true, append(h.key[:0], key...)
	if !pa.found {
		return nil, false, nil
	}
	leaf := pa.ents[pa.depth]
	n, err := tx.nodeQuiet(leaf.pg)
	if err != nil {
		return nil, false, err
	}
	e := n.leafCell(leaf.idx)
	if e.ovfl != 0 {
		val, err := tx.entryValue(e) // assembled in a fresh buffer
		return val, err == nil, err
	}
	return tx.w.vals.copy(e.val), true, nil
}

// valueArena hands out copies of values in large chunks, so a writer's
// Get allocates once per many rows. Bytes are never reused: a chunk is
// garbage only when no value in it is referenced.
type valueArena struct {
	chunk []byte
}

const (
	valFirst = 512      // first chunk: a one-row UPDATE stays cheap
	valChunk = 64 << 10 // chunks double up to this size
	valLarge = valChunk / 8
)

// copy returns a copy of b (nil for an empty b).
func (a *valueArena) copy(b []byte) []byte {
	if len(b) == 0 {
		return b[:0:0]
	}
	if len(b) >= valLarge {
		return append([]byte(nil), b...)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, min(max(2*cap(a.chunk), valFirst), valChunk))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}
