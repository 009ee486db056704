package grammar

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// binaryOps maps operator spellings (upper case) to operators.
var binaryOps = map[string]BinaryOp{
	"=": OpEq, "==": OpEq, "!=": OpNe, "<>": OpNe,
	"<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
	"&": OpBitAnd, "|": OpBitOr, "<<": OpShl, ">>": OpShr,
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod,
	"||": OpConcat, "->": OpJSONExtract, "->>": OpJSONExtractText,
}

// chainOp is an "operator operand" pair of one precedence level.
type chainOp[T any] interface {
	op() string
	right() T
}

func (o *sCmpOp) op() string          { return o.Op }
func (o *sCmpOp) right() *sBit        { return o.R }
func (o *sBitOp) op() string          { return o.Op }
func (o *sBitOp) right() *sAdd        { return o.R }
func (o *sAddOp) op() string          { return o.Op }
func (o *sAddOp) right() *sMul        { return o.R }
func (o *sMulOp) op() string          { return o.Op }
func (o *sMulOp) right() *sConcat     { return o.R }
func (o *sConcatOp) op() string       { return o.Op }
func (o *sConcatOp) right() *sPostfix { return o.R }

// chain folds "left (op right)*" into left-associative BinaryExprs.
func chain[T any, O chainOp[T]](left T, ops []O, next func(T) Expr) Expr {
	x := next(left)
	for _, o := range ops {
		x = &BinaryExpr{Position: x.Pos(), Op: binaryOps[o.op()], L: x, R: next(o.right())}
	}
	return x
}

// expr converts an expression; nil stays nil.
func (b *builder) expr(e *sExpr) Expr {
	if e == nil {
		return nil
	}
	x := b.and(e.Left)
	for _, r := range e.Rest {
		x = &BinaryExpr{Position: x.Pos(), Op: OpOr, L: x, R: b.and(r)}
	}
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

func (b *builder) and(a *sAnd) Expr {
	x := b.not(a.Left)
	for _, r := range a.Rest {
		x = &BinaryExpr{Position: x.Pos(), Op: OpAnd, L: x, R: b.not(r)}
	}
	return x
}

// not converts NOT; "NOT EXISTS" becomes ExistsExpr{Not: true}.
func (b *builder) not(n *sNot) Expr {
	if n.Not == nil {
		return b.equality(n.X)
	}
	x := b.not(n.Not)
	if ex, ok := x.(*ExistsExpr); ok && !ex.Not {
		ex.Not = true
		ex.Position = pos(n.Pos)
		return ex
	}
	return &UnaryExpr{Position: pos(n.Pos), Op: OpNot, X: x}
}

func (b *builder) equality(e *sEquality) Expr {
	x := b.compare(e.Left)
	for _, op := range e.Ops {
		x = b.eqOp(x, op)
	}
	return x
}

// eqOp applies one equality-level operator to its left operand x.
func (b *builder) eqOp(x Expr, op *sEqOp) Expr {
	p := x.Pos()
	switch {
	case op.IsNull != "":
		return &IsNullExpr{Position: p, Not: strings.ToUpper(op.IsNull) != "ISNULL", X: x}
	case op.Is != nil:
		return &BinaryExpr{Position: p, Op: isOp(op.Is), L: x, R: b.compare(op.Is.R)}
	case op.Between != nil:
		return &BetweenExpr{Position: p, Not: op.Between.Not, X: x, Lo: b.compare(op.Between.Lo), Hi: b.compare(op.Between.Hi)}
	case op.In != nil:
		return b.in(x, op.In)
	case op.Like != nil:
		return &LikeExpr{Position: p, Not: op.Like.Not, Op: likeOp(op.Like.Op), X: x,
			Pattern: b.compare(op.Like.Pattern), Escape: b.compareOrNil(op.Like.Escape)}
	}
	return &BinaryExpr{Position: p, Op: binaryOps[op.Op], L: x, R: b.compare(op.R)}
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

func (b *builder) compareOrNil(c *sCompare) Expr {
	if c == nil {
		return nil
	}
	return b.compare(c)
}

func (b *builder) compare(c *sCompare) Expr { return chain(c.Left, c.Ops, b.bit) }
func (b *builder) bit(c *sBit) Expr         { return chain(c.Left, c.Ops, b.add) }
func (b *builder) add(c *sAdd) Expr         { return chain(c.Left, c.Ops, b.mul) }
func (b *builder) mul(c *sMul) Expr         { return chain(c.Left, c.Ops, b.concat) }
func (b *builder) concat(c *sConcat) Expr   { return chain(c.Left, c.Ops, b.postfix) }

// postfix applies COLLATE and :: casts.
func (b *builder) postfix(s *sPostfix) Expr {
	x := b.unary(s.X)
	for _, op := range s.Ops {
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

func (b *builder) unary(u *sUnary) Expr {
	if u.Primary != nil {
		return b.primary(u.Primary)
	}
	return &UnaryExpr{Position: pos(u.Pos), Op: unaryOps[u.Op], X: b.unary(u.X)}
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
	case s.Subquery != nil:
		return &SubqueryExpr{Position: p, Select: b.selectStmt(s.Subquery)}
	case s.Paren != nil:
		if len(s.Paren) == 1 {
			return b.expr(s.Paren[0])
		}
		return &TupleExpr{Position: p, Exprs: b.exprs(s.Paren)}
	case s.Func != nil:
		return b.funcCall(s.Func)
	}
	return columnRef(p, s.Column)
}

// columnRef builds [[schema.]table.]column.
func columnRef(p Position, parts []string) *ColumnRef {
	parts = unquoteAll(parts)
	switch len(parts) {
	case 3:
		return &ColumnRef{Position: p, Schema: parts[0], Table: parts[1], Column: parts[2]}
	case 2:
		return &ColumnRef{Position: p, Table: parts[0], Column: parts[1]}
	case 1:
		return &ColumnRef{Position: p, Column: parts[0]}
	}
	return &ColumnRef{Position: p}
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
	kind := LitInt
	if !(len(raw) > 1 && (raw[1] == 'x' || raw[1] == 'X')) && strings.ContainsAny(raw, ".eE") {
		kind = LitReal
	}
	return &Literal{Position: p, Kind: kind, Raw: raw, Value: raw}
}

func stringLiteral(p Position, raw string) *Literal {
	return &Literal{Position: p, Kind: LitString, Raw: raw, Value: unquote(raw)}
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

// maxParamIndex is SQLite's largest placeholder number.
const maxParamIndex = 32766

// param converts a placeholder and numbers it.
func (b *builder) param(lp lexer.Position, raw string) Expr {
	p := &Param{Position: pos(lp)}
	digits := raw[1:]
	switch {
	case raw == "?":
		p.Kind, p.Index = ParamQuestion, b.maxParam+1
	case raw[0] == '?' || raw[0] == '$' && isDigits(digits):
		p.Kind = ParamNumbered
		if raw[0] == '$' {
			p.Kind = ParamDollar
		}
		n, err := strconv.Atoi(digits)
		if err != nil || n < 1 || n > maxParamIndex {
			b.fail(lp, "variable number must be between ?1 and ?32766")
		}
		p.Index = n
	case raw[0] == ':':
		p.Kind, p.Name = ParamColon, digits
	case raw[0] == '@':
		p.Kind, p.Name = ParamAt, digits
	default:
		p.Kind, p.Name = ParamDollarName, digits
	}
	if p.Index > b.maxParam {
		b.maxParam = p.Index
	}
	return p
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
