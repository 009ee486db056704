package grammar

import "sort"

// ParamNumbering numbers placeholders as SQLite does, in the order they
// appear in the source text (not the order the tree holds them: a JOIN's
// ON comes before WHERE in the text but after it in a SelectCore): a bare
// ? takes the largest number assigned so far plus one; ?NNN and $N take
// NNN; a name (:a, @a, $a, the prefix included) takes the largest number
// so far plus one at its first appearance and that number again after.
// One numbering can run over the statements of a script in turn, so that
// the script's placeholders number on from each other's.
type ParamNumbering struct {
	// Max is the largest number assigned so far.
	Max int
	// Names holds, at [i-1], the name (without its prefix) of the
	// placeholder numbered i, or "".
	Names  []string
	byName map[string]int
}

// Number numbers the placeholders of n, setting each one's Index.
func (pn *ParamNumbering) Number(n Node) {
	ps := Params(n)
	for i, p := range ps {
		if i > 0 && p.Offset == ps[i-1].Offset {
			// A copy of the previous placeholder made while building the
			// tree: the same text, so the same number.
			p.Index = ps[i-1].Index
			continue
		}
		pn.assign(p)
	}
	for len(pn.Names) < pn.Max {
		pn.Names = append(pn.Names, "")
	}
}

// assign numbers one placeholder.
func (pn *ParamNumbering) assign(p *Param) {
	switch p.Kind {
	case ParamQuestion:
		pn.Max++
		p.Index = pn.Max
	case ParamNumbered, ParamDollar:
		// Index is NNN, set by the parser.
		pn.Max = max(pn.Max, p.Index)
	default:
		key := p.Kind.prefix() + p.Name
		idx, seen := pn.byName[key]
		if !seen {
			if pn.byName == nil {
				pn.byName = map[string]int{}
			}
			pn.Max++
			idx = pn.Max
			pn.byName[key] = idx
		}
		p.Index = idx
		for len(pn.Names) < idx {
			pn.Names = append(pn.Names, "")
		}
		pn.Names[idx-1] = p.Name
	}
}

// prefix is the character a named placeholder of kind k starts with.
func (k ParamKind) prefix() string {
	switch k {
	case ParamColon:
		return ":"
	case ParamAt:
		return "@"
	}
	return "$"
}

// Params returns the placeholders of n ordered by their place in the
// source text; copies of one placeholder (the same offset) are adjacent.
func Params(n Node) []*Param {
	var ps []*Param
	Walk(n, func(n Node) bool {
		if p, ok := n.(*Param); ok {
			ps = append(ps, p)
		}
		return true
	})
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Offset < ps[j].Offset })
	return ps
}
