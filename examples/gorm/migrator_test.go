package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	_ "modernc.org/sqlite"
)

// The migrator models: a team with a unique name and a user with a
// unique column, a composite index, a check constraint, a decimal(10,2)
// column and a foreign key with actions.
type MTeam struct {
	ID   uint   `gorm:"primaryKey"`
	Name string `gorm:"size:64;uniqueIndex"`
}

type MUser struct {
	ID      uint    `gorm:"primaryKey"`
	Email   string  `gorm:"unique;not null"`
	Name    string  `gorm:"index:idx_name_age,priority:1"`
	Age     int     `gorm:"index:idx_name_age,priority:2;check:age_checker,age >= 0"`
	Balance float64 `gorm:"type:decimal(10,2);default:0"`
	Nick    string  `gorm:"size:20"`
	TeamID  *uint
	Team    MTeam `gorm:"constraint:OnUpdate:CASCADE,OnDelete:SET NULL;"`
}

// MUserV2 is MUser one release later: Nick is longer (an AlterColumn,
// which the SQLite migrator does by rebuilding the table), Score is new
// (ADD COLUMN) and indexed.
type MUserV2 struct {
	ID      uint    `gorm:"primaryKey"`
	Email   string  `gorm:"unique;not null"`
	Name    string  `gorm:"index:idx_name_age,priority:1"`
	Age     int     `gorm:"index:idx_name_age,priority:2;check:age_checker,age >= 0"`
	Balance float64 `gorm:"type:decimal(10,2);default:0"`
	Nick    string  `gorm:"size:40"`
	Score   int     `gorm:"default:5;index"`
	TeamID  *uint
	Team    MTeam `gorm:"constraint:OnUpdate:CASCADE,OnDelete:SET NULL;"`
}

func (MUserV2) TableName() string { return "m_users" }

// recorder is a gorm logger that keeps every statement gorm sends.
type recorder struct{ stmts []string }

func (r *recorder) LogMode(logger.LogLevel) logger.Interface      { return r }
func (r *recorder) Info(context.Context, string, ...interface{})  {}
func (r *recorder) Warn(context.Context, string, ...interface{})  {}
func (r *recorder) Error(context.Context, string, ...interface{}) {}
func (r *recorder) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	s, _ := fc()
	r.stmts = append(r.stmts, s)
}

// openMigrator opens gorm's SQLite dialector over driver (ladybug or
// modernc's SQLite) with foreign keys on, recording the statements.
func openMigrator(t *testing.T, driver, dsn string) (*gorm.DB, *recorder) {
	sqlDB, err := sql.Open(driver, dsn)
	require.NoError(t, err)
	sqlDB.SetMaxOpenConns(1)
	t.Cleanup(func() { sqlDB.Close() })
	rec := &recorder{}
	// A fixed clock keeps the recorded statements the same run to run.
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	db, err := gorm.Open(sqlite.Dialector{Conn: sqlDB}, &gorm.Config{Logger: rec, NowFunc: now})
	require.NoError(t, err)
	return db, rec
}

// migrate runs AutoMigrate, the Migrator's introspection calls and its
// table rebuilds, and returns what each call answered.
func migrate(t *testing.T, db *gorm.DB) []string {
	var obs []string
	note := func(format string, args ...any) { obs = append(obs, fmt.Sprintf(format, args...)) }
	m := db.Migrator()
	require.NoError(t, db.AutoMigrate(&MTeam{}, &MUser{}))
	require.NoError(t, db.AutoMigrate(&MTeam{}, &MUser{}), "a second AutoMigrate changes nothing")
	require.NoError(t, db.Create(&MTeam{Name: "red"}).Error)
	team := uint(1)
	require.NoError(t, db.Create(&MUser{Email: "ada@x", Name: "Ada", Age: 36, Balance: 12.5, Nick: "a", TeamID: &team}).Error)

	tables, err := m.GetTables()
	sort.Strings(tables)
	note("GetTables %v %v", tables, err)
	note("HasTable %v %v", m.HasTable(&MUser{}), m.HasTable("nope"))
	note("HasColumn %v %v %v", m.HasColumn(&MUser{}, "Email"), m.HasColumn(&MUser{}, "balance"), m.HasColumn(&MUser{}, "missing"))
	note("HasIndex %v %v %v", m.HasIndex(&MUser{}, "idx_name_age"), m.HasIndex(&MTeam{}, "Name"), m.HasIndex(&MUser{}, "nope"))
	note("HasConstraint %v %v %v", m.HasConstraint(&MUser{}, "age_checker"), m.HasConstraint(&MUser{}, "Team"), m.HasConstraint(&MUser{}, "nope"))
	note("CurrentDatabase %s", m.CurrentDatabase())
	noteColumns(t, m, note, &MUser{})
	noteIndexes(t, m, note, &MUser{})

	require.NoError(t, m.RenameIndex(&MUser{}, "idx_name_age", "idx_name_age2"))
	note("RenameIndex %v %v", m.HasIndex(&MUser{}, "idx_name_age"), m.HasIndex(&MUser{}, "idx_name_age2"))
	require.NoError(t, m.RenameIndex(&MUser{}, "idx_name_age2", "idx_name_age"))

	require.NoError(t, db.AutoMigrate(&MUserV2{}), "the rebuild (AlterColumn) and ADD COLUMN")
	noteColumns(t, m, note, &MUserV2{})
	noteIndexes(t, m, note, &MUserV2{})
	require.NoError(t, m.AlterColumn(&MUserV2{}, "Nick"))
	require.NoError(t, m.DropConstraint(&MUserV2{}, "age_checker"))
	note("DropConstraint %v", m.HasConstraint(&MUserV2{}, "age_checker"))
	require.NoError(t, m.CreateConstraint(&MUserV2{}, "age_checker"))
	note("CreateConstraint %v", m.HasConstraint(&MUserV2{}, "age_checker"))
	require.NoError(t, m.RenameColumn(&MUserV2{}, "nick", "nickname"))
	note("RenameColumn %v %v", m.HasColumn(&MUserV2{}, "nick"), m.HasColumn(&MUserV2{}, "nickname"))
	require.NoError(t, m.DropColumn(&MUserV2{}, "nickname"))
	note("DropColumn %v", m.HasColumn(&MUserV2{}, "nickname"))
	noteColumns(t, m, note, &MUserV2{})

	var got []map[string]any
	require.NoError(t, db.Raw("SELECT id, email, name, age, balance, score, team_id FROM m_users").Scan(&got).Error)
	note("rows %v", got)
	note("check %v", db.Exec("UPDATE m_users SET age = -1").Error != nil)
	note("fk %v", db.Exec("INSERT INTO m_users(email, team_id) VALUES ('b@x', 99)").Error != nil)
	require.NoError(t, db.Exec("DELETE FROM m_teams").Error)
	var teamID sql.NullInt64
	require.NoError(t, db.Raw("SELECT team_id FROM m_users").Row().Scan(&teamID))
	note("on delete set null %v", teamID)
	var sqls []string
	require.NoError(t, db.Raw("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").Scan(&sqls).Error)
	note("schema %s", strings.Join(sqls, "\n"))
	return obs
}

func noteColumns(t *testing.T, m gorm.Migrator, note func(string, ...any), model any) {
	cts, err := m.ColumnTypes(model)
	require.NoError(t, err)
	for _, ct := range cts {
		nl, nok := ct.Nullable()
		pk, pok := ct.PrimaryKey()
		un, uok := ct.Unique()
		dv, dvok := ct.DefaultValue()
		ctype, _ := ct.ColumnType()
		// Length and DecimalSize are left out: they come from the
		// driver's column metadata, not the catalog (modernc reports
		// text columns as MaxInt64 long and no decimal size; ladybug no
		// length and the declared precision and scale).
		note("column %s %s %q null=%v,%v pk=%v,%v unique=%v,%v default=%q,%v",
			ct.Name(), ct.DatabaseTypeName(), ctype, nl, nok, pk, pok, un, uok, dv, dvok)
	}
}

func noteIndexes(t *testing.T, m gorm.Migrator, note func(string, ...any), model any) {
	idx, err := m.GetIndexes(model)
	require.NoError(t, err)
	sort.Slice(idx, func(i, j int) bool { return idx[i].Name() < idx[j].Name() })
	for _, ix := range idx {
		u, _ := ix.Unique()
		pk, _ := ix.PrimaryKey()
		note("index %s %s %v unique=%v pk=%v", ix.Table(), ix.Name(), ix.Columns(), u, pk)
	}
}

// TestGorm_Migrator_AnswersAsSQLite runs the migration on ladybug and on
// SQLite (modernc) through the same dialector: gorm must send the same
// statements (it decides from the catalog's answers) and every Migrator
// call must answer the same. The statements are kept in
// testdata/migrator_corpus.sql (LADYBUG_GORM_UPDATE=1 rewrites it).
func TestGorm_Migrator_AnswersAsSQLite(t *testing.T) {
	lb, lbRec := openMigrator(t, "ladybug", "file:"+t.Name()+"?mode=memory")
	lite, liteRec := openMigrator(t, "sqlite", "file:"+t.Name()+"?mode=memory&_pragma=foreign_keys(1)")
	want := migrate(t, lite)
	got := migrate(t, lb)
	assert.Equal(t, want, got)
	assert.Equal(t, liteRec.stmts, lbRec.stmts, "gorm sent different statements")

	cts, err := lb.Migrator().ColumnTypes(&MUserV2{})
	require.NoError(t, err)
	for _, ct := range cts {
		if ct.Name() == "balance" {
			p, s, ok := ct.DecimalSize()
			assert.Equal(t, []any{int64(10), int64(2), true}, []any{p, s, ok}, "ladybug reports decimal(10,2)")
		}
	}

	checkCorpus(t, "testdata/migrator_corpus.sql", lbRec.stmts)
}

// checkCorpus compares the statements of a run with the stored corpus
// (LADYBUG_GORM_UPDATE=1 rewrites it).
func checkCorpus(t *testing.T, corpus string, stmts []string) {
	text := strings.Join(stmts, ";\n") + ";\n"
	if os.Getenv("LADYBUG_GORM_UPDATE") == "1" {
		require.NoError(t, os.WriteFile(corpus, []byte(text), 0o644))
	}
	stored, err := os.ReadFile(corpus)
	require.NoError(t, err)
	assert.Equal(t, string(stored), text, "the corpus changed: rerun with LADYBUG_GORM_UPDATE=1 and review")
}
