package storage

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCursor_SeekAhead_MatchesSeek checks that SeekAhead lands where Seek
// does, for targets on the current leaf, on later leaves, absent keys,
// keys behind the cursor and past the end.
func TestCursor_SeekAhead_MatchesSeek(t *testing.T) {
	for name, kf := range map[string]func(int) []byte{
		"text":  key,
		"rowid": func(i int) []byte { return RowidKey(int64(i)) }, // interpolated
	} {
		t.Run(name, func(t *testing.T) { checkSeekAhead(t, kf) })
	}
}

func checkSeekAhead(t *testing.T, key func(int) []byte) {
	s := openT(t, nil, Options{PageSize: 1024, CacheSize: 64 * 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	defer tx.Rollback()
	root, _ := tx.CreateTree()
	for i := 0; i < 3000; i += 2 { // even keys only
		if err := tx.Tree(root).Put(key(i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	ahead, ref := tx.Tree(root).Cursor(), tx.Tree(root).Cursor()
	defer ahead.Close()
	defer ref.Close()
	targets := []int{0, 1, 2, 3, 9, 10, 40, 41, 300, 301, 2990, 5, 6, 1500, 1501, 1502, 2998, 2999, 4000, 7}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n += 1 + r.IntN(60) { // ascending runs with gaps of every size
		targets = append(targets, n)
	}
	for _, n := range targets {
		got, want := ahead.SeekAhead(key(n)), ref.Seek(key(n))
		if got != want || !bytes.Equal(ahead.Key(), ref.Key()) {
			t.Fatalf("SeekAhead(%d) = %v at %q, Seek = %v at %q", n, got, ahead.Key(), want, ref.Key())
		}
		if got {
			v, err := ahead.Value()
			if err != nil || string(v) != "v" {
				t.Fatalf("value at %d: %q, %v", n, v, err)
			}
		}
	}
}
