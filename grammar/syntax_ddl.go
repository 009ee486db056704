package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar of CREATE, DROP and ALTER.

type sCreateTable struct {
	Pos         lexer.Position
	Temp        bool                `parser:"'CREATE' @( 'TEMP' | 'TEMPORARY' )? 'TABLE'"`
	IfNotExists bool                `parser:"@( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName             `parser:"@@"`
	AsSelect    *sSelect            `parser:"( 'AS' @@"`
	Columns     []*sColumnDef       `parser:"| '(' @@ ( ',' @@ )*"`
	Constraints []*sTableConstraint `parser:"  ( ','? @@ )* ')'"`
	Options     []string            `parser:"  ( @( 'WITHOUT' 'ROWID' | 'STRICT' ) ( ',' @( 'WITHOUT' 'ROWID' | 'STRICT' ) )* )? )"`
}

type sColumnDef struct {
	Pos         lexer.Position
	Name        string               `parser:"@( Ident | QIdent )"`
	Type        *sTypeName           `parser:"@@?"`
	Constraints []*sColumnConstraint `parser:"@@*"`
}

type sColumnConstraint struct {
	Pos        lexer.Position
	Name       string       `parser:"( 'CONSTRAINT' @( Ident | QIdent ) )?"`
	PrimaryKey bool         `parser:"( @( 'PRIMARY' 'KEY' )"`
	Order      string       `parser:"  @( 'ASC' | 'DESC' )?"`
	PKConflict *sOnConflict `parser:"  @@?"`
	Autoinc    bool         `parser:"  @'AUTOINCREMENT'?"`
	NotNull    bool         `parser:"| @( 'NOT' 'NULL' )"`
	NNConflict *sOnConflict `parser:"  @@?"`
	Null       bool         `parser:"| @'NULL'"`
	Unique     bool         `parser:"| @'UNIQUE'"`
	UConflict  *sOnConflict `parser:"  @@?"`
	Check      *sExpr       `parser:"| 'CHECK' '(' @@ ')'"`
	Default    *sDefault    `parser:"| 'DEFAULT' @@"`
	Collate    string       `parser:"| 'COLLATE' @( Ident | QIdent | String )"`
	References *sForeignKey `parser:"| @@"`
	Generated  *sGenerated  `parser:"| @@ )"`
}

type sOnConflict struct {
	Action string `parser:"'ON' 'CONFLICT' @( 'ROLLBACK' | 'ABORT' | 'FAIL' | 'IGNORE' | 'REPLACE' )"`
}

// sDefault is a DEFAULT value: a parenthesised expression, or a signed
// literal, a function call or a bare word (SQLite reads a bare or
// double-quoted word there as a string).
type sDefault struct {
	Pos     lexer.Position
	Paren   *sExpr       `parser:"  '(' @@ ')'"`
	Unary   []*sUnaryTok `parser:"| @@*"`
	Primary *sPrimary    `parser:"  @@"`
}

// sGenerated is [GENERATED ALWAYS] AS (expr) [STORED|VIRTUAL] or
// GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY.
type sGenerated struct {
	Always   bool   `parser:"( 'GENERATED' ( @'ALWAYS' | 'BY' 'DEFAULT' ) )? 'AS'"`
	Identity bool   `parser:"( @'IDENTITY'"`
	Expr     *sExpr `parser:"| '(' @@ ')'"`
	Storage  string `parser:"  @( 'STORED' | 'VIRTUAL' )? )"`
}

type sForeignKey struct {
	Pos      lexer.Position
	Table    string      `parser:"'REFERENCES' @( Ident | QIdent )"`
	Columns  []string    `parser:"( '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
	Actions  []*sFKEvent `parser:"@@*"`
	Deferral *sDeferral  `parser:"@@?"`
}

type sFKEvent struct {
	On     string `parser:"( 'ON' @( 'DELETE' | 'UPDATE' )"`
	Action string `parser:"  @( 'SET' 'NULL' | 'SET' 'DEFAULT' | 'CASCADE' | 'RESTRICT' | 'NO' 'ACTION' )"`
	Match  string `parser:"| 'MATCH' @( Ident | QIdent | 'FULL' ) )"`
}

type sDeferral struct {
	Not       bool   `parser:"@'NOT'? 'DEFERRABLE'"`
	Initially string `parser:"( 'INITIALLY' @( 'DEFERRED' | 'IMMEDIATE' ) )?"`
}

type sTableConstraint struct {
	Pos        lexer.Position
	Name       string       `parser:"( 'CONSTRAINT' @( Ident | QIdent ) )?"`
	PrimaryKey *sKeyColumns `parser:"( 'PRIMARY' 'KEY' @@"`
	Unique     *sKeyColumns `parser:"| 'UNIQUE' @@"`
	Check      *sExpr       `parser:"| 'CHECK' '(' @@ ')'"`
	FKColumns  []string     `parser:"| 'FOREIGN' 'KEY' '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')'"`
	ForeignKey *sForeignKey `parser:"  @@ )"`
}

type sKeyColumns struct {
	Columns  []*sIndexedColumn `parser:"'(' @@ ( ',' @@ )*"`
	Autoinc  bool              `parser:"@'AUTOINCREMENT'? ')'"`
	Conflict *sOnConflict      `parser:"@@?"`
}

type sIndexedColumn struct {
	Pos   lexer.Position
	Expr  *sExpr `parser:"@@"`
	Order string `parser:"@( 'ASC' | 'DESC' )?"`
}

type sCreateIndex struct {
	Pos         lexer.Position
	Unique      bool              `parser:"'CREATE' @'UNIQUE'? 'INDEX'"`
	IfNotExists bool              `parser:"@( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName           `parser:"@@"`
	Table       string            `parser:"'ON' @( Ident | QIdent )"`
	Columns     []*sIndexedColumn `parser:"'(' @@ ( ',' @@ )* ')'"`
	Where       *sExpr            `parser:"( 'WHERE' @@ )?"`
}

type sCreateView struct {
	Pos         lexer.Position
	Temp        bool     `parser:"'CREATE' @( 'TEMP' | 'TEMPORARY' )? 'VIEW'"`
	IfNotExists bool     `parser:"@( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName  `parser:"@@"`
	Columns     []string `parser:"( '(' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* ')' )?"`
	Select      *sSelect `parser:"'AS' @@"`
}

type sCreateTrigger struct {
	Pos         lexer.Position
	Temp        bool            `parser:"'CREATE' @( 'TEMP' | 'TEMPORARY' )? 'TRIGGER'"`
	IfNotExists bool            `parser:"@( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *sQName         `parser:"@@"`
	Time        string          `parser:"@( 'BEFORE' | 'AFTER' | 'INSTEAD' 'OF' )?"`
	Event       string          `parser:"@( 'INSERT' | 'DELETE' | 'UPDATE' )"`
	Columns     []string        `parser:"( 'OF' @( Ident | QIdent ) ( ',' @( Ident | QIdent ) )* )?"`
	Table       *sQName         `parser:"'ON' @@"`
	ForEachRow  bool            `parser:"@( 'FOR' 'EACH' 'ROW' )?"`
	When        *sExpr          `parser:"( 'WHEN' @@ )?"`
	Body        []*sTriggerStmt `parser:"'BEGIN' ( @@ ';' )+ 'END'"`
}

// sTriggerStmt is one statement of a trigger body.
type sTriggerStmt struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Insert *sInsert `parser:"  @@"`
	Update *sUpdate `parser:"| @@"`
	Delete *sDelete `parser:"| @@"`
	Select *sSelect `parser:"| @@"`
}

type sDrop struct {
	Pos      lexer.Position
	Kind     string  `parser:"'DROP' @( 'TABLE' | 'INDEX' | 'VIEW' | 'TRIGGER' )"`
	IfExists bool    `parser:"@( 'IF' 'EXISTS' )?"`
	Name     *sQName `parser:"@@"`
}

type sAlterTable struct {
	Pos     lexer.Position
	Table   *sQName           `parser:"'ALTER' 'TABLE' @@"`
	Rename  *sRename          `parser:"(  'RENAME' @@"`
	AddCon  *sTableConstraint `parser:"| 'ADD' @@"`
	Add     *sColumnDef       `parser:"| 'ADD' 'COLUMN'? @@"`
	DropCon string            `parser:"| 'DROP' 'CONSTRAINT' @( Ident | QIdent )"`
	Drop    string            `parser:"| 'DROP' 'COLUMN'? @( Ident | QIdent )"`
	Alter   *sAlterColumn     `parser:"| 'ALTER' 'COLUMN'? @@ )"`
}

type sRename struct {
	To      string `parser:"  'TO' @( Ident | QIdent )"`
	Column  string `parser:"| 'COLUMN'? @( Ident | QIdent )"`
	NewName string `parser:"  'TO' @( Ident | QIdent )"`
}

type sAlterColumn struct {
	Column      string     `parser:"@( Ident | QIdent )"`
	Type        *sTypeName `parser:"(  ( 'SET' 'DATA' )? 'TYPE' @@"`
	SetNotNull  bool       `parser:" | @( 'SET' 'NOT' 'NULL' )"`
	DropNotNull bool       `parser:" | @( 'DROP' 'NOT' 'NULL' )"`
	SetDefault  *sDefault  `parser:" | 'SET' 'DEFAULT' @@"`
	DropDefault bool       `parser:" | @( 'DROP' 'DEFAULT' ) )"`
}
