package sqlite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

type Company struct {
	ID   uint
	Name string
}

type Account struct {
	ID     uint
	UserID uint
	Number string
}

type Pet struct {
	ID      uint
	UserID  uint
	Name    string
	Toys    []Toy `gorm:"polymorphic:Owner"`
	Species string
}

type Toy struct {
	ID        uint
	Name      string
	OwnerID   uint
	OwnerType string
}

type Language struct {
	Code string `gorm:"primaryKey"`
	Name string
}

type User struct {
	ID        uint
	Name      string
	Age       int
	CompanyID *uint
	Company   Company    // belongs to
	Account   Account    // has one
	Pets      []Pet      // has many
	Toys      []Toy      `gorm:"polymorphic:Owner"` // polymorphic has many
	Languages []Language `gorm:"many2many:user_speaks"`
	ManagerID *uint
	Manager   *User // self reference
}

func seedUsers(t *testing.T, db *gorm.DB) []User {
	t.Helper()
	require.NoError(t, db.AutoMigrate(&Company{}, &User{}, &Account{}, &Pet{}, &Toy{}, &Language{}))
	en, fr := Language{Code: "en", Name: "English"}, Language{Code: "fr", Name: "French"}
	users := []User{
		{Name: "ada", Age: 36, Company: Company{Name: "Analytical"}, Account: Account{Number: "A-1"},
			Pets: []Pet{{Name: "byte", Species: "cat", Toys: []Toy{{Name: "ball"}}}, {Name: "nibble", Species: "dog"}},
			Toys: []Toy{{Name: "abacus"}}, Languages: []Language{en, fr}},
		{Name: "bob", Age: 20, Company: Company{Name: "Builders"}, Account: Account{Number: "B-1"},
			Pets: []Pet{{Name: "rex", Species: "dog"}}, Languages: []Language{en}},
		{Name: "cyd", Age: 51},
	}
	require.NoError(t, db.Create(&users).Error)
	mgr := users[0].ID
	require.NoError(t, db.Model(&users[1]).Update("manager_id", mgr).Error)
	return users
}

func TestAssociations_CreateAndPreload(t *testing.T) {
	db := openDB(t, nil)
	seedUsers(t, db)

	var users []User
	require.NoError(t, db.Preload("Company").Preload("Account").Preload("Pets.Toys").Preload("Toys").
		Preload("Languages").Preload("Manager").Order("id").Find(&users).Error)
	require.Len(t, users, 3)
	ada, bob, cyd := users[0], users[1], users[2]
	assert.Equal(t, "Analytical", ada.Company.Name)
	assert.Equal(t, "A-1", ada.Account.Number)
	require.Len(t, ada.Pets, 2)
	assert.Equal(t, "ball", ada.Pets[0].Toys[0].Name, "nested polymorphic preload")
	require.Len(t, ada.Toys, 1)
	assert.Equal(t, "abacus", ada.Toys[0].Name)
	assert.Equal(t, "users", ada.Toys[0].OwnerType)
	assert.Len(t, ada.Languages, 2)
	assert.Len(t, bob.Languages, 1)
	require.NotNil(t, bob.Manager)
	assert.Equal(t, "ada", bob.Manager.Name)
	assert.Empty(t, cyd.Pets)

	// Preload with conditions: an argument in the preload query.
	require.NoError(t, db.Preload("Pets", "species = ?", "dog").Order("id").Find(&users).Error)
	assert.Len(t, users[0].Pets, 1)
	assert.Equal(t, "nibble", users[0].Pets[0].Name)

	// Association mode.
	var n int64
	n = db.Model(&ada).Association("Languages").Count()
	assert.EqualValues(t, 2, n)
	require.NoError(t, db.Model(&ada).Association("Languages").Delete(&Language{Code: "fr"}))
	assert.EqualValues(t, 1, db.Model(&ada).Association("Languages").Count())
	require.NoError(t, db.Model(&cyd).Association("Pets").Append(&Pet{Name: "tux", Species: "bird"}))
	assert.EqualValues(t, 1, db.Model(&cyd).Association("Pets").Count())
	require.NoError(t, db.Model(&bob).Association("Pets").Replace([]Pet{{Name: "max", Species: "dog"}}))
	var pets []Pet
	require.NoError(t, db.Model(&bob).Association("Pets").Find(&pets))
	require.Len(t, pets, 1)
	assert.Equal(t, "max", pets[0].Name)
}
