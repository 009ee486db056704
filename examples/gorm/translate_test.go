package main

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// TestGorm_TranslateError_DuplicateAndForeignKey checks that gorm's SQLite
// dialector reads ladybug's ExtendedCode (it decodes the error's JSON
// form, as it does go-sqlite3's), so TranslateError yields gorm's
// sentinels.
func TestGorm_TranslateError_DuplicateAndForeignKey(t *testing.T) {
	sqlDB, err := sql.Open("ladybug", "file:"+t.Name()+"?mode=memory")
	require.NoError(t, err)
	defer sqlDB.Close()
	db, err := gorm.Open(sqlite.Dialector{Conn: sqlDB}, &gorm.Config{TranslateError: true, Logger: logger.Default.LogMode(logger.Silent)})
	require.NoError(t, err)
	require.NoError(t, db.AutoMigrate(&Customer{}, &Order{}))
	require.NoError(t, db.Create(&Customer{Name: "Ada", Email: "a@x"}).Error)
	err = db.Create(&Customer{Name: "Eve", Email: "a@x"}).Error
	assert.ErrorIs(t, err, gorm.ErrDuplicatedKey)
	err = db.Create(&Customer{ID: 1, Name: "Bob", Email: "b@x"}).Error
	assert.ErrorIs(t, err, gorm.ErrDuplicatedKey, "a primary key clash")
	err = db.Create(&Order{CustomerID: 99, Amount: 1}).Error
	assert.ErrorIs(t, err, gorm.ErrForeignKeyViolated)
}
