package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The fast path's queries, mirroring syntax_select.go.

// selectStmt reads sSelect, its own WITH clause included.
func (p *fastParser) selectStmt() *sSelect {
	start := p.i
	pos := p.pos()
	var w *sWith
	if p.is("WITH") {
		if w = p.with(); w == nil {
			return nil
		}
	}
	s := p.selectFrom(pos, w)
	if s == nil {
		p.i = start
	}
	return s
}

// selectFrom reads the rest of sSelect after an optional WITH clause w
// that started at pos.
func (p *fastParser) selectFrom(pos lexer.Position, w *sWith) *sSelect {
	start := p.i
	s := &sSelect{Pos: pos, With: w}
	if s.Left = p.selectTerm(); s.Left == nil {
		p.i = start
		return nil
	}
	for {
		c := p.compound()
		if c == nil {
			break
		}
		s.Rest = append(s.Rest, c)
	}
	s.OrderBy = p.orderByOpt()
	s.Limit = p.limit()
	return s
}

// with reads sWith.
func (p *fastParser) with() *sWith {
	start := p.i
	w := &sWith{Pos: p.pos()}
	p.i++
	w.Recursive = p.accept("RECURSIVE")
	if w.CTEs = commaList(p, p.cte); w.CTEs == nil {
		p.i = start
		return nil
	}
	return w
}

// cte reads sCTE.
func (p *fastParser) cte() *sCTE {
	start := p.i
	c := &sCTE{Pos: p.pos()}
	var ok bool
	if c.Name, ok = p.name(); !ok {
		return nil
	}
	c.Columns, _ = p.nameList()
	if !p.accept("AS") {
		p.i = start
		return nil
	}
	if p.is("NOT") && tokIs(p.peekAt(1), "MATERIALIZED") {
		c.NotMat = true
		p.i += 2
	} else if p.accept("MATERIALIZED") {
		c.Mat = true
	}
	if p.accept("(") {
		if c.Select = p.selectStmt(); c.Select != nil && p.accept(")") {
			return c
		}
	}
	p.i = start
	return nil
}

// compound reads sCompound.
func (p *fastParser) compound() *sCompound {
	start := p.i
	c := &sCompound{Pos: p.pos()}
	switch {
	case p.accept("UNION"):
		c.Union = true
		c.All = p.accept("ALL")
	case p.accept("INTERSECT"):
		c.Intersect = true
	case p.accept("EXCEPT"):
		c.Except = true
	default:
		return nil
	}
	if c.Right = p.selectTerm(); c.Right == nil {
		p.i = start
		return nil
	}
	return c
}

// selectTerm reads sSelectTerm: a core, VALUES rows or a parenthesised
// query.
func (p *fastParser) selectTerm() *sSelectTerm {
	start := p.i
	t := &sSelectTerm{Pos: p.pos()}
	switch {
	case p.is("SELECT"):
		if t.Core = p.selectCore(); t.Core != nil {
			return t
		}
	case p.accept("VALUES"):
		if t.Values = p.rows(); t.Values != nil {
			return t
		}
	case p.accept("("):
		if t.Paren = p.selectStmt(); t.Paren != nil && p.accept(")") {
			return t
		}
	}
	p.i = start
	return nil
}

// rows reads sRow ( ',' sRow )*.
func (p *fastParser) rows() []*sRow { return commaList(p, p.row) }

// row reads '(' e ( ',' e )* ')'.
func (p *fastParser) row() *sRow {
	start := p.i
	if !p.accept("(") {
		return nil
	}
	list, ok := p.exprList()
	if !ok || !p.accept(")") {
		p.i = start
		return nil
	}
	return &sRow{Exprs: list}
}

// selectCore reads sSelectCore.
func (p *fastParser) selectCore() *sSelectCore {
	start := p.i
	c := &sSelectCore{Pos: p.pos()}
	p.i++
	if p.accept("DISTINCT") {
		c.Distinct = true
	} else {
		p.accept("ALL")
	}
	if c.Columns = p.resultColumns(); c.Columns == nil {
		p.i = start
		return nil
	}
	if p.is("FROM") {
		save := p.i
		p.i++
		if c.From = p.from(); c.From == nil {
			p.i = save
		}
	}
	c.Where = p.keywordExpr("WHERE")
	if p.is("GROUP") && tokIs(p.peekAt(1), "BY") {
		save := p.i
		p.i += 2
		if list, ok := p.exprList(); ok {
			c.GroupBy = list
		} else {
			p.i = save
		}
	}
	c.Having = p.keywordExpr("HAVING")
	if p.is("WINDOW") {
		c.Windows = p.windows()
	}
	return c
}

// keywordExpr reads ( kw e )?.
func (p *fastParser) keywordExpr(kw string) *sExpr {
	if !p.is(kw) {
		return nil
	}
	save := p.i
	p.i++
	e := p.expr()
	if e == nil {
		p.i = save
	}
	return e
}

// windows reads 'WINDOW' window ( ',' window )*, or nothing.
func (p *fastParser) windows() []*sNamedWindow {
	start := p.i
	p.i++
	out := commaList(p, p.namedWindow)
	if out == nil {
		p.i = start
	}
	return out
}

// namedWindow reads sNamedWindow.
func (p *fastParser) namedWindow() *sNamedWindow {
	start := p.i
	w := &sNamedWindow{Pos: p.pos()}
	var ok bool
	if w.Name, ok = p.name(); ok && p.accept("AS") && p.accept("(") {
		w.Spec = p.windowSpec()
		if p.accept(")") {
			return w
		}
	}
	p.i = start
	return nil
}

// windowSpec reads sWindowSpec, every part optional.
func (p *fastParser) windowSpec() *sWindowSpec {
	s := &sWindowSpec{Pos: p.pos()}
	if !p.isAny("PARTITION", "ROWS", "RANGE", "GROUPS") {
		s.Base, _ = p.name()
	}
	if p.is("PARTITION") && tokIs(p.peekAt(1), "BY") {
		save := p.i
		p.i += 2
		if list, ok := p.exprList(); ok {
			s.Partition = list
		} else {
			p.i = save
		}
	}
	s.OrderBy = p.orderByOpt()
	s.Frame = p.frame()
	return s
}

// frame reads sFrame.
func (p *fastParser) frame() *sFrame {
	start := p.i
	f := &sFrame{Pos: p.pos()}
	var ok bool
	if f.Unit, ok = p.take("ROWS", "RANGE", "GROUPS"); !ok {
		return nil
	}
	if p.is("BETWEEN") {
		save := p.i
		p.i++
		if b := p.frameBetween(); b != nil {
			f.Between = b
		} else {
			p.i = save
		}
	}
	if f.Between == nil {
		if f.Single = p.frameBound(); f.Single == nil {
			p.i = start
			return nil
		}
	}
	if p.is("EXCLUDE") {
		p.frameExclude(f)
	}
	return f
}

// frameExclude reads ( 'EXCLUDE' @( 'NO' 'OTHERS' | 'CURRENT' 'ROW' |
// 'GROUP' | 'TIES' ) )?.
func (p *fastParser) frameExclude(f *sFrame) {
	next, after := p.peekAt(1), p.peekAt(2)
	switch {
	case tokIs(next, "NO") && tokIs(after, "OTHERS"), tokIs(next, "CURRENT") && tokIs(after, "ROW"):
		f.Exclude = next.Value + after.Value
		p.i += 3
	case tokIs(next, "GROUP") || tokIs(next, "TIES"):
		f.Exclude = next.Value
		p.i += 2
	}
}

// frameBetween reads bound 'AND' bound.
func (p *fastParser) frameBetween() *sFrameBetween {
	start := p.i
	b := &sFrameBetween{Start: p.frameBound()}
	if b.Start != nil && p.accept("AND") {
		if b.End = p.frameBound(); b.End != nil {
			return b
		}
	}
	p.i = start
	return nil
}

// frameBound reads sFrameBound.
func (p *fastParser) frameBound() *sFrameBound {
	start := p.i
	b := &sFrameBound{Pos: p.pos()}
	if p.accept("UNBOUNDED") {
		if v, ok := p.take("PRECEDING", "FOLLOWING"); ok {
			b.Unbounded = v
			return b
		}
		p.i = start
	}
	if p.is("CURRENT") && tokIs(p.peekAt(1), "ROW") {
		b.Current = true
		p.i += 2
		return b
	}
	if b.Offset = p.expr(); b.Offset == nil {
		return nil
	}
	v, ok := p.take("PRECEDING", "FOLLOWING")
	if !ok {
		p.i = start
		return nil
	}
	b.Dir = v
	return b
}

// orderByOpt reads ( 'ORDER' 'BY' term ( ',' term )* )?.
func (p *fastParser) orderByOpt() []*sOrderTerm {
	if !p.is("ORDER") || !tokIs(p.peekAt(1), "BY") {
		return nil
	}
	start := p.i
	p.i += 2
	out := commaList(p, p.orderTerm)
	if out == nil {
		p.i = start
	}
	return out
}

// orderTerm reads sOrderTerm.
func (p *fastParser) orderTerm() *sOrderTerm {
	t := &sOrderTerm{Pos: p.pos()}
	if t.Expr = p.expr(); t.Expr == nil {
		return nil
	}
	t.Order, _ = p.take("ASC", "DESC")
	if p.is("NULLS") {
		if v := p.peekAt(1); tokIs(v, "FIRST") || tokIs(v, "LAST") {
			t.Nulls = v.Value
			p.i += 2
		}
	}
	return t
}

// limit reads sLimit; the PostgreSQL OFFSET and FETCH forms are left to
// participle.
func (p *fastParser) limit() *sLimit {
	if p.isAny("OFFSET", "FETCH") {
		p.off = true
		return nil
	}
	if !p.is("LIMIT") {
		return nil
	}
	start := p.i
	p.i++
	l := &sLimit{Limit: p.expr()}
	if l.Limit == nil {
		p.i = start
		return nil
	}
	switch {
	case p.is(","):
		l.Comma = p.keywordExpr(",")
	case p.is("OFFSET"):
		l.Offset = p.keywordExpr("OFFSET")
	}
	return l
}
