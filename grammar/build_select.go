package grammar

import "strings"

func (b *builder) selectStmt(s *sSelect) *SelectStmt {
	if s == nil {
		return nil
	}
	if n := b.lim.CompoundSelect; len(s.Rest) >= n {
		b.fail(s.Rest[n-1].Pos, "too many terms in compound SELECT")
		return &SelectStmt{Position: pos(s.Pos), Body: &SelectCore{Position: pos(s.Pos)}}
	}
	st := &SelectStmt{Position: pos(s.Pos), With: b.with(s.With), Body: b.selectTerm(s.Left), OrderBy: b.orderTerms(s.OrderBy)}
	for _, c := range s.Rest {
		st.Body = &CompoundSelect{Position: st.Body.Pos(), Op: compoundOp(c), Left: st.Body, Right: b.selectTerm(c.Right)}
	}
	b.limit(st, s.Limit)
	return st
}

func compoundOp(c *sCompound) CompoundOp {
	switch {
	case c.Union && c.All:
		return UnionAll
	case c.Intersect:
		return Intersect
	case c.Except:
		return Except
	}
	return Union
}

// limit fills Limit and Offset from the LIMIT, OFFSET and FETCH forms.
func (b *builder) limit(st *SelectStmt, l *sLimit) {
	switch {
	case l == nil:
	case l.Limit != nil && l.Comma != nil:
		st.Offset, st.Limit = b.expr(l.Limit), b.expr(l.Comma)
	case l.Limit != nil:
		st.Limit, st.Offset = b.expr(l.Limit), b.expr(l.Offset)
	case l.PgOff != nil:
		st.Offset = b.expr(l.PgOff)
		st.Limit = b.fetch(l.Fetch)
	default:
		st.Limit = b.fetch(l.Only)
	}
}

// fetch converts FETCH FIRST [n] ROWS ONLY; n defaults to 1.
func (b *builder) fetch(f *sFetch) Expr {
	if f == nil {
		return nil
	}
	if f.Count == nil {
		return &Literal{Kind: LitInt, Raw: "1", Value: "1"}
	}
	return b.expr(f.Count)
}

func (b *builder) with(w *sWith) *With {
	if w == nil {
		return nil
	}
	out := &With{Position: pos(w.Pos), Recursive: w.Recursive}
	for _, c := range w.CTEs {
		cte := &CTE{Position: pos(c.Pos), Name: unquote(c.Name), Columns: unquoteAll(c.Columns), Select: b.selectStmt(c.Select)}
		switch {
		case c.Mat:
			cte.Materialized = Materialized
		case c.NotMat:
			cte.Materialized = NotMaterialized
		}
		out.CTEs = append(out.CTEs, cte)
	}
	return out
}

func (b *builder) selectTerm(t *sSelectTerm) SelectBody {
	switch {
	case t.Core != nil:
		return b.selectCore(t.Core)
	case t.Paren != nil:
		return &ParenSelect{Position: pos(t.Pos), Select: b.selectStmt(t.Paren)}
	}
	return &ValuesClause{Position: pos(t.Pos), Rows: b.rows(t.Values)}
}

func (b *builder) rows(rows []*sRow) [][]Expr {
	out := make([][]Expr, len(rows))
	for i, r := range rows {
		out[i] = b.exprs(r.Exprs)
	}
	return out
}

func (b *builder) selectCore(c *sSelectCore) *SelectCore {
	core := &SelectCore{Position: pos(c.Pos), Distinct: c.Distinct, Columns: b.resultColumns(c.Columns),
		Where: b.expr(c.Where), GroupBy: b.exprs(c.GroupBy), Having: b.expr(c.Having)}
	if c.From != nil {
		core.From = b.from(c.From)
	}
	for _, w := range c.Windows {
		core.Windows = append(core.Windows, &NamedWindow{Position: pos(w.Pos), Name: unquote(w.Name), Spec: b.windowSpec(w.Spec)})
	}
	return core
}

func (b *builder) resultColumns(cols []*sResultColumn) []*ResultColumn {
	var out []*ResultColumn
	for _, c := range cols {
		rc := &ResultColumn{Position: pos(c.Pos), Star: c.Star, TableStar: unquote(c.TableStar), Alias: unquote(c.Alias)}
		if c.Expr != nil {
			rc.Expr = b.expr(c.Expr)
			rc.Text = b.text(c.Expr.Pos, c.Expr.EndPos)
		}
		out = append(out, rc)
	}
	return out
}

func (b *builder) orderTerms(terms []*sOrderTerm) []*OrderingTerm {
	var out []*OrderingTerm
	for _, t := range terms {
		ot := &OrderingTerm{Position: pos(t.Pos), Expr: b.expr(t.Expr), Order: sortOrder(t.Order)}
		switch strings.ToUpper(t.Nulls) {
		case "FIRST":
			ot.Nulls = NullsFirst
		case "LAST":
			ot.Nulls = NullsLast
		}
		out = append(out, ot)
	}
	return out
}

func sortOrder(s string) SortOrder {
	switch strings.ToUpper(s) {
	case "ASC":
		return SortAsc
	case "DESC":
		return SortDesc
	}
	return SortDefault
}

func (b *builder) windowSpec(w *sWindowSpec) *WindowSpec {
	ws := &WindowSpec{Position: pos(w.Pos), Base: unquote(w.Base), PartitionBy: b.exprs(w.Partition), OrderBy: b.orderTerms(w.OrderBy)}
	if w.Frame != nil {
		ws.Frame = b.frame(w.Frame)
	}
	return ws
}

var frameUnits = map[string]FrameUnit{"ROWS": FrameRows, "RANGE": FrameRange, "GROUPS": FrameGroups}
var frameExcludes = map[string]FrameExclude{"NOOTHERS": ExcludeNoOthers, "CURRENTROW": ExcludeCurrentRow, "GROUP": ExcludeGroup, "TIES": ExcludeTies}

func (b *builder) frame(f *sFrame) *FrameSpec {
	fs := &FrameSpec{Position: pos(f.Pos), Unit: frameUnits[strings.ToUpper(f.Unit)], Exclude: frameExcludes[strings.ToUpper(f.Exclude)]}
	if f.Between != nil {
		fs.Start, fs.End = b.frameBound(f.Between.Start), b.frameBound(f.Between.End)
	} else {
		fs.Start = b.frameBound(f.Single)
	}
	return fs
}

func (b *builder) frameBound(f *sFrameBound) *FrameBound {
	fb := &FrameBound{Position: pos(f.Pos)}
	switch {
	case f.Unbounded != "":
		fb.Kind = UnboundedPreceding
		if strings.ToUpper(f.Unbounded) == "FOLLOWING" {
			fb.Kind = UnboundedFollowing
		}
	case f.Current:
		fb.Kind = CurrentRow
	default:
		fb.Offset = b.expr(f.Offset)
		fb.Kind = Preceding
		if strings.ToUpper(f.Dir) == "FOLLOWING" {
			fb.Kind = Following
		}
	}
	return fb
}

var joinKinds = map[string]JoinKind{"LEFT": JoinLeft, "RIGHT": JoinRight, "FULL": JoinFull, "INNER": JoinInner, "CROSS": JoinCross}

// from folds a FROM clause into left-associative Joins.
func (b *builder) from(f *sFrom) TableExpr {
	if len(f.Joins) >= MaxJoinTables {
		b.fail(f.Joins[MaxJoinTables-1].Pos, "at most 64 tables in a join")
		f = &sFrom{First: f.First}
	}
	x := b.tableItem(f.First)
	for _, j := range f.Joins {
		join := &Join{Position: x.Pos(), Kind: joinKinds[strings.ToUpper(j.Kind)], Natural: j.Natural, Comma: j.Comma,
			Left: x, Right: b.tableItem(j.Table), On: b.expr(j.On), Using: unquoteAll(j.Using)}
		if j.Comma {
			join.Kind = JoinCross
		}
		x = join
	}
	return x
}

func aliasName(a *sAlias) string {
	if a == nil {
		return ""
	}
	return unquote(a.Name)
}

func (b *builder) tableItem(t *sTableItem) TableExpr {
	p := pos(t.Pos)
	if t.Nested != nil {
		return b.nestedFrom(t)
	}
	if t.Graph != nil {
		return b.graphTable(t.Graph, t.GraphAlias)
	}
	if t.Sub != nil {
		return &SubqueryTable{Position: p, Select: b.selectStmt(t.Sub), Alias: aliasName(t.SubAlias)}
	}
	schema, name := qname(t.Name)
	if t.Args != nil {
		return &TableFunc{Position: p, Schema: schema, Name: name, Args: b.exprs(t.Args.Args), Alias: aliasName(t.Alias)}
	}
	return &TableName{Position: p, Schema: schema, Name: name, Alias: aliasName(t.Alias), Indexed: unquote(t.Indexed), NotIndexed: t.NotIndexed}
}

// nestedFrom converts a parenthesised FROM list (see nestedAlias).
func (b *builder) nestedFrom(t *sTableItem) TableExpr {
	return nestedAlias(b.from(t.Nested), aliasName(t.NestAlias))
}

// targetTable converts the table of UPDATE or DELETE, which must be a name.
func (b *builder) targetTable(t *sTableItem) *TableName {
	if tn, ok := b.tableItem(t).(*TableName); ok {
		return tn
	}
	b.fail(t.Pos, "the target of UPDATE or DELETE must be a table name")
	return &TableName{Position: pos(t.Pos)}
}
