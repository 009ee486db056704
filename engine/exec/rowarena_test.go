package exec

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

func TestRowArena_Row_KeepsEarlierRowsAcrossGrowth(t *testing.T) {
	var a rowArena
	var rows [][]types.Value
	for i := 0; i < 100; i++ {
		r := a.row(3)
		if len(r) != 3 || cap(r) != 3 {
			t.Fatalf("row %d: len %d cap %d, want 3 3", i, len(r), cap(r))
		}
		r[0], r[2] = types.NewInt(int64(i)), types.NewText("x")
		rows = append(rows, r)
	}
	for i, r := range rows {
		if r[0].Int() != int64(i) || !r[1].IsNull() || r[2].Text() != "x" {
			t.Fatalf("row %d changed: %v", i, r)
		}
	}
	a.reset()
	if r := a.row(3); !r[0].IsNull() || !r[2].IsNull() {
		t.Fatalf("reused row not zeroed: %v", r)
	}
}

func TestRowArena_Reset_DropsLargeRoom(t *testing.T) {
	var a rowArena
	for i := 0; i < arenaKeepVals; i++ {
		a.row(2)
	}
	a.reset()
	if cap(a.vals) > arenaKeepVals {
		t.Fatalf("kept %d values, want at most %d", cap(a.vals), arenaKeepVals)
	}
}

func TestRowArena_Row_NilAllocates(t *testing.T) {
	var a *rowArena
	if r := a.row(4); len(r) != 4 {
		t.Fatalf("len %d, want 4", len(r))
	}
}

func TestRowArena_Clone_CopiesTextBlobAndJSON(t *testing.T) {
	var a rowArena
	src := []byte("hello")
	text := a.clone(types.NewText(string(src)))
	blob := a.clone(types.NewBlob(src))
	js := a.clone(types.NewJSON(`{"a":1}`))
	src[0] = 'J'
	for i := 0; i < 200; i++ {
		a.clone(types.NewText("filler filler filler"))
	}
	if text.Kind() != types.KindText || text.Text() != "hello" {
		t.Fatalf("text %v", text)
	}
	if blob.Kind() != types.KindBlob || string(blob.Bytes()) != "hello" {
		t.Fatalf("blob %v", blob)
	}
	if !js.IsJSON() || js.Text() != `{"a":1}` {
		t.Fatalf("json %v", js)
	}
	if v := a.clone(types.NewInt(7)); v.Int() != 7 {
		t.Fatalf("int %v", v)
	}
}
