package ladybug_test

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

// sqliteDBFixture is a SQLite 3 database file's first page as sqlite3
// writes it for a database holding one table: the 100-byte header (magic,
// 4096-byte pages, file format 1/1, UTF-8) and the schema b-tree page.
func sqliteDBFixture() []byte {
	p := make([]byte, 4096)
	copy(p, "SQLite format 3\x00")
	p[16], p[17], p[18], p[19] = 0x10, 0x00, 1, 1
	p[21], p[22], p[23] = 64, 32, 32
	p[31], p[47], p[59] = 2, 4, 1
	p[100], p[103], p[105], p[106] = 0x0d, 1, 0x0f, 0xc8
	copy(p[0xfc8:], "\x36\x01\x06\x17\x11\x11\x01\x59tablettCREATE TABLE t(x)")
	return append(p, make([]byte, 4096)...)
}

// openAndPing opens dsn and runs a statement that reads the schema, so the
// file is really opened.
func openAndPing(dsn string) error {
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`SELECT count(*) FROM sqlite_master`)
	return err
}

// TestDriver_Open_ForeignFileRefusedUntouched: opening a file another
// program wrote (text, JSON, a SQLite database, random bytes, at sizes
// around each threshold of the open path) fails with ErrNotADB, Code 26,
// in every mode, and leaves the file's bytes as they were and no file
// beside it.
func TestDriver_Open_ForeignFileRefusedUntouched(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 3))
	files := map[string][]byte{
		"config.json": []byte(`{"listen": ":8080", "debug": true, "n": 4}` + "\n"),
		"notes.txt":   []byte(strings.Repeat("a line of somebody's notes\n", 2000)),
		"sqlite.db":   sqliteDBFixture(),
	}
	for _, n := range []int{1, 511, 512, 513, 4096, 8192, 65535, 65536, 65537, 131071, 131072, 131073} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		files[fmt.Sprintf("random%d.bin", n)] = b
	}
	for name, content := range files {
		for _, mode := range []string{"rwc", "rw", "ro"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, name)
				require.NoError(t, os.WriteFile(path, content, 0o644))
				err := openAndPing(path + "?mode=" + mode)
				require.Error(t, err)
				assert.ErrorIs(t, err, ladybug.ErrNotADB)
				var le *ladybug.Error
				require.True(t, errors.As(err, &le), "%T %v", err, err)
				assert.Equal(t, ladybug.CodeNotADB, le.Code)
				assert.Equal(t, 26, int(le.Code))
				assert.Contains(t, err.Error(), "file is not a database")
				got, rerr := os.ReadFile(path)
				require.NoError(t, rerr)
				assert.True(t, bytes.Equal(content, got), "the file changed")
				ents, rerr := os.ReadDir(dir)
				require.NoError(t, rerr)
				assert.Len(t, ents, 1, "a file appeared beside it")
			})
		}
	}
}

// TestDriver_Open_EmptyFileIsNewDatabase: a 0-byte file is a new empty
// database, as in SQLite, when the open may write; mode=ro cannot create
// it and refuses with ErrNotADB, leaving it empty.
func TestDriver_Open_EmptyFileIsNewDatabase(t *testing.T) {
	for _, mode := range []string{"rwc", "rw"} {
		path := filepath.Join(t.TempDir(), "empty.db")
		require.NoError(t, os.WriteFile(path, nil, 0o644))
		db, err := sql.Open("ladybug", path+"?mode="+mode)
		require.NoError(t, err)
		mustExec(t, db, `CREATE TABLE t(x)`)
		mustExec(t, db, `INSERT INTO t VALUES (1)`)
		assert.Equal(t, []int64{1}, queryInts(t, db, `SELECT x FROM t`), mode)
		require.NoError(t, db.Close())
	}
	path := filepath.Join(t.TempDir(), "empty.db")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	assert.ErrorIs(t, openAndPing(path+"?mode=ro"), ladybug.ErrNotADB)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Zero(t, st.Size())
}

// TestDriver_Open_ErrorsKeepTheirClass: a damaged header is ErrCorrupt
// (Code 11), a missing file without create ErrCantOpen (14), and neither
// is rewritten.
func TestDriver_Open_ErrorsKeepTheirClass(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t(x)`)
	require.NoError(t, db.Close())
	require.NoError(t, os.Remove(path+"-wal"))
	img, err := os.ReadFile(path)
	require.NoError(t, err)
	img[20] ^= 0xff // inside the header, after the magic
	require.NoError(t, os.WriteFile(path, img, 0o644))
	for _, mode := range []string{"rwc", "rw", "ro"} {
		err := openAndPing(path + "?mode=" + mode)
		assert.ErrorIs(t, err, ladybug.ErrCorrupt, mode)
		var le *ladybug.Error
		require.True(t, errors.As(err, &le), mode)
		assert.Equal(t, ladybug.CodeCorrupt, le.Code, mode)
		got, rerr := os.ReadFile(path)
		require.NoError(t, rerr)
		assert.True(t, bytes.Equal(img, got), "%s: the file changed", mode)
	}
	for _, mode := range []string{"rw", "ro"} {
		err := openAndPing(filepath.Join(dir, "missing.db") + "?mode=" + mode)
		assert.ErrorIs(t, err, ladybug.ErrCantOpen, mode)
		var le *ladybug.Error
		require.True(t, errors.As(err, &le), mode)
		assert.Equal(t, ladybug.CodeCantOpen, le.Code, mode)
	}
}
