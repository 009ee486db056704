package storage

// getWrite is Get in a write transaction. It finds the leaf the way a
// write does (findLeaf: the writer's last path when its leaf covers key,
// else a descent that becomes that path) and marks the path exact for
// key, so a Put or Delete of the same key right after it (an UPDATE
// rewriting the row it just read) neither descends nor searches the leaf
// again. Only a hit exposes the leaf, as in Get.
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
	pg, err := tx.pageRef(leaf.pg)
	if err != nil {
		return nil, false, err
	}
	pg.Expose()
	val, err := tx.entryValue(node(pg.Data).leafCell(leaf.idx))
	if err != nil {
		return nil, false, err
	}
	return val, true, nil
}
