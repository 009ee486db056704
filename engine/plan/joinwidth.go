package plan

// checkJoinWidth applies MaxJoinTables after flattening, as SQLite counts
// it: SQLite merges a FROM subquery or view without aggregates, DISTINCT
// or LIMIT into the query around it, so its tables count toward the
// outer join's 64. Here the bound tree keeps such a subquery as a
// projection (and filter) over its joins: a region of joins, projections
// and filters is one join after flattening, and its other nodes (scans,
// aggregates, sorts, limits, compounds…) are its tables, each checked on
// its own below. The binder's per-FROM check stays for the error's early
// position; this one catches 40 tables joined to a view of 40.
func checkJoinWidth(n Node) error {
	if n == nil {
		return nil
	}
	if _, ok := n.(*Join); !ok {
		var err error
		eachInput(n, func(c Node) bool { err = checkJoinWidth(c); return err == nil })
		return err
	}
	var leaves []Node
	collectJoinLeaves(n, &leaves)
	if len(leaves) > MaxJoinTables {
		return bindErr("at most %d tables in a join", MaxJoinTables)
	}
	var err error
	for _, l := range leaves {
		if !eachInput(l, func(c Node) bool { err = checkJoinWidth(c); return err == nil }) {
			return err
		}
	}
	return nil
}

// collectJoinLeaves appends the inputs of the flattened join n: it looks
// through joins, projections and filters.
func collectJoinLeaves(n Node, leaves *[]Node) {
	switch n.(type) {
	case *Join, *Project, *Filter:
		eachInput(n, func(c Node) bool { collectJoinLeaves(c, leaves); return true })
		return
	}
	*leaves = append(*leaves, n)
}
