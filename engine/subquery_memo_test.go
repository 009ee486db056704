package engine

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// queryTexts runs sql and returns every value of every row as text.
func queryTexts(t *testing.T, s *Session, sql string) []string {
	t.Helper()
	var out []string
	eachRow(t, s, sql, func(row []types.Value) {
		for _, v := range row {
			if v.Kind() == types.KindText {
				out = append(out, v.Str())
			} else {
				out = append(out, v.String())
			}
		}
	})
	return out
}

// A correlated subquery's result is kept per outer value for the rest of
// the statement (exec.subMemo); values that compare equal but are not the
// same value are told apart: integer 1, real 1.0, text '1' and blob x'31'
// each get their own run. SQLite (3.45, sqlite3 shell) answers the same.
func TestSubquery_Memo_TellsValuesApart(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE o(id INTEGER PRIMARY KEY, x)")
	runSQL(t, s, "INSERT INTO o(x) VALUES (1), (1.0), ('1'), (x'31'), (NULL), (1), ('1'), (1.0), (NULL), (x'31'), (2)")
	runSQL(t, s, "CREATE TABLE i(v)")
	runSQL(t, s, "INSERT INTO i VALUES (1), (1), ('1'), (2.0)")
	want := []string{"integer:2", "real:2", "text:1", "blob:0", "null:0", "integer:2", "text:1", "real:2", "null:0", "blob:0", "integer:1"}
	require.Equal(t, want, queryTexts(t, s,
		"SELECT (SELECT typeof(o.x) || ':' || count(*) FROM i WHERE i.v = o.x) FROM o ORDER BY id"))
	require.Equal(t, []string{"1", "1", "1", "0", "0", "1", "1", "1", "0", "0", "1"}, queryTexts(t, s,
		"SELECT EXISTS (SELECT 1 FROM i WHERE i.v = o.x) FROM o ORDER BY id"))
	// Two outer levels: the inner subquery reads both rows.
	require.Equal(t, []string{"2", "2", "1", "0", "0", "2", "1", "2", "0", "0", "1"}, queryTexts(t, s,
		"SELECT (SELECT (SELECT count(*) FROM i WHERE i.v = o.x AND p.id > 0) FROM o AS p WHERE p.id = o.id) FROM o ORDER BY id"))
}

// A subquery calling a function that is not deterministic runs for every
// outer row, repeated values or not.
func TestSubquery_Memo_NotForRandom(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE o(x)")
	runSQL(t, s, "INSERT INTO o SELECT 7 FROM generate_series(1, 50)")
	runSQL(t, s, "CREATE TABLE i(v)")
	runSQL(t, s, "INSERT INTO i VALUES (1)")
	require.Equal(t, []int64{50}, queryInts(t, s,
		"SELECT count(DISTINCT (SELECT random() + 0 * o.x FROM i)) FROM o"))
}
