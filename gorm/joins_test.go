package sqlite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJoins_WithArgumentsInJoinConditions(t *testing.T) {
	db := openDB(t, nil)
	seedUsers(t, db)

	// Joins on a belongs-to / has-one, with conditions that carry args.
	var users []User
	require.NoError(t, db.Joins("Company", db.Where(&Company{Name: "Builders"})).Joins("Account").
		Where("users.age > ?", 10).Order("users.id").Find(&users).Error)
	require.Len(t, users, 3, "a left join keeps users without a match")
	assert.Empty(t, users[0].Company.Name, "ada's company does not match the join condition")
	assert.Equal(t, "Builders", users[1].Company.Name)
	assert.Equal(t, "B-1", users[1].Account.Number)

	// Raw join text with placeholders, mixed with WHERE placeholders: the
	// arguments bind in text order.
	type row struct {
		Name string
		Pet  string
	}
	var rows []row
	require.NoError(t, db.Table("users").Select("users.name, pets.name AS pet").
		Joins("JOIN pets ON pets.user_id = users.id AND pets.species = ?", "dog").
		Where("users.age < ?", 40).Order("pets.name").Scan(&rows).Error)
	assert.Equal(t, []row{{"ada", "nibble"}, {"bob", "rex"}}, rows)

	// InnerJoins with a condition with an argument.
	require.NoError(t, db.InnerJoins("Company", db.Where(&Company{Name: "Analytical"})).Where("users.age > ?", 1).Find(&users).Error)
	require.Len(t, users, 1)
	assert.Equal(t, "ada", users[0].Name)

	// A join to a subquery that has its own argument.
	sub := db.Model(&Pet{}).Select("user_id, count(*) AS n").Where("species = ?", "dog").Group("user_id")
	type cnt struct {
		Name string
		N    int
	}
	var counts []cnt
	require.NoError(t, db.Table("users").Select("users.name, p.n").Joins("JOIN (?) p ON p.user_id = users.id AND p.n >= ?", sub, 1).
		Where("users.name <> ?", "zed").Order("users.name").Scan(&counts).Error)
	assert.Equal(t, []cnt{{"ada", 1}, {"bob", 1}}, counts)
}
