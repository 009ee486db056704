package storage

import "testing"

// TestStore_Snapshot_OldReaderHoldsCheckpoint: a reader on an old commit
// keeps the log from being checkpointed (it still reads the old version);
// once it ends, the next commit checkpoints, and the snapshots no reader
// holds are dropped.
func TestStore_Snapshot_OldReaderHoldsCheckpoint(t *testing.T) {
	s := openT(t, nil, Options{CheckpointFrames: 2})
	defer s.Close()
	root := newTreeT(t, s)
	put := func(v string) {
		t.Helper()
		tx := mustWrite(t, s)
		if err := tx.Tree(root).Put([]byte("k"), []byte(v)); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	put("v0")
	rt := mustRead(t, s)
	before := s.Stats().Checkpoints
	for _, v := range []string{"v1", "v2", "v3"} {
		put(v)
	}
	if got := s.Stats().Checkpoints; got != before {
		t.Fatalf("%d checkpoints ran under an old reader", got-before)
	}
	if v, _, err := rt.Tree(root).Get([]byte("k")); err != nil || string(v) != "v0" {
		t.Fatalf("old reader reads %q, %v; want v0", v, err)
	}
	if err := rt.Rollback(); err != nil {
		t.Fatal(err)
	}
	put("v4")
	if s.Stats().Checkpoints == before {
		t.Fatal("no checkpoint after the old reader ended")
	}
	put("v5")
	s.mu.Lock()
	held := len(s.old)
	s.mu.Unlock()
	if held != 0 {
		t.Fatalf("%d released snapshots still listed", held)
	}
	rt3 := mustRead(t, s)
	defer rt3.Rollback()
	if v, _, err := rt3.Tree(root).Get([]byte("k")); err != nil || string(v) != "v5" {
		t.Fatalf("new reader reads %q, %v; want v5", v, err)
	}
}

// TestStore_BeginReadIn_AfterClose fails once the store is closed.
func TestStore_BeginReadIn_AfterClose(t *testing.T) {
	s := openT(t, nil, Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var tx Tx
	if err := s.BeginReadIn(&tx); err != ErrClosed {
		t.Fatalf("BeginReadIn after Close: %v, want ErrClosed", err)
	}
}
