//go:build linux || darwin

package storage

import (
	"context"
	"runtime"
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/vfs"
)

// privateFS is the OS file system without its -shm support: the store
// then takes the file exclusive and runs the single-process path, the
// baseline the shared path's cost per transaction is measured against.
type privateFS struct{ vfs.FS }

// BenchmarkShared_PointReadTx is BenchmarkTx_PointReadTx on a file, with
// the -shm index (other processes may open the file: each transaction
// registers in the process's slot and compares the shared change counter)
// and without it (/private, one process).
func BenchmarkShared_PointReadTx(b *testing.B) {
	for _, c := range []struct {
		name string
		fsys vfs.FS
	}{{"shm", vfs.OS()}, {"private", privateFS{vfs.OS()}}} {
		b.Run(c.name, func(b *testing.B) {
			s, root := benchStore(b, c.fsys, Options{})
			defer s.Close()
			if (s.sh != nil) != (c.name == "shm") {
				b.Fatalf("shared index: %v", s.sh != nil)
			}
			benchPointReadTx(b, s, root)
		})
	}
}

// BenchmarkShared_WriteTx is a one-row write transaction (SyncNormal, no
// fsync) on a file with and without the -shm index: the shared path adds
// the writer lock byte (two fcntl calls) and publishing the log state.
func BenchmarkShared_WriteTx(b *testing.B) {
	for _, c := range []struct {
		name string
		fsys vfs.FS
	}{{"shm", vfs.OS()}, {"private", privateFS{vfs.OS()}}} {
		b.Run(c.name, func(b *testing.B) {
			s, root := benchStore(b, c.fsys, Options{Sync: SyncNormal})
			defer s.Close()
			fill(b, s, root, benchRows)
			var k [8]byte
			runtime.GC()
			ct := startCPU(b)
			defer ct.stop()
			for i := 0; i < b.N; i++ {
				tx, err := s.BeginWrite(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				key := keycodec.AppendRowid(k[:0], int64(i%benchRows))
				if err := tx.Tree(root).Put(key, benchVal); err != nil {
					b.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
