package grammar

// The fast path's expressions, mirroring syntax_expr.go. Every reader
// returns nil, with the position unchanged, when its rule does not match.

// expr reads sExpr: prefix NOTs, an operand, tails.
func (p *fastParser) expr() *sExpr {
	start := p.i
	pos := p.pos()
	nots := p.nots()
	head := p.operand()
	if head == nil {
		p.i = start
		return nil
	}
	e := p.exprs.alloc()
	e.Pos, e.Nots, e.Head = pos, nots, head
	for {
		t := p.tail()
		if t == nil {
			break
		}
		e.Tail = append(e.Tail, t)
	}
	e.EndPos = p.endPos()
	return e
}

// nots reads sNotTok*.
func (p *fastParser) nots() []*sNotTok {
	var out []*sNotTok
	for p.is("NOT") {
		out = append(out, &sNotTok{Pos: p.pos(), Not: p.cur().Value})
		p.i++
	}
	return out
}

// tail reads one sTail.
func (p *fastParser) tail() *sTail {
	t := p.cur()
	if t.Type != tokBinOp && t.Type != tokKeyword && t.Type != tokIdent {
		return nil
	}
	if t.Type != tokBinOp && !p.isAny("ISNULL", "NOTNULL", "NOT", "IN", "IS", "BETWEEN", "LIKE", "GLOB",
		"REGEXP", "MATCH", "ILIKE", "OR", "AND", "ESCAPE") {
		return nil
	}
	start := p.i
	tl := &sTail{Pos: t.Pos}
	if v, ok := p.take("ISNULL", "NOTNULL"); ok {
		tl.IsNull = v
		return tl
	}
	if p.is("NOT") && tokIs(p.peekAt(1), "NULL") {
		tl.IsNull = t.Value + p.peekAt(1).Value
		p.i += 2
		return tl
	}
	if tl.In = p.in(); tl.In != nil {
		return tl
	}
	switch {
	case p.is("IS"):
		tl.Is = p.isOp()
	case p.is("NOT") || p.isAny("BETWEEN", "LIKE", "GLOB", "REGEXP", "MATCH", "ILIKE"):
		if tl.Match = p.matchOp(); tl.Match == nil {
			return nil
		}
	case t.Type == tokBinOp || p.isAny("OR", "AND", "ESCAPE"):
		tl.Op = t.Value
		p.i++
	default:
		return nil
	}
	tl.Nots = p.nots()
	if tl.R = p.operand(); tl.R == nil {
		p.i = start
		return nil
	}
	return tl
}

// isOp reads 'IS' @'NOT'? ( @'DISTINCT' 'FROM' )?.
func (p *fastParser) isOp() *sIsOp {
	p.i++
	op := &sIsOp{Not: p.accept("NOT")}
	if p.is("DISTINCT") && tokIs(p.peekAt(1), "FROM") {
		op.Distinct = true
		p.i += 2
	}
	return op
}

// matchOp reads @'NOT'? @( 'BETWEEN' | 'LIKE' | ... ).
func (p *fastParser) matchOp() *sMatchOp {
	start := p.i
	m := &sMatchOp{Not: p.accept("NOT")}
	v, ok := p.take("BETWEEN", "LIKE", "GLOB", "REGEXP", "MATCH", "ILIKE")
	if !ok {
		p.i = start
		return nil
	}
	m.Op = v
	return m
}

// in reads sIn: [NOT] IN ( list | subquery | table [args] ).
func (p *fastParser) in() *sIn {
	start := p.i
	not := p.is("NOT")
	if not {
		p.i++
	}
	if !p.accept("IN") {
		p.i = start
		return nil
	}
	in := &sIn{Not: not}
	if p.accept("(") {
		if p.isAny("SELECT", "VALUES", "WITH") {
			in.Select = p.selectStmt()
		}
		if in.Select == nil {
			if list, ok := p.exprList(); ok {
				in.List = list
			}
		}
		if !p.accept(")") {
			p.i = start
			return nil
		}
		return in
	}
	if in.Table = p.qname(); in.Table == nil {
		p.i = start
		return nil
	}
	in.Args = p.callArgs()
	return in
}

// callArgs reads sCallArgs: '(' ( e ( ',' e )* )? ')'.
func (p *fastParser) callArgs() *sCallArgs {
	start := p.i
	if !p.accept("(") {
		return nil
	}
	a := &sCallArgs{}
	if list, ok := p.exprList(); ok {
		a.Args = list
	}
	if !p.accept(")") {
		p.i = start
		return nil
	}
	return a
}

// operand reads sOperand: unary operators, a primary, postfix operators.
func (p *fastParser) operand() *sOperand {
	start := p.i
	pos := p.pos()
	var unary []*sUnaryTok
	for p.isAny("-", "+", "~") {
		unary = append(unary, &sUnaryTok{Pos: p.pos(), Op: p.cur().Value})
		p.i++
	}
	primary := p.primary()
	if primary == nil {
		p.i = start
		return nil
	}
	o := p.operands.alloc()
	o.Pos, o.Unary, o.Primary = pos, unary, primary
	for {
		op := p.postfix()
		if op == nil {
			return o
		}
		o.Postfix = append(o.Postfix, op)
	}
}

// postfix reads sPostfixOp: COLLATE name or :: type.
func (p *fastParser) postfix() *sPostfixOp {
	if !p.is("COLLATE") && !p.is("::") {
		return nil
	}
	start := p.i
	op := &sPostfixOp{Pos: p.pos()}
	switch {
	case p.accept("COLLATE"):
		v, ok := p.takeType(tokIdent, tokQIdent, tokString)
		if !ok {
			p.i = start
			return nil
		}
		op.Collate = v
	case p.accept("::"):
		if op.Cast = p.castType(); op.Cast == nil {
			p.i = start
			return nil
		}
	default:
		return nil
	}
	return op
}

// castType reads sCastType: a word and up to two numbers.
func (p *fastParser) castType() *sCastType {
	c := &sCastType{Pos: p.pos()}
	w, ok := p.takeType(tokIdent)
	if !ok {
		return nil
	}
	c.Word = w
	c.Args = p.typeArgs()
	return c
}

// typeArgs reads ( '(' num ( ',' num )? ')' )?.
func (p *fastParser) typeArgs() []*sSignedNum {
	start := p.i
	if !p.accept("(") {
		return nil
	}
	a := p.signedNum()
	if a == nil {
		p.i = start
		return nil
	}
	args := []*sSignedNum{a}
	save := p.i
	if p.accept(",") {
		if b := p.signedNum(); b != nil {
			args = append(args, b)
		} else {
			p.i = save
		}
	}
	if !p.accept(")") {
		p.i = start
		return nil
	}
	return args
}

// signedNum reads sSignedNum.
func (p *fastParser) signedNum() *sSignedNum {
	start := p.i
	n := &sSignedNum{}
	n.Sign, _ = p.take("+", "-")
	v, ok := p.takeType(tokNumber)
	if !ok {
		p.i = start
		return nil
	}
	n.Num = v
	return n
}

// primary reads sPrimary, trying the alternatives in the grammar's order.
func (p *fastParser) primary() *sPrimary {
	t := p.cur()
	if !canStartPrimary(t) {
		return nil
	}
	pr := p.primaries.alloc()
	pr.Pos = t.Pos
	switch {
	case (t.Type == tokIdent || t.Type == tokQIdent) && !p.isAny("TRUE", "FALSE"):
		if pr.Column = p.column(); pr.Column != nil {
			return pr
		}
	case t.Type == tokParam:
		pr.Param = t.Value
		p.i++
		return pr
	}
	if pr.Literal = p.literal(); pr.Literal != nil {
		return pr
	}
	switch {
	case p.is("CAST") && tokIs(p.peekAt(1), "("):
		pr.Cast = p.cast()
		return nilIfPrimary(pr, pr.Cast != nil)
	case p.is("RAISE") && tokIs(p.peekAt(1), "("):
		p.off = true
		return nil
	case t.Type == tokIdent || t.Type == tokQIdent:
		pr.Func = p.funcCall()
		return nilIfPrimary(pr, pr.Func != nil)
	case p.is("("):
		pr.Paren = p.paren()
		return nilIfPrimary(pr, pr.Paren != nil)
	case p.is("CASE"):
		pr.Case = p.caseExpr()
		return nilIfPrimary(pr, pr.Case != nil)
	case p.is("EXISTS"):
		pr.Exists = p.exists()
		return nilIfPrimary(pr, pr.Exists != nil)
	}
	return nil
}

// canStartPrimary reports whether some alternative of sPrimary could
// match at t: a name, literal, placeholder, "(" or keyword of one.
func canStartPrimary(t *ftok) bool {
	switch t.Type {
	case tokIdent, tokQIdent, tokNumber, tokString, tokBlob, tokParam:
		return true
	case tokKeyword:
		return tokIs(t, "NULL") || tokIs(t, "CASE") || tokIs(t, "EXISTS") || tokIs(t, "CURRENT_TIMESTAMP") ||
			tokIs(t, "CURRENT_TIME") || tokIs(t, "CURRENT_DATE")
	}
	return t.Value == "("
}

func nilIfPrimary(pr *sPrimary, ok bool) *sPrimary {
	if !ok {
		return nil
	}
	return pr
}

// column reads name ( '.' name ( '.' name )? )? not followed by "(".
func (p *fastParser) column() []string {
	start := p.i
	var parts [3]string
	parts[0] = p.cur().Value
	n := 1
	p.i++
	for n < 3 && p.is(".") {
		next := p.peekAt(1)
		if next.Type != tokIdent && next.Type != tokQIdent {
			break
		}
		parts[n] = next.Value
		n++
		p.i += 2
	}
	if p.is("(") {
		p.i = start
		return nil
	}
	return p.nameSlice(parts[:n]...)
}

// literal reads sLiteral.
func (p *fastParser) literal() *sLiteral {
	t := p.cur()
	if t.Type != tokNumber && t.Type != tokString && t.Type != tokBlob &&
		!p.isAny("NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP", "CURRENT_TIME", "CURRENT_DATE") {
		return nil
	}
	l := p.literals.alloc()
	switch t.Type {
	case tokNumber:
		l.Number = t.Value
	case tokString:
		l.String = t.Value
	case tokBlob:
		l.Blob = t.Value
	default:
		l.Word = t.Value
	}
	p.i++
	return l
}

// cast reads sCast: CAST ( e AS type ).
func (p *fastParser) cast() *sCast {
	start := p.i
	p.i += 2
	c := &sCast{X: p.expr()}
	if c.X != nil && p.accept("AS") {
		if c.Type = p.typeName(); c.Type != nil && p.accept(")") {
			return c
		}
	}
	p.i = start
	return nil
}

// typeName reads sTypeName: words (never GENERATED) and up to two numbers.
func (p *fastParser) typeName() *sTypeName {
	tn := &sTypeName{Pos: p.pos()}
	for p.cur().Type == tokIdent && !p.is("GENERATED") {
		tn.Words = append(tn.Words, p.cur().Value)
		p.i++
	}
	if tn.Words == nil {
		return nil
	}
	tn.Args = p.typeArgs()
	return tn
}

// paren reads sParen: a subquery, or a parenthesised expression list.
func (p *fastParser) paren() *sParen {
	start := p.i
	p.i++
	pa := &sParen{}
	if p.isAny("SELECT", "VALUES", "WITH") {
		pa.Select = p.selectStmt()
	}
	if pa.Select == nil {
		list, ok := p.exprList()
		if !ok {
			p.i = start
			return nil
		}
		pa.List = list
	}
	if !p.accept(")") {
		p.i = start
		return nil
	}
	return pa
}

// caseExpr reads sCase.
func (p *fastParser) caseExpr() *sCase {
	start := p.i
	p.i++
	c := &sCase{Operand: p.expr()}
	for p.is("WHEN") {
		w := &sWhen{Pos: p.pos()}
		save := p.i
		p.i++
		if w.Cond = p.expr(); w.Cond == nil || !p.accept("THEN") {
			p.i = save
			break
		}
		if w.Result = p.expr(); w.Result == nil {
			p.i = save
			break
		}
		c.Whens = append(c.Whens, w)
	}
	if c.Whens == nil {
		p.i = start
		return nil
	}
	if p.is("ELSE") {
		save := p.i
		p.i++
		if c.Else = p.expr(); c.Else == nil {
			p.i = save
		}
	}
	if !p.accept("END") {
		p.i = start
		return nil
	}
	return c
}

// exists reads 'EXISTS' '(' select ')'.
func (p *fastParser) exists() *sSelect {
	start := p.i
	p.i++
	if p.accept("(") {
		if s := p.selectStmt(); s != nil && p.accept(")") {
			return s
		}
	}
	p.i = start
	return nil
}

// funcCall reads sFuncCall.
func (p *fastParser) funcCall() *sFuncCall {
	start := p.i
	f := &sFuncCall{Pos: p.pos(), Name: p.cur().Value}
	if !tokIs(p.peekAt(1), "(") {
		return nil
	}
	p.i += 2
	if p.accept("*") {
		f.Star = true
	} else {
		p.callBody(f)
	}
	if !p.accept(")") {
		p.i = start
		return nil
	}
	if p.is("FILTER") {
		save := p.i
		p.i++
		if p.accept("(") && p.accept("WHERE") {
			if f.Filter = p.expr(); f.Filter == nil || !p.accept(")") {
				f.Filter = nil
				p.i = save
			}
		} else {
			p.i = save
		}
	}
	if p.is("OVER") {
		p.over(f)
	}
	return f
}

// callBody reads ( DISTINCT | ALL )? args ( ORDER BY terms )?, all
// optional together.
func (p *fastParser) callBody(f *sFuncCall) {
	start := p.i
	distinct := p.accept("DISTINCT")
	if !distinct {
		p.accept("ALL")
	}
	args, ok := p.exprList()
	if !ok {
		p.i = start
		return
	}
	f.Distinct, f.Args = distinct, args
	f.OrderBy = p.orderByOpt()
}

// over reads 'OVER' ( name | '(' spec ')' ), leaving f unchanged when it
// does not match.
func (p *fastParser) over(f *sFuncCall) {
	save := p.i
	p.i++
	if v, ok := p.name(); ok {
		f.OverName = v
		return
	}
	if p.accept("(") {
		spec := p.windowSpec()
		if p.accept(")") {
			f.Over = spec
			return
		}
	}
	p.i = save
}
