package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of INSERT, UPDATE and DELETE.

type sInsert struct {
	Pos       lexer.Position
	With      *sWith           `parser:"@@?"`
	Replace   bool             `parser:"( @'REPLACE'"`
	Or        string           `parser:"| 'INSERT' ( 'OR' @( 'REPLACE' | 'ROLLBACK' | 'ABORT' | 'FAIL' | 'IGNORE' ) )? ) 'INTO'"`
	Table     *sQName          `parser:"@@"`
	Alias     string           `parser:"( 'AS' @( Ident | QIdent ) )?"`
	Columns   []string         `parser:"( '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
	Default   bool             `parser:"( @( 'DEFAULT' 'VALUES' )"`
	Values    []*sRow          `parser:"| 'VALUES' @@ ( ',' @@ )*"`
	Select    *sSelect         `parser:"| @@ )"`
	Upserts   []*sUpsert       `parser:"@@*"`
	Returning []*sResultColumn `parser:"( 'RETURNING' @@ ( ',' @@ )* )?"`
}

type sUpsert struct {
	Pos         lexer.Position
	Target      []*sIndexedColumn `parser:"'ON' 'CONFLICT' ( '(' @@ ( ',' @@ )* ')'"`
	TargetWhere *sExpr            `parser:"  ( 'WHERE' @@ )? )?"`
	Nothing     bool              `parser:"'DO' ( @'NOTHING'"`
	Set         []*sSetClause     `parser:"| 'UPDATE' 'SET' @@ ( ',' @@ )*"`
	Where       *sExpr            `parser:"  ( 'WHERE' @@ )? )"`
}

type sSetClause struct {
	Pos     lexer.Position
	Columns []string `parser:"( @( Ident | QIdent ) | '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' ) '='"`
	Value   *sExpr   `parser:"@@"`
}

type sUpdate struct {
	Pos       lexer.Position
	With      *sWith           `parser:"@@?"`
	Or        string           `parser:"'UPDATE' ( 'OR' @( 'REPLACE' | 'ROLLBACK' | 'ABORT' | 'FAIL' | 'IGNORE' ) )?"`
	Table     *sTableItem      `parser:"@@"`
	Set       []*sSetClause    `parser:"'SET' @@ ( ',' @@ )*"`
	From      *sFrom           `parser:"( 'FROM' @@ )?"`
	Where     *sExpr           `parser:"( 'WHERE' @@ )?"`
	Returning []*sResultColumn `parser:"( 'RETURNING' @@ ( ',' @@ )* )?"`
}

type sDelete struct {
	Pos       lexer.Position
	With      *sWith           `parser:"@@?"`
	Table     *sTableItem      `parser:"'DELETE' 'FROM' @@"`
	Where     *sExpr           `parser:"( 'WHERE' @@ )?"`
	Returning []*sResultColumn `parser:"( 'RETURNING' @@ ( ',' @@ )* )?"`
}
