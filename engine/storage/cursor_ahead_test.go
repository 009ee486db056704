package storage

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

// TestCursor_SeekAhead_MatchesSeek checks that SeekAhead lands where Seek
// does, for targets on the current leaf, on later leaves, absent keys,
// keys behind the cursor and past the end.
func TestCursor_SeekAhead_MatchesSeek(t *testing.T) {
	for name, kf := range map[string]func(int) []byte{
		"text":  key,
		"rowid": func(i int) []byte { return keycodec.RowidKey(int64(i)) }, // interpolated
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

// TestCursor_AppendRowids_MatchesSeek reads sorted rowid sets leaf by leaf
// and checks every entry against Seek: present and missing rowids, gaps of
// every size and unevenly spread keys, duplicates, negative rowids, and rows whose values overflow
// (which end a run, so the caller reads them by Seek).
func TestCursor_AppendRowids_MatchesSeek(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024, CacheSize: 64 * 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	defer tx.Rollback()
	root, _ := tx.CreateTree()
	val := func(id int64) []byte {
		if id%97 == 0 {
			return bytes.Repeat([]byte{byte(id)}, 3000) // overflow pages
		}
		return []byte{byte(id), byte(id >> 8)}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for id := int64(-500); id < 30_000; id += 1 + r.Int64N(3) { // uneven gaps; 3 levels
		if id%500 == 0 {
			id += 200 // and a few wide ones, so interpolation misses
		}
		if err := tx.Tree(root).Put(keycodec.RowidKey(id), val(id)); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 50; round++ {
		var ids []int64
		for id := int64(-600) + r.Int64N(40); id < 30_100; id += r.Int64N(int64(2 + round*round)) { // a 0 step repeats a rowid
			ids = append(ids, id)
		}
		cur, ref := tx.Tree(root).Cursor(), tx.Tree(root).Cursor()
		var ents []Entry
		for i := 0; i < len(ids); {
			var n int
			ents, n = cur.AppendRowids(ents[:0], ids[i:])
			if len(ents) != n {
				t.Fatalf("round %d: %d entries for %d rowids", round, len(ents), n)
			}
			for j, e := range ents {
				k := keycodec.RowidKey(ids[i+j])
				if !ref.Seek(k) || !bytes.Equal(ref.Key(), k) {
					t.Fatalf("round %d: AppendRowids read rowid %d, which Seek does not find", round, ids[i+j])
				}
				want, _ := ref.Value()
				if !bytes.Equal(e.Key, k) || !bytes.Equal(e.Value, want) {
					t.Fatalf("round %d: rowid %d read %x=%x, want %x=%x", round, ids[i+j], e.Key, e.Value, k, want)
				}
			}
			if n > 0 {
				i += n
				continue
			}
			k := keycodec.RowidKey(ids[i]) // not readable in a run: missing or overflowing
			if ref.Seek(k) && bytes.Equal(ref.Key(), k) && len(val(ids[i])) < 100 {
				t.Fatalf("round %d: AppendRowids skipped present rowid %d", round, ids[i])
			}
			if !cur.SeekAhead(k) && cur.Err() != nil {
				t.Fatal(cur.Err())
			}
			i++
		}
		cur.Close()
		ref.Close()
	}
}
