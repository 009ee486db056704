package grammar

// The fast path's result columns and FROM clauses, read as
// syntax_select.go and built as build_select.go.

// resultColumns reads column ( ',' column )*.
func (p *fastParser) resultColumns() []*ResultColumn { return commaList(p, p.resultColumn) }

// resultColumn reads sResultColumn: *, t.*, or an expression and an
// optional alias.
func (p *fastParser) resultColumn() *ResultColumn {
	t := p.cur()
	c := p.rcols.alloc()
	c.Position = t.pos
	if p.accept(cStar) {
		c.Star = true
		return c
	}
	if isName(t) && p.peekIs(1, cDot) && p.peekIs(2, cStar) {
		c.TableStar = unquote(p.tv(t))
		p.i += 3
		return c
	}
	if c.Expr = p.expr(); c.Expr == nil {
		return nil
	}
	c.Text = p.text(t.pos.Offset)
	if p.is(cAS) {
		if v := p.peekAt(1); isName(v) || v.typ == tokString {
			c.Alias = unquote(p.tv(v))
			p.i += 2
		}
		return c
	}
	if a := p.cur(); !p.is(cOFFSET) && !p.is(cFETCH) && (isName(a) || a.typ == tokString) {
		c.Alias = unquote(p.tv(a))
		p.i++
	}
	return c
}

// alias reads sAlias, AS name or a bare name other than OFFSET and FETCH,
// and returns the name unquoted.
func (p *fastParser) alias() string {
	if p.is(cAS) {
		if v := p.peekAt(1); isName(v) || v.typ == tokString {
			p.i += 2
			return unquote(p.tv(v))
		}
		return ""
	}
	if a := p.cur(); !p.is(cOFFSET) && !p.is(cFETCH) && isName(a) {
		p.i++
		return unquote(p.tv(a))
	}
	return ""
}

// qname reads sQName, [schema.]name, unquoted.
func (p *fastParser) qname() (schema, name string, ok bool) {
	n, ok := p.name()
	if !ok {
		return "", "", false
	}
	if next := p.peekAt(1); p.is(cDot) && isName(next) {
		p.i += 2
		return unquote(n), unquote(p.tv(next)), true
	}
	return "", unquote(n), true
}

// from reads sFrom, a table item and joins, folded into left-associative
// Joins.
func (p *fastParser) from() TableExpr {
	x := p.tableItem()
	if x == nil {
		return nil
	}
	for n := 0; ; n++ {
		j := p.join(x)
		if j == nil {
			return x
		}
		if n+1 >= MaxJoinTables {
			p.decline() // too many tables: the builder reports it
		}
		x = j
	}
}

// join reads sJoin after the items left.
func (p *fastParser) join(left TableExpr) *Join {
	start := p.mark()
	j := newNode(&p.joins, Join{Position: left.Pos(), Left: left})
	if p.accept(cComma) {
		j.Comma, j.Kind = true, JoinCross
	} else {
		j.Natural = p.accept(cNATURAL)
		switch p.cur().code {
		case cLEFT, cRIGHT, cFULL:
			j.Kind = joinKindOf(p.cur().code)
			p.i++
			p.accept(cOUTER)
		case cINNER, cCROSS:
			j.Kind = joinKindOf(p.cur().code)
			p.i++
		}
		if !p.accept(cJOIN) {
			p.reset(start)
			return nil
		}
	}
	if j.Right = p.tableItem(); j.Right == nil {
		p.reset(start)
		return nil
	}
	if p.is(cON) {
		save := p.mark()
		p.i++
		if j.On = p.expr(); j.On == nil {
			p.reset(save)
		}
	} else if p.is(cUSING) {
		save := p.mark()
		p.i++
		if j.Using, _ = p.nameList(); j.Using == nil {
			p.reset(save)
		}
	}
	return j
}

func joinKindOf(c tcode) JoinKind {
	switch c {
	case cLEFT:
		return JoinLeft
	case cRIGHT:
		return JoinRight
	case cFULL:
		return JoinFull
	case cCROSS:
		return JoinCross
	}
	return JoinInner
}

// tableItem reads sTableItem: a subquery, a parenthesised join or a
// table (function).
func (p *fastParser) tableItem() TableExpr {
	start := p.mark()
	pos := p.pos()
	if p.accept(cLParen) {
		inner := p.mark()
		if s := p.selectStmt(); s != nil {
			if p.accept(cRParen) {
				return &SubqueryTable{Position: pos, Select: s, Alias: p.alias()}
			}
			p.reset(inner)
		}
		if x := p.from(); x != nil && p.accept(cRParen) {
			return nestedAlias(x, p.alias())
		}
		p.reset(start)
		return nil
	}
	if p.is(cGRAPH_TABLE) && p.peekIs(1, cLParen) {
		p.decline() // participle reads graph patterns
		return nil
	}
	schema, name, ok := p.qname()
	if !ok {
		return nil
	}
	args, isFunc := p.callArgs()
	alias := p.alias()
	var indexed string
	notIndexed := false
	switch {
	case p.is(cINDEXED) && p.peekIs(1, cBY):
		if v := p.peekAt(2); isName(v) {
			indexed = unquote(p.tv(v))
			p.i += 3
		}
	case p.is(cNOT) && p.peekIs(1, cINDEXED):
		notIndexed = true
		p.i += 2
	}
	if isFunc {
		return &TableFunc{Position: pos, Schema: schema, Name: name, Args: args, Alias: alias}
	}
	return newNode(&p.names, TableName{Position: pos, Schema: schema, Name: name, Alias: alias, Indexed: indexed, NotIndexed: notIndexed})
}

// nestedAlias is the builder's nestedFrom: a parenthesised join becomes
// a Join marked Paren; a single item stands for itself, with the alias
// outside the parentheses (if any) replacing its own.
func nestedAlias(x TableExpr, alias string) TableExpr {
	switch x := x.(type) {
	case *Join:
		x.Paren, x.Alias = true, alias
	case *TableName:
		replaceAlias(&x.Alias, alias)
	case *SubqueryTable:
		replaceAlias(&x.Alias, alias)
	case *TableFunc:
		replaceAlias(&x.Alias, alias)
	case *GraphTable:
		replaceAlias(&x.Alias, alias)
	}
	return x
}

// replaceAlias sets *dst to alias unless alias is empty.
func replaceAlias(dst *string, alias string) {
	if alias != "" {
		*dst = alias
	}
}
