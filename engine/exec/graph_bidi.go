package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/plan"
)

// graphSide is one end of a bidirectional shortest-path search: the
// vertices it reached, each with its distance from its end and the number
// of shortest walks there, and its current frontier. The arrays are
// generation-stamped like graphOp's, so a new start row clears nothing.
type graphSide struct {
	stamp       []uint32
	dist        []int32
	cnt         []int64
	front, next []int32
	depth       int32
	dirs        [2]bool // the adjacency directions this side follows
}

// reset starts the side at vertex v.
func (s *graphSide) reset(v int32, gen uint32) {
	s.front, s.next, s.depth = append(s.front[:0], v), s.next[:0], 0
	s.mark(v, gen, 0, 1)
}

// mark records v reached at dist by cnt walks.
func (s *graphSide) mark(v int32, gen uint32, dist int32, cnt int64) {
	for int(v) >= len(s.stamp) {
		s.stamp, s.dist, s.cnt = append(s.stamp, 0), append(s.dist, 0), append(s.cnt, 0)
	}
	s.stamp[v], s.dist[v], s.cnt[v] = gen, dist, cnt
}

// seen reports whether v was reached in generation gen.
func (s *graphSide) seen(v int32, gen uint32) bool { return int(v) < len(s.stamp) && s.stamp[v] == gen }

func (s *graphSide) bytes() int64 {
	return int64(cap(s.stamp)+cap(s.dist)+cap(s.front)+cap(s.next))*4 + int64(cap(s.cnt))*8
}

// canMeet reports whether a shortest path to a target may be searched
// from both ends: a shortest mode without path lists, paths of at least
// one edge at most, and the edges of both directions at hand (read whole,
// or a lookup each way).
func (g *graphOp) canMeet() bool {
	n := g.n
	if n.Mode == plan.GraphWalk || n.Target == nil || n.PathVertices || n.PathEdges || n.Min > 1 {
		return false
	}
	for d := range g.adj {
		if g.lookups[d] == nil && g.adj[d].lo == nil {
			return false
		}
	}
	return true
}

// meet finds the shortest paths from s to t (s != t) by breadth-first
// searches from both ends, growing the smaller frontier a level at a time;
// the first level where they touch gives the length, and the walks through
// the touching vertices count the shortest paths (ALL SHORTEST outputs
// that many rows). It visits about 2·d^(L/2) vertices where one search
// visits d^L.
func (g *graphOp) meet(c *Ctx, s, t int32) error {
	fw, bw := &g.fw, &g.bw
	out, in := g.n.Dir != plan.GraphIn, g.n.Dir != plan.GraphOut
	fw.dirs, bw.dirs = [2]bool{out, in}, [2]bool{in, out}
	fw.reset(s, g.gen)
	bw.reset(t, g.gen)
	for {
		if len(fw.front) == 0 || len(bw.front) == 0 || int(fw.depth+bw.depth) >= g.n.Max {
			return g.charge(c)
		}
		side, other := fw, bw
		if len(bw.front) < len(fw.front) {
			side, other = bw, fw
		}
		if err := g.grow(c, side); err != nil {
			return err
		}
		best, total := int32(math.MaxInt32), int64(0)
		for _, v := range side.front {
			if !other.seen(v, g.gen) {
				continue
			}
			l := side.depth + other.dist[v]
			w := satMul(side.cnt[v], other.cnt[v])
			switch {
			case l < best:
				best, total = l, w
			case l == best:
				total = satAdd(total, w)
			}
		}
		if best != math.MaxInt32 && int(best) <= g.n.Max {
			if g.n.Mode == plan.GraphAnyShortest {
				total = 1
			}
			g.entries = append(g.entries, graphEntry{vertex: t, parent: -1, edge: -1, depth: best, count: total})
			g.results = append(g.results, graphResult{entry: int32(len(g.entries) - 1), count: total})
			return g.charge(c)
		}
		if err := g.charge(c); err != nil {
			return err
		}
	}
}

// grow moves side one level further: its next frontier becomes its
// frontier.
func (g *graphOp) grow(c *Ctx, side *graphSide) error {
	side.depth++
	side.next = side.next[:0]
	for _, x := range side.front {
		if err := c.Check(); err != nil {
			return err
		}
		for d, on := range side.dirs {
			if !on {
				continue
			}
			steps, err := g.neighbours(c, d, x)
			if err != nil {
				return err
			}
			for _, st := range steps {
				if d == 1 && g.n.Dir == plan.GraphAny && st.to == x {
					continue // a self-loop is one step, taken in direction out
				}
				switch {
				case !side.seen(st.to, g.gen):
					side.mark(st.to, g.gen, side.depth, side.cnt[x])
					side.next = append(side.next, st.to)
				case side.dist[st.to] == side.depth:
					side.cnt[st.to] = satAdd(side.cnt[st.to], side.cnt[x])
				}
			}
		}
	}
	side.front, side.next = side.next, side.front
	return nil
}

func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
