package sqlite

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

var memSeq atomic.Int64

// openDB opens a gorm DB on a fresh shared in-memory database (shared, so
// every pooled connection sees it) with cfg's settings.
func openDB(t *testing.T, cfg *gorm.Config) *gorm.DB {
	t.Helper()
	if cfg == nil {
		cfg = &gorm.Config{}
	}
	if cfg.Logger == nil {
		cfg.Logger = logger.Default.LogMode(logger.Silent)
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	dsn := fmt.Sprintf("file:%s_%d?mode=memory", name, memSeq.Add(1))
	db, err := gorm.Open(Open(dsn), cfg)
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	return db
}

// recorder is a gorm logger that keeps every statement gorm runs.
type recorder struct {
	logger.Interface
	stmts []string
}

func newRecorder() *recorder {
	return &recorder{Interface: logger.Default.LogMode(logger.Silent)}
}

func (r *recorder) LogMode(logger.LogLevel) logger.Interface { return r }

func (r *recorder) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	s, _ := fc()
	r.stmts = append(r.stmts, s)
}

// matching returns the recorded statements that contain sub.
func (r *recorder) matching(sub string) []string {
	var out []string
	for _, s := range r.stmts {
		if strings.Contains(s, sub) {
			out = append(out, s)
		}
	}
	return out
}
