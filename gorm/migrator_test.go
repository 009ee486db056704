package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

type Team struct {
	ID   uint
	Name string `gorm:"size:64;uniqueIndex"`
}

// MemberV1 is the first release of a model.
type MemberV1 struct {
	ID      uint
	Email   string  `gorm:"unique;not null"`
	Name    string  `gorm:"size:20;index:idx_name_age,priority:1"`
	Age     int     `gorm:"index:idx_name_age,priority:2"`
	Balance float64 `gorm:"type:decimal(10,2);default:0"`
	Level   string
	TeamID  *uint
	Team    Team `gorm:"constraint:OnUpdate:CASCADE,OnDelete:SET NULL;"`
}

func (MemberV1) TableName() string { return "members" }

// MemberV2 is the next release: Name is longer (a type change), Level
// gets a default and NOT NULL, Score is new and indexed, Age gets a CHECK
// constraint, Email stays unique.
type MemberV2 struct {
	ID      uint
	Email   string  `gorm:"unique;not null"`
	Name    string  `gorm:"size:40;index:idx_name_age,priority:1"`
	Age     int     `gorm:"index:idx_name_age,priority:2;check:age_checker,age >= 0"`
	Balance float64 `gorm:"type:decimal(12,3);default:0"`
	Level   string  `gorm:"not null;default:'basic'"`
	Score   int     `gorm:"default:5;index"`
	TeamID  *uint
	Team    Team `gorm:"constraint:OnUpdate:CASCADE,OnDelete:SET NULL;"`
}

func (MemberV2) TableName() string { return "members" }

func TestAutoMigrate_ChangedModelTwice(t *testing.T) {
	rec := newRecorder()
	db := openDB(t, &gorm.Config{Logger: rec})
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV1{}))
	require.NoError(t, db.Create(&MemberV1{Email: "a@x", Name: "ada", Age: 30, Balance: 1.5, Team: Team{Name: "t1"}}).Error)
	createSQL := tableSQL(t, db, "members")

	rec.stmts = nil
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV1{}))
	assert.Empty(t, rec.matching("ALTER"), "an unchanged model migrates to nothing")
	assert.Empty(t, rec.matching("CREATE"))

	rec.stmts = nil
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV2{}))
	alters := strings.Join(rec.matching("ALTER"), "\n")
	assert.Contains(t, alters, "ADD `score`")
	assert.Contains(t, alters, "ALTER COLUMN `name` TYPE varchar(40)")
	assert.Contains(t, alters, "ALTER COLUMN `balance` TYPE decimal(12,3)")
	assert.Contains(t, alters, "ALTER COLUMN `level` SET DEFAULT 'basic'")
	assert.Contains(t, alters, "ADD CONSTRAINT `age_checker` CHECK (age >= 0)")
	assert.Empty(t, rec.matching("INSERT"), "no table copy")
	assert.Empty(t, rec.matching("DROP TABLE"), "no table copy")
	assert.NotEqual(t, createSQL, tableSQL(t, db, "members"))

	m := db.Migrator()
	assert.True(t, m.HasColumn(&MemberV2{}, "Score"))
	assert.True(t, m.HasIndex(&MemberV2{}, "idx_members_score"))
	assert.True(t, m.HasIndex(&MemberV2{}, "idx_name_age"))
	assert.True(t, m.HasConstraint(&MemberV2{}, "age_checker"))
	assert.True(t, m.HasConstraint(&MemberV2{}, "fk_members_team"))

	var got MemberV2
	require.NoError(t, db.Preload("Team").First(&got).Error)
	assert.Equal(t, "ada", got.Name, "rows survive")
	assert.Equal(t, 5, got.Score, "the added column's default fills old rows")
	assert.Equal(t, "t1", got.Team.Name)
	assert.Error(t, db.Create(&MemberV2{Email: "b@x", Age: -1}).Error, "the new CHECK holds")

	rec.stmts = nil
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV2{}))
	assert.Empty(t, rec.matching("ALTER"), "the changed model, migrated again, changes nothing: %v", rec.matching("ALTER"))
	assert.Empty(t, rec.matching("CREATE"))
}

func tableSQL(t *testing.T, db *gorm.DB, table string) string {
	t.Helper()
	var s string
	require.NoError(t, db.Raw("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&s).Error)
	return s
}

func TestMigrator_ColumnTypes(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV2{}))
	cts, err := db.Migrator().ColumnTypes(&MemberV2{})
	require.NoError(t, err)
	byName := map[string]gorm.ColumnType{}
	for _, ct := range cts {
		byName[ct.Name()] = ct
	}
	require.Len(t, byName, 8)

	id := byName["id"]
	pk, _ := id.PrimaryKey()
	auto, _ := id.AutoIncrement()
	assert.True(t, pk)
	assert.True(t, auto)
	assert.Equal(t, "integer", id.DatabaseTypeName())

	email := byName["email"]
	uniq, ok := email.Unique()
	assert.True(t, ok && uniq, "email is UNIQUE")
	null, _ := email.Nullable()
	assert.False(t, null)
	uniq, _ = byName["name"].Unique()
	assert.False(t, uniq, "an index in a composite index is not unique")

	name := byName["name"]
	n, ok := name.Length()
	assert.True(t, ok)
	assert.EqualValues(t, 40, n)
	assert.Equal(t, "varchar", name.DatabaseTypeName())
	typ, _ := name.ColumnType()
	assert.Equal(t, "varchar(40)", typ)

	p, s, ok := byName["balance"].DecimalSize()
	assert.True(t, ok)
	assert.EqualValues(t, 12, p)
	assert.EqualValues(t, 3, s)
	dv, ok := byName["balance"].DefaultValue()
	assert.True(t, ok)
	assert.Equal(t, "0", dv)

	dv, ok = byName["level"].DefaultValue()
	assert.True(t, ok)
	assert.Equal(t, "basic", dv, "a string default without its quotes")
	_, ok = byName["age"].DefaultValue()
	assert.False(t, ok, "no default")
	null, _ = byName["team_id"].Nullable()
	assert.True(t, null)
}

func TestMigrator_AlterColumnInPlace(t *testing.T) {
	type Doc struct {
		ID    uint
		Title string `gorm:"size:10"`
		Rank  string
	}
	type DocV2 struct {
		ID    uint
		Title string `gorm:"size:80;not null;default:'untitled'"`
		Rank  int
	}
	rec := newRecorder()
	db := openDB(t, &gorm.Config{Logger: rec})
	require.NoError(t, db.Table("docs").AutoMigrate(&Doc{}))
	require.NoError(t, db.Table("docs").Create(&Doc{Title: "x", Rank: "7"}).Error)
	require.NoError(t, db.Exec("CREATE INDEX idx_rank ON docs(rank)").Error)
	require.NoError(t, db.Exec("CREATE VIEW ranked AS SELECT title, rank FROM docs").Error)

	rec.stmts = nil
	m := db.Table("docs").Migrator()
	require.NoError(t, m.AlterColumn(&DocV2{}, "Rank"))
	require.NoError(t, m.AlterColumn(&DocV2{}, "Title"))
	assert.ErrorContains(t, m.AlterColumn(&DocV2{}, "ID"), "rowid", "the key cannot change: an error, not silence")
	assert.Empty(t, rec.matching("INSERT"))
	assert.Empty(t, rec.matching("DROP TABLE"))

	var rank any
	require.NoError(t, db.Raw("SELECT rank FROM docs").Row().Scan(&rank))
	assert.Equal(t, int64(7), rank, "the text '7' took the new INTEGER affinity in place")
	assert.True(t, m.HasIndex("docs", "idx_rank"), "indexes on the table stay")
	var title string
	require.NoError(t, db.Raw("SELECT title FROM ranked").Row().Scan(&title), "views on the table stay")
	assert.Equal(t, "x", title)
	require.NoError(t, db.Exec("INSERT INTO docs (rank) VALUES (1)").Error)
	require.NoError(t, db.Raw("SELECT title FROM docs WHERE rank = 1").Row().Scan(&title))
	assert.Equal(t, "untitled", title, "the new default")
	assert.Error(t, db.Exec("INSERT INTO docs (title, rank) VALUES (NULL, 2)").Error, "the new NOT NULL")
}

func TestMigrator_TablesColumnsIndexesConstraintsViews(t *testing.T) {
	db := openDB(t, nil)
	m := db.Migrator()
	require.NoError(t, m.CreateTable(&Team{}, &MemberV2{}))
	assert.True(t, m.HasTable(&MemberV2{}))
	assert.True(t, m.HasTable("teams"))
	assert.False(t, m.HasTable("nope"))
	tables, err := m.GetTables()
	require.NoError(t, err)
	assert.Equal(t, []string{"members", "teams"}, tables)
	assert.Equal(t, "main", m.CurrentDatabase())
	tt, err := m.TableType(&MemberV2{})
	require.NoError(t, err)
	assert.Equal(t, "members", tt.Name())

	// Columns.
	require.NoError(t, m.RenameColumn(&MemberV2{}, "level", "tier"))
	assert.True(t, m.HasColumn(&MemberV2{}, "tier"))
	assert.False(t, m.HasColumn(&MemberV2{}, "level"))
	require.NoError(t, m.RenameColumn(&MemberV2{}, "tier", "level"))
	require.NoError(t, m.DropColumn(&MemberV2{}, "Score"))
	assert.False(t, m.HasColumn(&MemberV2{}, "Score"))
	require.NoError(t, m.AddColumn(&MemberV2{}, "Score"))
	assert.True(t, m.HasColumn(&MemberV2{}, "score"))

	// Indexes.
	assert.True(t, m.HasIndex(&MemberV2{}, "idx_name_age"))
	require.NoError(t, m.RenameIndex(&MemberV2{}, "idx_name_age", "idx_na"))
	assert.False(t, m.HasIndex(&MemberV2{}, "idx_name_age"))
	assert.True(t, m.HasIndex(&MemberV2{}, "idx_na"))
	idxs, err := m.GetIndexes(&MemberV2{})
	require.NoError(t, err)
	cols := map[string][]string{}
	for _, ix := range idxs {
		cols[ix.Name()] = ix.Columns()
	}
	assert.Equal(t, []string{"name", "age"}, cols["idx_na"])
	require.NoError(t, m.DropIndex(&MemberV2{}, "idx_na"))
	assert.False(t, m.HasIndex(&MemberV2{}, "idx_na"))
	require.NoError(t, m.CreateIndex(&MemberV2{}, "idx_name_age"))
	assert.True(t, m.HasIndex(&MemberV2{}, "idx_name_age"))

	// Constraints: CHECK, FOREIGN KEY and UNIQUE, dropped and added back
	// in place (the UNIQUE comes back as a unique index of its name).
	cons := []string{"age_checker", "fk_members_team", "uni_members_email"}
	for _, name := range cons {
		assert.True(t, m.HasConstraint(&MemberV2{}, name), name)
		require.NoError(t, m.DropConstraint(&MemberV2{}, name), name)
		assert.False(t, m.HasConstraint(&MemberV2{}, name), name)
	}
	require.NoError(t, db.Create(&MemberV2{Email: "a", Age: -5, TeamID: ptr(uint(99))}).Error, "no constraint left to break")
	require.NoError(t, db.Create(&MemberV2{Email: "a"}).Error, "not unique any more")
	require.NoError(t, db.Exec("DELETE FROM members").Error)
	for _, name := range cons {
		require.NoError(t, m.CreateConstraint(&MemberV2{}, name), name)
		assert.True(t, m.HasConstraint(&MemberV2{}, name), name)
	}
	assert.Error(t, db.Create(&MemberV2{Email: "c", Age: -5}).Error, "CHECK back")
	assert.Error(t, db.Create(&MemberV2{Email: "c", TeamID: ptr(uint(99))}).Error, "FOREIGN KEY back")
	require.NoError(t, db.Create(&MemberV2{Email: "c"}).Error)
	assert.Error(t, db.Create(&MemberV2{Email: "c"}).Error, "UNIQUE back")
	var check string
	require.NoError(t, db.Raw("PRAGMA integrity_check").Scan(&check).Error)
	assert.Equal(t, "ok", check)

	// Views.
	q := db.Model(&MemberV2{}).Select("email").Where("age >= ?", 0)
	require.NoError(t, m.CreateView("adults", gorm.ViewOption{Query: q}))
	require.NoError(t, m.CreateView("adults", gorm.ViewOption{Query: q.Where("email <> ?", "x"), Replace: true}))
	var emails []string
	require.NoError(t, db.Table("adults").Pluck("email", &emails).Error)
	assert.Equal(t, []string{"c"}, emails)
	require.NoError(t, m.DropView("adults"))
	assert.Error(t, db.Table("adults").Pluck("email", &emails).Error)

	require.NoError(t, m.DropTable(&MemberV2{}, &Team{}))
	assert.False(t, m.HasTable(&MemberV2{}))
	assert.False(t, m.HasTable(&Team{}))
}

func ptr[T any](v T) *T { return &v }

// Tag's Code became unique after its table was made.
type Tag struct {
	ID   uint
	Code string `gorm:"unique"`
}

func TestMigrator_UniqueConstraintAsIndex(t *testing.T) {
	rec := newRecorder()
	db := openDB(t, &gorm.Config{Logger: rec})
	require.NoError(t, db.Exec("CREATE TABLE tags (id integer PRIMARY KEY AUTOINCREMENT, code text)").Error)
	require.NoError(t, db.Exec("INSERT INTO tags (code) VALUES ('a'), ('b')").Error)
	require.NoError(t, db.AutoMigrate(&Tag{}))
	m := db.Migrator()
	assert.True(t, m.HasConstraint(&Tag{}, "uni_tags_code"))
	assert.Error(t, db.Create(&Tag{Code: "a"}).Error, "unique now")
	rec.stmts = nil
	require.NoError(t, db.AutoMigrate(&Tag{}))
	assert.Empty(t, rec.matching("CREATE"), "migrated again: nothing to do")
	assert.Empty(t, rec.matching("ALTER"))
	require.NoError(t, m.DropConstraint(&Tag{}, "uni_tags_code"))
	assert.False(t, m.HasConstraint(&Tag{}, "uni_tags_code"))
	require.NoError(t, db.Create(&Tag{Code: "a"}).Error, "no longer unique")
}
