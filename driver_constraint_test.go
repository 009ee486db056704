package ladybug

import (
	"database/sql"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDriver_ConstraintErrors_SQLiteCodesAndMessages pins, for each kind
// of constraint, the *Error a program branches on: SQLite's extended
// code, the errors.Is sentinel and the message naming the table and
// columns (or the index, or the CHECK as written).
func TestDriver_ConstraintErrors_SQLiteCodesAndMessages(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		`CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, a, b, n INT CHECK (n  >= 0), UNIQUE(a, b))`,
		`CREATE UNIQUE INDEX users_lower ON users(lower(email))`,
		`CREATE TABLE pk2(x, y, PRIMARY KEY(x, y))`,
		`CREATE TABLE orders(uid REFERENCES users(id))`,
		`CREATE TRIGGER no_bob BEFORE INSERT ON users WHEN new.email = 'bob' BEGIN SELECT RAISE(ABORT, 'no bob'); END`,
		`INSERT INTO users VALUES (1, 'ada', 1, 1, 0)`,
		`INSERT INTO pk2 VALUES (1, 1)`,
	} {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	cases := []struct {
		sql      string
		ext      int
		sentinel error
		msg      string
	}{
		// 'ada' breaks both users.email and users_lower: as in SQLite, the
		// most recently created index is checked (and named) first.
		{`INSERT INTO users VALUES (2, 'ada', 2, 2, 0)`, 2067, ErrConstraintUnique, "ladybug: UNIQUE constraint failed: index 'users_lower'"},
		{`INSERT INTO users VALUES (2, 'x', 1, 1, 0)`, 2067, ErrConstraintUnique, "ladybug: UNIQUE constraint failed: users.a, users.b"},
		{`INSERT INTO users VALUES (2, 'ADA', 2, 2, 0)`, 2067, ErrConstraintUnique, "ladybug: UNIQUE constraint failed: index 'users_lower'"},
		{`INSERT INTO users VALUES (1, 'y', 3, 3, 0)`, 1555, ErrConstraintPrimaryKey, "ladybug: UNIQUE constraint failed: users.id"},
		{`INSERT INTO pk2 VALUES (1, 1)`, 1555, ErrConstraintPrimaryKey, "ladybug: UNIQUE constraint failed: pk2.x, pk2.y"},
		{`INSERT INTO orders VALUES (42)`, 787, ErrConstraintForeignKey, "ladybug: FOREIGN KEY constraint failed"},
		{`INSERT INTO users(id, a) VALUES (3, 9)`, 1299, ErrConstraintNotNull, "ladybug: NOT NULL constraint failed: users.email"},
		{`UPDATE users SET n = -1`, 275, ErrConstraintCheck, "ladybug: CHECK constraint failed: n  >= 0"},
		{`INSERT INTO users VALUES (4, 'bob', 4, 4, 0)`, 1811, ErrConstraint, "ladybug: no bob"},
	}
	for _, c := range cases {
		_, err := db.Exec(c.sql)
		var le *Error
		require.True(t, errors.As(err, &le), "%s: %v", c.sql, err)
		assert.Equal(t, CodeConstraint, le.Code, c.sql)
		assert.Equal(t, c.ext, le.ExtendedCode, c.sql)
		assert.ErrorIs(t, err, ErrConstraint, c.sql)
		assert.ErrorIs(t, err, c.sentinel, c.sql)
		assert.Equal(t, c.msg, err.Error(), c.sql)
	}
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM users`).Scan(&n))
	assert.Equal(t, 1, n, "failed statements change nothing")
}

// TestDriver_ErrorCodes_AreSQLitePrimaryCodes: Error.Code is the number
// SQLite returns for the same failure, and the sentinels still tell the
// classes SQLite folds into SQLITE_ERROR apart.
func TestDriver_ErrorCodes_AreSQLitePrimaryCodes(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE)`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO t VALUES (1, 1)`)
	require.NoError(t, err)
	cases := []struct {
		sql      string
		args     []any
		code     int
		ext      int
		sentinel error
		not      error
	}{
		{`SELEC 1`, nil, 1, 1, ErrSyntax, ErrNotSupported},
		{`ATTACH 'x.db' AS x`, nil, 1, 1, ErrNotSupported, ErrSyntax},
		{`SELECT * FROM nosuch`, nil, 1, 1, nil, ErrSyntax},
		{`INSERT INTO t VALUES (2, 1)`, nil, 19, 2067, ErrConstraintUnique, ErrConstraintPrimaryKey},
		{`INSERT INTO t VALUES (1, 5)`, nil, 19, 1555, ErrConstraintPrimaryKey, ErrConstraintUnique},
		{`UPDATE t SET a = 'x'`, nil, 20, 20, ErrMismatch, ErrConstraint},
		{`SELECT ?2`, []any{1}, 25, 25, ErrRange, nil},
	}
	for _, c := range cases {
		_, err := db.Exec(c.sql, c.args...)
		var le *Error
		require.True(t, errors.As(err, &le), "%s: %v", c.sql, err)
		assert.Equal(t, c.code, int(le.Code), c.sql)
		assert.Equal(t, c.ext, le.ExtendedCode, c.sql)
		if c.sentinel != nil {
			assert.ErrorIs(t, err, c.sentinel, c.sql)
		}
		if c.not != nil {
			assert.NotErrorIs(t, err, c.not, c.sql)
		}
	}
	assert.Equal(t, 19, int(CodeConstraint))
	assert.Equal(t, 5, int(CodeBusy))
	assert.Equal(t, 11, int(CodeCorrupt))
	assert.Equal(t, 26, int(CodeNotADB))
	assert.Equal(t, 14, int(CodeCantOpen))
}
