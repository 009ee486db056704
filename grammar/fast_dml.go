package grammar

// The fast path's INSERT, UPDATE and DELETE, read as syntax_dml.go and
// built as build_dml.go.

// orAction reads ( 'OR' @( REPLACE | ROLLBACK | ABORT | FAIL | IGNORE ) )?.
func (p *fastParser) orAction() ConflictAction {
	if !p.is(cOR) {
		return ConflictDefault
	}
	var a ConflictAction
	switch p.peekAt(1).code {
	case cREPLACE:
		a = ConflictReplace
	case cROLLBACK:
		a = ConflictRollback
	case cABORT:
		a = ConflictAbort
	case cFAIL:
		a = ConflictFail
	case cIGNORE:
		a = ConflictIgnore
	default:
		return ConflictDefault
	}
	p.i += 2
	return a
}

// insert reads sInsert after an optional WITH clause w at pos.
func (p *fastParser) insert(pos Position, w *With) *InsertStmt {
	s := &InsertStmt{Position: pos, With: w}
	if p.accept(cREPLACE) {
		s.Replace, s.Or = true, ConflictReplace
	} else {
		p.i++ // INSERT
		s.Or = p.orAction()
	}
	if !p.accept(cINTO) {
		return nil
	}
	at := p.pos()
	schema, name, ok := p.qname()
	if !ok {
		return nil
	}
	s.Table = newNode(&p.names, TableName{Position: at, Schema: schema, Name: name})
	if p.is(cAS) {
		if v := p.peekAt(1); isName(v) {
			s.Table.Alias = unquote(p.tv(v))
			p.i += 2
		}
	}
	s.Columns, _ = p.nameList()
	switch {
	case p.is(cDEFAULT) && p.peekIs(1, cVALUES):
		s.DefaultValues = true
		p.i += 2
	case p.is(cVALUES) && p.peekIs(1, cLParen):
		p.i++
		if s.Values = p.rows(); s.Values == nil {
			return nil
		}
	default:
		if s.Select = p.selectStmt(); s.Select == nil {
			return nil
		}
	}
	for p.is(cON) {
		u := p.upsert()
		if u == nil {
			break
		}
		s.Upserts = append(s.Upserts, u)
	}
	s.Returning = p.returning()
	return s
}

// upsert reads sUpsert: ON CONFLICT [(target) [WHERE e]] DO NOTHING |
// DO UPDATE SET ... [WHERE e].
func (p *fastParser) upsert() *Upsert {
	start := p.mark()
	u := &Upsert{Position: p.pos()}
	p.i++
	if !p.accept(cCONFLICT) {
		p.reset(start)
		return nil
	}
	if p.is(cLParen) {
		save := p.mark()
		p.i++
		if u.Target = commaList(p, p.indexedColumn); u.Target != nil && p.accept(cRParen) {
			u.TargetWhere = p.keywordExpr(cWHERE)
		} else {
			u.Target = nil
			p.reset(save)
		}
	}
	if !p.accept(cDO) {
		p.reset(start)
		return nil
	}
	switch {
	case p.accept(cNOTHING):
		u.DoNothing = true
	case p.is(cUPDATE) && p.peekIs(1, cSET):
		p.i += 2
		if u.Set = p.setClauses(); u.Set == nil {
			p.reset(start)
			return nil
		}
		u.Where = p.keywordExpr(cWHERE)
	default:
		p.reset(start)
		return nil
	}
	return u
}

// indexedColumn reads sIndexedColumn: e [ASC | DESC].
func (p *fastParser) indexedColumn() *IndexedColumn {
	c := &IndexedColumn{Position: p.pos()}
	if c.Expr = p.expr(); c.Expr == nil {
		return nil
	}
	c.Order = p.sortOrder()
	return c
}

// returning reads ( 'RETURNING' column ( ',' column )* )?.
func (p *fastParser) returning() []*ResultColumn {
	if !p.is(cRETURNING) {
		return nil
	}
	save := p.mark()
	p.i++
	cols := p.resultColumns()
	if cols == nil {
		p.reset(save)
	}
	return cols
}

// setClauses reads set ( ',' set )*.
func (p *fastParser) setClauses() []*SetClause { return commaList(p, p.setClause) }

// setClause reads sSetClause: ( name | '(' names ')' ) '=' e.
func (p *fastParser) setClause() *SetClause {
	start := p.mark()
	c := &SetClause{Position: p.pos()}
	if n, ok := p.name(); ok {
		c.Columns = []string{unquote(n)}
	} else if c.Columns, ok = p.nameList(); !ok {
		return nil
	}
	if !p.accept(cEq) {
		p.reset(start)
		return nil
	}
	if c.Value = p.expr(); c.Value == nil {
		p.reset(start)
		return nil
	}
	return c
}

// targetTable reads the table of UPDATE or DELETE, which must be a name
// (the builder reports any other item).
func (p *fastParser) targetTable() *TableName {
	x := p.tableItem()
	if x == nil {
		return nil
	}
	tn, ok := x.(*TableName)
	if !ok {
		p.decline()
		return nil
	}
	return tn
}

// update reads sUpdate after an optional WITH clause w at pos.
func (p *fastParser) update(pos Position, w *With) *UpdateStmt {
	s := &UpdateStmt{Position: pos, With: w}
	p.i++ // UPDATE
	s.Or = p.orAction()
	if s.Table = p.targetTable(); s.Table == nil || !p.accept(cSET) {
		return nil
	}
	if s.Set = p.setClauses(); s.Set == nil {
		return nil
	}
	if p.is(cFROM) {
		save := p.mark()
		p.i++
		if s.From = p.from(); s.From == nil {
			p.reset(save)
		}
	}
	s.Where = p.keywordExpr(cWHERE)
	s.Returning = p.returning()
	return s
}

// delete reads sDelete after an optional WITH clause w at pos.
func (p *fastParser) delete(pos Position, w *With) *DeleteStmt {
	s := &DeleteStmt{Position: pos, With: w}
	p.i++ // DELETE
	if !p.accept(cFROM) {
		return nil
	}
	if s.Table = p.targetTable(); s.Table == nil {
		return nil
	}
	s.Where = p.keywordExpr(cWHERE)
	s.Returning = p.returning()
	return s
}
