package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

func TestGorm_AutoMigrateCreateQuery(t *testing.T) {
	db, sqlDB, err := open("file:" + t.Name() + "?mode=memory")
	require.NoError(t, err)
	defer sqlDB.Close()
	require.NoError(t, db.AutoMigrate(&Customer{}, &Order{}))
	require.NoError(t, db.AutoMigrate(&Customer{}, &Order{}), "a second AutoMigrate is a no-op")

	assert.True(t, db.Migrator().HasTable(&Customer{}))
	assert.True(t, db.Migrator().HasIndex(&Customer{}, "Email"))
	assert.True(t, db.Migrator().HasColumn(&Order{}, "Amount"))

	c := Customer{Name: "Ada", Email: "ada@example.com", Orders: []Order{{Amount: 12.5}, {Amount: 7, Note: "x"}}}
	require.NoError(t, db.Create(&c).Error)
	assert.NotZero(t, c.ID)
	assert.NotZero(t, c.Orders[1].ID, "ids come back through RETURNING in VALUES order")

	err = db.Create(&Customer{Name: "Eve", Email: "ada@example.com"}).Error
	require.Error(t, err)
	assert.True(t, errors.Is(err, ladybug.ErrConstraintUnique), "%v", err)

	err = db.Create(&Order{CustomerID: c.ID, Amount: -1}).Error
	assert.True(t, errors.Is(err, ladybug.ErrConstraintCheck), "%v", err)
	err = db.Create(&Order{CustomerID: 999, Amount: 1}).Error
	assert.True(t, errors.Is(err, ladybug.ErrConstraintForeignKey), "%v", err)

	var got Customer
	require.NoError(t, db.Preload("Orders").First(&got, c.ID).Error)
	assert.Len(t, got.Orders, 2)
	var total float64
	require.NoError(t, db.Model(&Order{}).Select("sum(amount)").Where("customer_id = ?", c.ID).Scan(&total).Error)
	assert.Equal(t, 19.5, total)

	require.NoError(t, db.Model(&got).Update("name", "Ada L.").Error)
	require.NoError(t, db.Where("amount < ?", 10).Delete(&Order{}).Error)
	var n int64
	require.NoError(t, db.Model(&Order{}).Count(&n).Error)
	assert.EqualValues(t, 1, n)
}

// CustomerV2 adds a column and changes a column's type, which ladybug's
// dialector does in place with ALTER TABLE … ALTER COLUMN (gorm's SQLite
// dialector would copy the table).
type CustomerV2 struct {
	ID     uint   `gorm:"primaryKey"`
	Name   string `gorm:"type:text;not null;index"`
	Email  string `gorm:"uniqueIndex;not null"`
	Rating int    `gorm:"default:3"`
}

func (CustomerV2) TableName() string { return "customers" }

func TestGorm_AutoMigrate_AlterInPlace(t *testing.T) {
	db, sqlDB, err := open("file:" + t.Name() + "?mode=memory")
	require.NoError(t, err)
	defer sqlDB.Close()
	require.NoError(t, db.AutoMigrate(&Customer{}))
	require.NoError(t, db.Create(&Customer{Name: "Ada", Email: "a@x"}).Error)

	require.NoError(t, db.AutoMigrate(&CustomerV2{}))
	var c CustomerV2
	require.NoError(t, db.First(&c).Error)
	assert.Equal(t, "Ada", c.Name)
	assert.Equal(t, 3, c.Rating, "the added column's default fills old rows")
	assert.True(t, db.Migrator().HasIndex(&CustomerV2{}, "Email"))
}
