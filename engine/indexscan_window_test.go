package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// windowRow is one row of the table windowTable builds.
type windowRow struct {
	id, k int64
	txt   string
}

// windowTable fills r(id, k, txt) with n rows of random k (so index order
// is far from rowid order) and indexes k; it returns the rows in index
// order (k, then rowid).
func windowTable(t *testing.T, s *Session, n int) []windowRow {
	t.Helper()
	mustExec(t, s, "CREATE TABLE r (id INTEGER PRIMARY KEY, k INTEGER NOT NULL, txt TEXT)")
	mustExec(t, s, "BEGIN")
	rnd := rand.New(rand.NewPCG(7, 8))
	rows := make([]windowRow, n)
	for i := range rows {
		rows[i] = windowRow{id: int64(i + 1), k: int64(rnd.IntN(n / 3)), txt: fmt.Sprintf("row-%d", i+1)}
		mustExec(t, s, "INSERT INTO r VALUES (?, ?, ?)", types.NewInt(rows[i].id), types.NewInt(rows[i].k), types.NewText(rows[i].txt))
	}
	mustExec(t, s, "COMMIT")
	mustExec(t, s, "CREATE INDEX r_k ON r (k)")
	slices.SortFunc(rows, func(a, b windowRow) int {
		if a.k != b.k {
			return int(a.k - b.k)
		}
		return int(a.id - b.id)
	})
	return rows
}

// queryWindowRows runs sql (selecting id, k, txt) and returns its rows.
func queryWindowRows(t *testing.T, s *Session, sql string, args ...types.Value) []windowRow {
	t.Helper()
	var out []windowRow
	eachRow(t, s, sql, func(r []types.Value) {
		out = append(out, windowRow{id: r[0].AsInt(), k: r[1].AsInt(), txt: strings.Clone(r[2].Str())})
	}, args...)
	return out
}

// TestIndexScan_WideRange_RowsInIndexOrder reads ranges spanning many
// batches (so the scan fills multi-batch windows and reads their table
// rows in rowid order): the rows, text included, come out in index order,
// and a LIMIT or a narrower range sees the same prefix.
func TestIndexScan_WideRange_RowsInIndexOrder(t *testing.T) {
	s := openMem(t).NewSession()
	all := windowTable(t, s, 30_000)
	in := func(lo, hi int64) []windowRow {
		var out []windowRow
		for _, r := range all {
			if r.k >= lo && r.k < hi {
				out = append(out, r)
			}
		}
		return out
	}
	const q = "SELECT id, k, txt FROM r WHERE k >= ? AND k < ?"
	for _, b := range [][2]int64{{0, 10_000}, {100, 9000}, {5, 6}, {2000, 2700}} {
		got := queryWindowRows(t, s, q, types.NewInt(b[0]), types.NewInt(b[1]))
		require.Equal(t, in(b[0], b[1]), got, "range %v", b)
	}
	want := in(50, 9000)
	for _, lim := range []int64{1, 1023, 1024, 1025, 5000, 20_000} {
		got := queryWindowRows(t, s, q+" LIMIT ?", types.NewInt(50), types.NewInt(9000), types.NewInt(lim))
		require.Equal(t, want[:min(int(lim), len(want))], got, "limit %d", lim)
	}
	desc := queryWindowRows(t, s, "SELECT id, k, txt FROM r WHERE k >= ? AND k < ? ORDER BY k DESC", types.NewInt(10), types.NewInt(9000))
	require.Len(t, desc, len(in(10, 9000)))
	for i := 1; i < len(desc); i++ {
		require.LessOrEqual(t, desc[i].k, desc[i-1].k)
	}
	require.Equal(t, []int64{int64(len(in(10, 9990)))}, queryInts(t, s, "SELECT count(txt) FROM r WHERE k >= 10 AND k < 9990"))
}

// TestIndexScan_WideRange_ConcurrentSessions runs wide index scans from
// several sessions at once, so their windows share the storage pool and
// the read-only NULL column (the race detector checks the sharing).
func TestIndexScan_WideRange_ConcurrentSessions(t *testing.T) {
	db := openMem(t)
	all := windowTable(t, db.NewSession(), 12_000)
	var want int64
	for _, r := range all {
		if r.k >= 100 && r.k < 3900 {
			want += r.id
		}
	}
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.NewSession()
			defer s.Close()
			for i := 0; i < 5; i++ {
				got := queryInts(t, s, "SELECT sum(id) FROM r WHERE k >= 100 AND k < 3900")
				if len(got) != 1 || got[0] != want {
					errc <- fmt.Errorf("sum = %v, want %d", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

// TestIndexScan_WideRange_UpdateAndDelete changes and deletes rows found
// through wide index ranges (the writes take their rows from windowed
// scans), then checks what is left against the model.
func TestIndexScan_WideRange_UpdateAndDelete(t *testing.T) {
	s := openMem(t).NewSession()
	all := windowTable(t, s, 20_000)
	mustExec(t, s, "UPDATE r SET k = k + 10000, txt = 'moved' WHERE k >= 1000 AND k < 4000")
	mustExec(t, s, "DELETE FROM r WHERE k >= 200 AND k < 900")
	var wantCount, wantSum, wantMoved int64
	for _, r := range all {
		k := r.k
		if k >= 1000 && k < 4000 {
			k += 10_000
			wantMoved++
		}
		if k >= 200 && k < 900 {
			continue
		}
		wantCount++
		wantSum += k
	}
	require.Equal(t, []int64{wantCount, wantSum}, queryInts(t, s, "SELECT count(*), sum(k) FROM r WHERE k >= 0 AND k < 100000"))
	require.Equal(t, []int64{wantMoved}, queryInts(t, s, "SELECT count(*) FROM r WHERE k >= 11000 AND k < 14000 AND txt = 'moved'"))
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM r WHERE k >= 200 AND k < 900"))
}

// TestIndexScan_WideRange_SortedByOtherColumn sorts a wide index range by
// a column the index does not order (the sort drains the scan, whose
// first window is then wide).
func TestIndexScan_WideRange_SortedByOtherColumn(t *testing.T) {
	s := openMem(t).NewSession()
	all := windowTable(t, s, 20_000)
	var want []windowRow
	for _, r := range all {
		if r.k >= 100 && r.k < 6000 {
			want = append(want, r)
		}
	}
	slices.SortFunc(want, func(a, b windowRow) int { return int(b.id - a.id) })
	const q = "SELECT id, k, txt FROM r WHERE k >= 100 AND k < 6000 ORDER BY id DESC"
	require.Equal(t, want, queryWindowRows(t, s, q))
	require.Equal(t, want[:7], queryWindowRows(t, s, q+" LIMIT 7"))
}

// TestIndexScan_WideInList_LongRows reads an IN list of many keys (seeks
// between the values inside one window) over rows some of which overflow
// their page (read by key, not in a leaf run): index order, all values.
func TestIndexScan_WideInList_LongRows(t *testing.T) {
	s := openMem(t).NewSession()
	all := windowTable(t, s, 30_000)
	long := strings.Repeat("x", 5000)
	mustExec(t, s, "UPDATE r SET txt = ? || id WHERE id % 101 = 0", types.NewText(long))
	keys := map[int64]bool{}
	var list []string
	for k := int64(3); k < 10_000; k += 11 {
		keys[k] = true
		list = append(list, fmt.Sprint(k))
	}
	var want []windowRow
	for _, r := range all {
		if keys[r.k] {
			if r.id%101 == 0 {
				r.txt = long + fmt.Sprint(r.id)
			}
			want = append(want, r)
		}
	}
	require.Greater(t, len(want), 2*1024)
	got := queryWindowRows(t, s, "SELECT id, k, txt FROM r WHERE k IN ("+strings.Join(list, ",")+")")
	require.Equal(t, want, got)
	var wantSum int64
	for _, r := range all {
		if r.k >= 100 && r.k < 9000 {
			wantSum += r.id
		}
	}
	require.Equal(t, []int64{wantSum}, queryInts(t, s, "SELECT sum(id + 0*length(txt)) FROM r WHERE k >= 100 AND k < 9000"))
}
