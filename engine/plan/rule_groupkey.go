package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// groupByRowid shortens a GROUP BY that lists a table's rowid (or its
// INTEGER PRIMARY KEY) beside other columns of the same table row, as in
// GROUP BY c.id, c.name: those columns have one value per rowid, so the
// group key is the rowid alone and each of them is carried as the group's
// first value. Hashing one integer per row instead of a text key is the
// saving. A projection on top restores the aggregate's column order.
// Columns are traced through projections, filters, sorts, limits and
// joins to the scan producing them; a NULL-extended row of a LEFT join
// has a NULL rowid and NULL columns together, so the groups still agree.
func groupByRowid(_ *catalog.Catalog, n Node) Node {
	a, ok := n.(*Aggregate)
	if !ok || len(a.Group) < 2 {
		return n
	}
	origins := make([]colOrigin, len(a.Group))
	key := -1
	for i, g := range a.Group {
		if c, ok := g.(*ColRef); ok {
			origins[i] = traceCol(a.Input, c.Idx)
			if key < 0 && origins[i].isRowid() {
				key = i
			}
		}
	}
	if key < 0 {
		return n
	}
	var keep, dep []int
	for i, o := range origins {
		if i != key && o.scan == origins[key].scan {
			dep = append(dep, i)
		} else {
			keep = append(keep, i)
		}
	}
	if len(dep) == 0 {
		return n
	}
	na := &Aggregate{Input: a.Input, Aggs: append([]AggCall{}, a.Aggs...)}
	pos := make([]int, len(a.Cols))
	for k, i := range keep {
		na.Group = append(na.Group, a.Group[i])
		na.Cols = append(na.Cols, a.Cols[i])
		pos[i] = k
	}
	na.Cols = append(na.Cols, a.Cols[len(a.Group):]...)
	for k := range a.Aggs {
		pos[len(a.Group)+k] = len(keep) + k
	}
	for k, i := range dep {
		na.Aggs = append(na.Aggs, AggCall{Kind: AggFirst, Args: []Expr{a.Group[i]}})
		na.Cols = append(na.Cols, a.Cols[i])
		pos[i] = len(keep) + len(a.Aggs) + k
	}
	exprs := make([]Expr, len(a.Cols))
	for i, c := range a.Cols {
		exprs[i] = &ColRef{Idx: pos[i], Affinity: c.Affinity, Collate: c.Collate}
	}
	return &Project{Input: na, Exprs: exprs, Cols: a.Cols}
}

// colOrigin is the scan column an output column copies, scan nil when
// it is computed.
type colOrigin struct {
	scan *Scan
	col  int
}

func (o colOrigin) isRowid() bool {
	if o.scan == nil || o.scan.Table.WithoutRowid || o.scan.Table.Virtual {
		return false
	}
	return o.col == o.scan.RowidIdx() || (o.scan.Table.RowidCol >= 0 && o.col == o.scan.Table.RowidCol)
}

// traceCol follows column idx of n down to the scan column it copies.
func traceCol(n Node, idx int) colOrigin { return traceColThrough(n, idx, true) }

// traceColThrough is traceCol entering joins only when joins is set: the
// origin of a join-free trace passes each scan row at most once.
func traceColThrough(n Node, idx int, joins bool) colOrigin {
	for {
		switch x := n.(type) {
		case *Scan:
			return colOrigin{scan: x, col: idx}
		case *Filter:
			n = x.Input
		case *Sort:
			n = x.Input
		case *Limit:
			n = x.Input
		case *Project:
			c, ok := x.Exprs[idx].(*ColRef)
			if !ok {
				return colOrigin{}
			}
			n, idx = x.Input, c.Idx
		case *Join:
			nl := len(x.Left.Columns())
			if !joins {
				return colOrigin{}
			}
			if idx < nl {
				n = x.Left
			} else if x.Kind.SemiLike() {
				return colOrigin{}
			} else {
				n, idx = x.Right, idx-nl
			}
		default:
			return colOrigin{}
		}
	}
}
