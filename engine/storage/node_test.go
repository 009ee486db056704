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
