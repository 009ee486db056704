package grammar

func (x *SelectStmt) write(p *printer) {
	if x.With != nil {
		x.With.write(p)
		p.kw(" ")
	}
	p.node(x.Body)
	p.orderBy(x.OrderBy)
	if x.Limit != nil {
		p.kw(" LIMIT ")
		p.expr(x.Limit)
	}
	if x.Offset != nil {
		p.kw(" OFFSET ")
		p.expr(x.Offset)
	}
}

// orderBy writes " ORDER BY ..." when terms is not empty.
func (p *printer) orderBy(terms []*OrderingTerm) {
	if len(terms) > 0 {
		p.kw(" ORDER BY ")
		list(p, terms)
	}
}

func (x *With) write(p *printer) {
	p.kw("WITH ")
	if x.Recursive {
		p.kw("RECURSIVE ")
	}
	list(p, x.CTEs)
}

func (x *CTE) write(p *printer) {
	p.name(x.Name)
	if len(x.Columns) > 0 {
		p.kw("(")
		p.names(x.Columns)
		p.kw(")")
	}
	p.kw(" AS ")
	switch x.Materialized {
	case Materialized:
		p.kw("MATERIALIZED ")
	case NotMaterialized:
		p.kw("NOT MATERIALIZED ")
	}
	p.kw("(")
	x.Select.write(p)
	p.kw(")")
}

func (x *SelectCore) write(p *printer) {
	p.kw("SELECT ")
	if x.Distinct {
		p.kw("DISTINCT ")
	}
	list(p, x.Columns)
	if x.From != nil {
		p.kw(" FROM ")
		p.node(x.From)
	}
	p.where(x.Where)
	if len(x.GroupBy) > 0 {
		p.kw(" GROUP BY ")
		p.exprs(x.GroupBy)
	}
	if x.Having != nil {
		p.kw(" HAVING ")
		p.expr(x.Having)
	}
	if len(x.Windows) > 0 {
		p.kw(" WINDOW ")
		list(p, x.Windows)
	}
}

// where writes " WHERE e" when e is set.
func (p *printer) where(e Expr) {
	if e != nil {
		p.kw(" WHERE ")
		p.expr(e)
	}
}

func (x *ResultColumn) write(p *printer) {
	switch {
	case x.Star:
		p.kw("*")
	case x.TableStar != "":
		p.name(x.TableStar)
		p.kw(".*")
	default:
		p.expr(x.Expr)
		p.alias(x.Alias)
	}
}

func (x *ValuesClause) write(p *printer) {
	p.kw("VALUES ")
	p.rows(x.Rows)
}

// rows writes (a, b), (c, d).
func (p *printer) rows(rows [][]Expr) {
	for i, r := range rows {
		if i > 0 {
			p.kw(", ")
		}
		p.kw("(")
		p.exprs(r)
		p.kw(")")
	}
}

var compoundSQL = [...]string{Union: " UNION ", UnionAll: " UNION ALL ", Intersect: " INTERSECT ", Except: " EXCEPT "}

// String returns the operator's SQL spelling.
func (op CompoundOp) String() string {
	if int(op) < len(compoundSQL) {
		return compoundSQL[op][1 : len(compoundSQL[op])-1]
	}
	return "?"
}

func (x *CompoundSelect) write(p *printer) {
	p.node(x.Left)
	if int(x.Op) < len(compoundSQL) {
		p.kw(compoundSQL[x.Op])
	}
	// Chains are left-associative, so a compound on the right needs
	// parentheses to keep its grouping.
	if r, ok := x.Right.(*CompoundSelect); ok {
		p.kw("(")
		r.write(p)
		p.kw(")")
		return
	}
	p.node(x.Right)
}

func (x *ParenSelect) write(p *printer) {
	p.kw("(")
	x.Select.write(p)
	p.kw(")")
}

func (x *OrderingTerm) write(p *printer) {
	p.expr(x.Expr)
	p.sortOrder(x.Order)
	switch x.Nulls {
	case NullsFirst:
		p.kw(" NULLS FIRST")
	case NullsLast:
		p.kw(" NULLS LAST")
	}
}

// sortOrder writes " ASC" or " DESC" when given.
func (p *printer) sortOrder(o SortOrder) {
	switch o {
	case SortAsc:
		p.kw(" ASC")
	case SortDesc:
		p.kw(" DESC")
	}
}

func (x *NamedWindow) write(p *printer) {
	p.name(x.Name)
	p.kw(" AS (")
	x.Spec.write(p)
	p.kw(")")
}

func (x *WindowSpec) write(p *printer) {
	sep := ""
	if x.Base != "" {
		p.name(x.Base)
		sep = " "
	}
	if len(x.PartitionBy) > 0 {
		p.kw(sep, "PARTITION BY ")
		p.exprs(x.PartitionBy)
		sep = " "
	}
	if len(x.OrderBy) > 0 {
		p.kw(sep, "ORDER BY ")
		list(p, x.OrderBy)
		sep = " "
	}
	if x.Frame != nil {
		p.kw(sep)
		x.Frame.write(p)
	}
}

var frameUnitSQL = [...]string{FrameRows: "ROWS", FrameRange: "RANGE", FrameGroups: "GROUPS"}
var excludeSQL = [...]string{ExcludeNoOthers: " EXCLUDE NO OTHERS", ExcludeCurrentRow: " EXCLUDE CURRENT ROW", ExcludeGroup: " EXCLUDE GROUP", ExcludeTies: " EXCLUDE TIES"}

func (x *FrameSpec) write(p *printer) {
	if int(x.Unit) < len(frameUnitSQL) {
		p.kw(frameUnitSQL[x.Unit], " ")
	}
	if x.End != nil {
		p.kw("BETWEEN ")
		x.Start.write(p)
		p.kw(" AND ")
		x.End.write(p)
	} else {
		x.Start.write(p)
	}
	if int(x.Exclude) < len(excludeSQL) {
		p.kw(excludeSQL[x.Exclude])
	}
}

func (x *FrameBound) write(p *printer) {
	switch x.Kind {
	case UnboundedPreceding:
		p.kw("UNBOUNDED PRECEDING")
	case Preceding:
		p.exprAt(x.Offset, precEq+1)
		p.kw(" PRECEDING")
	case CurrentRow:
		p.kw("CURRENT ROW")
	case Following:
		p.exprAt(x.Offset, precEq+1)
		p.kw(" FOLLOWING")
	case UnboundedFollowing:
		p.kw("UNBOUNDED FOLLOWING")
	}
}

func (x *TableName) write(p *printer) {
	p.qualified(x.Schema, x.Name)
	p.alias(x.Alias)
	if x.Indexed != "" {
		p.kw(" INDEXED BY ")
		p.name(x.Indexed)
	} else if x.NotIndexed {
		p.kw(" NOT INDEXED")
	}
}

func (x *TableFunc) write(p *printer) {
	p.qualified(x.Schema, x.Name)
	p.kw("(")
	p.exprs(x.Args)
	p.kw(")")
	p.alias(x.Alias)
}

func (x *SubqueryTable) write(p *printer) {
	p.kw("(")
	x.Select.write(p)
	p.kw(")")
	p.alias(x.Alias)
}

var joinSQL = [...]string{JoinInner: "JOIN", JoinLeft: "LEFT JOIN", JoinRight: "RIGHT JOIN", JoinFull: "FULL JOIN", JoinCross: "CROSS JOIN"}

func (x *Join) write(p *printer) {
	if x.Paren {
		p.kw("(")
	}
	p.node(x.Left)
	switch {
	case x.Comma:
		p.kw(", ")
	default:
		p.kw(" ")
		if x.Natural {
			p.kw("NATURAL ")
		}
		if int(x.Kind) < len(joinSQL) {
			p.kw(joinSQL[x.Kind])
		}
		p.kw(" ")
	}
	// Joins are left-associative; the parser builds a join on the right
	// only from a parenthesised join (Paren), which prints its parentheses.
	p.node(x.Right)
	if x.On != nil {
		p.kw(" ON ")
		p.expr(x.On)
	}
	if x.Using != nil {
		p.kw(" USING (")
		p.names(x.Using)
		p.kw(")")
	}
	if x.Paren {
		p.kw(")")
		p.alias(x.Alias)
	}
}

// String prints the node as SQL.
func (x *SelectStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *With) String() string { return render(x) }

// String prints the node as SQL.
func (x *CTE) String() string { return render(x) }

// String prints the node as SQL.
func (x *SelectCore) String() string { return render(x) }

// String prints the node as SQL.
func (x *ResultColumn) String() string { return render(x) }

// String prints the node as SQL.
func (x *ValuesClause) String() string { return render(x) }

// String prints the node as SQL.
func (x *CompoundSelect) String() string { return render(x) }

// String prints the node as SQL.
func (x *ParenSelect) String() string { return render(x) }

// String prints the node as SQL.
func (x *OrderingTerm) String() string { return render(x) }

// String prints the node as SQL.
func (x *NamedWindow) String() string { return render(x) }

// String prints the node as SQL.
func (x *WindowSpec) String() string { return render(x) }

// String prints the node as SQL.
func (x *FrameSpec) String() string { return render(x) }

// String prints the node as SQL.
func (x *FrameBound) String() string { return render(x) }

// String prints the node as SQL.
func (x *TableName) String() string { return render(x) }

// String prints the node as SQL.
func (x *TableFunc) String() string { return render(x) }

// String prints the node as SQL.
func (x *SubqueryTable) String() string { return render(x) }

// String prints the node as SQL.
func (x *Join) String() string { return render(x) }
