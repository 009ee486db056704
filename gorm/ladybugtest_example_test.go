package sqlite_test

import (
	"database/sql"
	"fmt"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	sqlite "github.com/ladybugsql/ladybug/gorm"
	"github.com/ladybugsql/ladybug/ladybugtest"
)

// gophers is migrated and seeded with gorm once per test binary; each test
// gets its own copy-on-write clone of it.
var gophers = ladybugtest.NewTemplate("gophers", func(db *sql.DB) error {
	g, err := gorm.Open(sqlite.New(sqlite.Config{Conn: db}), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return err
	}
	if err := g.AutoMigrate(&Gopher{}); err != nil {
		return err
	}
	return g.Create(&[]Gopher{{Name: "Ada", Age: 36}, {Name: "Rob", Age: 60}}).Error
})

// openGorm wraps the test's clone in gorm.
func openGorm(t testing.TB) *gorm.DB {
	g, err := gorm.Open(sqlite.New(sqlite.Config{Conn: gophers.Open(t)}), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLadybugtest_GormClones(t *testing.T) {
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			db := openGorm(t)
			if err := db.Create(&Gopher{Name: fmt.Sprint("mine", i), Age: i}).Error; err != nil {
				t.Fatal(err)
			}
			var n int64
			db.Model(&Gopher{}).Count(&n)
			if n != 3 {
				t.Fatalf("%d gophers, want the 2 seeded and this test's one", n)
			}
		})
	}
}

// Example_ladybugtest: a test's own clone of a template migrated by gorm's
// AutoMigrate, opened through the dialector's Conn.
func Example_ladybugtest() {
	t := &testing.T{} // in a real test: the test's *testing.T
	db := openGorm(t)
	db.Create(&Gopher{Name: "Ken", Age: 80})
	var names []string
	db.Model(&Gopher{}).Order("name").Pluck("name", &names)
	fmt.Println(names)
	// Output: [Ada Ken Rob]
}
