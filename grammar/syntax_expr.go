package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of expressions. An expression is read flat, as
// prefix NOTs, an operand, then a list of tails (operator and right
// operand, or a postfix test); build_expr.go applies SQLite's precedence
// to the list by precedence climbing. Reading it flat keeps participle
// from descending a dozen precedence levels for every operand.

// sExpr is the entry point of every expression.
type sExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Nots   []*sNotTok `parser:"@@*"`
	Head   *sOperand  `parser:"@@"`
	Tail   []*sTail   `parser:"@@*"`
}

// sNotTok is one prefix NOT.
type sNotTok struct {
	Pos lexer.Position
	Not string `parser:"@'NOT'"`
}

// sTail is one operator after an operand: a postfix NULL test, an IN
// test, or an infix operator with its right operand. The lookahead lets
// the common case, an operand followed by "," or ")", fail in one step
// instead of trying every alternative.
type sTail struct {
	Pos    lexer.Position
	IsNull string     `parser:"(?= BinOp | Keyword | Ident ) ( @( 'ISNULL' | 'NOTNULL' | 'NOT' 'NULL' )"`
	In     *sIn       `parser:"| @@"`
	Is     *sIsOp     `parser:"| ( ( @@"`
	Match  *sMatchOp  `parser:"    | @@"`
	Op     string     `parser:"    | @( BinOp | 'OR' | 'AND' | 'ESCAPE' ) )"`
	Nots   []*sNotTok `parser:"  @@*"`
	R      *sOperand  `parser:"  @@ ) )"`
}

type sIsOp struct {
	Not      bool `parser:"'IS' @'NOT'?"`
	Distinct bool `parser:"( @'DISTINCT' 'FROM' )?"`
}

// sMatchOp is [NOT] BETWEEN or [NOT] LIKE and its relatives.
type sMatchOp struct {
	Not bool   `parser:"@'NOT'?"`
	Op  string `parser:"@( 'BETWEEN' | 'LIKE' | 'GLOB' | 'REGEXP' | 'MATCH' | 'ILIKE' )"`
}

type sIn struct {
	Not    bool       `parser:"@'NOT'? 'IN'"`
	Select *sSelect   `parser:"( '(' ( (?= 'SELECT' | 'VALUES' | 'WITH' ) @@"`
	List   []*sExpr   `parser:"      | @@ ( ',' @@ )* )? ')'"`
	Table  *sQName    `parser:"| @@"`
	Args   *sCallArgs `parser:"  @@? )"`
}

// sCallArgs is the parenthesised argument list of a table function.
type sCallArgs struct {
	Args []*sExpr `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
}

// sOperand is an operand: unary operators, a primary, then COLLATE and
// :: casts. Unary operators bind tighter than the postfix ones.
type sOperand struct {
	Pos     lexer.Position
	Unary   []*sUnaryTok  `parser:"@@*"`
	Primary *sPrimary     `parser:"@@"`
	Postfix []*sPostfixOp `parser:"@@*"`
}

// sUnaryTok is one prefix -, + or ~.
type sUnaryTok struct {
	Pos lexer.Position
	Op  string `parser:"@( '-' | '+' | '~' )"`
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

// sPrimary is the highest precedence level. The alternatives are ordered
// by how often they occur, since participle tries them in turn; a name
// followed by "(" is a call, TRUE and FALSE are literals.
type sPrimary struct {
	Pos     lexer.Position
	Column  []string   `parser:"  (?! 'TRUE' | 'FALSE' ) @( Ident | QIdent ) ( '.' @( Ident | QIdent ) ( '.' @( Ident | QIdent ) )? )? (?! '(' )"`
	Literal *sLiteral  `parser:"| @@"`
	Param   string     `parser:"| @Param"`
	Cast    *sCast     `parser:"| @@"`
	Raise   *sRaise    `parser:"| @@"`
	Func    *sFuncCall `parser:"| @@"`
	Paren   *sParen    `parser:"| @@"`
	Case    *sCase     `parser:"| @@"`
	Exists  *sSelect   `parser:"| 'EXISTS' '(' @@ ')'"`
}

// sParen is a scalar subquery, a parenthesised expression or a row value.
//
// The query alternative is taken only when SELECT, VALUES or WITH follows
// the "(": otherwise "((SELECT ...) ...)" could be read both as a
// parenthesised query and as an expression, twice at every level.
type sParen struct {
	Select *sSelect `parser:"'(' ( (?= 'SELECT' | 'VALUES' | 'WITH' ) @@"`
	List   []*sExpr `parser:"    | @@ ( ',' @@ )* ) ')'"`
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

// sFuncCall is a function call. CAST and RAISE are never function names:
// letting both rules read "CAST(" would make every nested CAST parse
// twice, exponential in the nesting depth.
type sFuncCall struct {
	Pos      lexer.Position
	Name     string        `parser:"(?! 'CAST' | 'RAISE' ) @( Ident | QIdent ) '('"`
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
