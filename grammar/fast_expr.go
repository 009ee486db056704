package grammar

import (
	"encoding/hex"
	"strings"
)

// The fast path's expressions. An expression is read as participle reads
// sExpr (syntax_expr.go): prefix NOTs, an operand, then a flat list of
// tails, each operand built as it is read; the tails then go through the
// builder's precedence climbing (build_expr.go), here over ftail. Every
// reader returns nil, with the position unchanged, when its rule does
// not match.

// tailKind is the alternative of sTail a tail matched.
type tailKind uint8

const (
	tkOp      tailKind = iota // a binary operator, AND and OR included
	tkEscape                  // ESCAPE, consumed by the LIKE before it
	tkIsNull                  // ISNULL, NOTNULL, NOT NULL
	tkIn                      // [NOT] IN ...
	tkIs                      // IS [NOT] [DISTINCT FROM]
	tkMatch                   // [NOT] LIKE, GLOB, REGEXP, MATCH, ILIKE
	tkBetween                 // [NOT] BETWEEN
)

// ftail is one tail: its operator and its right operand, built, with the
// prefix NOTs before that operand (positions in fastParser.nots).
type ftail struct {
	kind  tailKind
	not   bool
	op    BinaryOp // tkOp, tkIs
	like  LikeOp
	prec  int
	in    *InExpr // tkIn: the right-hand side; X and Position come later
	inH   int     // tkIn: the tallest expression inside the IN
	nots  int     // first NOT in fastParser.nots
	nnots int
	r     Expr
	rh    int
}

// expr reads an expression: prefix NOTs, an operand, tails. As the
// builder's expr it measures the tree's height and leaves in p.height the
// tallest expression read so far inside the enclosing operand; past the
// expression depth limit it declines.
func (p *fastParser) expr() Expr {
	start := p.mark()
	outer := p.height
	notBase := len(p.nots.s)
	nnots := p.readNots()
	head, hh := p.operand()
	if head == nil {
		p.nots.drop(notBase)
		p.reset(start)
		return nil
	}
	tailBase := len(p.tails.s)
	for p.tail() {
	}
	c := fclimber{p: p, i: tailBase, end: len(p.tails.s)}
	x, h := c.climb(precLowest, c.prefixed(notBase, nnots, head, hh))
	if c.i < c.end {
		p.decline() // a stray ESCAPE: the builder reports it
	}
	p.tails.drop(tailBase)
	p.nots.drop(notBase)
	p.height = max(outer, h)
	return x
}

// readNots reads sNotTok* onto p.nots and returns how many.
func (p *fastParser) readNots() int {
	n := 0
	for p.is(cNOT) {
		p.nots.push(p.pos())
		p.i++
		n++
	}
	return n
}

// tail reads one sTail onto p.tails.
func (p *fastParser) tail() bool {
	t := p.cur()
	switch t.typ {
	case tokBinOp:
	case tokKeyword, tokIdent:
		switch t.code {
		case cISNULL, cNOTNULL, cNOT, cIN, cIS, cBETWEEN, cLIKE, cGLOB, cREGEXP, cMATCH, cILIKE, cOR, cAND, cESCAPE:
		default:
			return false
		}
	default:
		return false
	}
	start := p.mark()
	tl := ftail{prec: precEq}
	switch {
	case t.code == cISNULL || t.code == cNOTNULL:
		p.i++
		tl.kind, tl.not = tkIsNull, t.code == cNOTNULL
		p.tails.push(tl)
		return true
	case t.code == cNOT && p.peekIs(1, cNULL):
		p.i += 2
		tl.kind, tl.not = tkIsNull, true
		p.tails.push(tl)
		return true
	}
	if in, inH := p.in(); in != nil {
		tl.kind, tl.in, tl.inH = tkIn, in, inH
		p.tails.push(tl)
		return true
	}
	switch {
	case t.code == cIS:
		p.i++
		not := p.accept(cNOT)
		distinct := false
		if p.is(cDISTINCT) && p.peekIs(1, cFROM) {
			distinct = true
			p.i += 2
		}
		tl.kind, tl.op = tkIs, isOpOf(not, distinct)
	case t.code == cNOT || isMatchWord(t.code):
		tl.not = p.accept(cNOT)
		c := p.cur().code
		if !isMatchWord(c) {
			p.reset(start)
			return false
		}
		p.i++
		if c == cBETWEEN {
			tl.kind = tkBetween
		} else {
			tl.kind, tl.like = tkMatch, likeOf(c)
		}
	case t.code == cESCAPE:
		p.i++
		tl.kind = tkEscape
	case t.typ == tokBinOp || t.code == cOR || t.code == cAND:
		p.i++
		tl.kind, tl.op = tkOp, opOf[t.code]
		tl.prec = tl.op.Precedence()
	default:
		return false
	}
	tl.nots = len(p.nots.s)
	tl.nnots = p.readNots()
	if tl.r, tl.rh = p.operand(); tl.r == nil {
		p.nots.drop(tl.nots)
		p.reset(start)
		return false
	}
	p.tails.push(tl)
	return true
}

// isOpOf is the operator of IS [NOT] [DISTINCT FROM].
func isOpOf(not, distinct bool) BinaryOp {
	switch {
	case not && distinct:
		return OpIsNotDistinctFrom
	case distinct:
		return OpIsDistinctFrom
	case not:
		return OpIsNot
	}
	return OpIs
}

func isMatchWord(c tcode) bool {
	switch c {
	case cBETWEEN, cLIKE, cGLOB, cREGEXP, cMATCH, cILIKE:
		return true
	}
	return false
}

func likeOf(c tcode) LikeOp {
	switch c {
	case cGLOB:
		return OpGlob
	case cREGEXP:
		return OpRegexp
	case cMATCH:
		return OpMatch
	case cILIKE:
		return OpILike
	}
	return OpLike
}

// fclimber is the builder's climber (build_expr.go) over the tails
// p.tails.s[i:end] of one expression.
type fclimber struct {
	p      *fastParser
	i, end int
}

// node is a new operator node over children of tallest height h.
func (c *fclimber) node(x Expr, h int) hexpr {
	if h+1 > c.p.lim.ExprDepth {
		c.p.decline()
	}
	return hexpr{x, h + 1}
}

// climb extends lhs with every following operator of precedence >= min.
func (c *fclimber) climb(min int, lhs hexpr) (Expr, int) {
	for c.i < c.end {
		t := &c.p.tails.s[c.i]
		if t.prec < min || t.kind == tkEscape {
			break
		}
		c.i++
		lhs = c.apply(lhs, t)
	}
	return lhs.x, lhs.h
}

// apply combines lhs with the tail t.
func (c *fclimber) apply(lhs hexpr, t *ftail) hexpr {
	pos := lhs.x.Pos()
	switch t.kind {
	case tkIsNull:
		return c.node(&IsNullExpr{Position: pos, Not: t.not, X: lhs.x}, lhs.h)
	case tkIn:
		t.in.Position, t.in.X = pos, lhs.x
		return c.node(t.in, max(lhs.h, t.inH))
	case tkBetween:
		return c.between(lhs, t)
	case tkMatch:
		pat, hp := c.operand(t, t.prec+1)
		like := &LikeExpr{Position: pos, Not: t.not, Op: t.like, X: lhs.x, Pattern: pat}
		h := max(lhs.h, hp)
		if c.i < c.end && c.p.tails.s[c.i].kind == tkEscape {
			c.i++
			esc, he := c.operand(&c.p.tails.s[c.i-1], t.prec+1)
			like.Escape, h = esc, max(h, he)
		}
		return c.node(like, h)
	}
	r, hr := c.operand(t, t.prec+1)
	b := c.p.bins.alloc()
	*b = BinaryExpr{Position: pos, Op: t.op, L: lhs.x, R: r}
	return c.node(b, max(lhs.h, hr))
}

// operand is the right operand of t extended with the operators that
// bind at least as tightly as min.
func (c *fclimber) operand(t *ftail, min int) (Expr, int) {
	return c.climb(min, c.prefixed(t.nots, t.nnots, t.r, t.rh))
}

// between reads "BETWEEN lo AND hi"; the AND is the next tail.
func (c *fclimber) between(lhs hexpr, t *ftail) hexpr {
	lo, hlo := c.operand(t, precEq+1)
	if c.i >= c.end || c.p.tails.s[c.i].kind != tkOp || c.p.tails.s[c.i].op != OpAnd {
		c.p.decline() // BETWEEN without AND: the builder reports it
		return lhs
	}
	and := &c.p.tails.s[c.i]
	c.i++
	hi, hhi := c.operand(and, precEq+1)
	return c.node(&BetweenExpr{Position: lhs.x.Pos(), Not: t.not, X: lhs.x, Lo: lo, Hi: hi}, max(lhs.h, hlo, hhi))
}

// prefixed applies the n prefix NOTs at p.nots.s[first:] to an operand x
// of height h, as the builder's prefixed.
func (c *fclimber) prefixed(first, n int, x Expr, h int) hexpr {
	for i := n - 1; i >= 0; i-- {
		x, h = c.climb(precNot, hexpr{x, h})
		at := c.p.nots.s[first+i]
		if ex, ok := x.(*ExistsExpr); ok && !ex.Not {
			ex.Not = true
			ex.Position = at
			continue
		}
		hx := c.node(&UnaryExpr{Position: at, Op: OpNot, X: x}, h)
		x, h = hx.x, hx.h
	}
	return hexpr{x, h}
}

// in reads sIn: [NOT] IN ( list | subquery | table [args] ), and the
// height of the tallest expression inside it.
func (p *fastParser) in() (*InExpr, int) {
	start := p.mark()
	not := p.accept(cNOT)
	if !p.accept(cIN) {
		p.reset(start)
		return nil, 0
	}
	outer := p.height
	p.height = 0
	in := &InExpr{Not: not}
	ok := p.inRest(in)
	h := p.height
	p.height = outer
	if !ok {
		p.reset(start)
		return nil, 0
	}
	return in, h
}

// inRest reads what follows IN.
func (p *fastParser) inRest(in *InExpr) bool {
	if p.accept(cLParen) {
		if p.isQueryStart() {
			in.Select = p.selectStmt()
		}
		if in.Select == nil {
			in.List = p.exprList()
		}
		if !p.accept(cRParen) {
			return false
		}
		if in.Select == nil && in.List == nil {
			in.List = []Expr{}
		}
		return true
	}
	at := p.pos()
	schema, name, ok := p.qname()
	if !ok {
		return false
	}
	if args, ok := p.callArgs(); ok {
		in.Func = &TableFunc{Position: at, Schema: schema, Name: name, Args: args}
	} else {
		in.Table = newNode(&p.names, TableName{Position: at, Schema: schema, Name: name})
	}
	return true
}

// isQueryStart reports SELECT, VALUES or WITH next.
func (p *fastParser) isQueryStart() bool {
	switch p.cur().code {
	case cSELECT, cVALUES, cWITH:
		return true
	}
	return false
}

// callArgs reads sCallArgs: '(' ( e ( ',' e )* )? ')'.
func (p *fastParser) callArgs() ([]Expr, bool) {
	start := p.mark()
	if !p.accept(cLParen) {
		return nil, false
	}
	args := p.exprList()
	if !p.accept(cRParen) {
		p.reset(start)
		return nil, false
	}
	return args, true
}

// operand reads sOperand (unary operators, a primary, postfix
// operators) and returns it with its height, as the builder's
// operandHeight.
func (p *fastParser) operand() (Expr, int) {
	start := p.mark()
	outer := p.height
	p.height = 0
	first := p.i
	for p.is(cMinus) || p.is(cPlus) || p.is(cTilde) {
		p.i++
	}
	nunary := p.i - first
	x, single := p.primary()
	inner := p.height
	p.height = outer
	if x == nil {
		p.reset(start)
		return nil, 0
	}
	for k := nunary - 1; k >= 0; k-- {
		t := &p.toks[first+k]
		x = &UnaryExpr{Position: t.pos, Op: unaryOf(t.code), X: x}
	}
	npost := 0
	for {
		y := p.postfix(x)
		if y == nil {
			break
		}
		x = y
		npost++
	}
	h := inner + 1
	if single {
		h = inner
	}
	return x, h + nunary + npost
}

func unaryOf(c tcode) UnaryOp {
	switch c {
	case cMinus:
		return OpNeg
	case cPlus:
		return OpPlus
	}
	return OpBitNot
}

// postfix reads sPostfixOp after x: COLLATE name or :: type.
func (p *fastParser) postfix(x Expr) Expr {
	switch {
	case p.is(cCOLLATE):
		t := p.peekAt(1)
		if t.typ != tokIdent && t.typ != tokQIdent && t.typ != tokString {
			return nil
		}
		p.i += 2
		return &CollateExpr{Position: x.Pos(), X: x, Collation: unquote(p.tv(t))}
	case p.is(cColons):
		start := p.mark()
		p.i++
		t := p.cur()
		if t.typ != tokIdent {
			p.reset(start)
			return nil
		}
		p.i++
		return &CastExpr{Position: x.Pos(), X: x, Type: &TypeName{Position: t.pos, Name: p.tv(t), Args: p.typeArgs()}, Postfix: true}
	}
	return nil
}

// typeArgs reads ( '(' num ( ',' num )? ')' )?, the numbers signed; nil
// when absent or malformed (then left unread).
func (p *fastParser) typeArgs() []string {
	start := p.mark()
	if !p.accept(cLParen) {
		return nil
	}
	a, ok := p.signedNum()
	if !ok {
		p.reset(start)
		return nil
	}
	var b string
	two := false
	if p.is(cComma) {
		save := p.mark()
		p.i++
		if b, two = p.signedNum(); !two {
			p.reset(save)
		}
	}
	if !p.accept(cRParen) {
		p.reset(start)
		return nil
	}
	if two {
		return []string{a, b}
	}
	return []string{a}
}

// signedNum reads sSignedNum as its sign and number.
func (p *fastParser) signedNum() (string, bool) {
	start := p.mark()
	sign := ""
	if p.is(cPlus) || p.is(cMinus) {
		sign = p.tv(p.cur())
		p.i++
	}
	t := p.cur()
	if t.typ != tokNumber {
		p.reset(start)
		return "", false
	}
	p.i++
	return sign + p.tv(t), true
}

// primary reads sPrimary, trying the alternatives in the grammar's
// order. single is set for a parenthesised single expression, which
// adds no node.
func (p *fastParser) primary() (x Expr, single bool) {
	t := p.cur()
	if !canStartPrimary(t) {
		return nil, false
	}
	switch {
	case isName(t) && t.code != cTRUE && t.code != cFALSE:
		if c := p.column(); c != nil {
			return c, false
		}
	case t.typ == tokParam:
		p.i++
		return p.param(t), false
	}
	if l := p.literal(); l != nil {
		return l, false
	}
	switch {
	case t.code == cCAST && p.peekIs(1, cLParen):
		if c := p.cast(); c != nil {
			return c, false
		}
	case t.code == cRAISE && p.peekIs(1, cLParen):
		p.decline()
	case isName(t):
		if f := p.funcCall(); f != nil {
			return f, false
		}
	case t.code == cLParen:
		return p.paren()
	case t.code == cCASE:
		if c := p.caseExpr(); c != nil {
			return c, false
		}
	case t.code == cEXISTS:
		if e := p.exists(); e != nil {
			return e, false
		}
	}
	return nil, false
}

// canStartPrimary reports whether some alternative of sPrimary could
// match at t: a name, literal, placeholder, "(" or keyword of one.
func canStartPrimary(t *ftok) bool {
	switch t.typ {
	case tokIdent, tokQIdent, tokNumber, tokString, tokBlob, tokParam:
		return true
	case tokKeyword:
		switch t.code {
		case cNULL, cCASE, cEXISTS, cCURRENT_TIMESTAMP, cCURRENT_TIME, cCURRENT_DATE:
			return true
		}
	}
	return t.code == cLParen
}

// column reads name ( '.' name ( '.' name )? )? not followed by "(".
func (p *fastParser) column() *ColumnRef {
	start := p.i
	at := p.pos()
	var parts [3]string
	parts[0] = p.tv(p.cur())
	n := 1
	p.i++
	for n < 3 && p.is(cDot) {
		next := p.peekAt(1)
		if !isName(next) {
			break
		}
		parts[n] = p.tv(next)
		n++
		p.i += 2
	}
	if p.is(cLParen) {
		p.i = start
		return nil
	}
	return columnRefAt(p.cols.alloc(), at, parts[:n])
}

// param builds a placeholder (setParam) and records it for numbering; a
// number out of range declines.
func (p *fastParser) param(t *ftok) Expr {
	x := p.pars.alloc()
	if !setParam(x, t.pos, p.tv(t), p.lim.VariableNumber) {
		p.decline()
	}
	p.params = append(p.params, x)
	return x
}

// literal reads sLiteral.
func (p *fastParser) literal() *Literal {
	t := p.cur()
	var l Literal
	switch t.typ {
	case tokNumber:
		l = numberLit(t.pos, p.tv(t))
	case tokString:
		l = stringLit(t.pos, p.tv(t))
	case tokBlob:
		v, err := hex.DecodeString(p.tv(t)[2 : len(p.tv(t))-1])
		if err != nil {
			p.decline()
		}
		l = Literal{Position: t.pos, Kind: LitBlob, Raw: p.tv(t), Value: string(v)}
	default:
		var kind LiteralKind
		switch t.code {
		case cNULL:
			kind = LitNull
		case cTRUE:
			kind = LitTrue
		case cFALSE:
			kind = LitFalse
		case cCURRENT_TIMESTAMP:
			kind = LitCurrentTimestamp
		case cCURRENT_TIME:
			kind = LitCurrentTime
		case cCURRENT_DATE:
			kind = LitCurrentDate
		default:
			return nil
		}
		l = Literal{Position: t.pos, Kind: kind, Raw: p.tv(t), Value: p.tv(t)}
	}
	p.i++
	x := p.lits.alloc()
	*x = l
	return x
}

// cast reads sCast: CAST ( e AS type ).
func (p *fastParser) cast() Expr {
	start := p.mark()
	at := p.pos()
	p.i += 2
	x := p.expr()
	if x != nil && p.accept(cAS) {
		if t := p.typeName(); t != nil && p.accept(cRParen) {
			return &CastExpr{Position: at, X: x, Type: t}
		}
	}
	p.reset(start)
	return nil
}

// typeName reads sTypeName: words (never GENERATED) and up to two
// numbers, as the builder's typeName.
func (p *fastParser) typeName() *TypeName {
	at := p.pos()
	first := p.i
	for p.cur().typ == tokIdent && !p.is(cGENERATED) {
		p.i++
	}
	n := p.i - first
	if n == 0 {
		return nil
	}
	name := p.tv(&p.toks[first])
	if n > 1 {
		var b strings.Builder
		for k := first; k < first+n; k++ {
			if k > first {
				b.WriteByte(' ')
			}
			b.WriteString(p.tv(&p.toks[k]))
		}
		name = b.String()
	}
	return &TypeName{Position: at, Name: name, Args: p.typeArgs()}
}

// paren reads sParen: a subquery, or a parenthesised expression list (one
// expression stands for itself: single).
func (p *fastParser) paren() (Expr, bool) {
	start := p.mark()
	at := p.pos()
	p.i++
	if p.isQueryStart() {
		if s := p.selectStmt(); s != nil {
			if p.accept(cRParen) {
				return &SubqueryExpr{Position: at, Select: s}, false
			}
			p.reset(start)
			return nil, false
		}
	}
	x := p.expr()
	if x == nil {
		p.reset(start)
		return nil, false
	}
	if p.accept(cRParen) {
		return x, true
	}
	list := p.exprListFrom(x)
	if !p.accept(cRParen) {
		p.reset(start)
		return nil, false
	}
	return &TupleExpr{Position: at, Exprs: list}, false
}

// exprListFrom is exprList after its first expression x.
func (p *fastParser) exprListFrom(x Expr) []Expr {
	base := len(p.exprs.s)
	p.exprs.push(x)
	for p.is(cComma) {
		save := p.mark()
		p.i++
		if x = p.expr(); x == nil {
			p.reset(save)
			break
		}
		p.exprs.push(x)
	}
	return p.popExprs(base)
}

// caseExpr reads sCase.
func (p *fastParser) caseExpr() Expr {
	start := p.mark()
	c := &CaseExpr{Position: p.pos()}
	p.i++
	c.Operand = p.expr()
	for p.is(cWHEN) {
		save := p.mark()
		w := &When{Position: p.pos()}
		p.i++
		if w.Cond = p.expr(); w.Cond == nil || !p.accept(cTHEN) {
			p.reset(save)
			break
		}
		if w.Result = p.expr(); w.Result == nil {
			p.reset(save)
			break
		}
		c.Whens = append(c.Whens, w)
	}
	if c.Whens == nil {
		p.reset(start)
		return nil
	}
	if p.is(cELSE) {
		save := p.mark()
		p.i++
		if c.Else = p.expr(); c.Else == nil {
			p.reset(save)
		}
	}
	if !p.accept(cEND) {
		p.reset(start)
		return nil
	}
	return c
}

// exists reads 'EXISTS' '(' select ')'.
func (p *fastParser) exists() Expr {
	start := p.mark()
	at := p.pos()
	p.i++
	if p.accept(cLParen) {
		if s := p.selectStmt(); s != nil && p.accept(cRParen) {
			return &ExistsExpr{Position: at, Select: s}
		}
	}
	p.reset(start)
	return nil
}

// funcCall reads sFuncCall, as the builder's funcCall builds it.
func (p *fastParser) funcCall() Expr {
	start := p.mark()
	t := p.cur()
	if !p.peekIs(1, cLParen) {
		return nil
	}
	p.i += 2
	f := newNode(&p.calls, FuncCall{Position: t.pos, Name: unquote(p.tv(t))})
	if p.accept(cStar) {
		f.Star = true
	} else {
		p.callBody(f)
	}
	if !p.accept(cRParen) {
		p.reset(start)
		return nil
	}
	if len(f.Args) > p.lim.FunctionArg {
		p.decline()
	}
	if p.is(cFILTER) {
		save := p.mark()
		p.i++
		if p.accept(cLParen) && p.accept(cWHERE) {
			if f.Filter = p.expr(); f.Filter == nil || !p.accept(cRParen) {
				f.Filter = nil
				p.reset(save)
			}
		} else {
			p.reset(save)
		}
	}
	if p.is(cOVER) {
		p.over(f)
	}
	return f
}

// callBody reads ( DISTINCT | ALL )? args ( ORDER BY terms )?, all
// optional together.
func (p *fastParser) callBody(f *FuncCall) {
	start := p.mark()
	distinct := p.accept(cDISTINCT)
	if !distinct {
		p.accept(cALL)
	}
	args := p.exprList()
	if args == nil {
		p.reset(start)
		return
	}
	f.Distinct, f.Args = distinct, args
	f.OrderBy = p.orderByOpt()
}

// over reads 'OVER' ( name | '(' spec ')' ), leaving f unchanged when it
// does not match.
func (p *fastParser) over(f *FuncCall) {
	save := p.mark()
	p.i++
	if v, ok := p.name(); ok {
		f.OverName = unquote(v)
		return
	}
	if p.accept(cLParen) {
		spec := p.windowSpec()
		if p.accept(cRParen) {
			f.Over = spec
			return
		}
	}
	p.reset(save)
}
