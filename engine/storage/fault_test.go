package storage

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// TestStore_Fault_ErrorsSurfaceAndStoreStaysUsable injects write and sync
// failures, short writes and a full disk at many points of a workload and
// checks that each surfaces as an error from Put or Commit, that readers
// then see exactly the last successful commit, and that once the fault
// clears the store works, survives reopening and passes the integrity
// check.
func TestStore_Fault_ErrorsSurfaceAndStoreStaysUsable(t *testing.T) {
	faults := []vfs.Fault{
		{Op: vfs.OpWrite},
		{Op: vfs.OpWrite, Short: true},
		{Op: vfs.OpWrite, Err: vfs.ErrNoSpace, Sticky: true},
		{Op: vfs.OpSync},
		{Op: vfs.OpSync, Err: vfs.ErrNoSpace, Sticky: true},
		{Op: vfs.OpTruncate},
	}
	afters := []int{0, 1, 3, 7, 15}
	if raceEnabled {
		afters = []int{0, 3}
	}
	for fi, ft := range faults {
		for _, after := range afters {
			ft.After = after
			t.Run(fmt.Sprintf("fault%d-after%d", fi, after), func(t *testing.T) {
				runFault(t, ft)
			})
		}
	}
}

func runFault(t *testing.T, ft vfs.Fault) {
	ffs := vfs.NewFaultFS(vfs.NewMemFS())
	opts := Options{PageSize: 1024, CacheSize: 24 * 1024, CheckpointFrames: 40}
	s := openT(t, ffs, opts)
	w := newWorkload(uint64(ft.After) + 11)
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	model := map[string]string{}
	w.models = append(w.models, model)
	ffs.Inject(ft)
	sawErr := false
	for i := 0; i < 25; i++ {
		tx, err := s.BeginWrite(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		m, err := w.step(tx.Tree(root))
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		if err != nil {
			sawErr = true
			if ft.Err != nil && !errors.Is(err, ErrFull) {
				t.Fatalf("disk-full fault not reported as ErrFull: %v", err)
			}
		} else {
			model = m
			w.models = append(w.models, m)
		}
		if got := treeContents(t, s); !maps.Equal(got, model) {
			t.Fatalf("round %d: readers see %d keys, want the last commit's %d (err %v)", i, len(got), len(model), err)
		}
	}
	// A fault inside a checkpoint is not the commit's failure (the commit
	// is already durable); it is counted and the checkpoint retried.
	if ffs.Fired() && !sawErr && s.Stats().CheckpointErrors == 0 {
		t.Fatal("an injected fault fired but nothing reported an error")
	}
	ffs.Clear()
	tx = mustWrite(t, s)
	if err := tx.Tree(root).Put([]byte("z"), []byte("after")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("commit after clearing fault: %v", err)
	}
	model["z"] = "after"
	checkIntegrity(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	s = openT(t, ffs, opts)
	defer s.Close()
	if got := treeContents(t, s); !maps.Equal(got, model) {
		t.Fatalf("after reopen: %d keys, want %d", len(got), len(model))
	}
	checkIntegrity(t, s)
}
