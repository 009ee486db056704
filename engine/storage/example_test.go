package storage_test

import (
	"context"
	"fmt"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
)

func ExampleOpen() {
	s, err := storage.Open("app.db", storage.Options{FS: vfs.NewMemFS(), Create: true})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	tx, _ := s.BeginWrite(context.Background())
	root, _ := tx.CreateTree()
	tx.SetMeta(0, uint64(root))
	for id := int64(1); id <= 3; id++ {
		tx.Tree(root).Put(keycodec.RowidKey(id), []byte(fmt.Sprint("row ", id)))
	}
	if err := tx.Commit(); err != nil {
		panic(err)
	}

	rt, _ := s.BeginRead()
	defer rt.Rollback()
	c := rt.Tree(uint32(rt.Meta(0))).Cursor()
	defer c.Close()
	for ok := c.Seek(keycodec.RowidKey(2)); ok; ok = c.Next() {
		v, _ := c.Value()
		fmt.Println(keycodec.DecodeRowid(c.Key()), string(v))
	}
	// Output:
	// 2 row 2
	// 3 row 3
}
