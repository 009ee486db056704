package grammar

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Operator precedence levels, lowest first, as SQLite documents them.
const (
	precLowest = iota
	precOr
	precAnd
	precNot
	precEq      // = == != <> IS IN LIKE BETWEEN ISNULL ...
	precCmp     // < <= > >=
	precBit     // & | << >>
	precAdd     // + -
	precMul     // * / %
	precConcat  // || -> ->>
	precPostfix // COLLATE, ::
	precUnary   // - + ~
	precPrimary
)

var binaryPrec = [...]int{
	OpOr: precOr, OpAnd: precAnd,
	OpEq: precEq, OpNe: precEq, OpIs: precEq, OpIsNot: precEq,
	OpIsDistinctFrom: precEq, OpIsNotDistinctFrom: precEq,
	OpLt: precCmp, OpLe: precCmp, OpGt: precCmp, OpGe: precCmp,
	OpBitAnd: precBit, OpBitOr: precBit, OpShl: precBit, OpShr: precBit,
	OpAdd: precAdd, OpSub: precAdd,
	OpMul: precMul, OpDiv: precMul, OpMod: precMul,
	OpConcat: precConcat, OpJSONExtract: precConcat, OpJSONExtractText: precConcat,
}

var binarySQL = [...]string{
	OpOr: "OR", OpAnd: "AND", OpEq: "=", OpNe: "!=", OpIs: "IS", OpIsNot: "IS NOT",
	OpIsDistinctFrom: "IS DISTINCT FROM", OpIsNotDistinctFrom: "IS NOT DISTINCT FROM",
	OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpBitAnd: "&", OpBitOr: "|", OpShl: "<<", OpShr: ">>",
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%",
	OpConcat: "||", OpJSONExtract: "->", OpJSONExtractText: "->>",
}

// String returns the operator's SQL spelling.
func (op BinaryOp) String() string {
	if int(op) < len(binarySQL) {
		return binarySQL[op]
	}
	return "BinaryOp(" + strconv.Itoa(int(op)) + ")"
}

// Precedence returns the operator's binding strength; higher binds tighter.
func (op BinaryOp) Precedence() int {
	if int(op) < len(binaryPrec) {
		return binaryPrec[op]
	}
	return precLowest
}

var unarySQL = [...]string{OpNeg: "-", OpPlus: "+", OpBitNot: "~", OpNot: "NOT "}

// String returns the operator's SQL spelling.
func (op UnaryOp) String() string {
	if int(op) < len(unarySQL) {
		return unarySQL[op]
	}
	return "UnaryOp(" + strconv.Itoa(int(op)) + ")"
}

var likeSQL = [...]string{OpLike: "LIKE", OpGlob: "GLOB", OpRegexp: "REGEXP", OpMatch: "MATCH", OpILike: "ILIKE"}

// String returns the operator's SQL spelling.
func (op LikeOp) String() string {
	if int(op) < len(likeSQL) {
		return likeSQL[op]
	}
	return "LikeOp(" + strconv.Itoa(int(op)) + ")"
}

// exprPrec is the precedence level at which e binds.
func exprPrec(e Expr) int {
	switch x := e.(type) {
	case *BinaryExpr:
		return x.Op.Precedence()
	case *LikeExpr, *BetweenExpr, *InExpr, *IsNullExpr:
		return precEq
	case *UnaryExpr:
		if x.Op == OpNot {
			return precNot
		}
		return precUnary
	case *ExistsExpr:
		if x.Not {
			return precNot
		}
	case *CollateExpr:
		return precPostfix
	case *CastExpr:
		if x.Postfix {
			return precPostfix
		}
	}
	return precPrimary
}

// exprAt writes e, in parentheses when it binds looser than min.
func (p *printer) exprAt(e Expr, min int) {
	if e == nil {
		p.kw("NULL")
		return
	}
	if exprPrec(e) < min {
		p.kw("(")
		p.node(e)
		p.kw(")")
		return
	}
	p.node(e)
}

func (x *Literal) write(p *printer) {
	if x.Raw != "" {
		p.kw(x.Raw)
		return
	}
	switch x.Kind {
	case LitString:
		p.kw(QuoteString(x.Value))
	case LitBlob:
		p.kw("X'", hex.EncodeToString([]byte(x.Value)), "'")
	case LitNull:
		p.kw("NULL")
	case LitTrue:
		p.kw("TRUE")
	case LitFalse:
		p.kw("FALSE")
	case LitCurrentTime:
		p.kw("CURRENT_TIME")
	case LitCurrentDate:
		p.kw("CURRENT_DATE")
	case LitCurrentTimestamp:
		p.kw("CURRENT_TIMESTAMP")
	default:
		p.kw(x.Value)
	}
}

func (x *Param) write(p *printer) {
	switch x.Kind {
	case ParamQuestion:
		p.kw("?")
	case ParamNumbered:
		p.kw("?", strconv.Itoa(x.Index))
	case ParamDollar:
		p.kw("$", strconv.Itoa(x.Index))
	case ParamColon:
		p.kw(":", x.Name)
	case ParamAt:
		p.kw("@", x.Name)
	case ParamDollarName:
		p.kw("$", x.Name)
	}
}

func (x *ColumnRef) write(p *printer) {
	qualified := x.Table != "" || x.Schema != ""
	if qualified {
		p.qualified(x.Schema, x.Table)
		p.kw(".")
	}
	switch {
	case qualified:
		p.name(x.Column)
	case x.Quoted:
		p.kw(`"`, strings.ReplaceAll(x.Column, `"`, `""`), `"`)
	case QuoteIdent(x.Column) != x.Column:
		// Double quotes would read back as Quoted; backticks do not.
		p.kw("`", strings.ReplaceAll(x.Column, "`", "``"), "`")
	default:
		p.kw(x.Column)
	}
}

func (x *UnaryExpr) write(p *printer) {
	p.kw(x.Op.String())
	if x.Op == OpNot {
		p.exprAt(x.X, precNot)
		return
	}
	// "- -1" must not print as "--1", which would start a comment.
	if _, ok := x.X.(*UnaryExpr); ok {
		p.kw(" ")
	}
	p.exprAt(x.X, precUnary)
}

func (x *BinaryExpr) write(p *printer) {
	prec := x.Op.Precedence()
	p.exprAt(x.L, prec)
	p.kw(" ", x.Op.String(), " ")
	p.exprAt(x.R, prec+1)
}

func (x *LikeExpr) write(p *printer) {
	p.exprAt(x.X, precEq)
	p.not(x.Not)
	p.kw(" ", x.Op.String(), " ")
	p.exprAt(x.Pattern, precCmp)
	if x.Escape != nil {
		p.kw(" ESCAPE ")
		p.exprAt(x.Escape, precCmp)
	}
}

// not writes " NOT" when set.
func (p *printer) not(set bool) {
	if set {
		p.kw(" NOT")
	}
}

func (x *BetweenExpr) write(p *printer) {
	p.exprAt(x.X, precEq)
	p.not(x.Not)
	p.kw(" BETWEEN ")
	p.exprAt(x.Lo, precCmp)
	p.kw(" AND ")
	p.exprAt(x.Hi, precCmp)
}

func (x *InExpr) write(p *printer) {
	p.exprAt(x.X, precEq)
	p.not(x.Not)
	p.kw(" IN ")
	switch {
	case x.Select != nil:
		p.kw("(")
		x.Select.write(p)
		p.kw(")")
	case x.Table != nil:
		p.qualified(x.Table.Schema, x.Table.Name)
	case x.Func != nil:
		p.qualified(x.Func.Schema, x.Func.Name)
		p.kw("(")
		p.exprs(x.Func.Args)
		p.kw(")")
	default:
		p.kw("(")
		p.exprs(x.List)
		p.kw(")")
	}
}

func (x *ExistsExpr) write(p *printer) {
	if x.Not {
		p.kw("NOT ")
	}
	p.kw("EXISTS (")
	x.Select.write(p)
	p.kw(")")
}

func (x *SubqueryExpr) write(p *printer) {
	p.kw("(")
	x.Select.write(p)
	p.kw(")")
}

func (x *CaseExpr) write(p *printer) {
	p.kw("CASE")
	if x.Operand != nil {
		p.kw(" ")
		p.expr(x.Operand)
	}
	for _, w := range x.Whens {
		p.kw(" ")
		w.write(p)
	}
	if x.Else != nil {
		p.kw(" ELSE ")
		p.expr(x.Else)
	}
	p.kw(" END")
}

func (x *When) write(p *printer) {
	p.kw("WHEN ")
	p.expr(x.Cond)
	p.kw(" THEN ")
	p.expr(x.Result)
}

func (x *CastExpr) write(p *printer) {
	if x.Postfix {
		p.exprAt(x.X, precPostfix)
		p.kw("::")
		x.Type.write(p)
		return
	}
	p.kw("CAST(")
	p.expr(x.X)
	p.kw(" AS ")
	x.Type.write(p)
	p.kw(")")
}

func (x *CollateExpr) write(p *printer) {
	p.exprAt(x.X, precPostfix)
	p.kw(" COLLATE ")
	p.name(x.Collation)
}

// funcNameWords are names that would start another expression form when
// followed by "(", so a function with such a name must be quoted.
var funcNameWords = wordSet("CAST CASE RAISE TRUE FALSE")

func (x *FuncCall) write(p *printer) {
	if isPlainWord(x.Name) && !IsReserved(x.Name) && !funcNameWords[strings.ToUpper(x.Name)] {
		p.kw(x.Name)
	} else {
		p.name(x.Name)
	}
	p.kw("(")
	switch {
	case x.Star:
		p.kw("*")
	default:
		if x.Distinct {
			p.kw("DISTINCT ")
		}
		p.exprs(x.Args)
	}
	if len(x.OrderBy) > 0 {
		p.kw(" ORDER BY ")
		list(p, x.OrderBy)
	}
	p.kw(")")
	if x.Filter != nil {
		p.kw(" FILTER (WHERE ")
		p.expr(x.Filter)
		p.kw(")")
	}
	if x.Over != nil {
		p.kw(" OVER (")
		x.Over.write(p)
		p.kw(")")
	} else if x.OverName != "" {
		p.kw(" OVER ")
		p.name(x.OverName)
	}
}

func (x *IsNullExpr) write(p *printer) {
	p.exprAt(x.X, precEq)
	if x.Not {
		p.kw(" NOTNULL")
	} else {
		p.kw(" ISNULL")
	}
}

func (x *TupleExpr) write(p *printer) {
	p.kw("(")
	p.exprs(x.Exprs)
	p.kw(")")
}

var raiseSQL = [...]string{RaiseIgnore: "IGNORE", RaiseRollback: "ROLLBACK", RaiseAbort: "ABORT", RaiseFail: "FAIL"}

func (x *RaiseExpr) write(p *printer) {
	p.kw("RAISE(")
	if int(x.Action) < len(raiseSQL) {
		p.kw(raiseSQL[x.Action])
	}
	if x.Message != nil {
		p.kw(", ")
		p.expr(x.Message)
	}
	p.kw(")")
}

// String prints the node as SQL.
func (x *Literal) String() string { return render(x) }

// String prints the node as SQL.
func (x *Param) String() string { return render(x) }

// String prints the node as SQL.
func (x *ColumnRef) String() string { return render(x) }

// String prints the node as SQL.
func (x *UnaryExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *BinaryExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *LikeExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *BetweenExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *InExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *ExistsExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *SubqueryExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *CaseExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *When) String() string { return render(x) }

// String prints the node as SQL.
func (x *CastExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *CollateExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *FuncCall) String() string { return render(x) }

// String prints the node as SQL.
func (x *IsNullExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *TupleExpr) String() string { return render(x) }

// String prints the node as SQL.
func (x *RaiseExpr) String() string { return render(x) }
