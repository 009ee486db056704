package funcs

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

func ints(xs ...int64) []types.Value {
	out := make([]types.Value, len(xs))
	for i, x := range xs {
		out[i] = types.NewInt(x)
	}
	return out
}

// peersOf computes Peers for a sorted column, as the executor would.
func peersOf(col []types.Value) []Peers {
	ps := make([]Peers, len(col))
	group, start := 0, 0
	for i := range col {
		if i > 0 && types.Compare(col[i], col[i-1], types.CollBinary) != 0 {
			group++
			start = i
		}
		ps[i] = Peers{N: len(col), Row: i, PeerStart: start, Group: group}
	}
	for i := len(col) - 1; i >= 0; i-- {
		if i == len(col)-1 || ps[i+1].PeerStart != ps[i].PeerStart {
			ps[i].PeerEnd = i + 1
		} else {
			ps[i].PeerEnd = ps[i+1].PeerEnd
		}
	}
	return ps
}

func joinRendered(vs []types.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(AppendQuote(nil, v))
	}
	return strings.Join(parts, " ")
}

// TestRanking_OverPeers_MatchSQLite: SQLite gives, over ORDER BY n for
// n = 1,1,2,3,3: percent_rank/cume_dist/rank/dense_rank =
// 0.0/0.4/1/1 0.0/0.4/1/1 0.5/0.6/3/2 0.75/1.0/4/3 0.75/1.0/4/3.
func TestRanking_OverPeers_MatchSQLite(t *testing.T) {
	ps := peersOf(ints(1, 1, 2, 3, 3))
	var got []string
	for _, p := range ps {
		parts := []types.Value{PercentRank(p), CumeDist(p), Rank(p), DenseRank(p)}
		got = append(got, joinRendered(parts))
	}
	want := "0.0 0.4 1 1|0.0 0.4 1 1|0.5 0.6 3 2|0.75 1.0 4 3|0.75 1.0 4 3"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("got %s\nwant %s", g, want)
	}
	if RowNumber(ps[3]).Int() != 4 {
		t.Error("row_number")
	}
}

func TestNtile_Buckets_MatchSQLite(t *testing.T) {
	cases := []struct {
		n    int
		k    types.Value
		want string
	}{
		{7, types.NewInt(3), "1 1 1 2 2 3 3"},
		{2, types.NewReal(2.5), "1 2"},
		{3, types.NewInt(10), "1 2 3"},
		{5, types.NewInt(1), "1 1 1 1 1"},
	}
	for _, c := range cases {
		var out []types.Value
		for i := 0; i < c.n; i++ {
			v, err := Ntile(Peers{N: c.n, Row: i}, c.k)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		if got := joinRendered(out); got != c.want {
			t.Errorf("ntile(%s) over %d = %s, want %s", render(c.k), c.n, got, c.want)
		}
	}
	if _, err := Ntile(Peers{N: 2}, types.NewInt(0)); err == nil || !strings.Contains(err.Error(), "argument of ntile must be a positive integer") {
		t.Errorf("ntile(0) err = %v", err)
	}
}

func TestLagLead_Offsets_MatchSQLite(t *testing.T) {
	col := ints(1, 2, 3)
	run := func(fn func([]types.Value, int, []types.Value) (types.Value, error), args ...types.Value) string {
		var out []types.Value
		for i := range col {
			v, err := fn(col, i, append([]types.Value{col[i]}, args...))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return joinRendered(out)
	}
	cases := []struct{ got, want string }{
		{run(Lag), "NULL 1 2"},
		{run(Lag, types.NewInt(-1)), "2 3 NULL"},
		{run(Lag, types.NewReal(1.5)), "NULL NULL NULL"},
		{run(Lead, types.NewInt(2), types.NewText("d")), "3 'd' 'd'"},
		{run(Lead, types.Null), "NULL NULL NULL"},
		{run(Lag, types.NewInt(0)), "1 2 3"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %s, want %s", i, c.got, c.want)
		}
	}
}

func TestFrameValues_NthFirstLast(t *testing.T) {
	col := ints(1, 2, 3)
	// nth_value(n, 2) over the default frame (start to current row): NULL 2 2.
	var out []types.Value
	for i := range col {
		v, err := NthValue(col, 0, i+1, types.NewInt(2))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if got := joinRendered(out); got != "NULL 2 2" {
		t.Errorf("nth_value = %s", got)
	}
	for _, bad := range []types.Value{types.NewInt(0), types.NewReal(1.5), types.Null} {
		if _, err := NthValue(col, 0, 3, bad); err == nil {
			t.Errorf("nth_value(%s) no error", render(bad))
		}
	}
	if FirstValue(col, 1, 3).Int() != 2 || LastValue(col, 0, 2).Int() != 2 || !FirstValue(col, 2, 2).IsNull() {
		t.Error("first/last value")
	}
	// unclipped bounds are clipped, never a panic
	if FirstValue(col, -3, 1).Int() != 1 || LastValue(col, 2, 9).Int() != 3 || !LastValue(col, 5, 9).IsNull() {
		t.Error("first/last value with bounds outside the partition")
	}
	if v, err := NthValue(col, -5, 1, types.NewInt(1)); err != nil || v.Int() != 1 {
		t.Error("nth_value with a negative start")
	}
	if v, err := NthValue(col, 7, 9, types.NewInt(1)); err != nil || !v.IsNull() {
		t.Error("nth_value past the partition")
	}
	f, _ := Lookup("sum", 1)
	fa := NewFrameAggregator(f.NewAggregate())
	rows := [][]types.Value{{types.NewInt(1)}}
	for _, b := range [][2]int{{2, 4}, {-3, -1}, {5, 2}, {0, 1}, {-9, 99}} {
		if _, err := fa.Value(rows, b[0], b[1]); err != nil {
			t.Errorf("frame %v: %v", b, err)
		}
	}
}

// TestFrameAggregator_Sliding_MatchSQLite replays frames recorded from SQLite.
func TestFrameAggregator_Sliding_MatchSQLite(t *testing.T) {
	frame := func(name string, vals []types.Value, before, after int) string {
		f, _ := Lookup(name, 1)
		fa := NewFrameAggregator(f.NewAggregate())
		rows := make([][]types.Value, len(vals))
		for i, v := range vals {
			rows[i] = []types.Value{v}
		}
		var out []types.Value
		for i := range vals {
			v, err := fa.Value(rows, i-before, i+after+1)
			if err != nil {
				return "ERR " + err.Error()
			}
			out = append(out, v)
		}
		return joinRendered(out)
	}
	abcd := []types.Value{types.NewText("a"), types.Null, types.NewText("c"), types.NewText("d")}
	cases := []struct{ got, want string }{
		// sum(x) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) over 2.5, 1, 3
		{frame("sum", []types.Value{types.NewReal(2.5), types.NewInt(1), types.NewInt(3)}, 1, 0), "2.5 3.5 4.0"},
		// group_concat(x) OVER (ROWS 1 PRECEDING) over a, NULL, c, d
		{frame("group_concat", abcd, 1, 0), "'a' 'a' 'c' 'c,d'"},
		// group_concat(x) OVER (ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)
		{frame("group_concat", abcd, -1, 2), "'c' 'c,d' 'd' NULL"},
		// max has no inverse: recomputed per frame
		{frame("max", ints(3, 1, 2, 0), 1, 0), "3 3 2 2"},
		{frame("count", abcd, 1, 1), "1 2 2 2"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %s, want %s", i, c.got, c.want)
		}
	}
	if got := frame("sum", ints(9223372036854775807, 1, 3), 1, 0); !strings.Contains(got, "integer overflow") {
		t.Errorf("overflowing frame = %s", got)
	}
}

// TestFrameAggregator_Oracle_MatchSQLite replays sliding-window aggregates
// over random lists recorded from SQLite (ROWS frames of six shapes).
func TestFrameAggregator_Oracle_MatchSQLite(t *testing.T) {
	replayWindows(t, "testdata/oracle_window.tsv", func(fa *FrameAggregator, args [][]types.Value, i, before, after int) (types.Value, error) {
		return fa.Value(args, i-before, i+after+1)
	})
}

// TestFrameAggregatorPeers_Oracle_MatchSQLite replays RANGE and GROUPS
// frames over peer groups of two rows (ORDER BY n/2), recorded from SQLite.
func TestFrameAggregatorPeers_Oracle_MatchSQLite(t *testing.T) {
	replayWindows(t, "testdata/oracle_window_peers.tsv", func(fa *FrameAggregator, args [][]types.Value, i, before, after int) (types.Value, error) {
		g := i / 2
		start, end := (g-before)*2, (g+after+1)*2
		if before == 100 {
			start = 0
		}
		if before < 0 { // GROUPS BETWEEN x FOLLOWING AND y FOLLOWING
			gap := after + before
			return fa.ValueLagged(args, start, end, func(e int) int { return (e/2 - gap) * 2 })
		}
		return fa.ValuePeers(args, start, end)
	})
}

func replayWindows(t *testing.T, path string, value func(fa *FrameAggregator, args [][]types.Value, i, before, after int) (types.Value, error)) {
	t.Helper()
	rows := readRows(t, path)
	if len(rows) < 1000 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, r := range rows {
		before, _ := strconv.Atoi(r[1])
		after, _ := strconv.Atoi(r[2])
		var vals []types.Value
		for _, q := range strings.Split(r[3], ",") {
			code, err := strconv.Unquote(q)
			if err != nil {
				t.Fatal(err)
			}
			vals = append(vals, operand(t, code))
		}
		name, seps := r[0], []types.Value(nil)
		switch name {
		case "group_concat2":
			name, seps = "group_concat", []types.Value{types.NewText("--"), types.NewText(";")}
		case "string_agg":
			seps = []types.Value{types.NewText(""), types.NewText("")}
		}
		args := make([][]types.Value, len(vals))
		for i, v := range vals {
			args[i] = []types.Value{v}
			if seps != nil {
				args[i] = append(args[i], seps[i%2])
			}
		}
		f, _ := Lookup(name, len(args[0]))
		fa := NewFrameAggregator(f.NewAggregate())
		var out []string
		for i := range vals {
			v, err := value(fa, args, i, before, after)
			if err != nil {
				out = []string{"ERR"} // SQLite fails the whole query
				break
			}
			out = append(out, render(v))
		}
		if got := strings.Join(out, " | "); got != r[4] {
			t.Errorf("%s ROWS [%d, %d] over %s:\n got %s\nwant %s", r[0], -before, after, r[3], got, r[4])
		}
	}
}
