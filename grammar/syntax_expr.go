package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of expressions: one struct per precedence level,
// lowest first, each "operand (operator operand)*", never left-recursive.
// build_expr.go folds the chains into the public tree.

// sExpr is the OR level and the entry point of every expression.
type sExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Left   *sAnd   `parser:"@@"`
	Rest   []*sAnd `parser:"( 'OR' @@ )*"`
}

type sAnd struct {
	Left *sNot   `parser:"@@"`
	Rest []*sNot `parser:"( 'AND' @@ )*"`
}

type sNot struct {
	Pos lexer.Position
	Not *sNot      `parser:"  'NOT' @@"`
	X   *sEquality `parser:"| @@"`
}

type sEquality struct {
	Left *sCompare `parser:"@@"`
	Ops  []*sEqOp  `parser:"@@*"`
}

// sEqOp is one operator of the equality level, where SQLite puts =, IS,
// IN, LIKE, BETWEEN and the postfix NULL tests together.
type sEqOp struct {
	Pos     lexer.Position
	IsNull  string    `parser:"  @( 'ISNULL' | 'NOTNULL' | 'NOT' 'NULL' )"`
	Is      *sIsOp    `parser:"| @@"`
	Between *sBetween `parser:"| @@"`
	In      *sIn      `parser:"| @@"`
	Like    *sLike    `parser:"| @@"`
	Op      string    `parser:"| @( '=' | '==' | '!=' | '<>' )"`
	R       *sCompare `parser:"  @@"`
}

type sIsOp struct {
	Not      bool      `parser:"'IS' @'NOT'?"`
	Distinct bool      `parser:"( @'DISTINCT' 'FROM' )?"`
	R        *sCompare `parser:"@@"`
}

type sBetween struct {
	Not bool      `parser:"@'NOT'? 'BETWEEN'"`
	Lo  *sCompare `parser:"@@ 'AND'"`
	Hi  *sCompare `parser:"@@"`
}

type sIn struct {
	Not    bool       `parser:"@'NOT'? 'IN'"`
	Select *sSelect   `parser:"( '(' ( @@"`
	List   []*sExpr   `parser:"      | @@ ( ',' @@ )* )? ')'"`
	Table  *sQName    `parser:"| @@"`
	Args   *sCallArgs `parser:"  @@? )"`
}

// sCallArgs is the parenthesised argument list of a table function.
type sCallArgs struct {
	Args []*sExpr `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
}

type sLike struct {
	Not     bool      `parser:"@'NOT'?"`
	Op      string    `parser:"@( 'LIKE' | 'GLOB' | 'REGEXP' | 'MATCH' | 'ILIKE' )"`
	Pattern *sCompare `parser:"@@"`
	Escape  *sCompare `parser:"( 'ESCAPE' @@ )?"`
}

type sCompare struct {
	Left *sBit     `parser:"@@"`
	Ops  []*sCmpOp `parser:"@@*"`
}

type sCmpOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '<=' | '>=' | '<' | '>' )"`
	R   *sBit  `parser:"@@"`
}

type sBit struct {
	Left *sAdd     `parser:"@@"`
	Ops  []*sBitOp `parser:"@@*"`
}

type sBitOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '<<' | '>>' | '&' | '|' )"`
	R   *sAdd  `parser:"@@"`
}

type sAdd struct {
	Left *sMul     `parser:"@@"`
	Ops  []*sAddOp `parser:"@@*"`
}

type sAddOp struct {
	Pos lexer.Position
	Op  string `parser:"@( '+' | '-' )"`
	R   *sMul  `parser:"@@"`
}

type sMul struct {
	Left *sConcat  `parser:"@@"`
	Ops  []*sMulOp `parser:"@@*"`
}

type sMulOp struct {
	Pos lexer.Position
	Op  string   `parser:"@( '*' | '/' | '%' )"`
	R   *sConcat `parser:"@@"`
}

type sConcat struct {
	Left *sPostfix    `parser:"@@"`
	Ops  []*sConcatOp `parser:"@@*"`
}

type sConcatOp struct {
	Pos lexer.Position
	Op  string    `parser:"@( '||' | '->>' | '->' )"`
	R   *sPostfix `parser:"@@"`
}

// sPostfix is an operand with COLLATE and :: casts after it.
type sPostfix struct {
	X   *sUnary       `parser:"@@"`
	Ops []*sPostfixOp `parser:"@@*"`
}

type sPostfixOp struct {
	Pos     lexer.Position
	Collate string     `parser:"  'COLLATE' @( Ident | QIdent | String )"`
	Cast    *sCastType `parser:"| '::' @@"`
}

// sCastType is the type after "::": one word and optional arguments, so
// that a following alias is not read as a second word of the type.
type sCastType struct {
	Pos  lexer.Position
	Word string        `parser:"@Ident"`
	Args []*sSignedNum `parser:"( '(' @@ ( ',' @@ )? ')' )?"`
}

type sUnary struct {
	Pos     lexer.Position
	Op      string    `parser:"(  @( '-' | '+' | '~' )"`
	X       *sUnary   `parser:"   @@ )"`
	Primary *sPrimary `parser:"| @@"`
}

type sPrimary struct {
	Pos      lexer.Position
	Literal  *sLiteral  `parser:"  @@"`
	Param    string     `parser:"| @Param"`
	Cast     *sCast     `parser:"| @@"`
	Case     *sCase     `parser:"| @@"`
	Exists   *sSelect   `parser:"| 'EXISTS' '(' @@ ')'"`
	Raise    *sRaise    `parser:"| @@"`
	Subquery *sSelect   `parser:"| '(' @@ ')'"`
	Paren    []*sExpr   `parser:"| '(' @@ ( ',' @@ )* ')'"`
	Func     *sFuncCall `parser:"| @@"`
	Column   []string   `parser:"| @( Ident | QIdent ) ( '.' @( Ident | QIdent ) ( '.' @( Ident | QIdent ) )? )?"`
}

type sLiteral struct {
	Number string `parser:"  @Number"`
	String string `parser:"| @String"`
	Blob   string `parser:"| @Blob"`
	Word   string `parser:"| @( 'NULL' | 'TRUE' | 'FALSE' | 'CURRENT_TIMESTAMP' | 'CURRENT_TIME' | 'CURRENT_DATE' )"`
}

type sCast struct {
	X    *sExpr     `parser:"'CAST' '(' @@ 'AS'"`
	Type *sTypeName `parser:"@@ ')'"`
}

type sCase struct {
	Operand *sExpr   `parser:"'CASE' @@?"`
	Whens   []*sWhen `parser:"@@+"`
	Else    *sExpr   `parser:"( 'ELSE' @@ )? 'END'"`
}

type sWhen struct {
	Pos    lexer.Position
	Cond   *sExpr `parser:"'WHEN' @@"`
	Result *sExpr `parser:"'THEN' @@"`
}

type sRaise struct {
	Ignore  bool   `parser:"'RAISE' '(' ( @'IGNORE'"`
	Action  string `parser:"  | @( 'ROLLBACK' | 'ABORT' | 'FAIL' )"`
	Message *sExpr `parser:"    ',' @@ ) ')'"`
}

type sFuncCall struct {
	Pos      lexer.Position
	Name     string        `parser:"@( Ident | QIdent ) '('"`
	Star     bool          `parser:"( @'*'"`
	Distinct bool          `parser:"| ( @'DISTINCT' | 'ALL' )?"`
	Args     []*sExpr      `parser:"  @@ ( ',' @@ )*"`
	OrderBy  []*sOrderTerm `parser:"  ( 'ORDER' 'BY' @@ ( ',' @@ )* )? )? ')'"`
	Filter   *sExpr        `parser:"( 'FILTER' '(' 'WHERE' @@ ')' )?"`
	OverName string        `parser:"( 'OVER' ( @( Ident | QIdent )"`
	Over     *sWindowSpec  `parser:"  | '(' @@ ')' ) )?"`
}

// sSignedNum is a type argument or a signed DEFAULT number.
type sSignedNum struct {
	Sign string `parser:"@( '+' | '-' )?"`
	Num  string `parser:"@Number"`
}

// sTypeName is a declared type: words, then up to two numbers. GENERATED
// cannot be a word, so "x INT GENERATED ALWAYS AS (...)" keeps its
// constraint.
type sTypeName struct {
	Pos   lexer.Position
	Words []string      `parser:"( (?! 'GENERATED' ) @Ident )+"`
	Args  []*sSignedNum `parser:"( '(' @@ ( ',' @@ )? ')' )?"`
}
