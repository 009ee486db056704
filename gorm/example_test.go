package sqlite_test

import (
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	sqlite "github.com/ladybugsql/ladybug/gorm"
)

type Gopher struct {
	ID   uint
	Name string `gorm:"uniqueIndex"`
	Age  int
}

// ExampleOpen opens a ladybug database under gorm, migrates a model and
// runs a query: the program a gorm.io/driver/sqlite user has, with its
// import line changed.
func ExampleOpen() {
	db, err := gorm.Open(sqlite.Open("file:example?mode=memory"), &gorm.Config{Logger: logger.Discard, TranslateError: true})
	if err != nil {
		panic(err)
	}
	sqlDB, _ := db.DB()
	defer sqlDB.Close()
	if err := db.AutoMigrate(&Gopher{}); err != nil {
		panic(err)
	}
	db.Create(&[]Gopher{{Name: "Ada", Age: 36}, {Name: "Rob", Age: 60}})
	err = db.Create(&Gopher{Name: "Ada"}).Error
	fmt.Println(err == gorm.ErrDuplicatedKey)

	var names []string
	db.Model(&Gopher{}).Where("age > ?", 40).Pluck("name", &names)
	fmt.Println(names)
	// Output:
	// true
	// [Rob]
}
