package storage

import "testing"

// TestNode_ShortCell_Bounds decodes a well-formed short cell, then damages
// its slot and lengths: shortCell reports ok false instead of panicking.
func TestNode_ShortCell_Bounds(t *testing.T) {
	n := make(node, 512)
	initNode(n, typeLeaf)
	off := n.end() - 6
	copy(n[off:], []byte{2, 2 << 1, 'a', 'b', 'v', 'w'}) // key "ab", value "vw"
	n.setSlot(0, off)
	n.setCount(1)
	k, v, ok := n.shortCell(0)
	if !ok || string(k) != "ab" || string(v) != "vw" {
		t.Fatalf("shortCell = %q, %q, %v; want ab, vw, true", k, v, ok)
	}
	if cap(k) != len(k) || cap(v) != len(v) {
		t.Fatalf("key/value slices can be appended into the page")
	}
	n.setSlot(0, len(n)-1) // lengths would start past the end
	if _, _, ok := n.shortCell(0); ok {
		t.Fatalf("slot past the page end decoded")
	}
	n.setSlot(0, len(n)-3)
	n[len(n)-3], n[len(n)-2] = 0x7f, 0x7e // lengths overrun the page
	if _, _, ok := n.shortCell(0); ok {
		t.Fatalf("overrunning cell decoded")
	}
	if _, _, ok := n.shortCell(300); ok {
		t.Fatalf("slot index past the page decoded")
	}
}

// replaceCell keeps a leaf packed: a cell that grows by less than the gap,
// or shrinks, is rewritten in place with the cells nearer the gap moved,
// so no fragment is left and no defrag runs; every other cell reads back
// unchanged and the node stays valid. Past the gap it falls back to
// remove and insert.
func TestNode_ReplaceCell_ResizesInPlace(t *testing.T) {
	const ps = 512
	n := make(node, ps)
	initNode(n, typeLeaf)
	scratch := make([]byte, ps)
	val := func(i, size int) []byte {
		v := make([]byte, size)
		for j := range v {
			v[j] = byte('a' + (i+j)%26)
		}
		return v
	}
	sizes := map[int]int{}
	for i := 0; ; i++ {
		c := appendLeafCell(nil, key(i), val(i, 20), 0, 20, ps)
		if !n.insertCell(i, c, scratch) {
			break
		}
		sizes[i] = 20
	}
	check := func(step string) {
		t.Helper()
		if err := validateNode(n); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if n.count() != len(sizes) {
			t.Fatalf("%s: %d cells, want %d", step, n.count(), len(sizes))
		}
		for i, size := range sizes {
			e := n.leafCell(i)
			if string(e.key) != string(key(i)) || string(e.val) != string(val(i, size)) {
				t.Fatalf("%s: cell %d = %q %q, want %q and %d bytes", step, i, e.key, e.val, key(i), size)
			}
		}
	}
	check("filled")
	gap := n.gap()
	// Grow cells in the middle, the lowest and the highest by one byte each
	// while the gap lasts, then shrink them: no fragment ever appears.
	for _, i := range []int{3, len(sizes) - 1, 0} {
		if n.gap() < 1 {
			break
		}
		sizes[i]++
		if !n.replaceCell(i, appendLeafCell(nil, key(i), val(i, sizes[i]), 0, sizes[i], ps), scratch) {
			t.Fatalf("growing cell %d by one byte with a %d-byte gap failed", i, n.gap())
		}
		check("grown")
	}
	for i := range sizes {
		sizes[i] = 10
		if !n.replaceCell(i, appendLeafCell(nil, key(i), val(i, 10), 0, 10, ps), scratch) {
			t.Fatalf("shrinking cell %d failed", i)
		}
		check("shrunk")
	}
	if n.frag() != 0 {
		t.Fatalf("in-place resizes left %d fragment bytes", n.frag())
	}
	if n.gap() <= gap {
		t.Fatalf("gap %d after shrinking every cell, was %d", n.gap(), gap)
	}
	// A growth past all free space changes nothing.
	big := n.gap() + 1 + sizes[2]
	if n.replaceCell(2, appendLeafCell(nil, key(2), val(2, big), 0, big, ps), scratch) {
		t.Fatalf("a cell %d bytes longer than the free space fitted", n.gap()+1)
	}
	check("refused")
}

// removeCells keeps every other cell, in order, with the removed cells'
// bytes counted as fragments, for removals at the ends, in runs, alone and
// of every cell.
func TestNode_RemoveCells_KeepsTheRestInOrder(t *testing.T) {
	const ps, cells = 1024, 12
	for _, idxs := range [][]int{{0}, {cells - 1}, {0, 1, 2}, {3, 4, 9}, {0, 5, 11}, {1, 3, 5, 7, 9, 11}, {2, 3, 4, 5, 6, 7, 8, 9, 10}} {
		all := make([]int, cells)
		for i := range all {
			all[i] = i
		}
		for _, remove := range [][]int{idxs, all} {
			n := make(node, ps)
			initNode(n, typeLeaf)
			scratch := make([]byte, ps)
			for i := range cells {
				if !n.insertCell(i, appendLeafCell(nil, key(i), []byte("v"), 0, 1, ps), scratch) {
					t.Fatal("leaf full")
				}
			}
			gone := map[int]bool{}
			for _, i := range remove {
				gone[i] = true
			}
			frag := n.frag()
			n.removeCells(remove)
			if err := validateNode(n); err != nil {
				t.Fatalf("remove %v: %v", remove, err)
			}
			var want []string
			for i := range cells {
				if !gone[i] {
					want = append(want, string(key(i)))
				}
			}
			if n.count() != len(want) {
				t.Fatalf("remove %v: %d cells left, want %d", remove, n.count(), len(want))
			}
			for i, k := range want {
				if got := string(n.leafKey(i)); got != k {
					t.Fatalf("remove %v: cell %d is %q, want %q", remove, i, got, k)
				}
			}
			if len(want) > 0 && n.frag() != frag+len(remove)*len(appendLeafCell(nil, key(0), []byte("v"), 0, 1, ps)) {
				t.Fatalf("remove %v: fragments %d, want the removed cells' bytes", remove, n.frag())
			}
		}
	}
}
