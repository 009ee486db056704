package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// expandSpec is a GraphExpand over the start rows of one query (tag, key,
// target) and the edge rows of another (id, src, dst).
type expandSpec struct {
	start, edges string
	dir          plan.GraphDir
	min, max     int
	mode         plan.GraphMode
	target       bool
	paths        bool
}

// boundRoot binds sql and returns its plan with an identity projection
// (SELECT *) taken off, so a table's scan is the node itself.
func boundRoot(t testing.TB, s *Session, sql string) plan.Node {
	t.Helper()
	sc, err := s.prepareScript(sql)
	require.NoError(t, err, sql)
	bp, err := s.bindAt(sc, 0, s.db.cat.Load(), stmtTx{})
	require.NoError(t, err, sql)
	root := bp.plan.(*plan.Query).Root
	if p, ok := root.(*plan.Project); ok {
		ident := true
		for i, e := range p.Exprs {
			if c, ok := e.(*plan.ColRef); !ok || c.Idx != i {
				ident = false
			}
		}
		if ident {
			root = p.Input
		}
	}
	return root
}

// expandPlan builds and optimizes the GraphExpand of sp.
func expandPlan(t testing.TB, s *Session, sp expandSpec) plan.Node {
	t.Helper()
	in := boundRoot(t, s, sp.start)
	g := &plan.GraphExpand{
		Input: in, Start: []plan.Expr{&plan.ColRef{Idx: 1}},
		Edges: boundRoot(t, s, sp.edges), Src: []int{1}, Dst: []int{2}, EdgeID: []int{0},
		Dir: sp.dir, Min: sp.min, Max: sp.max, Mode: sp.mode,
		PathVertices: sp.paths, PathEdges: sp.paths,
	}
	if sp.target {
		g.Target = []plan.Expr{&plan.ColRef{Idx: 2}}
	}
	g.Cols = plan.GraphExpandColumns(in, g.Start, g.PathVertices, g.PathEdges)
	return plan.Optimize(s.db.cat.Load(), exec.ConstEvaluator{}, &plan.Query{Root: g}).Root
}

// runPlan executes root in a read statement of s, calling fn per row.
func runPlan(ctx context.Context, s *Session, root plan.Node, fn func([]types.Value) error) (err error) {
	op, err := exec.Build(root)
	if err != nil {
		return err
	}
	return runOp(ctx, s, op, len(root.Columns()), fn)
}

// runOp executes op (ncol columns) in a read statement of s, calling fn
// per row, and closes it.
func runOp(ctx context.Context, s *Session, op exec.Operator, ncol int, fn func([]types.Value) error) (err error) {
	st, err := s.startStatement(ctx, false, false)
	if err != nil {
		return err
	}
	defer func() { err = s.endStatement(st, err) }()
	c := s.newCtx(ctx, st.tx, s.db.cat.Load(), nil, nil)
	defer op.Close()
	row := make([]types.Value, ncol)
	for {
		b, err := op.Next(c)
		if err != nil || b == nil {
			return err
		}
		for k := range b.Len() {
			b.Row(k, row)
			if err := fn(row); err != nil {
				return err
			}
		}
	}
}

// expandRows runs sp and renders each row as "tag|end|len[|vertices|edges]".
func expandRows(t testing.TB, s *Session, sp expandSpec) []string {
	t.Helper()
	var out []string
	root := expandPlan(t, s, sp)
	n := len(root.(*plan.GraphExpand).Input.Columns())
	require.NoError(t, runPlan(context.Background(), s, root, func(r []types.Value) error {
		parts := []string{r[0].String(), normKey(r[n].String()), r[n+1].String()}
		if sp.paths {
			parts = append(parts, normKey(r[n+2].Str()), r[n+3].Str())
		}
		out = append(out, strings.Join(parts, "|"))
		return nil
	}))
	slices.Sort(out)
	return out
}

// normKey writes the keys of a vertex or a vertex list as the reference
// does: integers (a REAL key 3.0 and a TEXT key 'v3' both stand for 3).
func normKey(s string) string {
	s = strings.ReplaceAll(s, ".0", "")
	s = strings.ReplaceAll(s, `"v`, "")
	s = strings.ReplaceAll(s, `"`, "")
	return strings.Trim(strings.TrimPrefix(s, "'v"), "'")
}

// refGraph is a graph for the reference expansion: edges (id, src, dst)
// with nil for a NULL key, and start rows (tag, key, target).
type refGraph struct {
	edges  [][3]*int64
	starts [][3]*int64
}

type refWalk struct {
	end   int64
	verts []int64
	edges []int64
}

// walks enumerates every walk from v of at most max edges.
func (g *refGraph) walks(v int64, dir plan.GraphDir, max int) []refWalk {
	var out []refWalk
	var rec func(w refWalk)
	rec = func(w refWalk) {
		out = append(out, refWalk{end: w.end, verts: slices.Clone(w.verts), edges: slices.Clone(w.edges)})
		if len(w.edges) == max {
			return
		}
		for _, e := range g.edges {
			if e[1] == nil || e[2] == nil {
				continue
			}
			src, dst := *e[1], *e[2]
			var next []int64
			if dir != plan.GraphIn && src == w.end {
				next = append(next, dst)
			}
			if dir != plan.GraphOut && dst == w.end && !(dir == plan.GraphAny && src == dst) {
				next = append(next, src)
			}
			for _, n := range next {
				rec(refWalk{end: n, verts: append(w.verts, n), edges: append(w.edges, *e[0])})
			}
		}
	}
	rec(refWalk{end: v, verts: []int64{v}})
	return out
}

func jsonInts(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// expected is the reference answer of sp over g; for ANY SHORTEST with
// paths, alts lists every acceptable path per row instead.
func (g *refGraph) expected(sp expandSpec) (rows []string, alts map[string][]string) {
	alts = map[string][]string{}
	for _, st := range g.starts {
		if st[1] == nil || (sp.target && st[2] == nil) {
			continue
		}
		tag := strconv.FormatInt(*st[0], 10)
		var keep []refWalk
		for _, w := range g.walks(*st[1], sp.dir, sp.max) {
			if len(w.edges) >= sp.min && (!sp.target || w.end == *st[2]) {
				keep = append(keep, w)
			}
		}
		if sp.mode != plan.GraphWalk {
			best := map[int64]int{}
			for _, w := range keep {
				if b, ok := best[w.end]; !ok || len(w.edges) < b {
					best[w.end] = len(w.edges)
				}
			}
			keep = slices.DeleteFunc(keep, func(w refWalk) bool { return len(w.edges) != best[w.end] })
		}
		seen := map[int64]bool{}
		for _, w := range keep {
			row := fmt.Sprintf("%s|%d|%d", tag, w.end, len(w.edges))
			if sp.paths {
				p := jsonInts(w.verts) + "|" + jsonInts(w.edges)
				if sp.mode == plan.GraphAnyShortest {
					alts[row] = append(alts[row], p)
				} else {
					row += "|" + p
				}
			}
			if sp.mode == plan.GraphAnyShortest {
				if seen[w.end] {
					continue
				}
				seen[w.end] = true
			}
			rows = append(rows, row)
		}
	}
	slices.Sort(rows)
	return rows, alts
}

// randomGraph fills tables s (starts) and e (edges) of s with a random
// graph of up to n vertices: self-loops, parallel edges, cycles, NULL
// keys, isolated start vertices and duplicate start rows. keys is "int",
// "mixed" (each key an INTEGER or the equal REAL) or "text" ('v1'…).
func randomGraph(t testing.TB, s *Session, r *rand.Rand, n, m int, keys string) *refGraph {
	t.Helper()
	g := &refGraph{}
	gexec(t, s, "DELETE FROM e")
	gexec(t, s, "DELETE FROM s")
	key := func(nullPct int, hi int) *int64 {
		if r.IntN(100) < nullPct {
			return nil
		}
		v := int64(1 + r.IntN(hi))
		return &v
	}
	val := func(p *int64) types.Value {
		if p == nil {
			return types.Null
		}
		switch {
		case keys == "text":
			return types.NewText(fmt.Sprintf("v%d", *p))
		case keys == "mixed" && r.IntN(2) == 0:
			return types.NewReal(float64(*p)) // equal to the INTEGER key
		}
		return types.NewInt(*p)
	}
	for i := range m {
		id := int64(i + 1)
		e := [3]*int64{&id, key(5, n), key(5, n)}
		if r.IntN(8) == 0 && e[1] != nil { // a self-loop
			e[2] = e[1]
		}
		g.edges = append(g.edges, e)
		gexec(t, s, "INSERT INTO e VALUES (?, ?, ?)", types.NewInt(id), val(e[1]), val(e[2]))
	}
	for i := range 3 + r.IntN(3) {
		tag := int64(i + 1)
		st := [3]*int64{&tag, key(10, n+1), key(10, n+1)}
		g.starts = append(g.starts, st)
		gexec(t, s, "INSERT INTO s VALUES (?, ?, ?)", types.NewInt(tag), val(st[1]), val(st[2]))
	}
	return g
}

func graphSession(t testing.TB, indexed bool) *Session {
	if indexed {
		return graphSessionWith(t, graphLayouts[1])
	}
	return graphSessionWith(t, graphLayouts[0])
}

// graphLayout is an edge table's key columns and indexes.
type graphLayout struct {
	name, cols string
	indexes    []string
}

// graphLayouts are the edge tables the reference test expands: no index
// (the edges read whole), one-column indexes (the lookup operator), and
// indexes on both ends (read straight from the index cells), with no
// affinity (keys keep their type; integers are read from the rows) and
// INTEGER affinity (integers decoded from the index keys).
var graphLayouts = []graphLayout{
	{"scan", "src, dst", nil},
	{"index", "src, dst", []string{"CREATE INDEX e_src ON e(src)", "CREATE INDEX e_dst ON e(dst)"}},
	{"pairs", "src, dst", []string{"CREATE INDEX e_src ON e(src, dst)", "CREATE INDEX e_dst ON e(dst DESC, src DESC)"}},
	{"pairs-int", "src INTEGER, dst INTEGER", []string{"CREATE INDEX e_src ON e(src, dst)", "CREATE INDEX e_dst ON e(dst, src DESC)"}},
}

func graphSessionWith(t testing.TB, l graphLayout) *Session {
	t.Helper()
	db, err := Open(Options{Memory: true})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	s := db.NewSession()
	t.Cleanup(func() { s.Close() })
	gexec(t, s, "CREATE TABLE e (id INTEGER PRIMARY KEY, "+l.cols+")")
	gexec(t, s, "CREATE TABLE s (tag INTEGER PRIMARY KEY, v, t)")
	for _, q := range l.indexes {
		gexec(t, s, q)
	}
	return s
}

// TestGraphExpand_MatchesReferenceBFS runs random expansions over random
// graphs, reading the edges whole and through index lookups, and compares
// every row with a reference enumeration of walks.
func TestGraphExpand_MatchesReferenceBFS(t *testing.T) {
	for _, keys := range []string{"int", "mixed", "text"} {
		for i, l := range graphLayouts {
			t.Run(keys+"/"+l.name, func(t *testing.T) { matchReference(t, keys, l, uint64(i)) })
		}
	}
}

func matchReference(t *testing.T, keys string, l graphLayout, seed uint64) {
	{
		{
			s := graphSessionWith(t, l)
			r := rand.New(rand.NewPCG(23, seed+uint64(len(keys))))
			for round := range 40 {
				g := randomGraph(t, s, r, 2+r.IntN(6), r.IntN(14), keys)
				for range 6 {
					sp := expandSpec{
						start: "SELECT * FROM s", edges: "SELECT * FROM e",
						dir: plan.GraphDir(r.IntN(3)), mode: plan.GraphMode(r.IntN(3)),
						target: r.IntN(3) == 0, paths: r.IntN(2) == 0,
					}
					sp.min = r.IntN(3)
					sp.max = sp.min + r.IntN(3)
					want, alts := g.expected(sp)
					got := expandRows(t, s, sp)
					desc := fmt.Sprintf("round %d %+v edges %v starts %v", round, sp, fmtRef(g.edges), fmtRef(g.starts))
					if sp.mode == plan.GraphAnyShortest && sp.paths {
						// One path of the least length per end: any of them.
						var rows []string
						for _, row := range got {
							parts := strings.SplitN(row, "|", 4)
							head := strings.Join(parts[:3], "|")
							require.Contains(t, alts[head], parts[3], desc)
							rows = append(rows, head)
						}
						slices.Sort(rows)
						got = rows
					}
					require.Equal(t, want, got, desc)
				}
			}
		}
	}
}

func fmtRef(rows [][3]*int64) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("(")
		for i, p := range r {
			if i > 0 {
				b.WriteString(",")
			}
			if p == nil {
				b.WriteString("NULL")
			} else {
				b.WriteString(strconv.FormatInt(*p, 10))
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

// TestGraphExpand_LookupsAndExplain checks that an edge table indexed on
// both keys is expanded through lookups, and that EXPLAIN QUERY PLAN and
// the plan's format name the operator.
func TestGraphExpand_LookupsAndExplain(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		s := graphSession(t, indexed)
		root := expandPlan(t, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM e", dir: plan.GraphAny, max: 3, mode: plan.GraphAnyShortest})
		g := root.(*plan.GraphExpand)
		require.Equal(t, indexed, g.OutLookup != nil && g.InLookup != nil, plan.Format(root))
		require.Contains(t, plan.Format(root), "GraphExpand ANY SHORTEST - {0,3}")
		e := &explainer{}
		e.node(root, 0)
		var lines []string
		for _, r := range e.rows {
			lines = append(lines, r[3].Str())
		}
		text := strings.Join(lines, "\n")
		require.Contains(t, text, "GRAPH EXPAND ANY SHORTEST -{0,3}")
		if indexed {
			require.Contains(t, text, "SEARCH e USING INDEX e_dst (dst=?)")
			require.Contains(t, text, "SEARCH e USING INDEX e_src (src=?)")
		} else {
			require.Contains(t, text, "SCAN e")
		}
	}
}

// denseGraph fills e with a complete directed graph on n vertices.
func denseGraph(t testing.TB, s *Session, n int) {
	gexec(t, s, "INSERT INTO s VALUES (1, 1, NULL)")
	gexec(t, s, "WITH RECURSIVE v(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM v WHERE x < ?) INSERT INTO e(src, dst) SELECT a.x, b.x FROM v a, v b", types.NewInt(int64(n)))
}

// TestGraphExpand_MemoryLimit: the walks of a dense graph with path lists
// outgrow a small memory_limit inside the expansion, and the error is the
// limit's.
func TestGraphExpand_MemoryLimit(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		db, err := Open(Options{Memory: true, MemoryLimit: 4 << 20})
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		s := db.NewSession()
		gexec(t, s, "CREATE TABLE e (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER)")
		gexec(t, s, "CREATE TABLE s (tag INTEGER PRIMARY KEY, v INTEGER, t INTEGER)")
		if indexed {
			gexec(t, s, "CREATE INDEX e_src ON e(src)")
		}
		denseGraph(t, s, 30)
		root := expandPlan(t, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM e", max: 6, paths: true})
		rows := 0
		err = runPlan(context.Background(), s, root, func([]types.Value) error { rows++; return nil })
		var e *errs.Error
		require.True(t, errors.As(err, &e), "%v", err)
		require.Equal(t, errs.CodeNoMem, e.Code, "%v", err)
		require.Zero(t, rows, "the limit is hit while expanding, before the first row")
		// A bound that fits runs: 30 + 30² walks of 1 and 2 edges.
		root = expandPlan(t, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM e", min: 1, max: 2, paths: true})
		rows = 0
		require.NoError(t, runPlan(context.Background(), s, root, func([]types.Value) error { rows++; return nil }))
		require.Equal(t, 30+30*30, rows)
	}
}

// TestGraphExpand_Cancel: cancelling the context stops an expansion whose
// walks could not be listed in the lifetime of the universe (30^12).
func TestGraphExpand_Cancel(t *testing.T) {
	s := graphSession(t, true)
	denseGraph(t, s, 30)
	root := expandPlan(t, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM e", max: 12})
	ctx, cancel := context.WithCancel(context.Background())
	rows := 0
	err := runPlan(ctx, s, root, func([]types.Value) error {
		rows++
		if rows == 5000 {
			cancel()
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, rows, 5000+2*exec.BatchSize)
}

// gexec is mustExec for benchmarks too.
func gexec(t testing.TB, s *Session, sql string, args ...types.Value) {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	require.NoError(t, err, sql)
	defer st.Close()
	_, err = st.Exec(context.Background(), positional(args))
	require.NoError(t, err, sql)
}

// TestGraphExpand_DirectLookup_Profiled: edges read straight from an index
// on (src, dst) count as the lookup plan's rows in EXPLAIN ANALYZE's
// profile, a batch per vertex looked up.
func TestGraphExpand_DirectLookup_Profiled(t *testing.T) {
	s := graphSessionWith(t, graphLayouts[3])
	denseGraph(t, s, 5)
	root := expandPlan(t, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM e", min: 1, max: 2, mode: plan.GraphAnyShortest})
	g := root.(*plan.GraphExpand)
	require.NotNil(t, g.OutLookup)
	op, prof, err := exec.BuildProfiled(root)
	require.NoError(t, err)
	rows := 0
	require.NoError(t, runOp(context.Background(), s, op, len(root.Columns()), func([]types.Value) error { rows++; return nil }))
	require.Equal(t, 5, rows) // every vertex, at 1 edge
	st := prof[g.OutLookup]
	require.NotNil(t, st)
	// Vertex 1 at depth 0, then its neighbours at depth 1 (itself among
	// them, already looked up): each of the 5 vertices once, 5 edges each.
	require.Equal(t, int64(25), st.Rows)
	require.Equal(t, int64(5), st.Batches)
}
