package sqlite

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

type Ledger struct {
	ID     uint
	Name   string `gorm:"uniqueIndex"`
	Amount int
}

func countLedger(t *testing.T, db *gorm.DB) int64 {
	t.Helper()
	var n int64
	require.NoError(t, db.Model(&Ledger{}).Count(&n).Error)
	return n
}

func TestTransaction_CommitAndRollback(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Ledger{}))
	require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
		return tx.Create(&Ledger{Name: "a", Amount: 1}).Error
	}))
	boom := errors.New("boom")
	err := db.Transaction(func(tx *gorm.DB) error {
		require.NoError(t, tx.Create(&Ledger{Name: "b", Amount: 2}).Error)
		assert.EqualValues(t, 2, countLedger(t, tx), "the transaction sees its own write")
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.EqualValues(t, 1, countLedger(t, db), "the failed transaction's row is gone")

	tx := db.Begin()
	require.NoError(t, tx.Error)
	require.NoError(t, tx.Create(&Ledger{Name: "c"}).Error)
	require.NoError(t, tx.Rollback().Error)
	assert.EqualValues(t, 1, countLedger(t, db))
}

func TestTransaction_NestedSavepoints(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Ledger{}))
	inner := errors.New("inner fails")
	require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
		require.NoError(t, tx.Create(&Ledger{Name: "outer"}).Error)
		// A nested transaction that fails rolls back to its savepoint only.
		err := tx.Transaction(func(tx2 *gorm.DB) error {
			require.NoError(t, tx2.Create(&Ledger{Name: "inner1"}).Error)
			// Two levels down, committed, then undone with its parent.
			require.NoError(t, tx2.Transaction(func(tx3 *gorm.DB) error {
				return tx3.Create(&Ledger{Name: "inner2"}).Error
			}))
			return inner
		})
		assert.ErrorIs(t, err, inner)
		// A nested transaction that succeeds stays.
		require.NoError(t, tx.Transaction(func(tx2 *gorm.DB) error {
			return tx2.Create(&Ledger{Name: "kept"}).Error
		}))
		return nil
	}))
	var names []string
	require.NoError(t, db.Model(&Ledger{}).Order("name").Pluck("name", &names).Error)
	assert.Equal(t, []string{"kept", "outer"}, names)

	// Manual savepoints.
	tx := db.Begin()
	require.NoError(t, tx.Create(&Ledger{Name: "m1"}).Error)
	require.NoError(t, tx.SavePoint("sp1").Error)
	require.NoError(t, tx.Create(&Ledger{Name: "m2"}).Error)
	require.NoError(t, tx.RollbackTo("sp1").Error)
	require.NoError(t, tx.Commit().Error)
	require.NoError(t, db.Model(&Ledger{}).Order("name").Pluck("name", &names).Error)
	assert.Equal(t, []string{"kept", "m1", "outer"}, names)

	// A savepoint outside a transaction is an error, not silence.
	assert.Error(t, db.Transaction(func(tx *gorm.DB) error { return tx.RollbackTo("nosuch").Error }))
}

func TestPrepareStmt_ReusesStatements(t *testing.T) {
	db := openDB(t, &gorm.Config{PrepareStmt: true})
	require.NoError(t, db.AutoMigrate(&Ledger{}))
	for i := range 50 {
		require.NoError(t, db.Create(&Ledger{Name: fmt.Sprint("p", i), Amount: i}).Error)
	}
	for i := range 50 {
		var l Ledger
		require.NoError(t, db.Where("name = ?", fmt.Sprint("p", i)).First(&l).Error)
		require.Equal(t, i, l.Amount)
	}
	require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
		return tx.Model(&Ledger{}).Where("amount < ?", 10).Update("amount", gorm.Expr("amount + 100")).Error
	}))
	var sum int64
	require.NoError(t, db.Model(&Ledger{}).Select("sum(amount)").Scan(&sum).Error)
	assert.EqualValues(t, 49*50/2+1000, sum)
	pdb, ok := db.ConnPool.(*gorm.PreparedStmtDB)
	require.True(t, ok, "PrepareStmt wraps the pool")
	assert.NotEmpty(t, pdb.Stmts.Keys(), "statements are cached")
}

func TestConcurrency_ManyGoroutinesOneDB(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Ledger{}))
	sqlDB, err := db.DB()
	require.NoError(t, err)
	sqlDB.SetMaxOpenConns(8)
	const workers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var err error
				if i%4 == 0 {
					err = db.Transaction(func(tx *gorm.DB) error {
						return tx.Create(&Ledger{Name: fmt.Sprintf("w%d-%d", w, i), Amount: 1}).Error
					})
				} else {
					err = db.Create(&Ledger{Name: fmt.Sprintf("w%d-%d", w, i), Amount: 1}).Error
				}
				if err == nil {
					var n int64
					err = db.Model(&Ledger{}).Where("amount = ?", 1).Count(&n).Error
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.EqualValues(t, workers*each, countLedger(t, db))
}

// TestConcurrency_FirstOrCreateThenIncrement: gorm's read-then-write
// pattern from many goroutines; with BeginTx immediate (the driver's
// default) no transaction fails on a stale snapshot and no increment is
// lost.
func TestConcurrency_FirstOrCreateThenIncrement(t *testing.T) {
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&Ledger{}))
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Go(func() {
			for range each {
				errs <- db.Transaction(func(tx *gorm.DB) error {
					var l Ledger
					if err := tx.Where(Ledger{Name: "hits"}).FirstOrCreate(&l).Error; err != nil {
						return err
					}
					return tx.Model(&l).Update("amount", l.Amount+1).Error
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	var l Ledger
	require.NoError(t, db.Where("name = ?", "hits").First(&l).Error)
	assert.Equal(t, workers*each, l.Amount)
	assert.EqualValues(t, 1, countLedger(t, db), "one row: FirstOrCreate never created twice")
}
