package main

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// MEvent exercises the column kinds and options gorm models commonly use:
// timestamps, a soft-delete column, a boolean with a default, a blob, a
// composite unique index and a CURRENT_TIMESTAMP default.
type MEvent struct {
	ID        uint   `gorm:"primaryKey"`
	Kind      string `gorm:"size:16;uniqueIndex:idx_kind_code"`
	Code      int    `gorm:"uniqueIndex:idx_kind_code"`
	Active    bool   `gorm:"default:true"`
	Data      []byte
	At        time.Time `gorm:"default:CURRENT_TIMESTAMP"`
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
}

// MEventV2 makes Code unique on its own and adds an indexed column.
type MEventV2 struct {
	ID        uint   `gorm:"primaryKey"`
	Kind      string `gorm:"size:16;uniqueIndex:idx_kind_code"`
	Code      int    `gorm:"uniqueIndex:idx_kind_code;unique"`
	Active    bool   `gorm:"default:true"`
	Data      []byte
	At        time.Time `gorm:"default:CURRENT_TIMESTAMP"`
	Label     string    `gorm:"index:,sort:desc"`
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
}

func (MEventV2) TableName() string { return "m_events" }

// migrateMore runs table, view and index calls of the Migrator on MEvent
// and returns what each answered.
func migrateMore(t *testing.T, db *gorm.DB) []string {
	var obs []string
	note := func(format string, args ...any) { obs = append(obs, fmt.Sprintf(format, args...)) }
	m := db.Migrator()
	require.NoError(t, m.CreateTable(&MEvent{}))
	require.NoError(t, db.AutoMigrate(&MEvent{}))
	noteColumns(t, m, note, &MEvent{})
	noteIndexes(t, m, note, &MEvent{})
	require.NoError(t, db.Create(&MEvent{Kind: "a", Code: 1, Data: []byte{1, 2}}).Error)
	require.NoError(t, db.Create(&MEvent{Kind: "a", Code: 2, Active: false}).Error)
	note("duplicate %v", db.Create(&MEvent{Kind: "a", Code: 1}).Error != nil)
	require.NoError(t, db.Where("code = ?", 2).Delete(&MEvent{}).Error)
	var live, all int64
	require.NoError(t, db.Model(&MEvent{}).Count(&live).Error)
	require.NoError(t, db.Unscoped().Model(&MEvent{}).Count(&all).Error)
	note("soft delete %d %d", live, all)
	var ev MEvent
	require.NoError(t, db.First(&ev).Error)
	note("row %s %d %v %v at-set=%v", ev.Kind, ev.Code, ev.Active, ev.Data, !ev.At.IsZero())

	require.NoError(t, db.AutoMigrate(&MEventV2{}))
	noteColumns(t, m, note, &MEventV2{})
	noteIndexes(t, m, note, &MEventV2{})
	note("HasIndex %v %v", m.HasIndex(&MEventV2{}, "Label"), m.HasIndex(&MEventV2{}, "idx_kind_code"))
	require.NoError(t, m.DropIndex(&MEventV2{}, "Label"))
	note("DropIndex %v", m.HasIndex(&MEventV2{}, "Label"))
	require.NoError(t, m.CreateIndex(&MEventV2{}, "Label"))
	note("CreateIndex %v", m.HasIndex(&MEventV2{}, "Label"))

	require.NoError(t, m.CreateView("m_active", gorm.ViewOption{Query: db.Model(&MEvent{}).Select("kind, code").Where("active")}))
	var kinds []string
	require.NoError(t, db.Table("m_active").Pluck("kind", &kinds).Error)
	note("view %v", kinds)
	require.NoError(t, m.DropView("m_active"))
	note("view dropped %v", db.Table("m_active").Pluck("kind", &kinds).Error != nil)

	require.NoError(t, m.RenameTable("m_events", "m_events_old"))
	note("RenameTable %v %v", m.HasTable("m_events"), m.HasTable("m_events_old"))
	require.NoError(t, m.RenameTable("m_events_old", &MEventV2{}))
	require.NoError(t, m.DropTable(&MEventV2{}))
	tables, err := m.GetTables()
	sort.Strings(tables)
	note("DropTable %v %v %v", m.HasTable(&MEventV2{}), tables, err)
	note("aliases %v", m.GetTypeAliases("integer"))
	return obs
}

// TestGorm_MigratorMore_AnswersAsSQLite is TestGorm_Migrator_AnswersAsSQLite
// for MEvent: same statements, same answers; the statements are kept in
// testdata/migrator_more_corpus.sql.
func TestGorm_MigratorMore_AnswersAsSQLite(t *testing.T) {
	lb, lbRec := openMigrator(t, "ladybug", "file:"+t.Name()+"?mode=memory")
	lite, liteRec := openMigrator(t, "sqlite", "file:"+t.Name()+"?mode=memory&_pragma=foreign_keys(1)")
	want := migrateMore(t, lite)
	got := migrateMore(t, lb)
	assert.Equal(t, want, got)
	assert.Equal(t, liteRec.stmts, lbRec.stmts, "gorm sent different statements")
	checkCorpus(t, "testdata/migrator_more_corpus.sql", lbRec.stmts)
}
