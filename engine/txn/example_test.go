package txn_test

import (
	"context"
	"fmt"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/vfs"
)

// A deferred transaction deletes rows by buffering tombstones: its own reads
// already miss them, other transactions see them until Commit applies them.
func ExampleTree_Delete() {
	ctx := context.Background()
	s, err := storage.Open("example.db", storage.Options{FS: vfs.NewMemFS(), Create: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	m := txn.NewManager(s)

	setup, _ := m.Begin(ctx, txn.Options{Immediate: true})
	root, _ := setup.CreateTree()
	for i := int64(1); i <= 5; i++ {
		_ = setup.Tree(root).Put(keycodec.RowidKey(i), []byte("row"))
	}
	_ = setup.Commit()

	tx, _ := m.Begin(ctx, txn.Options{})
	_ = tx.StartWriteStatement(ctx)
	_ = tx.Tree(root).Delete(keycodec.RowidKey(2))
	_ = tx.Tree(root).Delete(keycodec.RowidKey(3))
	_ = tx.EndStatement(nil)
	mine, _ := tx.Tree(root).Count()

	other, _ := m.Begin(ctx, txn.Options{ReadOnly: true})
	theirs, _ := other.Tree(root).Count()
	_ = other.Rollback()

	_ = tx.Commit()
	st := tx.Stats()
	fmt.Println(mine, theirs, st.TombstonesApplied, st.ApplyRuns)
	// Output: 3 5 2 1
}
