package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/txn"
)

// rewriteCatalogEntry replaces, in the file's catalog tree, the entry
// named name with what edit makes of it (a damaged schema no DDL leaves).
func rewriteCatalogEntry(t *testing.T, db *DB, name string, edit func(e *catalog.Entry) []byte) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.txm.Begin(ctx, txn.Options{})
	require.NoError(t, err)
	require.NoError(t, tx.StartWriteStatement(ctx))
	root := uint32(tx.Meta(metaCatalogRoot))
	entries, err := readEntries(tx, root)
	require.NoError(t, err)
	found := false
	for i, e := range entries {
		if e.Name == name {
			require.NoError(t, tx.Tree(root).Put(keycodec.RowidKey(int64(i+1)), edit(&e)))
			found = true
		}
	}
	require.True(t, found, name)
	require.NoError(t, tx.EndStatement(nil))
	require.NoError(t, tx.Commit())
}

// A catalog that cannot be loaded is an error at open, naming the object,
// never a schema with the object (or the tables before it) left out.
func TestDB_Open_UnloadableCatalogIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, entry string
		edit        func(e *catalog.Entry) []byte
		want        string
	}{
		{"graph over a missing table", "social", func(e *catalog.Entry) []byte {
			e.SQL = strings.ReplaceAll(e.SQL, "knows", "nosuch")
			return e.Encode()
		}, "malformed database schema (social)"},
		{"table text", "person", func(e *catalog.Entry) []byte {
			e.SQL = "CREATE TABLE person("
			return e.Encode()
		}, "malformed database schema (person)"},
		{"undecodable entry", "knows", func(*catalog.Entry) []byte { return []byte{0xff, 1, 2} }, "malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.db")
			db, err := Open(Options{Path: path, Create: true})
			require.NoError(t, err)
			mustExecScript(t, db.NewSession(), `CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT);
				CREATE TABLE knows(a INTEGER, b INTEGER);
				CREATE PROPERTY GRAPH social VERTEX TABLES (person) EDGE TABLES (knows SOURCE KEY (a) REFERENCES person (id) DESTINATION KEY (b) REFERENCES person (id))`)
			rewriteCatalogEntry(t, db, tc.entry, tc.edit)
			require.NoError(t, db.Close())

			db, err = Open(Options{Path: path})
			if err == nil {
				db.Close()
			}
			require.Error(t, err)
			require.ErrorIs(t, err, errs.ErrCorrupt)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}
