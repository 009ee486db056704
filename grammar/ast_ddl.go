package grammar

// CreateTableStmt is CREATE [TEMP] TABLE [IF NOT EXISTS] name (columns,
// constraints) [WITHOUT ROWID] [STRICT], or CREATE TABLE name AS select.
type CreateTableStmt struct {
	Position
	source
	Temp         bool
	IfNotExists  bool
	Schema       string
	Name         string
	Columns      []*ColumnDef
	Constraints  []*TableConstraint
	WithoutRowid bool
	Strict       bool
	AsSelect     *SelectStmt // CREATE TABLE ... AS SELECT; Columns is then empty
}

// ColumnDef is one column of CREATE TABLE or ALTER TABLE ADD COLUMN.
type ColumnDef struct {
	Position
	Name        string
	Type        *TypeName // nil when no type is given
	Constraints []*ColumnConstraint
}

// TypeName is a declared type: one or more words and up to two signed
// numbers ("VARCHAR(255)", "DECIMAL(10,2)", "DOUBLE PRECISION",
// "TIMESTAMP WITH TIME ZONE"). The grammar gives it no meaning.
type TypeName struct {
	Position
	Name string   // the words, as written, joined by single spaces
	Args []string // the numbers, as written (with a sign if one was given)
}

// ConstraintKind is the kind of a column or table constraint.
type ConstraintKind int

// Constraint kinds.
const (
	ConstraintPrimaryKey ConstraintKind = iota
	ConstraintNotNull
	ConstraintNull
	ConstraintUnique
	ConstraintCheck
	ConstraintDefault
	ConstraintCollate
	ConstraintReferences // column REFERENCES, or table FOREIGN KEY
	ConstraintGenerated  // GENERATED ALWAYS AS (expr) [STORED|VIRTUAL]
	ConstraintIdentity   // GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY
)

// ColumnConstraint is one constraint of a column definition. Which fields
// matter depends on Kind.
type ColumnConstraint struct {
	Position
	Name          string         // CONSTRAINT name
	Kind          ConstraintKind //
	Order         SortOrder      // PRIMARY KEY ASC|DESC
	OnConflict    ConflictAction // PRIMARY KEY, NOT NULL, UNIQUE ... ON CONFLICT x
	Autoincrement bool           // PRIMARY KEY AUTOINCREMENT
	Expr          Expr           // CHECK, DEFAULT, GENERATED AS
	Collation     string         // COLLATE
	ForeignKey    *ForeignKey    // REFERENCES
	Stored        bool           // GENERATED ... STORED (VIRTUAL otherwise)
	Always        bool           // GENERATED ALWAYS (vs BY DEFAULT) for identity
}

// TableConstraint is a constraint after the column definitions.
// PrimaryKey and Unique use Columns; Check uses Check; References uses
// FKColumns and ForeignKey.
type TableConstraint struct {
	Position
	Name          string
	Kind          ConstraintKind
	Columns       []*IndexedColumn
	OnConflict    ConflictAction
	Autoincrement bool
	Check         Expr
	FKColumns     []string
	ForeignKey    *ForeignKey
}

// FKAction is an ON DELETE / ON UPDATE action.
type FKAction int

// Foreign key actions.
const (
	FKNone FKAction = iota // not given (NO ACTION)
	FKNoAction
	FKRestrict
	FKSetNull
	FKSetDefault
	FKCascade
)

// Deferral is the DEFERRABLE clause of a foreign key.
type Deferral int

// Deferral clauses.
const (
	DeferralNone                    Deferral = iota // absent
	Deferrable                                      // DEFERRABLE
	DeferrableInitiallyDeferred                     // DEFERRABLE INITIALLY DEFERRED
	DeferrableInitiallyImmediate                    // DEFERRABLE INITIALLY IMMEDIATE
	NotDeferrable                                   // NOT DEFERRABLE
	NotDeferrableInitiallyDeferred                  // NOT DEFERRABLE INITIALLY DEFERRED
	NotDeferrableInitiallyImmediate                 // NOT DEFERRABLE INITIALLY IMMEDIATE
)

// ForeignKey is REFERENCES table [(columns)] [ON DELETE a] [ON UPDATE a]
// [MATCH name] [deferral].
type ForeignKey struct {
	Position
	Table      string
	Columns    []string
	OnDelete   FKAction
	OnUpdate   FKAction
	Match      string
	Deferrable Deferral
}

// IndexedColumn is one column of an index, a key constraint or an upsert
// target: an expression (usually a ColumnRef; COLLATE is a CollateExpr)
// with an optional sort order.
type IndexedColumn struct {
	Position
	Expr  Expr
	Order SortOrder
}

// CreateIndexStmt is CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table
// (columns) [WHERE ...].
type CreateIndexStmt struct {
	Position
	source
	Unique      bool
	IfNotExists bool
	Schema      string
	Name        string
	Table       string
	Columns     []*IndexedColumn
	Where       Expr
}

// CreateViewStmt is CREATE [TEMP] VIEW [IF NOT EXISTS] name [(columns)] AS select.
type CreateViewStmt struct {
	Position
	source
	Temp        bool
	IfNotExists bool
	Schema      string
	Name        string
	Columns     []string
	Select      *SelectStmt
}

// TriggerTime is when a trigger fires.
type TriggerTime int

// Trigger times.
const (
	TriggerDefault TriggerTime = iota // not given (BEFORE)
	TriggerBefore
	TriggerAfter
	TriggerInsteadOf
)

// TriggerEvent is what fires a trigger.
type TriggerEvent int

// Trigger events.
const (
	TriggerInsert TriggerEvent = iota
	TriggerUpdate
	TriggerDelete
)

// CreateTriggerStmt is CREATE [TEMP] TRIGGER [IF NOT EXISTS] name
// [BEFORE|AFTER|INSTEAD OF] event ON table [FOR EACH ROW] [WHEN expr]
// BEGIN statements END.
type CreateTriggerStmt struct {
	Position
	source
	Temp        bool
	IfNotExists bool
	Schema      string
	Name        string
	Time        TriggerTime
	Event       TriggerEvent
	Columns     []string // UPDATE OF columns
	TableSchema string   // ON schema.table, "" when unqualified
	Table       string
	ForEachRow  bool
	When        Expr
	Body        []Statement // INSERT, UPDATE, DELETE and SELECT statements
}

// ObjectKind is the kind of schema object a DROP removes.
type ObjectKind int

// Schema object kinds.
const (
	ObjectTable ObjectKind = iota
	ObjectIndex
	ObjectView
	ObjectTrigger
)

// DropStmt is DROP TABLE|INDEX|VIEW|TRIGGER [IF EXISTS] [schema.]name.
type DropStmt struct {
	Position
	source
	Kind     ObjectKind
	IfExists bool
	Schema   string
	Name     string
}

// AlterAction is what an ALTER TABLE does.
type AlterAction int

// ALTER TABLE actions.
const (
	AlterRenameTable    AlterAction = iota // RENAME TO NewName
	AlterRenameColumn                      // RENAME [COLUMN] Column TO NewName
	AlterAddColumn                         // ADD [COLUMN] ColumnDef
	AlterDropColumn                        // DROP [COLUMN] Column
	AlterColumnType                        // ALTER [COLUMN] Column [SET DATA] TYPE Type
	AlterSetNotNull                        // ALTER [COLUMN] Column SET NOT NULL
	AlterDropNotNull                       // ALTER [COLUMN] Column DROP NOT NULL
	AlterSetDefault                        // ALTER [COLUMN] Column SET DEFAULT Default
	AlterDropDefault                       // ALTER [COLUMN] Column DROP DEFAULT
	AlterAddConstraint                     // ADD [CONSTRAINT name] CHECK|FOREIGN KEY|UNIQUE|PRIMARY KEY
	AlterDropConstraint                    // DROP CONSTRAINT Column (the constraint's name)
)

// AlterTableStmt is ALTER TABLE [schema.]table action.
type AlterTableStmt struct {
	Position
	source
	Schema     string
	Table      string
	Action     AlterAction
	Column     string           // the column acted on
	NewName    string           // RENAME targets
	ColumnDef  *ColumnDef       // ADD COLUMN
	Type       *TypeName        // ALTER COLUMN ... TYPE
	Default    Expr             // SET DEFAULT
	Constraint *TableConstraint // ADD CONSTRAINT
}

func (*CreateTableStmt) statementNode()   {}
func (*CreateIndexStmt) statementNode()   {}
func (*CreateViewStmt) statementNode()    {}
func (*CreateTriggerStmt) statementNode() {}
func (*DropStmt) statementNode()          {}
func (*AlterTableStmt) statementNode()    {}
