package sqlite

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Product covers the field kinds: bool, ints, uints, floats, strings with
// and without a size, time, bytes, a decimal and a defaulted column.
type Product struct {
	ID        uint   `gorm:"primaryKey"`
	Code      string `gorm:"size:32;uniqueIndex"`
	Name      string
	Price     float64 `gorm:"precision:10;scale:2"`
	Weight    float32
	Stock     int32
	Sold      uint64
	Small     int8
	Active    bool
	Flag      *bool
	Data      []byte
	Kind      string `gorm:"default:widget"`
	Level     int    `gorm:"default:3"`
	MadeAt    time.Time
	ExpiresAt *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

func TestCRUD_CreateFindUpdateDelete(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Product{}))

	made := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	p := Product{Code: "A1", Name: "anvil", Price: 12.5, Weight: 1.25, Stock: -3, Sold: 1 << 40, Small: -8,
		Active: true, Data: []byte{0, 1, 2, 255}, MadeAt: made}
	require.NoError(t, db.Create(&p).Error)
	require.NotZero(t, p.ID)
	assert.Equal(t, "widget", p.Kind, "the default comes back into the struct")
	assert.Equal(t, 3, p.Level)

	var got Product
	require.NoError(t, db.First(&got, p.ID).Error)
	assert.Equal(t, "anvil", got.Name)
	assert.Equal(t, 12.5, got.Price)
	assert.Equal(t, float32(1.25), got.Weight)
	assert.Equal(t, int32(-3), got.Stock)
	assert.Equal(t, uint64(1<<40), got.Sold)
	assert.Equal(t, int8(-8), got.Small)
	assert.True(t, got.Active)
	assert.Nil(t, got.Flag)
	assert.Equal(t, []byte{0, 1, 2, 255}, got.Data)
	assert.True(t, made.Equal(got.MadeAt), "time round trip: %v vs %v", made, got.MadeAt)
	assert.Nil(t, got.ExpiresAt)
	assert.False(t, got.CreatedAt.IsZero())

	require.NoError(t, db.Model(&got).Updates(map[string]any{"name": "anvil II", "active": false}).Error)
	f := false
	require.NoError(t, db.Model(&got).Update("flag", &f).Error)
	var again Product
	require.NoError(t, db.Where("code = ?", "A1").Take(&again).Error)
	assert.Equal(t, "anvil II", again.Name)
	assert.False(t, again.Active, "bool false round trip")
	require.NotNil(t, again.Flag)
	assert.False(t, *again.Flag)

	require.NoError(t, db.Delete(&again).Error)
	err := db.First(&Product{}, p.ID).Error
	assert.True(t, errors.Is(err, gorm.ErrRecordNotFound), "%v", err)
}

func TestCRUD_TimeZonesAndBoolQueries(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Product{}))
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	when := time.Date(2023, 12, 31, 23, 59, 59, 0, zone)
	require.NoError(t, db.Create(&[]Product{{Code: "T1", MadeAt: when, Active: true}, {Code: "T2", MadeAt: when.Add(time.Hour)}}).Error)
	var got Product
	require.NoError(t, db.Where("made_at = ?", when).First(&got).Error, "a time parameter finds the stored time")
	assert.Equal(t, "T1", got.Code)
	assert.True(t, got.MadeAt.Equal(when))
	var n int64
	require.NoError(t, db.Model(&Product{}).Where("active = ?", true).Count(&n).Error)
	assert.EqualValues(t, 1, n)
	require.NoError(t, db.Model(&Product{}).Where("made_at > ?", when).Count(&n).Error)
	assert.EqualValues(t, 1, n, "times compare in time order across the stored zone")
}

func TestCRUD_BatchesAndDefaults(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Product{}))
	var ps []Product
	for i := range 250 {
		p := Product{Code: string(rune('a'+i%26)) + time.Duration(i).String(), Name: "p"}
		if i%2 == 0 {
			p.Kind = "gadget" // the odd rows leave it zero: their default is written
		}
		ps = append(ps, p)
	}
	require.NoError(t, db.CreateInBatches(&ps, 40).Error)
	for i, p := range ps {
		require.NotZero(t, p.ID, "row %d got its id", i)
		if i > 0 {
			require.Greater(t, p.ID, ps[i-1].ID, "ids in VALUES order")
		}
	}
	var kinds []string
	require.NoError(t, db.Model(&Product{}).Order("id").Pluck("kind", &kinds).Error)
	require.Len(t, kinds, 250)
	assert.Equal(t, "gadget", kinds[0])
	assert.Equal(t, "widget", kinds[1], "a zero field in a mixed batch gets the column default")

	var seen int
	var batch []Product
	require.NoError(t, db.Order("id").FindInBatches(&batch, 100, func(tx *gorm.DB, n int) error {
		seen += len(batch)
		return nil
	}).Error)
	assert.Equal(t, 250, seen)

	res := db.Where("kind = ?", "gadget").Delete(&Product{})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 125, res.RowsAffected)
}

// Counter has a composite unique key for upserts.
type Counter struct {
	ID    uint   `gorm:"primaryKey"`
	Scope string `gorm:"uniqueIndex:idx_scope_key"`
	Key   string `gorm:"uniqueIndex:idx_scope_key"`
	Value int
	Note  string
}

func TestUpsert_DoNothingUpdateAllDoUpdates(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Counter{}))
	require.NoError(t, db.Create(&Counter{Scope: "s", Key: "k", Value: 1, Note: "first"}).Error)
	cols := []clause.Column{{Name: "scope"}, {Name: "key"}}

	res := db.Clauses(clause.OnConflict{Columns: cols, DoNothing: true}).Create(&Counter{Scope: "s", Key: "k", Value: 9})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 0, res.RowsAffected)
	res = db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Counter{Scope: "s", Key: "k", Value: 9})
	require.NoError(t, res.Error, "DO NOTHING without a target")

	require.NoError(t, db.Clauses(clause.OnConflict{Columns: cols, DoUpdates: clause.AssignmentColumns([]string{"value"})}).
		Create(&Counter{Scope: "s", Key: "k", Value: 5, Note: "ignored"}).Error)
	var c Counter
	require.NoError(t, db.Where("key = ?", "k").First(&c).Error)
	assert.Equal(t, 5, c.Value)
	assert.Equal(t, "first", c.Note, "DoUpdates sets only the named columns")

	require.NoError(t, db.Clauses(clause.OnConflict{Columns: cols, DoUpdates: clause.Assignments(map[string]any{"value": gorm.Expr("counters.value + excluded.value")})}).
		Create(&Counter{Scope: "s", Key: "k", Value: 10}).Error)
	require.NoError(t, db.First(&c, c.ID).Error)
	assert.Equal(t, 15, c.Value, "an expression over the old and the excluded row")

	require.NoError(t, db.Clauses(clause.OnConflict{Columns: cols, UpdateAll: true}).
		Create(&[]Counter{{Scope: "s", Key: "k", Value: 7, Note: "all"}, {Scope: "s", Key: "k2", Value: 1}}).Error)
	require.NoError(t, db.First(&c, c.ID).Error)
	assert.Equal(t, 7, c.Value)
	assert.Equal(t, "all", c.Note)
	var n int64
	require.NoError(t, db.Model(&Counter{}).Count(&n).Error)
	assert.EqualValues(t, 2, n)

	// Save of a struct with its key set is an upsert on the key.
	c.Value = 42
	require.NoError(t, db.Save(&c).Error)
	require.NoError(t, db.First(&c, c.ID).Error)
	assert.Equal(t, 42, c.Value)
}

func TestReturning_IntoStructs(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Counter{}))
	require.NoError(t, db.Create(&[]Counter{{Scope: "r", Key: "a", Value: 1}, {Scope: "r", Key: "b", Value: 2}, {Scope: "x", Key: "c", Value: 3}}).Error)

	var updated []Counter
	res := db.Model(&updated).Clauses(clause.Returning{}).Where("scope = ?", "r").Update("value", gorm.Expr("value * 10"))
	require.NoError(t, res.Error)
	require.Len(t, updated, 2)
	assert.ElementsMatch(t, []int{10, 20}, []int{updated[0].Value, updated[1].Value})
	assert.NotEmpty(t, updated[0].Key, "all columns come back")

	var deleted []Counter
	require.NoError(t, db.Clauses(clause.Returning{Columns: []clause.Column{{Name: "id"}, {Name: "key"}}}).Where("scope = ?", "x").Delete(&deleted).Error)
	require.Len(t, deleted, 1)
	assert.Equal(t, "c", deleted[0].Key)
	assert.Zero(t, deleted[0].Value, "only the named columns come back")

	c := Counter{Scope: "n", Key: "z"}
	require.NoError(t, db.Clauses(clause.Returning{}).Create(&c).Error)
	assert.NotZero(t, c.ID)
}

func TestScopes_AndSoftDelete(t *testing.T) {
	type Post struct {
		gorm.Model
		Title     string
		Published bool
		Views     int
	}
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Post{}))
	for i := range 10 {
		require.NoError(t, db.Create(&Post{Title: "p" + string(rune('0'+i)), Published: i%2 == 0, Views: i * 10}).Error)
	}
	published := func(tx *gorm.DB) *gorm.DB { return tx.Where("published = ?", true) }
	popular := func(min int) func(*gorm.DB) *gorm.DB {
		return func(tx *gorm.DB) *gorm.DB { return tx.Where("views >= ?", min) }
	}
	page := func(n, size int) func(*gorm.DB) *gorm.DB {
		return func(tx *gorm.DB) *gorm.DB { return tx.Offset((n - 1) * size).Limit(size) }
	}
	var posts []Post
	require.NoError(t, db.Scopes(published, popular(30)).Order("views").Find(&posts).Error)
	require.Len(t, posts, 3)
	assert.Equal(t, 40, posts[0].Views)
	require.NoError(t, db.Scopes(page(2, 3)).Order("id").Find(&posts).Error)
	require.Len(t, posts, 3)
	assert.Equal(t, "p3", posts[0].Title)
	require.NoError(t, db.Offset(8).Order("id").Find(&posts).Error, "OFFSET without LIMIT")
	assert.Len(t, posts, 2)

	require.NoError(t, db.Where("views < ?", 30).Delete(&Post{}).Error)
	var n int64
	require.NoError(t, db.Model(&Post{}).Count(&n).Error)
	assert.EqualValues(t, 7, n, "soft-deleted rows are hidden")
	require.NoError(t, db.Unscoped().Model(&Post{}).Count(&n).Error)
	assert.EqualValues(t, 10, n, "and still there")
	require.NoError(t, db.Unscoped().Model(&Post{}).Where("deleted_at IS NOT NULL").Update("deleted_at", nil).Error)
	require.NoError(t, db.Model(&Post{}).Count(&n).Error)
	assert.EqualValues(t, 10, n, "restored")
	require.NoError(t, db.Unscoped().Where("views < ?", 30).Delete(&Post{}).Error)
	require.NoError(t, db.Unscoped().Model(&Post{}).Count(&n).Error)
	assert.EqualValues(t, 7, n, "a hard delete removes them")
}
