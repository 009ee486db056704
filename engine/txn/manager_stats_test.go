package txn

import (
	"context"
	"sync"
	"testing"
)

// TestManager_Stats_EndsSummedOverStripes ends transactions on many
// goroutines, each reusing its own Tx as a session does (BeginReuse), and
// checks the totals: every commit and rollback counted exactly once,
// whichever stripe it went to, and the stripes actually spread.
func TestManager_Stats_EndsSummedOverStripes(t *testing.T) {
	m := newManager(newMemStore(testBusyTimeout))
	const goroutines, each = 12, 300
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var tx *Tx
			for i := range each {
				var err error
				if tx, err = m.BeginReuse(context.Background(), Options{ReadOnly: true}, tx); err != nil {
					t.Error(err)
					return
				}
				if (g+i)%3 == 0 {
					err = tx.Rollback()
				} else {
					err = tx.Commit()
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	st := m.Stats()
	var wantRolled int64
	for g := range goroutines {
		for i := range each {
			if (g+i)%3 == 0 {
				wantRolled++
			}
		}
	}
	if st.Committed != goroutines*each-wantRolled || st.RolledBack != wantRolled {
		t.Fatalf("committed %d, rolled back %d; want %d and %d", st.Committed, st.RolledBack, goroutines*each-wantRolled, wantRolled)
	}
	used := 0
	for i := range m.total.ends {
		if m.total.ends[i].committed.Load()+m.total.ends[i].rolledBack.Load() > 0 {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("%d goroutines' transactions ended on %d stripe(s)", goroutines, used)
	}
}
