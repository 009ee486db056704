package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// indexLookup turns Filter(pred) over a full Scan into the same Filter
// over an index range scan when an index fits pred's conjuncts: equality
// on a prefix of its columns, then an optional range on the next column.
// The filter stays: the range only has to be a superset of the matches.
func indexLookup(cat *catalog.Catalog, n Node) Node {
	f, ok := n.(*Filter)
	if !ok || cat == nil {
		return n
	}
	s, ok := f.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Index != nil || s.Table.Virtual {
		return n
	}
	conj := Conjuncts(f.Pred)
	var best *IndexRange
	bestScore := 0
	for _, ix := range cat.TableIndexes(s.Table.Name) {
		if ix.Where != "" {
			continue
		}
		r, score := matchIndex(ix, conj)
		if score > bestScore {
			best, bestScore = r, score
		}
	}
	if best == nil {
		return n
	}
	ns := *s
	ns.Index = best
	return &Filter{Input: &ns, Pred: f.Pred}
}

// matchIndex scores how well ix serves the conjuncts.
func matchIndex(ix *catalog.Index, conj []Expr) (*IndexRange, int) {
	r := &IndexRange{Index: ix}
	for _, ic := range ix.Columns {
		if ic.Col < 0 {
			break
		}
		v := findBound(conj, ic, "=")
		isNull := v == nil && findIsNull(conj, ic)
		if v == nil && !isNull {
			break
		}
		if isNull {
			v = &Const{V: types.Null}
			r.EqNull = growNull(r.EqNull, len(r.Eq))
		}
		r.Eq = append(r.Eq, v)
	}
	score := 10 * len(r.Eq)
	if len(r.Eq) < len(ix.Columns) {
		ic := ix.Columns[len(r.Eq)]
		if ic.Col >= 0 && !ic.Desc {
			if v := findBound(conj, ic, ">="); v != nil {
				r.Lo, r.LoIncl = v, true
			} else if v := findBound(conj, ic, ">"); v != nil {
				r.Lo = v
			}
			if v := findBound(conj, ic, "<="); v != nil {
				r.Hi, r.HiIncl = v, true
			} else if v := findBound(conj, ic, "<"); v != nil {
				r.Hi = v
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
		return nil, 0
	}
	return r, score
}

// findBound finds a conjunct "column op value" (or "value flip(op)
// column") on index column ic with a matching collation, returning value.
func findBound(conj []Expr, ic catalog.IndexColumn, op string) Expr {
	for _, c := range conj {
		bin, ok := c.(*Binary)
		if !ok || !strings.EqualFold(normColl(bin.Coll), normColl(ic.Collate)) {
			continue
		}
		if col, ok := bin.L.(*ColRef); ok && col.Idx == ic.Col && bin.Op == op && constLike(bin.R) {
			return bin.R
		}
		if col, ok := bin.R.(*ColRef); ok && col.Idx == ic.Col && flip(bin.Op) == op && constLike(bin.L) {
			return bin.L
		}
	}
	return nil
}

func normColl(c string) string {
	if c == "" {
		return "BINARY"
	}
	return c
}

// findIsNull reports whether a conjunct is "column IS NULL" on index
// column ic. NULLs compare equal under every collation, so no collation
// check is needed.
func findIsNull(conj []Expr, ic catalog.IndexColumn) bool {
	for _, c := range conj {
		switch x := c.(type) {
		case *IsNull:
			if !x.Not && isCol(x.X, ic.Col) {
				return true
			}
		case *Binary:
			if x.Op == "IS" && ((isCol(x.L, ic.Col) && isNullConst(x.R)) || (isCol(x.R, ic.Col) && isNullConst(x.L))) {
				return true
			}
		}
	}
	return false
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
