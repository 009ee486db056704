package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The fast path's INSERT, UPDATE and DELETE, mirroring syntax_dml.go.

// conflictWords are the actions after INSERT OR and UPDATE OR.
var conflictWords = []string{"REPLACE", "ROLLBACK", "ABORT", "FAIL", "IGNORE"}

// orAction reads ( 'OR' @( REPLACE | ... ) )?.
func (p *fastParser) orAction() string {
	if !p.is("OR") {
		return ""
	}
	for _, w := range conflictWords {
		if next := p.peekAt(1); tokIs(next, w) {
			p.i += 2
			return next.Value
		}
	}
	return ""
}

// insert reads sInsert after an optional WITH clause w at pos.
func (p *fastParser) insert(pos lexer.Position, w *sWith) *sInsert {
	s := &sInsert{Pos: pos, With: w}
	if p.accept("REPLACE") {
		s.Replace = true
	} else {
		p.i++ // INSERT
		s.Or = p.orAction()
	}
	if !p.accept("INTO") {
		return nil
	}
	if s.Table = p.qname(); s.Table == nil {
		return nil
	}
	if p.is("AS") {
		if v := p.peekAt(1); v.Type == tokIdent || v.Type == tokQIdent {
			s.Alias = v.Value
			p.i += 2
		}
	}
	s.Columns, _ = p.nameList()
	switch {
	case p.is("DEFAULT") && tokIs(p.peekAt(1), "VALUES"):
		s.Default = true
		p.i += 2
	case p.is("VALUES") && tokIs(p.peekAt(1), "("):
		p.i++
		if s.Values = p.rows(); s.Values == nil {
			return nil
		}
	default:
		if s.Select = p.selectStmt(); s.Select == nil {
			return nil
		}
	}
	for p.is("ON") {
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
func (p *fastParser) upsert() *sUpsert {
	start := p.i
	u := &sUpsert{Pos: p.pos()}
	p.i++
	if !p.accept("CONFLICT") {
		p.i = start
		return nil
	}
	if p.is("(") {
		save := p.i
		p.i++
		if u.Target = commaList(p, p.indexedColumn); u.Target != nil && p.accept(")") {
			u.TargetWhere = p.keywordExpr("WHERE")
		} else {
			u.Target = nil
			p.i = save
		}
	}
	if !p.accept("DO") {
		p.i = start
		return nil
	}
	switch {
	case p.accept("NOTHING"):
		u.Nothing = true
	case p.is("UPDATE") && tokIs(p.peekAt(1), "SET"):
		p.i += 2
		if u.Set = p.setClauses(); u.Set == nil {
			p.i = start
			return nil
		}
		u.Where = p.keywordExpr("WHERE")
	default:
		p.i = start
		return nil
	}
	return u
}

// indexedColumn reads sIndexedColumn: e [ASC | DESC].
func (p *fastParser) indexedColumn() *sIndexedColumn {
	c := &sIndexedColumn{Pos: p.pos()}
	if c.Expr = p.expr(); c.Expr == nil {
		return nil
	}
	c.Order, _ = p.take("ASC", "DESC")
	return c
}

// returning reads ( 'RETURNING' column ( ',' column )* )?.
func (p *fastParser) returning() []*sResultColumn {
	if !p.is("RETURNING") {
		return nil
	}
	save := p.i
	p.i++
	cols := p.resultColumns()
	if cols == nil {
		p.i = save
	}
	return cols
}

// setClauses reads set ( ',' set )*.
func (p *fastParser) setClauses() []*sSetClause { return commaList(p, p.setClause) }

// setClause reads sSetClause: ( name | '(' names ')' ) '=' e.
func (p *fastParser) setClause() *sSetClause {
	start := p.i
	c := &sSetClause{Pos: p.pos()}
	if n, ok := p.name(); ok {
		c.Columns = []string{n}
	} else if c.Columns, ok = p.nameList(); !ok {
		return nil
	}
	if !p.accept("=") {
		p.i = start
		return nil
	}
	if c.Value = p.expr(); c.Value == nil {
		p.i = start
		return nil
	}
	return c
}

// update reads sUpdate after an optional WITH clause w at pos.
func (p *fastParser) update(pos lexer.Position, w *sWith) *sUpdate {
	s := &sUpdate{Pos: pos, With: w}
	p.i++ // UPDATE
	s.Or = p.orAction()
	if s.Table = p.tableItem(); s.Table == nil || !p.accept("SET") {
		return nil
	}
	if s.Set = p.setClauses(); s.Set == nil {
		return nil
	}
	if p.is("FROM") {
		save := p.i
		p.i++
		if s.From = p.from(); s.From == nil {
			p.i = save
		}
	}
	s.Where = p.keywordExpr("WHERE")
	s.Returning = p.returning()
	return s
}

// delete reads sDelete after an optional WITH clause w at pos.
func (p *fastParser) delete(pos lexer.Position, w *sWith) *sDelete {
	s := &sDelete{Pos: pos, With: w}
	p.i++ // DELETE
	if !p.accept("FROM") {
		return nil
	}
	if s.Table = p.tableItem(); s.Table == nil {
		return nil
	}
	s.Where = p.keywordExpr("WHERE")
	s.Returning = p.returning()
	return s
}
