package grammar

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// binaryOps maps infix operator spellings (upper case) to operators.
var binaryOps = map[string]BinaryOp{
	"OR": OpOr, "AND": OpAnd,
	"=": OpEq, "==": OpEq, "!=": OpNe, "<>": OpNe,
	"<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
	"&": OpBitAnd, "|": OpBitOr, "<<": OpShl, ">>": OpShr,
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod,
	"||": OpConcat, "->": OpJSONExtract, "->>": OpJSONExtractText,
}

// expr converts an expression; nil stays nil. It also measures the
// tree's height (SQLite's: a leaf is 1, a node one more than its tallest
// child) and fails past MaxExprDepth; b.height then holds the tallest
// expression converted so far inside the enclosing operand.
func (b *builder) expr(e *sExpr) Expr {
	if e == nil {
		return nil
	}
	outer := b.height
	c := &climber{b: b, tails: e.Tail}
	x, h := c.climb(precLowest, c.prefixed(e.Nots, e.Head))
	if c.i < len(c.tails) {
		// Only a stray ESCAPE stops the climb before the end.
		b.failNear(c.tails[c.i].Pos, "syntax error")
	}
	b.height = max(outer, h)
	return x
}

// exprs converts a list.
func (b *builder) exprs(list []*sExpr) []Expr {
	if list == nil {
		return nil
	}
	out := make([]Expr, len(list))
	for i, e := range list {
		out[i] = b.expr(e)
	}
	return out
}

// nested runs convert, which converts the parts of one node, and returns
// the height of their tallest expression (0 when there is none).
func (b *builder) nested(convert func()) int {
	outer := b.height
	b.height = 0
	convert()
	h := b.height
	b.height = outer
	return h
}

// climber applies operator precedence to the flat tail list of one
// expression (precedence climbing: each operator takes as its right
// operand everything that binds tighter than itself, which makes every
// level left-associative). Each result travels with its height.
type climber struct {
	b     *builder
	tails []*sTail
	i     int // next tail to consume
}

// hexpr is an expression and its height.
type hexpr struct {
	x Expr
	h int
}

// node is a new operator node over children of tallest height h.
func (c *climber) node(x Expr, h int) hexpr {
	if h+1 > c.b.lim.ExprDepth {
		p := x.Pos()
		msg := errExprTooDeep
		if c.b.lim.ExprDepth != MaxExprDepth {
			msg = fmt.Sprintf("Expression tree is too large (maximum depth %d)", c.b.lim.ExprDepth)
		}
		c.b.failWith(lexer.Position{Offset: p.Offset, Line: p.Line, Column: p.Column}, msg, ErrExprTooDeep)
	}
	return hexpr{x, h + 1}
}

// tailPrec is the precedence of a tail's operator.
func tailPrec(t *sTail) int {
	if t.Op == "" {
		return precEq // IS, BETWEEN, LIKE, IN, ISNULL
	}
	if strings.EqualFold(t.Op, "ESCAPE") {
		// ESCAPE belongs to a LIKE; at equality level it ends the LIKE's
		// pattern and is then consumed by it.
		return precEq
	}
	return binaryOps[strings.ToUpper(t.Op)].Precedence()
}

// climb extends lhs with every following operator of precedence >= min.
func (c *climber) climb(min int, lhs hexpr) (Expr, int) {
	for c.i < len(c.tails) {
		t := c.tails[c.i]
		p := tailPrec(t)
		if p < min || strings.EqualFold(t.Op, "ESCAPE") {
			break
		}
		c.i++
		lhs = c.apply(lhs, t, p)
	}
	return lhs.x, lhs.h
}

// apply combines lhs with the tail t, whose precedence is p.
func (c *climber) apply(lhs hexpr, t *sTail, p int) hexpr {
	pos := lhs.x.Pos()
	switch {
	case t.IsNull != "":
		return c.node(&IsNullExpr{Position: pos, Not: strings.ToUpper(t.IsNull) != "ISNULL", X: lhs.x}, lhs.h)
	case t.In != nil:
		var in Expr
		h := c.b.nested(func() { in = c.b.in(lhs.x, t.In) })
		return c.node(in, max(lhs.h, h))
	case t.Match != nil && strings.EqualFold(t.Match.Op, "BETWEEN"):
		return c.between(lhs, t)
	case t.Match != nil:
		pat, hp := c.operand(t, p+1)
		like := &LikeExpr{Position: pos, Not: t.Match.Not, Op: likeOp(t.Match.Op), X: lhs.x, Pattern: pat}
		h := max(lhs.h, hp)
		if c.i < len(c.tails) && strings.EqualFold(c.tails[c.i].Op, "ESCAPE") {
			c.i++
			esc, he := c.operand(c.tails[c.i-1], p+1)
			like.Escape, h = esc, max(h, he)
		}
		return c.node(like, h)
	case t.Is != nil:
		r, hr := c.operand(t, p+1)
		return c.node(&BinaryExpr{Position: pos, Op: isOp(t.Is), L: lhs.x, R: r}, max(lhs.h, hr))
	}
	r, hr := c.operand(t, p+1)
	return c.node(&BinaryExpr{Position: pos, Op: binaryOps[strings.ToUpper(t.Op)], L: lhs.x, R: r}, max(lhs.h, hr))
}

// operand converts the right operand of t and extends it with the
// operators that bind at least as tightly as min.
func (c *climber) operand(t *sTail, min int) (Expr, int) {
	return c.climb(min, c.prefixed(t.Nots, t.R))
}

// between reads "BETWEEN lo AND hi"; the AND is the next tail.
func (c *climber) between(lhs hexpr, t *sTail) hexpr {
	lo, hlo := c.operand(t, precEq+1)
	if c.i >= len(c.tails) || !strings.EqualFold(c.tails[c.i].Op, "AND") {
		at := t.R.Pos
		if c.i < len(c.tails) {
			at = c.tails[c.i].Pos
		}
		c.b.failNear(at, "syntax error: BETWEEN without AND")
		return lhs
	}
	and := c.tails[c.i]
	c.i++
	hi, hhi := c.operand(and, precEq+1)
	return c.node(&BetweenExpr{Position: lhs.x.Pos(), Not: t.Match.Not, X: lhs.x, Lo: lo, Hi: hi}, max(lhs.h, hlo, hhi))
}

// prefixed applies prefix NOTs to an operand. NOT binds looser than every
// operator but AND and OR, so each NOT takes the operators that follow at
// its level; "NOT EXISTS" becomes ExistsExpr{Not: true}.
func (c *climber) prefixed(nots []*sNotTok, o *sOperand) hexpr {
	var x Expr
	inner := c.b.nested(func() { x = c.b.operand(o) })
	h := operandHeight(o, inner)
	for i := len(nots) - 1; i >= 0; i-- {
		x, h = c.climb(precNot, hexpr{x, h})
		if ex, ok := x.(*ExistsExpr); ok && !ex.Not {
			ex.Not = true
			ex.Position = pos(nots[i].Pos)
			continue
		}
		hx := c.node(&UnaryExpr{Position: pos(nots[i].Pos), Op: OpNot, X: x}, h)
		x, h = hx.x, hx.h
	}
	return hexpr{x, h}
}

// operandHeight is the height of an operand whose tallest nested
// expression has height inner: parentheses around one expression add no
// node, every other primary is one, and so is each prefix and postfix
// operator.
func operandHeight(o *sOperand, inner int) int {
	h := inner + 1
	if p := o.Primary.Paren; p != nil && p.Select == nil && len(p.List) == 1 {
		h = inner
	}
	return h + len(o.Unary) + len(o.Postfix)
}

func isOp(s *sIsOp) BinaryOp {
	switch {
	case s.Not && s.Distinct:
		return OpIsNotDistinctFrom
	case s.Distinct:
		return OpIsDistinctFrom
	case s.Not:
		return OpIsNot
	}
	return OpIs
}

func likeOp(s string) LikeOp {
	switch strings.ToUpper(s) {
	case "GLOB":
		return OpGlob
	case "REGEXP":
		return OpRegexp
	case "MATCH":
		return OpMatch
	case "ILIKE":
		return OpILike
	}
	return OpLike
}

func (b *builder) in(x Expr, s *sIn) Expr {
	in := &InExpr{Position: x.Pos(), Not: s.Not, X: x}
	switch {
	case s.Select != nil:
		in.Select = b.selectStmt(s.Select)
	case s.Table != nil:
		schema, name := qname(s.Table)
		if s.Args != nil {
			in.Func = &TableFunc{Position: pos(s.Table.Pos), Schema: schema, Name: name, Args: b.exprs(s.Args.Args)}
		} else {
			in.Table = &TableName{Position: pos(s.Table.Pos), Schema: schema, Name: name}
		}
	default:
		in.List = b.exprs(s.List)
		if in.List == nil {
			in.List = []Expr{}
		}
	}
	return in
}

// operand converts unary operators, a primary and postfix operators.
func (b *builder) operand(o *sOperand) Expr {
	x := b.unary(o.Unary, o.Primary)
	for _, op := range o.Postfix {
		if op.Cast != nil {
			t := &TypeName{Position: pos(op.Cast.Pos), Name: op.Cast.Word, Args: signedNums(op.Cast.Args)}
			x = &CastExpr{Position: x.Pos(), X: x, Type: t, Postfix: true}
			continue
		}
		x = &CollateExpr{Position: x.Pos(), X: x, Collation: unquote(op.Collate)}
	}
	return x
}

var unaryOps = map[string]UnaryOp{"-": OpNeg, "+": OpPlus, "~": OpBitNot}

// unary applies prefix -, + and ~ to a primary, innermost last.
func (b *builder) unary(ops []*sUnaryTok, p *sPrimary) Expr {
	x := b.primary(p)
	for i := len(ops) - 1; i >= 0; i-- {
		x = &UnaryExpr{Position: pos(ops[i].Pos), Op: unaryOps[ops[i].Op], X: x}
	}
	return x
}

// primary converts the alternatives of the highest precedence level.
func (b *builder) primary(s *sPrimary) Expr {
	p := pos(s.Pos)
	switch {
	case s.Literal != nil:
		return b.literal(s.Pos, s.Literal)
	case s.Param != "":
		return b.param(s.Pos, s.Param)
	case s.Cast != nil:
		return &CastExpr{Position: p, X: b.expr(s.Cast.X), Type: typeName(s.Cast.Type)}
	case s.Case != nil:
		return b.caseExpr(p, s.Case)
	case s.Exists != nil:
		return &ExistsExpr{Position: p, Select: b.selectStmt(s.Exists)}
	case s.Raise != nil:
		return b.raise(p, s.Raise)
	case s.Paren != nil && s.Paren.Select != nil:
		return &SubqueryExpr{Position: p, Select: b.selectStmt(s.Paren.Select)}
	case s.Paren != nil:
		if len(s.Paren.List) == 1 {
			return b.expr(s.Paren.List[0])
		}
		return &TupleExpr{Position: p, Exprs: b.exprs(s.Paren.List)}
	case s.Func != nil:
		return b.funcCall(s.Func)
	}
	return columnRef(p, s.Column)
}

// columnRef builds [[schema.]table.]column.
func columnRef(p Position, raw []string) *ColumnRef { return columnRefAt(new(ColumnRef), p, raw) }

// columnRefAt is columnRef into c.
func columnRefAt(c *ColumnRef, p Position, raw []string) *ColumnRef {
	switch len(raw) {
	case 3:
		*c = ColumnRef{Position: p, Schema: unquote(raw[0]), Table: unquote(raw[1]), Column: unquote(raw[2])}
	case 2:
		*c = ColumnRef{Position: p, Table: unquote(raw[0]), Column: unquote(raw[1])}
	case 1:
		*c = ColumnRef{Position: p, Column: unquote(raw[0]), Quoted: strings.HasPrefix(raw[0], `"`)}
	default:
		*c = ColumnRef{Position: p}
	}
	return c
}

var wordLiterals = map[string]LiteralKind{
	"NULL": LitNull, "TRUE": LitTrue, "FALSE": LitFalse, "CURRENT_TIME": LitCurrentTime,
	"CURRENT_DATE": LitCurrentDate, "CURRENT_TIMESTAMP": LitCurrentTimestamp,
}

func (b *builder) literal(lp lexer.Position, l *sLiteral) Expr {
	p := pos(lp)
	switch {
	case l.Number != "":
		return numberLiteral(p, l.Number)
	case l.String != "":
		return stringLiteral(p, l.String)
	case l.Blob != "":
		digits := l.Blob[2 : len(l.Blob)-1]
		v, err := hex.DecodeString(digits)
		if err != nil {
			b.fail(lp, "malformed blob literal")
		}
		return &Literal{Position: p, Kind: LitBlob, Raw: l.Blob, Value: string(v)}
	}
	return &Literal{Position: p, Kind: wordLiterals[strings.ToUpper(l.Word)], Raw: l.Word, Value: l.Word}
}

// numberLiteral classifies an unsigned number as integer or real.
func numberLiteral(p Position, raw string) *Literal {
	l := numberLit(p, raw)
	return &l
}

// numberLit is numberLiteral's value.
func numberLit(p Position, raw string) Literal {
	kind := LitInt
	if !(len(raw) > 1 && (raw[1] == 'x' || raw[1] == 'X')) && strings.ContainsAny(raw, ".eE") {
		kind = LitReal
	}
	return Literal{Position: p, Kind: kind, Raw: raw, Value: raw}
}

func stringLiteral(p Position, raw string) *Literal {
	l := stringLit(p, raw)
	return &l
}

// stringLit is stringLiteral's value.
func stringLit(p Position, raw string) Literal {
	return Literal{Position: p, Kind: LitString, Raw: raw, Value: unquote(raw)}
}

// signedNumber converts an optionally signed number.
func (b *builder) signedNumber(p Position, n *sSignedNum) Expr {
	lit := numberLiteral(p, n.Num)
	switch n.Sign {
	case "-":
		lit.Position.Offset++
		lit.Position.Column++
		return &UnaryExpr{Position: p, Op: OpNeg, X: lit}
	case "+":
		lit.Position.Offset++
		lit.Position.Column++
		return &UnaryExpr{Position: p, Op: OpPlus, X: lit}
	}
	return lit
}

// param converts a placeholder. Only ?NNN and $N get their number here:
// the others are numbered in text order once the statement is built
// (ParamNumbering), since the tree is not built in text order.
func (b *builder) param(lp lexer.Position, raw string) Expr {
	b.sawParam = true
	p := new(Param)
	if !setParam(p, pos(lp), raw, b.lim.VariableNumber) {
		b.fail(lp, fmt.Sprintf("variable number must be between ?1 and ?%d", b.lim.VariableNumber))
	}
	return p
}

// setParam sets p to the placeholder written raw at at; false when its
// number is not between 1 and maxVar.
func setParam(p *Param, at Position, raw string, maxVar int) bool {
	*p = Param{Position: at}
	ok := true
	digits := raw[1:]
	switch {
	case raw == "?":
		p.Kind = ParamQuestion
	case raw[0] == '?' || raw[0] == '$' && isDigits(digits):
		p.Kind = ParamNumbered
		if raw[0] == '$' {
			p.Kind = ParamDollar
		}
		n, err := strconv.Atoi(digits)
		ok = err == nil && n >= 1 && n <= maxVar
		p.Index = n
	case raw[0] == ':':
		p.Kind, p.Name = ParamColon, digits
	case raw[0] == '@':
		p.Kind, p.Name = ParamAt, digits
	default:
		p.Kind, p.Name = ParamDollarName, digits
	}
	return ok
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func (b *builder) caseExpr(p Position, c *sCase) Expr {
	ce := &CaseExpr{Position: p, Operand: b.expr(c.Operand), Else: b.expr(c.Else)}
	for _, w := range c.Whens {
		ce.Whens = append(ce.Whens, &When{Position: pos(w.Pos), Cond: b.expr(w.Cond), Result: b.expr(w.Result)})
	}
	return ce
}

var raiseActions = map[string]RaiseAction{"ROLLBACK": RaiseRollback, "ABORT": RaiseAbort, "FAIL": RaiseFail}

func (b *builder) raise(p Position, r *sRaise) Expr {
	if r.Ignore {
		return &RaiseExpr{Position: p, Action: RaiseIgnore}
	}
	return &RaiseExpr{Position: p, Action: raiseActions[strings.ToUpper(r.Action)], Message: b.expr(r.Message)}
}

func (b *builder) funcCall(f *sFuncCall) Expr {
	if len(f.Args) > b.lim.FunctionArg {
		b.fail(f.Pos, "too many arguments on function "+unquote(f.Name))
	}
	fc := &FuncCall{Position: pos(f.Pos), Name: unquote(f.Name), Distinct: f.Distinct, Star: f.Star,
		Args: b.exprs(f.Args), OrderBy: b.orderTerms(f.OrderBy), Filter: b.expr(f.Filter), OverName: unquote(f.OverName)}
	if f.Over != nil {
		fc.Over = b.windowSpec(f.Over)
	}
	return fc
}

// typeName converts a declared type.
func typeName(t *sTypeName) *TypeName {
	if t == nil {
		return nil
	}
	return &TypeName{Position: pos(t.Pos), Name: strings.Join(t.Words, " "), Args: signedNums(t.Args)}
}

func signedNums(nums []*sSignedNum) []string {
	var out []string
	for _, n := range nums {
		out = append(out, n.Sign+n.Num)
	}
	return out
}
