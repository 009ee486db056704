package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of SQL/PGQ: CREATE, DROP and ALTER PROPERTY
// GRAPH, and GRAPH_TABLE in FROM (lexed with the graph tokens of
// lexer_graph.go).

type sCreateGraph struct {
	Pos         lexer.Position
	IfNotExists bool             `parser:"'CREATE' 'PROPERTY' 'GRAPH' @( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName          `parser:"@@"`
	Vertices    []*sElementTable `parser:"( 'VERTEX' | 'NODE' ) 'TABLES' '(' @@ ( ',' @@ )* ')'"`
	Edges       []*sElementTable `parser:"( ( 'EDGE' | 'RELATIONSHIP' ) 'TABLES' '(' @@ ( ',' @@ )* ')' )?"`
}

// sElementTable is one vertex or edge table of a graph definition.
type sElementTable struct {
	Pos    lexer.Position
	Table  string       `parser:"@( Ident | QIdent )"`
	Alias  string       `parser:"( 'AS' @( Ident | QIdent ) )?"`
	Key    []string     `parser:"( 'KEY' '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
	Source *sEndpoint   `parser:"( 'SOURCE' @@"`
	Dest   *sEndpoint   `parser:"  'DESTINATION' @@ )?"`
	Labels []*sLabelDef `parser:"@@*"`
}

// sEndpoint is [KEY (cols)] [REFERENCES] vertex [(cols)].
type sEndpoint struct {
	Pos     lexer.Position
	Key     []string `parser:"( 'KEY' '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )? 'REFERENCES'?"`
	Vertex  string   `parser:"@( Ident | QIdent )"`
	Columns []string `parser:"( '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
}

// sLabelDef is LABEL l [properties], DEFAULT LABEL [properties], or
// properties alone (of the default label).
type sLabelDef struct {
	Pos     lexer.Position
	Label   string  `parser:"  ( 'LABEL' @( Ident | QIdent )"`
	Default bool    `parser:"    | @( 'DEFAULT' 'LABEL' ) )"`
	Props   *sProps `parser:"  @@?"`
	Bare    *sProps `parser:"| @@"`
}

type sProps struct {
	Pos  lexer.Position
	None bool        `parser:"  @( 'NO' 'PROPERTIES' )"`
	All  bool        `parser:"| 'PROPERTIES' ( @( 'ARE'? 'ALL' 'COLUMNS' )"`
	List []*sPropDef `parser:"  | '(' @@ ( ',' @@ )* ')' )"`
}

type sPropDef struct {
	Pos  lexer.Position
	Expr *sExpr `parser:"@@"`
	Name string `parser:"( 'AS' @( Ident | QIdent ) )?"`
}

type sDropGraph struct {
	IfExists bool    `parser:"'DROP' 'PROPERTY' 'GRAPH' @( 'IF' 'EXISTS' )?"`
	Name     *sQName `parser:"@@ ( 'CASCADE' | 'RESTRICT' )?"`
}

type sAlterGraph struct {
	Name    *sQName              `parser:"'ALTER' 'PROPERTY' 'GRAPH' @@"`
	Actions []*sAlterGraphTables `parser:"@@+"`
}

// sAlterGraphTables is ADD|DROP VERTEX|EDGE TABLES (…).
type sAlterGraphTables struct {
	Pos    lexer.Position
	Op     string           `parser:"@( 'ADD' | 'DROP' )"`
	Kind   string           `parser:"@( 'VERTEX' | 'NODE' | 'EDGE' | 'RELATIONSHIP' ) 'TABLES'"`
	Tables []*sElementTable `parser:"'(' @@ ( ',' @@ )* ')' ( 'CASCADE' | 'RESTRICT' )?"`
}

// sGraphTable is GRAPH_TABLE ( graph MATCH paths [WHERE …] COLUMNS (…) ).
type sGraphTable struct {
	Pos     lexer.Position
	Graph   *sQName          `parser:"'GRAPH_TABLE' '(' @@ 'MATCH'"`
	Paths   []*sPathPattern  `parser:"@@ ( ',' @@ )*"`
	Where   *sExpr           `parser:"( 'WHERE' @@ )?"`
	Columns []*sResultColumn `parser:"'COLUMNS' '(' @@ ( ',' @@ )* ')' ')'"`
}

// sPathPattern is [p =] [search prefix] [mode] [PATH] path.
type sPathPattern struct {
	Pos    lexer.Position
	Var    string       `parser:"( @( Ident | QIdent ) '=' )?"`
	Search *sPathSearch `parser:"@@?"`
	Mode   string       `parser:"@( 'WALK' | 'TRAIL' | 'ACYCLIC' | 'SIMPLE' )? ( 'PATH' | 'PATHS' )?"`
	Term   *sPathTerm   `parser:"@@"`
}

type sPathSearch struct {
	Pos      lexer.Position
	All      bool    `parser:"  @( 'ALL' 'SHORTEST' )"`
	AnyShort bool    `parser:"| @( 'ANY' 'SHORTEST' )"`
	Any      bool    `parser:"| @'ANY'"`
	Count    *string `parser:"  @Number?"`
}

type sPathTerm struct {
	Elems []*sPathElem `parser:"@@+"`
}

type sPathElem struct {
	Paren  *sParenPath `parser:"  @@"`
	Vertex *sVertex    `parser:"| @@"`
	Edge   *sEdge      `parser:"| @@"`
}

// sParenPath is a parenthesised path pattern, usually quantified.
type sParenPath struct {
	Pos   lexer.Position
	Mode  string     `parser:"'(' @( 'WALK' | 'TRAIL' | 'ACYCLIC' | 'SIMPLE' )? 'PATH'?"`
	Term  *sPathTerm `parser:"@@"`
	Where *sExpr     `parser:"( 'WHERE' @@ )? ')'"`
	Quant *sQuant    `parser:"@@?"`
}

type sVertex struct {
	Pos   lexer.Position
	Var   string    `parser:"'(' @( Ident | QIdent )?"`
	Label *sLabelOr `parser:"( 'IS' @@ )?"`
	Where *sExpr    `parser:"( 'WHERE' @@ )? ')'"`
}

// sEdge is -[…]->, <-[…]-, -[…]-, <-[…]-> or an abbreviation (->, <-,
// -, <->), with an optional quantifier.
type sEdge struct {
	Pos    lexer.Position
	Open   string    `parser:"( @( '<' '-' | '-' ) '['"`
	Var    string    `parser:"  @( Ident | QIdent )?"`
	Label  *sLabelOr `parser:"  ( 'IS' @@ )?"`
	Where  *sExpr    `parser:"  ( 'WHERE' @@ )? ']'"`
	Close  string    `parser:"  @( '->' | '-' )"`
	Abbrev string    `parser:"| @( '<' '->' | '<' '-' | '->' | '-' ) )"`
	Quant  *sQuant   `parser:"@@?"`
}

type sQuant struct {
	Pos   lexer.Position
	Star  bool    `parser:"  @'*'"`
	Plus  bool    `parser:"| @'+'"`
	Lo    *string `parser:"| '{' @Number?"`
	Comma bool    `parser:"  @','?"`
	Hi    *string `parser:"  @Number? '}'"`
}

// Label expressions: | binds loosest, then &, then !.
type sLabelOr struct {
	Pos   lexer.Position
	Terms []*sLabelAnd `parser:"@@ ( '|' @@ )*"`
}

type sLabelAnd struct {
	Pos     lexer.Position
	Factors []*sLabelFactor `parser:"@@ ( '&' @@ )*"`
}

type sLabelFactor struct {
	Pos   lexer.Position
	Not   []string  `parser:"@'!'*"`
	Any   bool      `parser:"( @'%'"`
	Name  string    `parser:"| @( Ident | QIdent )"`
	Paren *sLabelOr `parser:"| '(' @@ ')' )"`
}
