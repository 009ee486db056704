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
	leaves := 0
	eachJoinLeaf(n, func(Node) bool { leaves++; return true })
	if leaves > MaxJoinTables {
		return bindErr("at most %d tables in a join", MaxJoinTables)
	}
	var err error
	eachJoinLeaf(n, func(l Node) bool {
		return eachInput(l, func(c Node) bool { err = checkJoinWidth(c); return err == nil })
	})
	return err
}

// eachJoinLeaf calls fn for the inputs of the flattened join n in order,
// until fn returns false, and reports whether every call returned true:
// it looks through joins, projections and filters.
func eachJoinLeaf(n Node, fn func(Node) bool) bool {
	switch n.(type) {
	case *Join, *Project, *Filter:
		return eachInput(n, func(c Node) bool { return eachJoinLeaf(c, fn) })
	}
	return fn(n)
}
