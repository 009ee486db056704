// Command gorm shows ladybug under gorm through ladybug's own dialector,
// github.com/ladybugsql/ladybug/gorm (package sqlite): no cgo, no SQLite.
// A program written for gorm.io/driver/sqlite changes its import line
// only. (The tests beside it also run gorm.io/driver/sqlite's dialector
// on ladybug and on SQLite, for programs that keep that dialector.)
//
//	go run .
package main

import (
	"database/sql"
	"fmt"
	"log"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	sqlite "github.com/ladybugsql/ladybug/gorm"
)

// Customer has a unique email and many orders.
type Customer struct {
	ID     uint   `gorm:"primaryKey"`
	Name   string `gorm:"size:100;not null;index"`
	Email  string `gorm:"uniqueIndex;not null"`
	Orders []Order
}

// Order belongs to a customer; its amount is a decimal(10,2) that must be
// positive.
type Order struct {
	ID         uint `gorm:"primaryKey"`
	CustomerID uint `gorm:"not null;index"`
	Customer   Customer
	Amount     float64 `gorm:"type:decimal(10,2);check:amount > 0"`
	Note       string
}

// open returns a gorm DB on a ladybug database.
func open(dsn string) (*gorm.DB, *sql.DB, error) {
	sqlDB, err := sql.Open("ladybug", dsn)
	if err != nil {
		return nil, nil, err
	}
	db, err := gorm.Open(sqlite.New(sqlite.Config{Conn: sqlDB}), &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
	if err != nil {
		sqlDB.Close()
		return nil, nil, err
	}
	return db, sqlDB, nil
}

func main() {
	db, sqlDB, err := open(":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer sqlDB.Close()
	if err := db.AutoMigrate(&Customer{}, &Order{}); err != nil {
		log.Fatal(err)
	}
	c := Customer{Name: "Ada", Email: "ada@example.com", Orders: []Order{{Amount: 12.5}, {Amount: 7}}}
	if err := db.Create(&c).Error; err != nil {
		log.Fatal(err)
	}
	var got Customer
	if err := db.Preload("Orders").First(&got, c.ID).Error; err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s has %d orders\n", got.Name, len(got.Orders))
}
