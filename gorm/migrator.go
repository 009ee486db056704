package sqlite

import (
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"
)

// Migrator is gorm's schema migrator for ladybug. It reads the schema
// from sqlite_master and the catalog pragmas, and changes it with ALTER
// TABLE in place: ladybug never needs the copy-the-table dance SQLite's
// dialector does (see AlterColumn).
type Migrator struct {
	migrator.Migrator
}

// CurrentDatabase is the name of the main schema, "main".
func (m Migrator) CurrentDatabase() string {
	var seq int
	var name string
	var file sql.NullString
	if err := m.DB.Raw("PRAGMA database_list").Row().Scan(&seq, &name, &file); err != nil {
		return "main"
	}
	return name
}

// HasTable reports whether the model's table exists.
func (m Migrator) HasTable(value any) bool {
	var n int
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		return m.DB.Raw("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", stmt.Table).Row().Scan(&n)
	})
	return n > 0
}

// GetTables lists the user tables (not sqlite_sequence, sqlite_stat1).
func (m Migrator) GetTables() ([]string, error) {
	var tables []string
	err := m.DB.Raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").Scan(&tables).Error
	return tables, err
}

// TableType describes the model's table from sqlite_master.
func (m Migrator) TableType(value any) (gorm.TableType, error) {
	var tt migrator.TableType
	err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
		var name, typ string
		if err := m.DB.Raw("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", stmt.Table).Row().Scan(&name, &typ); err != nil {
			return fmt.Errorf("ladybug gorm: table %q: %w", stmt.Table, err)
		}
		tt = migrator.TableType{
			SchemaValue: "main",
			NameValue:   name,
			TypeValue:   strings.ToUpper(typ),
		}
		return nil
	})
	return tt, err
}

// DropTable drops the models' tables, dependents first.
func (m Migrator) DropTable(values ...any) error {
	values = m.ReorderModels(values, false)
	tx := m.DB.Session(&gorm.Session{})
	for i := len(values) - 1; i >= 0; i-- {
		if err := m.RunWithValue(values[i], func(stmt *gorm.Statement) error {
			return tx.Exec("DROP TABLE IF EXISTS ?", m.CurrentTable(stmt)).Error
		}); err != nil {
			return err
		}
	}
	return nil
}

// HasColumn reports whether the model's table has the column (a field
// name or a column name; column names compare without case, as in SQL).
func (m Migrator) HasColumn(value any, name string) bool {
	found := false
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema != nil {
			if f := stmt.Schema.LookUpField(name); f != nil {
				name = f.DBName
			}
		}
		cols, err := m.tableColumns(stmt.Table)
		for _, c := range cols {
			found = found || strings.EqualFold(c.Name, name)
		}
		return err
	})
	return found
}

// DropColumn drops a column in place. The indexes that name it are
// dropped first, in the same transaction, as other databases do (SQLite
// refuses to drop an indexed column; its dialector copies the table).
func (m Migrator) DropColumn(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema != nil {
			if f := stmt.Schema.LookUpField(name); f != nil {
				name = f.DBName
			}
		}
		list, err := m.createdIndexes(stmt.Table)
		if err != nil {
			return err
		}
		var drop []string
		for _, ix := range list {
			for _, c := range ix.cols {
				if strings.EqualFold(c, name) {
					drop = append(drop, ix.Name)
					break
				}
			}
		}
		return m.DB.Transaction(func(tx *gorm.DB) error {
			for _, ix := range drop {
				if err := tx.Exec("DROP INDEX ?", clause.Column{Name: ix}).Error; err != nil {
					return err
				}
			}
			return tx.Exec("ALTER TABLE ? DROP COLUMN ?", m.CurrentTable(stmt), clause.Column{Name: name}).Error
		})
	})
}

// tableColumn is one row of PRAGMA table_info.
type tableColumn struct {
	Cid       int            `gorm:"column:cid"`
	Name      string         `gorm:"column:name"`
	Type      string         `gorm:"column:type"`
	NotNull   bool           `gorm:"column:notnull"`
	DfltValue sql.NullString `gorm:"column:dflt_value"`
	Pk        int            `gorm:"column:pk"`
}

// ColumnTypes describes each column of the model's table: declared type,
// length and decimal size parsed from it, nullability, default, primary
// key, auto-increment and uniqueness (a UNIQUE constraint on the column
// alone, or the unique index CreateConstraint made for it).
func (m Migrator) ColumnTypes(value any) ([]gorm.ColumnType, error) {
	var out []gorm.ColumnType
	err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
		cols, err := m.tableColumns(stmt.Table)
		if err != nil {
			return err
		}
		if len(cols) == 0 {
			return fmt.Errorf("ladybug gorm: no such table: %s", stmt.Table)
		}
		unique, err := m.uniqueColumns(stmt.Table)
		if err != nil {
			return err
		}
		scanTypes, err := m.scanTypes(stmt)
		if err != nil {
			return err
		}
		createSQL := m.tableSQL(stmt.Table)
		pks := 0
		for _, c := range cols {
			if c.Pk > 0 {
				pks++
			}
		}
		for _, c := range cols {
			out = append(out, columnType(c, unique[c.Name], pks == 1, createSQL, scanTypes[c.Name]))
		}
		return nil
	})
	return out, err
}

// tableColumns reads PRAGMA table_info.
func (m Migrator) tableColumns(table string) ([]tableColumn, error) {
	var cols []tableColumn
	err := m.DB.Raw("SELECT * FROM pragma_table_info(?)", table).Scan(&cols).Error
	return cols, err
}

var typeArgs = regexp.MustCompile(`^\s*([^(]*?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$`)

// columnType builds gorm's description of one table_info row.
func columnType(c tableColumn, unique, singlePK bool, createSQL string, scan *sql.ColumnType) migrator.ColumnType {
	ct := migrator.ColumnType{
		SQLColumnType:      scan,
		NameValue:          sql.NullString{String: c.Name, Valid: true},
		ColumnTypeValue:    sql.NullString{String: strings.ToLower(c.Type), Valid: true},
		PrimaryKeyValue:    sql.NullBool{Bool: c.Pk > 0, Valid: true},
		UniqueValue:        sql.NullBool{Bool: unique, Valid: true},
		NullableValue:      sql.NullBool{Bool: !c.NotNull && c.Pk == 0, Valid: true},
		AutoIncrementValue: sql.NullBool{Valid: true},
		DefaultValueValue:  sql.NullString{String: unquoteDefault(c.DfltValue.String), Valid: c.DfltValue.Valid},
	}
	base := strings.ToLower(c.Type)
	if mt := typeArgs.FindStringSubmatch(c.Type); mt != nil {
		base = strings.ToLower(mt[1])
		if mt[2] != "" {
			n, _ := strconv.ParseInt(mt[2], 10, 64)
			if base == "decimal" || base == "numeric" {
				ct.DecimalSizeValue = sql.NullInt64{Int64: n, Valid: true}
				s, _ := strconv.ParseInt(mt[3], 10, 64)
				ct.ScaleValue = sql.NullInt64{Int64: s, Valid: true}
			} else {
				ct.LengthValue = sql.NullInt64{Int64: n, Valid: true}
			}
		}
	}
	ct.DataTypeValue = sql.NullString{String: base, Valid: true}
	// Only an INTEGER PRIMARY KEY (the rowid alias) is assigned; the
	// AUTOINCREMENT keyword also keeps ids from being reused.
	if c.Pk > 0 && singlePK && base == "integer" {
		ct.AutoIncrementValue.Bool = strings.Contains(strings.ToUpper(createSQL), "AUTOINCREMENT")
	}
	if scan != nil {
		ct.ScanTypeValue = scan.ScanType()
	}
	return ct
}

// unquoteDefault turns a default as table_info prints it ('it”s') into
// its value (it's), the form gorm compares with a field's default tag.
func unquoteDefault(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// scanTypes reads the driver's column types from an empty result.
func (m Migrator) scanTypes(stmt *gorm.Statement) (map[string]*sql.ColumnType, error) {
	rows, err := m.DB.Session(&gorm.Session{}).Table(stmt.Table).Limit(0).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	out := make(map[string]*sql.ColumnType, len(cts))
	for _, ct := range cts {
		out[ct.Name()] = ct
	}
	return out, nil
}

// tableSQL is the table's CREATE TABLE text.
func (m Migrator) tableSQL(table string) string {
	var s sql.NullString
	_ = m.DB.Raw("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Row().Scan(&s)
	return s.String
}

// indexRow is one row of PRAGMA index_list.
type indexRow struct {
	Seq     int    `gorm:"column:seq"`
	Name    string `gorm:"column:name"`
	Unique  bool   `gorm:"column:unique"`
	Origin  string `gorm:"column:origin"`
	Partial bool   `gorm:"column:partial"`
}

func (m Migrator) indexList(table string) ([]indexRow, error) {
	var out []indexRow
	err := m.DB.Raw("SELECT * FROM pragma_index_list(?)", table).Scan(&out).Error
	return out, err
}

// createdIndex is an index made by CREATE INDEX (not by a UNIQUE or
// PRIMARY KEY constraint), with its columns in order.
type createdIndex struct {
	indexRow
	cols []string
}

// createdIndexes lists the table's indexes made by CREATE INDEX.
func (m Migrator) createdIndexes(table string) ([]createdIndex, error) {
	list, err := m.indexList(table)
	if err != nil {
		return nil, err
	}
	var out []createdIndex
	for _, ix := range list {
		if ix.Origin != "c" {
			continue
		}
		cols, err := m.indexColumns(ix.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, createdIndex{ix, cols})
	}
	return out, nil
}

func (m Migrator) indexColumns(index string) ([]string, error) {
	var cols []string
	err := m.DB.Raw("SELECT name FROM pragma_index_info(?) ORDER BY seqno", index).Scan(&cols).Error
	return cols, err
}

// uniqueColumns lists the columns that a UNIQUE constraint, or a unique
// index named as gorm names unique constraints, covers alone. A
// uniqueIndex tag's index does not count: gorm keeps those apart from
// the field's unique flag.
func (m Migrator) uniqueColumns(table string) (map[string]bool, error) {
	idx, err := m.indexList(table)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, ix := range idx {
		if !ix.Unique || ix.Partial || ix.Origin == "pk" {
			continue
		}
		cols, err := m.indexColumns(ix.Name)
		if err != nil {
			return nil, err
		}
		if len(cols) != 1 {
			continue
		}
		if ix.Origin == "u" || ix.Name == m.DB.NamingStrategy.UniqueName(table, cols[0]) {
			out[cols[0]] = true
		}
	}
	return out, nil
}

// AlterColumn changes a column to the field's definition in place, with
// ALTER TABLE … ALTER COLUMN: the type (existing values take the new
// type's affinity), then NOT NULL and DEFAULT. Rows, indexes, triggers,
// views and foreign keys stay where they are; SQLite's dialector copies
// the whole table instead. The statements run in one transaction.
func (m Migrator) AlterColumn(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema == nil {
			return fmt.Errorf("ladybug gorm: alter column %q: no model schema", name)
		}
		field := stmt.Schema.LookUpField(name)
		if field == nil {
			return fmt.Errorf("ladybug gorm: alter column: no field %q in %s", name, stmt.Table)
		}
		typ := m.DataTypeOf(field)
		if strings.Contains(strings.ToUpper(typ), "PRIMARY KEY") {
			return fmt.Errorf("ladybug gorm: alter column %s.%s: an auto-increment primary key is the rowid; it cannot change in place", stmt.Table, field.DBName)
		}
		actions := []string{"TYPE " + typ, "DROP NOT NULL", "DROP DEFAULT"}
		if field.NotNull {
			actions[1] = "SET NOT NULL"
		}
		if def := m.defaultSQL(field); def != "" {
			actions[2] = "SET DEFAULT " + def
		}
		// The text is built here, with no placeholders, so a '?' in a
		// default value stays a character.
		var head strings.Builder
		head.WriteString("ALTER TABLE ")
		m.QuoteTo(&head, stmt.Table)
		head.WriteString(" ALTER COLUMN ")
		m.QuoteTo(&head, field.DBName)
		head.WriteByte(' ')
		return m.DB.Transaction(func(tx *gorm.DB) error {
			for _, a := range actions {
				if err := tx.Exec(head.String() + a).Error; err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// defaultSQL is the field's DEFAULT expression as FullDataTypeOf writes
// it, or "" when it has none.
func (m Migrator) defaultSQL(field *schema.Field) string {
	if !field.HasDefaultValue {
		return ""
	}
	if field.DefaultValueInterface != nil {
		return m.Dialector.Explain("?", field.DefaultValueInterface)
	}
	if field.DefaultValue != "" && field.DefaultValue != "(-)" {
		return field.DefaultValue
	}
	return ""
}

// BuildIndexOptions writes an index's columns: name or expression, then
// COLLATE and ASC/DESC. A prefix length (MySQL's col(10)) has no meaning
// here and is left out.
func (m Migrator) BuildIndexOptions(opts []schema.IndexOption, stmt *gorm.Statement) []any {
	out := make([]any, 0, len(opts))
	for _, opt := range opts {
		s := stmt.Quote(opt.DBName)
		if opt.Expression != "" {
			s = opt.Expression
		}
		if opt.Collate != "" {
			s += " COLLATE " + opt.Collate
		}
		if opt.Sort != "" {
			s += " " + opt.Sort
		}
		out = append(out, clause.Expr{SQL: s})
	}
	return out
}

// CreateIndex creates the model's index name: UNIQUE when its class says
// so, partial when it has a where option.
func (m Migrator) CreateIndex(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema == nil {
			return fmt.Errorf("ladybug gorm: create index %q: no model schema", name)
		}
		idx := stmt.Schema.LookIndex(name)
		if idx == nil {
			return fmt.Errorf("ladybug gorm: no index %q in model %s", name, stmt.Schema.Name)
		}
		q := "CREATE "
		if strings.EqualFold(idx.Class, "UNIQUE") {
			q += "UNIQUE "
		}
		q += "INDEX ? ON ??"
		if idx.Where != "" {
			q += " WHERE " + idx.Where
		}
		return m.DB.Exec(q, clause.Column{Name: idx.Name}, m.CurrentTable(stmt), m.BuildIndexOptions(idx.Fields, stmt)).Error
	})
}

// HasIndex reports whether the table has the index (an index name, or
// the name of a field whose index the model declares).
func (m Migrator) HasIndex(value any, name string) bool {
	var n int
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema != nil {
			if idx := stmt.Schema.LookIndex(name); idx != nil {
				name = idx.Name
			}
		}
		return m.DB.Raw("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name = ?", stmt.Table, name).Row().Scan(&n)
	})
	return n > 0
}

// DropIndex drops the index.
func (m Migrator) DropIndex(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		if stmt.Schema != nil {
			if idx := stmt.Schema.LookIndex(name); idx != nil {
				name = idx.Name
			}
		}
		return m.DB.Exec("DROP INDEX ?", clause.Column{Name: name}).Error
	})
}

// RenameIndex renames an index: SQL has no statement for it, so the
// index is created again under the new name from its stored definition
// and the old one dropped, in one transaction.
func (m Migrator) RenameIndex(value any, oldName, newName string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		var def sql.NullString
		if err := m.DB.Raw("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name = ?", stmt.Table, oldName).Row().Scan(&def); err != nil {
			return fmt.Errorf("ladybug gorm: rename index %q: %w", oldName, err)
		}
		if !def.Valid {
			return fmt.Errorf("ladybug gorm: rename index %q: it belongs to a constraint", oldName)
		}
		created, err := renameIndexSQL(def.String, newName)
		if err != nil {
			return err
		}
		return m.DB.Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("DROP INDEX ?", clause.Column{Name: oldName}).Error; err != nil {
				return err
			}
			return tx.Exec(created).Error
		})
	})
}

var indexHead = regexp.MustCompile("(?is)^\\s*CREATE\\s+(UNIQUE\\s+)?INDEX\\s+(IF\\s+NOT\\s+EXISTS\\s+)?(`(?:[^`]|``)*`|\"(?:[^\"]|\"\")*\"|\\[[^\\]]*\\]|[^\\s(]+)\\s+ON\\s")

// renameIndexSQL rewrites the name in a CREATE INDEX statement.
func renameIndexSQL(def, newName string) (string, error) {
	loc := indexHead.FindStringSubmatchIndex(def)
	if loc == nil {
		return "", fmt.Errorf("ladybug gorm: cannot read index definition %q", def)
	}
	return def[:loc[6]] + quoteIdent(newName) + def[loc[7]:], nil
}

// GetIndexes lists the table's indexes other than those of UNIQUE and
// PRIMARY KEY constraints.
func (m Migrator) GetIndexes(value any) ([]gorm.Index, error) {
	var out []gorm.Index
	err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
		list, err := m.createdIndexes(stmt.Table)
		if err != nil {
			return err
		}
		for _, ix := range list {
			out = append(out, &migrator.Index{
				TableName:       stmt.Table,
				NameValue:       ix.Name,
				ColumnList:      ix.cols,
				PrimaryKeyValue: sql.NullBool{Valid: true},
				UniqueValue:     sql.NullBool{Bool: ix.Unique, Valid: true},
			})
		}
		return nil
	})
	return out, err
}

// CreateConstraint adds a constraint of the model to its table in place.
// A unique constraint becomes a unique index named as the constraint; a
// CHECK or FOREIGN KEY is added with ALTER TABLE … ADD CONSTRAINT, which
// checks the rows already there.
func (m Migrator) CreateConstraint(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		c, table := m.GuessConstraintInterfaceAndTable(stmt, name)
		if c == nil {
			return nil
		}
		if u, ok := c.(*schema.UniqueConstraint); ok {
			return m.DB.Exec("CREATE UNIQUE INDEX ? ON ?(?)", clause.Column{Name: u.Name}, clause.Table{Name: table}, clause.Column{Name: u.Field.DBName}).Error
		}
		q, vars := c.Build()
		return m.DB.Exec("ALTER TABLE ? ADD "+q, append([]any{clause.Table{Name: table}}, vars...)...).Error
	})
}

// DropConstraint drops a named constraint in place: a unique index
// CreateConstraint made, or a constraint in the table's definition.
func (m Migrator) DropConstraint(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		c, table := m.GuessConstraintInterfaceAndTable(stmt, name)
		if c != nil {
			name = c.GetName()
		}
		if m.hasIndexNamed(table, name) {
			return m.DB.Exec("DROP INDEX ?", clause.Column{Name: name}).Error
		}
		return m.DB.Exec("ALTER TABLE ? DROP CONSTRAINT ?", clause.Table{Name: table}, clause.Column{Name: name}).Error
	})
}

func (m Migrator) hasIndexNamed(table, name string) bool {
	var n int
	_ = m.DB.Raw("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name = ?", table, name).Row().Scan(&n)
	return n > 0
}

// HasConstraint reports whether the table has the named constraint: in
// its definition (CONSTRAINT name …) or as the unique index
// CreateConstraint made.
func (m Migrator) HasConstraint(value any, name string) bool {
	found := false
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		c, table := m.GuessConstraintInterfaceAndTable(stmt, name)
		if c != nil {
			name = c.GetName()
		}
		if m.hasIndexNamed(table, name) {
			found = true
			return nil
		}
		found = namesConstraint(m.tableSQL(table), name)
		return nil
	})
	return found
}

// namesConstraint reports whether a CREATE TABLE text declares
// CONSTRAINT name, with the name bare or quoted in any of SQL's ways.
func namesConstraint(createSQL, name string) bool {
	re := regexp.MustCompile("(?i)\\bCONSTRAINT\\s+(?:`" + regexp.QuoteMeta(strings.ReplaceAll(name, "`", "``")) + "`|\"" +
		regexp.QuoteMeta(strings.ReplaceAll(name, `"`, `""`)) + "\"|\\[" + regexp.QuoteMeta(name) + "\\]|" + regexp.QuoteMeta(name) + "(?:\\s|\\())")
	return re.MatchString(createSQL)
}

// CreateView creates a view; with Replace set, a view of that name is
// dropped first, in the same transaction (SQLite's grammar has no
// CREATE OR REPLACE VIEW).
func (m Migrator) CreateView(name string, option gorm.ViewOption) error {
	if option.Query == nil {
		return gorm.ErrSubQueryRequired
	}
	var b strings.Builder
	b.WriteString("CREATE VIEW ")
	m.QuoteTo(&b, name)
	b.WriteString(" AS ")
	m.DB.Statement.AddVar(&b, option.Query)
	create := m.Explain(b.String(), m.DB.Statement.Vars...)
	if option.CheckOption != "" {
		return fmt.Errorf("ladybug gorm: view %q: %s is not supported (SQLite's views are read-only)", name, option.CheckOption)
	}
	return m.DB.Transaction(func(tx *gorm.DB) error {
		if option.Replace {
			if err := tx.Exec("DROP VIEW IF EXISTS ?", clause.Table{Name: name}).Error; err != nil {
				return err
			}
		}
		return tx.Exec(create).Error
	})
}

// DropView drops a view if it exists.
func (m Migrator) DropView(name string) error {
	return m.DB.Exec("DROP VIEW IF EXISTS ?", clause.Table{Name: name}).Error
}

// GetTypeAliases lists the type names that mean the same column type, so
// AutoMigrate leaves a column alone whose declared type is an alias of
// the field's.
func (m Migrator) GetTypeAliases(name string) []string {
	for _, group := range typeAliases {
		for _, n := range group {
			if n == name {
				return group
			}
		}
	}
	return nil
}

var typeAliases = [][]string{
	{"integer", "int", "bigint", "int64", "smallint", "tinyint", "mediumint", "int8", "int4", "int2"},
	{"real", "double", "double precision", "float"},
	{"text", "clob"},
	{"numeric", "boolean", "bool"},
}
