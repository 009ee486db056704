package sqlite

import (
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"

	"github.com/ladybugsql/ladybug"
)

func TestDialector_NameAndOpen(t *testing.T) {
	assert.Equal(t, "sqlite", Dialector{}.Name())
	db := openDB(t, nil)
	var v string
	require.NoError(t, db.Raw("SELECT sqlite_version()").Scan(&v).Error)
	assert.NotEmpty(t, v)

	// New with a pool opened elsewhere.
	sqlDB, err := db.DB()
	require.NoError(t, err)
	db2, err := gorm.Open(New(Config{Conn: sqlDB}), &gorm.Config{})
	require.NoError(t, err)
	require.NoError(t, db2.Raw("SELECT 1").Scan(&v).Error)

	_, err = gorm.Open(Open("file:x?nosuch=1"), &gorm.Config{})
	assert.ErrorContains(t, err, "nosuch", "a bad DSN fails at Open")
}

func TestDialector_DataTypeOf(t *testing.T) {
	type JSONText string
	type All struct {
		ID     uint
		B      bool
		I      int
		I8     int8
		U      uint32
		F      float64
		Dec    float64 `gorm:"precision:10;scale:2"`
		Dec2   string  `gorm:"type:decimal(8,3)"`
		S      string
		S20    string `gorm:"size:20"`
		T      time.Time
		TT     time.Time `gorm:"type:timestamp"`
		By     []byte
		J      JSONText `gorm:"type:json"`
		NoAuto int      `gorm:"autoIncrement:false"`
	}
	s, err := schema.Parse(&All{}, &sync.Map{}, schema.NamingStrategy{})
	require.NoError(t, err)
	want := map[string]string{
		"id": "integer PRIMARY KEY AUTOINCREMENT", "b": "numeric", "i": "integer", "i8": "integer", "u": "integer",
		"f": "real", "dec": "decimal(10,2)", "dec2": "decimal(8,3)", "s": "text", "s20": "varchar(20)",
		"t": "datetime", "tt": "timestamp", "by": "blob", "j": "json", "no_auto": "integer",
	}
	for col, typ := range want {
		assert.Equal(t, typ, Dialector{}.DataTypeOf(s.LookUpField(col)), col)
	}
}

func TestDialector_QuoteTo(t *testing.T) {
	cases := map[string]string{
		"users":       "`users`",
		"users.id":    "`users`.`id`",
		"we`ird":      "`we``ird`",
		"`q`.col":     "`q`.`col`",
		`"a.b".c`:     "`a.b`.`c`",
		"Company__id": "`Company__id`",
	}
	for in, want := range cases {
		var b strings.Builder
		Dialector{}.QuoteTo(&b, in)
		assert.Equal(t, want, b.String(), in)
	}
	// A quoted name never turns into a string: a missing column is an
	// error, not the text 'nosuch'.
	db := openDB(t, nil)
	require.NoError(t, db.Exec("CREATE TABLE q (a int)").Error)
	require.NoError(t, db.Exec("INSERT INTO q VALUES (1)").Error)
	var v int
	assert.Error(t, db.Raw("SELECT ? FROM q", clause.Column{Name: "nosuch"}).Scan(&v).Error)
	require.NoError(t, db.Raw("SELECT ? FROM q", clause.Column{Name: "a"}).Scan(&v).Error)
	assert.EqualValues(t, 1, v)
}

func TestDialector_ExplainAndBindVar(t *testing.T) {
	d := Dialector{}
	got := d.Explain("SELECT * FROM t WHERE a = ? AND b = ? AND c = ?", "it's", 3, true)
	assert.Equal(t, "SELECT * FROM t WHERE a = 'it''s' AND b = 3 AND c = true", got)
	// The explained text runs: it is valid SQL with the values inline.
	db := openDB(t, nil)
	var n int
	require.NoError(t, db.Raw(d.Explain("SELECT length(?) + ?", "it's", 1)).Scan(&n).Error)
	assert.Equal(t, 5, n)
	var b strings.Builder
	d.BindVarTo(&b, nil, 1)
	assert.Equal(t, "?", b.String())
}

func TestDialector_DefaultValueOf(t *testing.T) {
	type D struct {
		ID   uint
		Kind string `gorm:"default:plain"`
		Lvl  int    `gorm:"default:3"`
		Expr string `gorm:"default:(upper('x'))"`
		None string
	}
	s, err := schema.Parse(&D{}, &sync.Map{}, schema.NamingStrategy{})
	require.NoError(t, err)
	d := Dialector{}
	assert.Equal(t, clause.Expr{SQL: "NULL"}, d.DefaultValueOf(s.LookUpField("id")))
	assert.Equal(t, clause.Expr{SQL: "?", Vars: []any{"plain"}}, d.DefaultValueOf(s.LookUpField("kind")))
	assert.Equal(t, clause.Expr{SQL: "NULL"}, d.DefaultValueOf(s.LookUpField("none")))
	// Through a batch insert, where gorm uses it.
	db := openDB(t, nil)
	require.NoError(t, db.AutoMigrate(&D{}))
	rows := []D{{Kind: "k", Lvl: 9, Expr: "e"}, {}}
	require.NoError(t, db.Create(&rows).Error)
	var got D
	require.NoError(t, db.First(&got, rows[1].ID).Error)
	assert.Equal(t, D{ID: rows[1].ID, Kind: "plain", Lvl: 3, Expr: "X"}, got)
}

func TestTranslate_ConstraintErrorsByCode(t *testing.T) {
	db := openDB(t, &gorm.Config{TranslateError: true})
	require.NoError(t, db.AutoMigrate(&Team{}, &MemberV2{}))
	require.NoError(t, db.Create(&MemberV2{Email: "a@x"}).Error)
	err := db.Create(&MemberV2{Email: "a@x"}).Error
	assert.ErrorIs(t, err, gorm.ErrDuplicatedKey, "UNIQUE")
	err = db.Create(&MemberV2{ID: 1, Email: "b@x"}).Error
	assert.ErrorIs(t, err, gorm.ErrDuplicatedKey, "PRIMARY KEY")
	err = db.Create(&MemberV2{Email: "c@x", TeamID: ptr(uint(42))}).Error
	assert.ErrorIs(t, err, gorm.ErrForeignKeyViolated)
	err = db.Create(&MemberV2{Email: "d@x", Age: -1}).Error
	assert.ErrorIs(t, err, gorm.ErrCheckConstraintViolated)

	// Other errors pass through unchanged.
	err = db.Exec("SELEC 1").Error
	var le *ladybug.Error
	assert.True(t, errors.As(err, &le), "%v", err)
	d := Dialector{}
	plain := errors.New("plain")
	assert.Same(t, plain, d.Translate(plain))
	notNull := db.Exec("INSERT INTO members (email) VALUES (NULL)").Error
	require.Error(t, notNull)
	assert.Equal(t, notNull, d.Translate(notNull), "NOT NULL has no gorm sentinel")
}

// TestModule_NoCgoNoSQLite checks the dialector's dependency graph: no
// SQLite driver, and a build with cgo off.
func TestModule_NoCgoNoSQLite(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "list", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := string(out)
	assert.Contains(t, deps, "gorm.io/gorm\n")
	assert.Contains(t, deps, "github.com/ladybugsql/ladybug\n")
	for _, bad := range []string{"github.com/mattn/go-sqlite3", "modernc.org/sqlite", "github.com/glebarez", "github.com/ncruces", "gorm.io/driver/sqlite"} {
		assert.NotContains(t, deps, bad)
	}
	cmd = exec.Command(gobin, "build", "-o", t.TempDir()+"/x.a", ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "CGO_ENABLED=0 build: %s", out)
}
