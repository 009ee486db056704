package plan

import (
	"slices"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// indexLookup turns Filter(pred) over a full Scan into a Filter over an
// index range scan when an index fits pred's conjuncts: equality on a
// prefix of its columns, then an optional range on the next column. The
// conjuncts the range answers exactly leave the filter: the index key
// orders values as the comparison does (same collation, and the column
// side is a bare column, so no affinity changes it), NULLs included.
func indexLookup(cat *catalog.Catalog, n Node) Node {
	f, ok := n.(*Filter)
	if !ok || cat == nil {
		return n
	}
	s, ok := f.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Index != nil || s.Table.Virtual {
		return n
	}
	ixs := cat.IndexesOf(s.Table)
	if len(ixs) == 0 {
		return n
	}
	var buf [8]Expr
	conj := appendConjuncts(buf[:0], f.Pred) // on the stack for up to 8 conjuncts
	var best *IndexRange
	var bestUsed []int
	bestScore, bestRows := 0, 0.0
	analyzed := s.Table.Stat != nil
	for _, ix := range ixs {
		if ix.Where != "" {
			continue
		}
		r, used, score := matchIndex(ix, s, conj)
		if score == 0 {
			continue
		}
		cand := &Scan{Table: s.Table, Needed: s.Needed, Index: r, Size: s.Size}
		if CoveringIndex(cand) {
			score += 2 // reads no table row
		}
		rows := estimateScan(cand, true)
		if betterIndex(analyzed, rows, score, bestRows, bestScore) {
			best, bestUsed, bestScore, bestRows = r, used, score, rows
		}
	}
	if best == nil {
		return n
	}
	ns := *s
	ns.Index = best
	return withFilter(&ns, without(conj, bestUsed))
}

// betterIndex reports whether a candidate (estimated rows, score) beats
// the best so far (bestScore 0: none yet). Without statistics the score
// decides (equality columns, then a range, a full unique key, covering);
// once ANALYZE has measured the table, the fewest estimated rows do, the
// score breaking ties.
func betterIndex(analyzed bool, rows float64, score int, bestRows float64, bestScore int) bool {
	switch {
	case bestScore == 0:
		return true
	case analyzed && rows != bestRows:
		return rows < bestRows
	}
	return score > bestScore
}

// without returns the conjuncts not at the positions in drop.
func without(conj []Expr, drop []int) []Expr {
	var out []Expr
	for i, c := range conj {
		if !slices.Contains(drop, i) {
			out = append(out, c)
		}
	}
	return out
}

// withFilter puts the conjuncts, if any, as a Filter over n.
func withFilter(n Node, conj []Expr) Node {
	pred := andAll(conj)
	if pred == nil {
		return n
	}
	return &Filter{Input: n, Pred: pred}
}

// matchIndex scores how well ix (an index of s's table) serves the
// conjuncts; used lists the conjuncts the range answers.
func matchIndex(ix *catalog.Index, s *Scan, conj []Expr) (*IndexRange, []int, int) {
	r := IndexRange{Index: ix} // on the stack until an index qualifies
	var used []int
	for _, ic := range ix.Columns {
		if ic.Col < 0 {
			break
		}
		v, at := findBound(conj, ic, "=")
		if v == nil {
			if at = findIsNull(conj, ic); at < 0 {
				break
			}
			v = nullConst
			r.EqNull = growNull(r.EqNull, len(r.Eq))
		}
		used = append(used, at)
		r.Eq = append(r.Eq, v)
	}
	score := 10 * len(r.Eq)
	if len(r.Eq) < len(ix.Columns) {
		ic := ix.Columns[len(r.Eq)]
		if list, at := findInList(conj, ic); list != nil {
			r.In = list
			return heapRange(r), append(used, at), score + 8
		}
		if sub, at := findInSub(conj, ic, s); sub != nil {
			r.InSub = sub
			return heapRange(r), append(used, at), score + 8
		}
		if lp := findLikePrefix(conj, ic); lp != nil {
			r.Like = lp
			return heapRange(r), used, score + 6 // the LIKE stays in the filter
		}
		if ic.Col >= 0 && !ic.Desc {
			var lo, hi int
			r.Lo, r.LoIncl, lo = findRangeBound(conj, ic, ">=", ">")
			r.Hi, r.HiIncl, hi = findRangeBound(conj, ic, "<=", "<")
			if r.Lo != nil {
				used = append(used, lo)
			}
			if r.Hi != nil {
				used = append(used, hi)
			}
		}
	}
	if r.Lo != nil || r.Hi != nil {
		score += 5
	}
	if ix.Unique && len(r.Eq) == len(ix.Columns) && r.EqNull == nil {
		score += 100
	}
	if score == 0 {
		return nil, nil, 0
	}
	return heapRange(r), used, score
}

// heapRange is r moved to the heap, for the one range matchIndex returns.
func heapRange(r IndexRange) *IndexRange { return &r }

// findInList finds a conjunct "column IN (values)" on index column ic,
// with the column's own collation matching the index's and every value
// row-independent, returning the values and the conjunct's position. In a
// filter an IN holds exactly for the rows whose key equals one of the
// non-NULL values (the binder gave the values the column's affinity).
func findInList(conj []Expr, ic catalog.IndexColumn) ([]Expr, int) {
	for i, c := range conj {
		in, ok := c.(*InList)
		if !ok || in.Not || len(in.List) == 0 {
			continue
		}
		col, ok := in.X.(*ColRef)
		if !ok || ic.Col < 0 || col.Idx != ic.Col || !strings.EqualFold(normColl(col.Collate), normColl(ic.Collate)) {
			continue
		}
		if !slices.ContainsFunc(in.List, func(e Expr) bool { return !constLike(e) }) {
			return in.List, i
		}
	}
	return nil, -1
}

// findLikePrefix finds a conjunct "column LIKE pattern" (column NOCASE)
// or "column GLOB pattern" (column BINARY) whose pattern is a parameter or
// a text literal starting with a literal character, on an ascending index
// column of TEXT affinity: SQLite's conditions for its LIKE optimisation
// (no ESCAPE; LIKE is case-insensitive, as ladybug has no
// case_sensitive_like). TEXT affinity means no number is stored as one.
func findLikePrefix(conj []Expr, ic catalog.IndexColumn) *LikePrefix {
	for _, c := range conj {
		l, ok := c.(*Like)
		if !ok || l.Not || l.Escape != nil || (l.Op != "LIKE" && l.Op != "GLOB") || ic.Desc {
			continue
		}
		col, ok := l.X.(*ColRef)
		if !ok || ic.Col < 0 || col.Idx != ic.Col || col.Affinity != types.AffinityText {
			continue
		}
		glob := l.Op == "GLOB"
		want := "NOCASE"
		if glob {
			want = "BINARY"
		}
		if !strings.EqualFold(normColl(ic.Collate), want) || !strings.EqualFold(normColl(col.Collate), want) {
			continue
		}
		switch p := l.Pat.(type) {
		case *Param:
		case *Const:
			if LiteralPrefix(p.V, glob) == "" {
				continue
			}
		default:
			continue
		}
		return &LikePrefix{Pat: l.Pat, Glob: glob}
	}
	return nil
}

// LiteralPrefix is the part of a LIKE (or GLOB) pattern before its first
// wildcard, "" when the pattern is not text or starts with one.
func LiteralPrefix(pat types.Value, glob bool) string {
	if pat.Kind() != types.KindText {
		return ""
	}
	s := pat.Text()
	wild := "%_"
	if glob {
		wild = "*?["
	}
	if i := strings.IndexAny(s, wild); i >= 0 {
		return s[:i]
	}
	return s
}

// findRangeBound finds an inclusive (incl) or else exclusive (excl) bound
// on index column ic, with the conjunct's position.
func findRangeBound(conj []Expr, ic catalog.IndexColumn, incl, excl string) (Expr, bool, int) {
	if v, at := findBound(conj, ic, incl); v != nil {
		return v, true, at
	}
	v, at := findBound(conj, ic, excl)
	return v, false, at
}

// findBound finds a conjunct "column op value" (or "value flip(op)
// column") on index column ic with a matching collation, returning value
// and the conjunct's position (-1 when none).
func findBound(conj []Expr, ic catalog.IndexColumn, op string) (Expr, int) {
	for i, c := range conj {
		bin, ok := c.(*Binary)
		if !ok || !strings.EqualFold(normColl(bin.Coll), normColl(ic.Collate)) {
			continue
		}
		if col, ok := bin.L.(*ColRef); ok && col.Idx == ic.Col && bin.Op == op && constLike(bin.R) {
			return bin.R, i
		}
		if col, ok := bin.R.(*ColRef); ok && col.Idx == ic.Col && flip(bin.Op) == op && constLike(bin.L) {
			return bin.L, i
		}
	}
	return nil, -1
}

func normColl(c string) string {
	if c == "" {
		return "BINARY"
	}
	return c
}

// findIsNull returns the position of a conjunct "column IS NULL" on
// index column ic, or -1. NULLs compare equal under every collation, so no
// collation check is needed.
func findIsNull(conj []Expr, ic catalog.IndexColumn) int {
	for i, c := range conj {
		switch x := c.(type) {
		case *IsNull:
			if !x.Not && isCol(x.X, ic.Col) {
				return i
			}
		case *Binary:
			if x.Op == "IS" && ((isCol(x.L, ic.Col) && isNullConst(x.R)) || (isCol(x.R, ic.Col) && isNullConst(x.L))) {
				return i
			}
		}
	}
	return -1
}

func isCol(e Expr, idx int) bool {
	c, ok := e.(*ColRef)
	return ok && c.Idx == idx
}

// isNullConst reports whether e is the NULL literal, under any affinity.
func isNullConst(e Expr) bool {
	if a, ok := e.(*Affinity); ok {
		e = a.X
	}
	c, ok := e.(*Const)
	return ok && c.V.IsNull()
}

// growNull returns marks with position i set, extended as needed.
func growNull(marks []bool, i int) []bool {
	for len(marks) <= i {
		marks = append(marks, false)
	}
	marks[i] = true
	return marks
}
