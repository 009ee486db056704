package grammar

// The fast path's result columns and FROM clauses, mirroring
// syntax_select.go.

// resultColumns reads column ( ',' column )*.
func (p *fastParser) resultColumns() []*sResultColumn { return commaList(p, p.resultColumn) }

// resultColumn reads sResultColumn: *, t.*, or an expression and an
// optional alias.
func (p *fastParser) resultColumn() *sResultColumn {
	c := &sResultColumn{Pos: p.pos()}
	t := p.cur()
	if p.accept("*") {
		c.Star = true
		return c
	}
	if (t.Type == tokIdent || t.Type == tokQIdent) && tokIs(p.peekAt(1), ".") && tokIs(p.peekAt(2), "*") {
		c.TableStar = t.Value
		p.i += 3
		return c
	}
	if c.Expr = p.expr(); c.Expr == nil {
		return nil
	}
	if p.is("AS") {
		if v := p.peekAt(1); v.Type == tokIdent || v.Type == tokQIdent || v.Type == tokString {
			c.Alias = v.Value
			p.i += 2
		}
		return c
	}
	if a := p.cur(); !p.isAny("OFFSET", "FETCH") && (a.Type == tokIdent || a.Type == tokQIdent || a.Type == tokString) {
		c.Alias = a.Value
		p.i++
	}
	return c
}

// alias reads sAlias: AS name, or a bare name other than OFFSET and FETCH.
func (p *fastParser) alias() *sAlias {
	if p.is("AS") {
		if v := p.peekAt(1); v.Type == tokIdent || v.Type == tokQIdent || v.Type == tokString {
			p.i += 2
			return &sAlias{Name: v.Value}
		}
		return nil
	}
	if a := p.cur(); !p.isAny("OFFSET", "FETCH") && (a.Type == tokIdent || a.Type == tokQIdent) {
		p.i++
		return &sAlias{Name: a.Value}
	}
	return nil
}

// qname reads sQName: [schema.]name.
func (p *fastParser) qname() *sQName {
	q := &sQName{Pos: p.pos()}
	n, ok := p.name()
	if !ok {
		return nil
	}
	if next := p.peekAt(1); p.is(".") && (next.Type == tokIdent || next.Type == tokQIdent) {
		q.Parts = p.nameSlice(n, next.Value)
		p.i += 2
		return q
	}
	q.Parts = p.nameSlice(n)
	return q
}

// from reads sFrom: a table item and joins.
func (p *fastParser) from() *sFrom {
	f := &sFrom{First: p.tableItem()}
	if f.First == nil {
		return nil
	}
	for {
		j := p.join()
		if j == nil {
			return f
		}
		f.Joins = append(f.Joins, j)
	}
}

// join reads sJoin.
func (p *fastParser) join() *sJoin {
	start := p.i
	j := &sJoin{Pos: p.pos()}
	if p.accept(",") {
		j.Comma = true
	} else {
		j.Natural = p.accept("NATURAL")
		if v, ok := p.take("LEFT", "RIGHT", "FULL"); ok {
			j.Kind = v
			p.accept("OUTER")
		} else if v, ok := p.take("INNER", "CROSS"); ok {
			j.Kind = v
		}
		if !p.accept("JOIN") {
			p.i = start
			return nil
		}
	}
	if j.Table = p.tableItem(); j.Table == nil {
		p.i = start
		return nil
	}
	if p.is("ON") {
		save := p.i
		p.i++
		if j.On = p.expr(); j.On == nil {
			p.i = save
		}
	} else if p.is("USING") {
		save := p.i
		p.i++
		if j.Using, _ = p.nameList(); j.Using == nil {
			p.i = save
		}
	}
	return j
}

// tableItem reads sTableItem: a subquery, a parenthesised join or a
// table (function).
func (p *fastParser) tableItem() *sTableItem {
	start := p.i
	t := &sTableItem{Pos: p.pos()}
	if p.accept("(") {
		if t.Sub = p.selectStmt(); t.Sub != nil && p.accept(")") {
			t.SubAlias = p.alias()
			return t
		}
		t.Sub = nil
		p.i = start + 1
		if t.Nested = p.from(); t.Nested != nil && p.accept(")") {
			t.NestAlias = p.alias()
			return t
		}
		p.i = start
		return nil
	}
	if p.is("GRAPH_TABLE") && tokIs(p.peekAt(1), "(") {
		p.off = true // participle reads graph patterns
		return nil
	}
	if t.Name = p.qname(); t.Name == nil {
		return nil
	}
	t.Args = p.callArgs()
	t.Alias = p.alias()
	switch {
	case p.is("INDEXED") && tokIs(p.peekAt(1), "BY"):
		if v := p.peekAt(2); v.Type == tokIdent || v.Type == tokQIdent {
			t.Indexed = v.Value
			p.i += 3
		}
	case p.is("NOT") && tokIs(p.peekAt(1), "INDEXED"):
		t.NotIndexed = true
		p.i += 2
	}
	return t
}
