package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	_ "github.com/ladybugsql/ladybug" // registers the "ladybug" database/sql driver
)

// DriverName is the database/sql driver the dialector opens by default.
const DriverName = "ladybug"

// Dialector is gorm's view of a ladybug database. Set DSN to have
// Initialize open it, or Conn to use a pool (or transaction) you opened.
type Dialector struct {
	DriverName string        // "ladybug" when empty
	DSN        string        // a ladybug DSN: a path, ":memory:", options after '?'
	Conn       gorm.ConnPool // used as is when set; DSN is then ignored
}

// Config is what New takes; its fields mean what Dialector's do.
type Config struct {
	DriverName string
	DSN        string
	Conn       gorm.ConnPool
}

// Open returns a dialector that opens dsn with the ladybug driver.
func Open(dsn string) gorm.Dialector { return &Dialector{DSN: dsn} }

// New returns a dialector for config.
func New(config Config) gorm.Dialector {
	return &Dialector{DriverName: config.DriverName, DSN: config.DSN, Conn: config.Conn}
}

// Name is "sqlite": see the package doc for why.
func (Dialector) Name() string { return "sqlite" }

// Initialize opens the pool (unless Conn is set), registers gorm's
// callbacks with the clauses ladybug runs (RETURNING on INSERT, UPDATE and
// DELETE; ON CONFLICT on INSERT) and installs the clause builders.
func (d Dialector) Initialize(db *gorm.DB) error {
	if d.Conn != nil {
		db.ConnPool = d.Conn
	} else {
		name := d.DriverName
		if name == "" {
			name = DriverName
		}
		pool, err := sql.Open(name, d.DSN)
		if err != nil {
			return err
		}
		db.ConnPool = pool
	}
	// One round trip proves the pool reaches a database before gorm uses
	// it, as gorm.Open promises.
	var version string
	if err := db.ConnPool.QueryRowContext(context.Background(), "SELECT sqlite_version()").Scan(&version); err != nil {
		return fmt.Errorf("ladybug gorm: connect: %w", err)
	}
	callbacks.RegisterDefaultCallbacks(db, &callbacks.Config{
		CreateClauses: []string{"INSERT", "VALUES", "ON CONFLICT", "RETURNING"},
		UpdateClauses: []string{"UPDATE", "SET", "FROM", "WHERE", "RETURNING"},
		DeleteClauses: []string{"DELETE", "FROM", "WHERE", "RETURNING"},
		// LastInsertId of a multi-row INSERT is the last row's, as in SQLite.
		LastInsertIDReversed: true,
	})
	for name, build := range d.ClauseBuilders() {
		if _, ok := db.ClauseBuilders[name]; !ok {
			db.ClauseBuilders[name] = build
		}
	}
	return nil
}

// ClauseBuilders returns the builders for the clauses whose generic form
// ladybug (like SQLite) does not take.
func (Dialector) ClauseBuilders() map[string]clause.ClauseBuilder {
	return map[string]clause.ClauseBuilder{
		"INSERT":      buildInsert,
		"ON CONFLICT": buildOnConflict,
		"RETURNING":   buildReturning,
		"LIMIT":       buildLimit,
		"FOR":         buildLocking,
	}
}

// buildInsert writes INSERT [OR modifier] INTO table: gorm's generic
// builder puts the modifier (e.g. "OR IGNORE") in the same place.
func buildInsert(c clause.Clause, b clause.Builder) {
	insert, ok := c.Expression.(clause.Insert)
	stmt, isStmt := b.(*gorm.Statement)
	if !ok || !isStmt {
		c.Build(b)
		return
	}
	b.WriteString("INSERT ")
	if insert.Modifier != "" {
		b.WriteString(insert.Modifier)
		b.WriteByte(' ')
	}
	b.WriteString("INTO ")
	if insert.Table.Name == "" {
		b.WriteQuoted(stmt.Table)
	} else {
		b.WriteQuoted(insert.Table)
	}
}

// buildOnConflict writes SQLite's upsert clause. Unlike gorm's generic
// builder it never writes an empty "DO UPDATE SET" (an UpdateAll on a
// table whose only columns are the key): that becomes DO NOTHING.
func buildOnConflict(c clause.Clause, b clause.Builder) {
	oc, ok := c.Expression.(clause.OnConflict)
	if !ok {
		c.Build(b)
		return
	}
	b.WriteString("ON CONFLICT ")
	if oc.OnConstraint != "" {
		b.WriteString("ON CONSTRAINT ")
		b.WriteQuoted(oc.OnConstraint)
		b.WriteByte(' ')
	} else if len(oc.Columns) > 0 {
		b.WriteByte('(')
		for i, col := range oc.Columns {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteQuoted(col)
		}
		b.WriteString(") ")
		if len(oc.TargetWhere.Exprs) > 0 {
			b.WriteString("WHERE ")
			oc.TargetWhere.Build(b)
			b.WriteByte(' ')
		}
	}
	if oc.DoNothing || len(oc.DoUpdates) == 0 {
		b.WriteString("DO NOTHING")
		return
	}
	b.WriteString("DO UPDATE SET ")
	oc.DoUpdates.Build(b)
	if len(oc.Where.Exprs) > 0 {
		b.WriteString(" WHERE ")
		oc.Where.Build(b)
	}
}

// buildReturning writes RETURNING with the named columns, or * when none.
func buildReturning(c clause.Clause, b clause.Builder) {
	r, ok := c.Expression.(clause.Returning)
	if !ok {
		c.Build(b)
		return
	}
	b.WriteString("RETURNING ")
	r.Build(b)
}

// buildLimit writes LIMIT/OFFSET; an offset without a limit needs
// LIMIT -1, as SQLite's grammar has no OFFSET alone.
func buildLimit(c clause.Clause, b clause.Builder) {
	l, ok := c.Expression.(clause.Limit)
	if !ok {
		c.Build(b)
		return
	}
	n := -1
	if l.Limit != nil && *l.Limit >= 0 {
		n = *l.Limit
	}
	if n < 0 && l.Offset <= 0 {
		return
	}
	b.WriteString("LIMIT ")
	b.WriteString(strconv.Itoa(n))
	if l.Offset > 0 {
		b.WriteString(" OFFSET ")
		b.WriteString(strconv.Itoa(l.Offset))
	}
}

// buildLocking drops FOR UPDATE / FOR SHARE: ladybug has one writer at a
// time and snapshot reads, so there are no row locks to take; a
// read-write transaction (BEGIN IMMEDIATE by default) already holds the
// writer lock.
func buildLocking(c clause.Clause, b clause.Builder) {
	if _, ok := c.Expression.(clause.Locking); ok {
		return
	}
	c.Build(b)
}

// DefaultValueOf is what a multi-row INSERT writes for a field that one
// row leaves zero while another sets it: the field's declared default
// (ladybug, like SQLite, has no DEFAULT keyword in VALUES), or NULL for
// an auto-increment key so that it is assigned.
func (Dialector) DefaultValueOf(field *schema.Field) clause.Expression {
	switch {
	case field.AutoIncrement:
		return clause.Expr{SQL: "NULL"}
	case field.DefaultValueInterface != nil:
		return clause.Expr{SQL: "?", Vars: []any{field.DefaultValueInterface}}
	case field.HasDefaultValue && field.DefaultValue != "":
		return clause.Expr{SQL: field.DefaultValue}
	}
	return clause.Expr{SQL: "NULL"}
}

// Migrator returns the schema migrator.
func (d Dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return Migrator{migrator.Migrator{Config: migrator.Config{
		DB:                          db,
		Dialector:                   d,
		CreateIndexAfterCreateTable: true,
	}}}
}

// BindVarTo writes a positional placeholder.
func (Dialector) BindVarTo(w clause.Writer, _ *gorm.Statement, _ any) { w.WriteByte('?') }

// QuoteTo writes str as an identifier in backticks, each dot-separated
// part on its own (gorm passes "table.column" and "schema.table").
// Backticks, unlike double quotes, never fall back to a string literal
// when no column has the name. A part already in backticks or double
// quotes is taken as its unquoted text.
func (Dialector) QuoteTo(w clause.Writer, str string) {
	for i, part := range splitQualified(str) {
		if i > 0 {
			w.WriteByte('.')
		}
		w.WriteByte('`')
		w.WriteString(strings.ReplaceAll(part, "`", "``"))
		w.WriteByte('`')
	}
}

// splitQualified splits str at the dots outside quotes and unquotes each
// part.
func splitQualified(str string) []string {
	var parts []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(str); i++ {
		ch := str[i]
		switch {
		case quote != 0 && ch == quote:
			if i+1 < len(str) && str[i+1] == quote {
				cur.WriteByte(ch)
				i++
				continue
			}
			quote = 0
		case quote != 0:
			cur.WriteByte(ch)
		case (ch == '`' || ch == '"') && cur.Len() == 0:
			quote = ch
		case ch == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(ch)
		}
	}
	return append(parts, cur.String())
}

// Explain renders sql with its arguments inlined, for logs: strings in
// single quotes, as SQL writes them.
func (Dialector) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, nil, `'`, vars...)
}

// DataTypeOf is the column type gorm declares for field. The names are
// the ones gorm.io/driver/sqlite writes (numeric for bool, datetime for
// time, ...), so a database made by it migrates without changes; a string
// with a size is varchar(N) and a float with a precision decimal(P,S),
// which ColumnTypes reads back as length and decimal size.
func (Dialector) DataTypeOf(field *schema.Field) string {
	switch field.DataType {
	case schema.Bool:
		return "numeric"
	case schema.Int, schema.Uint:
		if field.AutoIncrement {
			// The rowid alias: ids are assigned and never reused.
			return "integer PRIMARY KEY AUTOINCREMENT"
		}
		return "integer"
	case schema.Float:
		if field.Precision > 0 {
			if field.Scale > 0 {
				return fmt.Sprintf("decimal(%d,%d)", field.Precision, field.Scale)
			}
			return fmt.Sprintf("decimal(%d)", field.Precision)
		}
		return "real"
	case schema.String:
		if field.Size > 0 && !field.PrimaryKey {
			return fmt.Sprintf("varchar(%d)", field.Size)
		}
		return "text"
	case schema.Time:
		if t, ok := field.TagSettings["TYPE"]; ok {
			return t
		}
		return "datetime"
	case schema.Bytes:
		return "blob"
	}
	// JSON (gorm.io/datatypes says "json" for the sqlite dialect),
	// decimal(p,s) from a type tag, and any other custom type name.
	return string(field.DataType)
}

// SavePoint sets savepoint name in the transaction tx.
func (Dialector) SavePoint(tx *gorm.DB, name string) error {
	return tx.Exec("SAVEPOINT " + quoteIdent(name)).Error
}

// RollbackTo rolls tx back to savepoint name, which stays set.
func (Dialector) RollbackTo(tx *gorm.DB, name string) error {
	return tx.Exec("ROLLBACK TO SAVEPOINT " + quoteIdent(name)).Error
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
