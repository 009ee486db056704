package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of queries.

type sSelect struct {
	Pos     lexer.Position
	With    *sWith        `parser:"@@?"`
	Left    *sSelectTerm  `parser:"@@"`
	Rest    []*sCompound  `parser:"@@*"`
	OrderBy []*sOrderTerm `parser:"( 'ORDER' 'BY' @@ ( ',' @@ )* )?"`
	Limit   *sLimit       `parser:"@@?"`
}

type sWith struct {
	Pos       lexer.Position
	Recursive bool    `parser:"'WITH' @'RECURSIVE'?"`
	CTEs      []*sCTE `parser:"@@ ( ',' @@ )*"`
}

type sCTE struct {
	Pos     lexer.Position
	Name    string   `parser:"@( Ident | QIdent )"`
	Columns []string `parser:"( '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
	NotMat  bool     `parser:"'AS' ( @( 'NOT' 'MATERIALIZED' )"`
	Mat     bool     `parser:"     | @'MATERIALIZED' )?"`
	Select  *sSelect `parser:"'(' @@ ')'"`
}

type sCompound struct {
	Pos       lexer.Position
	Union     bool         `parser:"( @'UNION'"`
	All       bool         `parser:"  @'ALL'?"`
	Intersect bool         `parser:"| @'INTERSECT'"`
	Except    bool         `parser:"| @'EXCEPT' )"`
	Right     *sSelectTerm `parser:"@@"`
}

type sSelectTerm struct {
	Pos    lexer.Position
	Core   *sSelectCore `parser:"  @@"`
	Values []*sRow      `parser:"| 'VALUES' @@ ( ',' @@ )*"`
	Paren  *sSelect     `parser:"| '(' @@ ')'"`
}

type sRow struct {
	Exprs []*sExpr `parser:"'(' @@ ( ',' @@ )* ')'"`
}

type sSelectCore struct {
	Pos      lexer.Position
	Distinct bool             `parser:"'SELECT' ( @'DISTINCT' | 'ALL' )?"`
	Columns  []*sResultColumn `parser:"@@ ( ',' @@ )*"`
	From     *sFrom           `parser:"( 'FROM' @@ )?"`
	Where    *sExpr           `parser:"( 'WHERE' @@ )?"`
	GroupBy  []*sExpr         `parser:"( 'GROUP' 'BY' @@ ( ',' @@ )* )?"`
	Having   *sExpr           `parser:"( 'HAVING' @@ )?"` // SQLite 3.39+ allows HAVING without GROUP BY
	Windows  []*sNamedWindow  `parser:"( 'WINDOW' @@ ( ',' @@ )* )?"`
}

type sResultColumn struct {
	Pos       lexer.Position
	Star      bool   `parser:"  @'*'"`
	TableStar string `parser:"| @( Ident | QIdent ) '.' '*'"`
	Expr      *sExpr `parser:"| @@"`
	Alias     string `parser:"  ( 'AS' @( Ident | QIdent | String ) | (?! 'OFFSET' | 'FETCH' ) @( Ident | QIdent | String ) )?"`
}

// sAlias is "[AS] name" after a FROM item. OFFSET and FETCH are never a
// bare alias, so "FROM t OFFSET 5" keeps its PostgreSQL meaning.
type sAlias struct {
	Name string `parser:"'AS' @( Ident | QIdent | String ) | (?! 'OFFSET' | 'FETCH' ) @( Ident | QIdent )"`
}

type sOrderTerm struct {
	Pos   lexer.Position
	Expr  *sExpr `parser:"@@"`
	Order string `parser:"@( 'ASC' | 'DESC' )?"`
	Nulls string `parser:"( 'NULLS' @( 'FIRST' | 'LAST' ) )?"`
}

// sLimit is LIMIT n [OFFSET m | , m], or the PostgreSQL OFFSET m [ROWS]
// [FETCH FIRST n ROWS ONLY] and FETCH forms.
type sLimit struct {
	Limit  *sExpr  `parser:"  'LIMIT' @@"`
	Comma  *sExpr  `parser:"  ( ',' @@"`
	Offset *sExpr  `parser:"  | 'OFFSET' @@ )?"`
	PgOff  *sExpr  `parser:"| 'OFFSET' @@ ( 'ROW' | 'ROWS' )?"`
	Fetch  *sFetch `parser:"  @@?"`
	Only   *sFetch `parser:"| @@"`
}

type sFetch struct {
	Count *sExpr `parser:"'FETCH' ( 'FIRST' | 'NEXT' ) ( (?! 'ROW' | 'ROWS' ) @@ )? ( 'ROW' | 'ROWS' ) 'ONLY'"`
}

type sNamedWindow struct {
	Pos  lexer.Position
	Name string       `parser:"@( Ident | QIdent ) 'AS'"`
	Spec *sWindowSpec `parser:"'(' @@ ')'"`
}

type sWindowSpec struct {
	Pos       lexer.Position
	Base      string        `parser:"( (?! 'PARTITION' | 'ROWS' | 'RANGE' | 'GROUPS' ) @( Ident | QIdent ) )?"`
	Partition []*sExpr      `parser:"( 'PARTITION' 'BY' @@ ( ',' @@ )* )?"`
	OrderBy   []*sOrderTerm `parser:"( 'ORDER' 'BY' @@ ( ',' @@ )* )?"`
	Frame     *sFrame       `parser:"@@?"`
}

type sFrame struct {
	Pos     lexer.Position
	Unit    string         `parser:"@( 'ROWS' | 'RANGE' | 'GROUPS' )"`
	Between *sFrameBetween `parser:"( 'BETWEEN' @@"`
	Single  *sFrameBound   `parser:"| @@ )"`
	Exclude string         `parser:"( 'EXCLUDE' @( 'NO' 'OTHERS' | 'CURRENT' 'ROW' | 'GROUP' | 'TIES' ) )?"`
}

type sFrameBetween struct {
	Start *sFrameBound `parser:"@@ 'AND'"`
	End   *sFrameBound `parser:"@@"`
}

type sFrameBound struct {
	Pos       lexer.Position
	Unbounded string `parser:"  'UNBOUNDED' @( 'PRECEDING' | 'FOLLOWING' )"`
	Current   bool   `parser:"| @( 'CURRENT' 'ROW' )"`
	Offset    *sExpr `parser:"| @@"`
	Dir       string `parser:"  @( 'PRECEDING' | 'FOLLOWING' )"`
}

type sFrom struct {
	First *sTableItem `parser:"@@"`
	Joins []*sJoin    `parser:"@@*"`
}

type sJoin struct {
	Pos     lexer.Position
	Comma   bool        `parser:"( @','"`
	Natural bool        `parser:"| @'NATURAL'?"`
	Kind    string      `parser:"  ( @'LEFT' 'OUTER'? | @'RIGHT' 'OUTER'? | @'FULL' 'OUTER'? | @'INNER' | @'CROSS' )? 'JOIN' )"`
	Table   *sTableItem `parser:"@@"`
	On      *sExpr      `parser:"( 'ON' @@"`
	Using   []string    `parser:"| 'USING' '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
}

// sTableItem is one FROM item: a subquery, a parenthesised join, a table
// function or a table.
type sTableItem struct {
	Pos        lexer.Position
	Sub        *sSelect     `parser:"( '(' @@ ')'"`
	SubAlias   *sAlias      `parser:"  @@? )"`
	Nested     *sFrom       `parser:"| ( '(' @@ ')'"`
	NestAlias  *sAlias      `parser:"  @@? )"`
	Graph      *sGraphTable `parser:"| ( @@"`
	GraphAlias *sAlias      `parser:"  @@? )"`
	Name       *sQName      `parser:"| @@"`
	Args       *sCallArgs   `parser:"  @@?"`
	Alias      *sAlias      `parser:"  @@?"`
	Indexed    string       `parser:"  ( 'INDEXED' 'BY' @( Ident | QIdent )"`
	NotIndexed bool         `parser:"  | @( 'NOT' 'INDEXED' ) )?"`
}

// sQName is [schema.]name.
type sQName struct {
	Pos   lexer.Position
	Parts []string `parser:"@( Ident | QIdent ) ( '.' @( Ident | QIdent ) )?"`
}
