package grammar

// The fast path's queries, read as syntax_select.go and built as
// build_select.go.

// selectStmt reads sSelect, its own WITH clause included.
func (p *fastParser) selectStmt() *SelectStmt {
	start := p.mark()
	pos := p.pos()
	var w *With
	if p.is(cWITH) {
		if w = p.with(); w == nil {
			return nil
		}
	}
	s := p.selectFrom(pos, w)
	if s == nil {
		p.reset(start)
	}
	return s
}

// selectFrom reads the rest of sSelect after an optional WITH clause w
// that started at pos.
func (p *fastParser) selectFrom(pos Position, w *With) *SelectStmt {
	start := p.mark()
	body := p.selectTerm()
	if body == nil {
		p.reset(start)
		return nil
	}
	n := 0
	for {
		c := p.compound(body)
		if c == nil {
			break
		}
		body = c
		n++
	}
	if n >= p.lim.CompoundSelect {
		p.decline() // too many terms: the builder reports it
	}
	s := newNode(&p.sels, SelectStmt{Position: pos, With: w, Body: body, OrderBy: p.orderByOpt()})
	p.limit(s)
	return s
}

// with reads sWith.
func (p *fastParser) with() *With {
	start := p.mark()
	w := &With{Position: p.pos()}
	p.i++
	w.Recursive = p.accept(cRECURSIVE)
	if w.CTEs = commaList(p, p.cte); w.CTEs == nil {
		p.reset(start)
		return nil
	}
	return w
}

// cte reads sCTE.
func (p *fastParser) cte() *CTE {
	start := p.mark()
	c := &CTE{Position: p.pos()}
	n, ok := p.name()
	if !ok {
		return nil
	}
	c.Name = unquote(n)
	c.Columns, _ = p.nameList()
	if !p.accept(cAS) {
		p.reset(start)
		return nil
	}
	if p.is(cNOT) && p.peekIs(1, cMATERIALIZED) {
		c.Materialized = NotMaterialized
		p.i += 2
	} else if p.accept(cMATERIALIZED) {
		c.Materialized = Materialized
	}
	if p.accept(cLParen) {
		if c.Select = p.selectStmt(); c.Select != nil && p.accept(cRParen) {
			return c
		}
	}
	p.reset(start)
	return nil
}

// compound reads sCompound after the body left.
func (p *fastParser) compound(left SelectBody) *CompoundSelect {
	start := p.mark()
	var op CompoundOp
	switch {
	case p.accept(cUNION):
		op = Union
		if p.accept(cALL) {
			op = UnionAll
		}
	case p.accept(cINTERSECT):
		op = Intersect
	case p.accept(cEXCEPT):
		op = Except
	default:
		return nil
	}
	right := p.selectTerm()
	if right == nil {
		p.reset(start)
		return nil
	}
	return &CompoundSelect{Position: left.Pos(), Op: op, Left: left, Right: right}
}

// selectTerm reads sSelectTerm: a core, VALUES rows or a parenthesised
// query.
func (p *fastParser) selectTerm() SelectBody {
	start := p.mark()
	pos := p.pos()
	switch {
	case p.is(cSELECT):
		if c := p.selectCore(); c != nil {
			return c
		}
	case p.accept(cVALUES):
		if rows := p.rows(); rows != nil {
			return &ValuesClause{Position: pos, Rows: rows}
		}
	case p.accept(cLParen):
		if s := p.selectStmt(); s != nil && p.accept(cRParen) {
			return &ParenSelect{Position: pos, Select: s}
		}
	}
	p.reset(start)
	return nil
}

// rows reads row ( ',' row )*.
func (p *fastParser) rows() [][]Expr {
	r := p.row()
	if r == nil {
		return nil
	}
	out := [][]Expr{r}
	for p.is(cComma) {
		save := p.mark()
		p.i++
		if r = p.row(); r == nil {
			p.reset(save)
			break
		}
		out = append(out, r)
	}
	return out
}

// row reads '(' e ( ',' e )* ')'.
func (p *fastParser) row() []Expr {
	start := p.mark()
	if !p.accept(cLParen) {
		return nil
	}
	list := p.exprList()
	if list == nil || !p.accept(cRParen) {
		p.reset(start)
		return nil
	}
	return list
}

// selectCore reads sSelectCore.
func (p *fastParser) selectCore() *SelectCore {
	start := p.mark()
	c := newNode(&p.cores, SelectCore{Position: p.pos()})
	p.i++
	if p.accept(cDISTINCT) {
		c.Distinct = true
	} else {
		p.accept(cALL)
	}
	if c.Columns = p.resultColumns(); c.Columns == nil {
		p.reset(start)
		return nil
	}
	if p.is(cFROM) {
		save := p.mark()
		p.i++
		if c.From = p.from(); c.From == nil {
			p.reset(save)
		}
	}
	c.Where = p.keywordExpr(cWHERE)
	if p.is(cGROUP) && p.peekIs(1, cBY) {
		save := p.mark()
		p.i += 2
		if c.GroupBy = p.exprList(); c.GroupBy == nil {
			p.reset(save)
		}
	}
	c.Having = p.keywordExpr(cHAVING)
	if p.is(cWINDOW) {
		c.Windows = p.windows()
	}
	return c
}

// keywordExpr reads ( kw e )?.
func (p *fastParser) keywordExpr(kw tcode) Expr {
	if !p.is(kw) {
		return nil
	}
	save := p.mark()
	p.i++
	e := p.expr()
	if e == nil {
		p.reset(save)
	}
	return e
}

// windows reads 'WINDOW' window ( ',' window )*, or nothing.
func (p *fastParser) windows() []*NamedWindow {
	start := p.mark()
	p.i++
	out := commaList(p, p.namedWindow)
	if out == nil {
		p.reset(start)
	}
	return out
}

// namedWindow reads sNamedWindow.
func (p *fastParser) namedWindow() *NamedWindow {
	start := p.mark()
	w := &NamedWindow{Position: p.pos()}
	if n, ok := p.name(); ok && p.accept(cAS) && p.accept(cLParen) {
		w.Name = unquote(n)
		w.Spec = p.windowSpec()
		if p.accept(cRParen) {
			return w
		}
	}
	p.reset(start)
	return nil
}

// windowSpec reads sWindowSpec, every part optional.
func (p *fastParser) windowSpec() *WindowSpec {
	s := &WindowSpec{Position: p.pos()}
	switch p.cur().code {
	case cPARTITION, cROWS, cRANGE, cGROUPS:
	default:
		if n, ok := p.name(); ok {
			s.Base = unquote(n)
		}
	}
	if p.is(cPARTITION) && p.peekIs(1, cBY) {
		save := p.mark()
		p.i += 2
		if s.PartitionBy = p.exprList(); s.PartitionBy == nil {
			p.reset(save)
		}
	}
	s.OrderBy = p.orderByOpt()
	s.Frame = p.frame()
	return s
}

// frameUnitOf is the unit of a ROWS, RANGE or GROUPS code.
func frameUnitOf(c tcode) (FrameUnit, bool) {
	switch c {
	case cROWS:
		return FrameRows, true
	case cRANGE:
		return FrameRange, true
	case cGROUPS:
		return FrameGroups, true
	}
	return 0, false
}

// frame reads sFrame.
func (p *fastParser) frame() *FrameSpec {
	start := p.mark()
	f := &FrameSpec{Position: p.pos()}
	var ok bool
	if f.Unit, ok = frameUnitOf(p.cur().code); !ok {
		return nil
	}
	p.i++
	between := false
	if p.is(cBETWEEN) {
		save := p.mark()
		p.i++
		if f.Start, f.End = p.frameBetween(); f.Start != nil {
			between = true
		} else {
			p.reset(save)
		}
	}
	if !between {
		if f.Start = p.frameBound(); f.Start == nil {
			p.reset(start)
			return nil
		}
	}
	if p.is(cEXCLUDE) {
		p.frameExclude(f)
	}
	return f
}

// frameExclude reads ( 'EXCLUDE' @( 'NO' 'OTHERS' | 'CURRENT' 'ROW' |
// 'GROUP' | 'TIES' ) )?.
func (p *fastParser) frameExclude(f *FrameSpec) {
	next, after := p.peekAt(1).code, p.peekAt(2).code
	switch {
	case next == cNO && after == cOTHERS:
		f.Exclude = ExcludeNoOthers
		p.i += 3
	case next == cCURRENT && after == cROW:
		f.Exclude = ExcludeCurrentRow
		p.i += 3
	case next == cGROUP:
		f.Exclude = ExcludeGroup
		p.i += 2
	case next == cTIES:
		f.Exclude = ExcludeTies
		p.i += 2
	}
}

// frameBetween reads bound 'AND' bound.
func (p *fastParser) frameBetween() (*FrameBound, *FrameBound) {
	start := p.mark()
	if s := p.frameBound(); s != nil && p.accept(cAND) {
		if e := p.frameBound(); e != nil {
			return s, e
		}
	}
	p.reset(start)
	return nil, nil
}

// frameBound reads sFrameBound.
func (p *fastParser) frameBound() *FrameBound {
	start := p.mark()
	b := &FrameBound{Position: p.pos()}
	if p.accept(cUNBOUNDED) {
		switch p.cur().code {
		case cPRECEDING:
			p.i++
			b.Kind = UnboundedPreceding
			return b
		case cFOLLOWING:
			p.i++
			b.Kind = UnboundedFollowing
			return b
		}
		p.reset(start)
	}
	if p.is(cCURRENT) && p.peekIs(1, cROW) {
		b.Kind = CurrentRow
		p.i += 2
		return b
	}
	if b.Offset = p.expr(); b.Offset == nil {
		return nil
	}
	switch p.cur().code {
	case cPRECEDING:
		b.Kind = Preceding
	case cFOLLOWING:
		b.Kind = Following
	default:
		p.reset(start)
		return nil
	}
	p.i++
	return b
}

// orderByOpt reads ( 'ORDER' 'BY' term ( ',' term )* )?.
func (p *fastParser) orderByOpt() []*OrderingTerm {
	if !p.is(cORDER) || !p.peekIs(1, cBY) {
		return nil
	}
	start := p.mark()
	p.i += 2
	out := commaList(p, p.orderTerm)
	if out == nil {
		p.reset(start)
	}
	return out
}

// orderTerm reads sOrderTerm.
func (p *fastParser) orderTerm() *OrderingTerm {
	t := &OrderingTerm{Position: p.pos()}
	if t.Expr = p.expr(); t.Expr == nil {
		return nil
	}
	t.Order = p.sortOrder()
	if p.is(cNULLS) {
		switch p.peekAt(1).code {
		case cFIRST:
			t.Nulls = NullsFirst
			p.i += 2
		case cLAST:
			t.Nulls = NullsLast
			p.i += 2
		}
	}
	return t
}

// sortOrder reads @( 'ASC' | 'DESC' )?.
func (p *fastParser) sortOrder() SortOrder {
	switch p.cur().code {
	case cASC:
		p.i++
		return SortAsc
	case cDESC:
		p.i++
		return SortDesc
	}
	return SortDefault
}

// limit reads sLimit into s; the PostgreSQL OFFSET and FETCH forms are
// left to participle.
func (p *fastParser) limit(s *SelectStmt) {
	if p.is(cOFFSET) || p.is(cFETCH) {
		p.decline()
		return
	}
	if !p.is(cLIMIT) {
		return
	}
	start := p.mark()
	p.i++
	first := p.expr()
	if first == nil {
		p.reset(start)
		return
	}
	s.Limit = first
	switch {
	case p.is(cComma):
		if n := p.keywordExpr(cComma); n != nil {
			s.Offset, s.Limit = first, n
		}
	case p.is(cOFFSET):
		s.Offset = p.keywordExpr(cOFFSET)
	}
}
