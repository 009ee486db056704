package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of scripts and of the statements that are not
// queries, DML or DDL.

// sScript is the root: statements separated by semicolons, empty
// statements allowed.
type sScript struct {
	Stmts []*sStatement `parser:"';'* ( @@ ( ';'+ @@ )* ';'* )?"`
}

// sExprRoot is the root of ParseExpr.
type sExprRoot struct {
	Expr *sExpr `parser:"@@"`
}

type sStatement struct {
	Pos           lexer.Position
	EndPos        lexer.Position
	Explain       *sExplain       `parser:"  @@"`
	Select        *sSelect        `parser:"| @@"`
	Insert        *sInsert        `parser:"| @@"`
	Update        *sUpdate        `parser:"| @@"`
	Delete        *sDelete        `parser:"| @@"`
	CreateTable   *sCreateTable   `parser:"| @@"`
	CreateIndex   *sCreateIndex   `parser:"| @@"`
	CreateView    *sCreateView    `parser:"| @@"`
	CreateTrigger *sCreateTrigger `parser:"| @@"`
	Drop          *sDrop          `parser:"| @@"`
	Alter         *sAlterTable    `parser:"| @@"`
	Begin         *sBegin         `parser:"| @@"`
	Commit        *sCommit        `parser:"| @@"`
	Rollback      *sRollback      `parser:"| @@"`
	Savepoint     *sSavepoint     `parser:"| @@"`
	Release       *sRelease       `parser:"| @@"`
	Pragma        *sPragma        `parser:"| @@"`
	Analyze       *sAnalyze       `parser:"| @@"`
	Reindex       *sReindex       `parser:"| @@"`
	CreateVirtual *sCreateVirtual `parser:"| @@"`
	Vacuum        *sVacuum        `parser:"| @@"`
	Attach        *sAttach        `parser:"| @@"`
	Detach        *sDetach        `parser:"| @@"`
	CreateGraph   *sCreateGraph   `parser:"| @@"`
	DropGraph     *sDropGraph     `parser:"| @@"`
	AlterGraph    *sAlterGraph    `parser:"| @@"`
}

type sExplain struct {
	QueryPlan bool        `parser:"'EXPLAIN' ( @( 'QUERY' 'PLAN' )"`
	Analyze   bool        `parser:"          | @'ANALYZE' )?"`
	Stmt      *sStatement `parser:"@@"`
}

type sBegin struct {
	Mode  string `parser:"(  'BEGIN' @( 'DEFERRED' | 'IMMEDIATE' | 'EXCLUSIVE' )? 'TRANSACTION'?"`
	Start bool   `parser:" | @'START' 'TRANSACTION' )"`
}

type sCommit struct {
	Keyword string `parser:"@( 'COMMIT' | 'END' ) 'TRANSACTION'?"`
}

type sRollback struct {
	Keyword   string `parser:"@'ROLLBACK' 'TRANSACTION'?"`
	Savepoint string `parser:"( 'TO' 'SAVEPOINT'? @( Ident | QIdent ) )?"`
}

type sSavepoint struct {
	Name string `parser:"'SAVEPOINT' @( Ident | QIdent )"`
}

type sRelease struct {
	Name string `parser:"'RELEASE' 'SAVEPOINT'? @( Ident | QIdent )"`
}

type sPragma struct {
	Name *sQName       `parser:"'PRAGMA' @@"`
	Eq   *sPragmaValue `parser:"( '=' @@"`
	Call *sPragmaValue `parser:"| '(' @@ ')' )?"`
}

// sPragmaValue is a signed number, a string, or any word (ON, WAL, FULL).
type sPragmaValue struct {
	Pos  lexer.Position
	Num  *sSignedNum `parser:"  @@"`
	Str  string      `parser:"| @String"`
	Word string      `parser:"| @( Ident | QIdent | Keyword )"`
}

type sAnalyze struct {
	Keyword string  `parser:"@'ANALYZE'"`
	Name    *sQName `parser:"@@?"`
}

type sReindex struct {
	Keyword string  `parser:"@'REINDEX'"`
	Name    *sQName `parser:"@@?"`
}

// sCreateVirtual is CREATE VIRTUAL TABLE, parsed so that it can be refused
// by name: the module arguments are any balanced token sequence.
type sCreateVirtual struct {
	IfNotExists bool       `parser:"'CREATE' 'VIRTUAL' 'TABLE' @( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName    `parser:"@@"`
	Module      string     `parser:"'USING' @( Ident | QIdent )"`
	Args        *sVTabArgs `parser:"@@?"`
}

// sVTabArgs is a parenthesised token sequence with balanced parentheses.
type sVTabArgs struct {
	Items []*sVTabArg `parser:"'(' @@* ')'"`
}

type sVTabArg struct {
	Nested *sVTabArgs `parser:"  @@"`
	Token  string     `parser:"| @~( '(' | ')' )"`
}

type sVacuum struct {
	Keyword string `parser:"@'VACUUM'"`
	Schema  string `parser:"@( Ident | QIdent )?"`
	Into    *sExpr `parser:"( 'INTO' @@ )?"`
}

type sAttach struct {
	File   *sExpr `parser:"'ATTACH' 'DATABASE'? @@"`
	Schema string `parser:"'AS' @( Ident | QIdent )"`
}

type sDetach struct {
	Schema string `parser:"'DETACH' 'DATABASE'? @( Ident | QIdent )"`
}
