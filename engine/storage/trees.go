package storage

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

// The registry is a storage-owned tree (root in the header) listing every
// tree's root as a keycodec.RowidKey, so integrity checks and Vacuum can find all
// pages without asking the engine.

// CreateTree makes a new empty tree and returns its root page.
func (tx *Tx) CreateTree() (root uint32, err error) {
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return 0, err
	}
	root, err = tx.alloc()
	if err != nil {
		return 0, err
	}
	n, err := tx.newPage(root)
	if err != nil {
		return 0, err
	}
	initNode(n, typeLeaf)
	if err := tx.registry().Put(keycodec.RowidKey(int64(root)), nil); err != nil {
		return 0, err
	}
	return root, nil
}

func (tx *Tx) registry() *Tree { return &Tree{tx: tx, root: tx.hdr.registry} }

// checkRoot verifies root is a registered tree.
func (tx *Tx) checkRoot(root uint32) error {
	_, ok, err := tx.registry().Get(keycodec.RowidKey(int64(root)))
	if err != nil {
		return err
	}
	if !ok || root == tx.hdr.registry {
		return fmt.Errorf("%w: page %d is not a tree root", ErrInvalid, root)
	}
	return nil
}

// DropTree deletes a tree and frees all its pages, root included.
func (tx *Tx) DropTree(root uint32) (err error) {
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return err
	}
	if err := tx.checkRoot(root); err != nil {
		return err
	}
	if err := tx.freeTree(root, true); err != nil {
		return err
	}
	_, err = tx.registry().Delete(keycodec.RowidKey(int64(root)))
	return err
}

// ClearTree deletes every entry of a tree, keeping its (now empty) root.
func (tx *Tx) ClearTree(root uint32) (err error) {
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return err
	}
	if err := tx.checkRoot(root); err != nil {
		return err
	}
	return tx.freeTree(root, false)
}

// freeTree frees the pages of a tree (its overflow chains too); the root
// is freed or reset to an empty leaf.
func (tx *Tx) freeTree(root uint32, dropRoot bool) error {
	type chain struct {
		first uint32
		vlen  int
	}
	var pages []uint32
	var chains []chain
	err := tx.walk(root, 0, func(p uint32, n node, _ int) error {
		pages = append(pages, p)
		if !n.isLeaf() {
			return nil
		}
		for i := 0; i < n.count(); i++ {
			if e := n.leafCell(i); e.ovfl != 0 {
				chains = append(chains, chain{e.ovfl, e.chain})
			}
		}
		return nil
	})
	if err != nil {
		return tx.fail(err)
	}
	for _, c := range chains {
		if err := tx.freeOverflow(c.first, c.vlen); err != nil {
			return err
		}
	}
	for _, p := range pages {
		if p == root && !dropRoot {
			continue
		}
		if err := tx.free(p); err != nil {
			return err
		}
		if err := tx.maybeSpill(); err != nil {
			return err
		}
	}
	if dropRoot {
		return nil
	}
	n, err := tx.writable(root)
	if err != nil {
		return err
	}
	initNode(n, typeLeaf)
	return nil
}

// Roots returns the roots of every tree, in page order.
func (tx *Tx) Roots() (out []uint32, err error) {
	defer tx.guard(&err)
	if err := tx.checkRead(); err != nil {
		return nil, err
	}
	c := tx.registry().Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		out = append(out, uint32(keycodec.DecodeRowid(c.Key())))
	}
	return out, c.Err()
}
