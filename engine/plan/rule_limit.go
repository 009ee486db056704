package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// limitIntoScan gives a table or index scan under a LIMIT, with only
// projections between them, the LIMIT's row budget (Scan.RowLimit): the
// scan stops after limit plus offset rows instead of filling a whole
// batch past them. A filter, sort, aggregate, join or window in between
// keeps the scan unbounded, as any of them may need more rows than the
// LIMIT passes. A scan of one rowid reads one row anyway.
func limitIntoScan(_ *catalog.Catalog, n Node) Node {
	l, ok := n.(*Limit)
	if !ok || l.Limit == nil {
		return n
	}
	var parents []*Project
	in := l.Input
	for {
		p, ok := in.(*Project)
		if !ok {
			break
		}
		parents = append(parents, p)
		in = p.Input
	}
	s, ok := in.(*Scan)
	if !ok || s.Table.Virtual || s.RowLimit != nil || (s.Lookup != nil && s.Lookup.Eq != nil) {
		return n
	}
	ns := *s
	ns.RowLimit = &LimitBound{Limit: l.Limit, Offset: l.Offset}
	var below Node = &ns
	for i := len(parents) - 1; i >= 0; i-- {
		np := *parents[i]
		np.Input = below
		below = &np
	}
	nl := *l
	nl.Input = below
	return &nl
}
