package conformance

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleFile = `# comment
statement ok
CREATE TABLE t(a)

skipif ladybug
statement error UNIQUE constraint
INSERT INTO t VALUES (1)

onlyif sqlite
query IT rowsort
SELECT 1,
  'x'
----
1
x

hash-threshold 4

query I valuesort
SELECT 1
----
3 values hashing to 0123456789abcdef0123456789abcdef

halt

query I
SELECT never
`

func writeSample(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample.test")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestParseFile_Sample_AllRecordKinds(t *testing.T) {
	f, err := ParseFile(writeSample(t, sampleFile))
	require.NoError(t, err)
	require.Len(t, f.Records, 7)
	r := f.Records
	assert.Equal(t, KindStatement, r[0].Kind)
	assert.Equal(t, 2, r[0].Line)
	assert.Equal(t, "CREATE TABLE t(a)", r[0].SQL)
	assert.True(t, r[1].ExpectError)
	assert.Equal(t, "UNIQUE constraint", r[1].ErrorPattern)
	assert.False(t, r[1].AppliesTo(EngineLadybug))
	assert.True(t, r[1].AppliesTo(EngineSQLite))
	assert.Equal(t, "IT", r[2].Types)
	assert.Equal(t, RowSort, r[2].Sort)
	assert.Equal(t, "SELECT 1,\n  'x'", r[2].SQL)
	assert.Equal(t, []string{"1", "x"}, r[2].Expected)
	assert.False(t, r[2].AppliesTo(EngineLadybug))
	assert.Equal(t, KindHashThreshold, r[3].Kind)
	assert.Equal(t, 4, r[3].Threshold)
	assert.Equal(t, ValueSort, r[4].Sort)
	assert.Equal(t, 3, r[4].HashCount)
	assert.Equal(t, KindHalt, r[5].Kind)
	assert.Equal(t, "sample.test:19", r[4].Key())
}

func TestParseFile_BadRecord_Error(t *testing.T) {
	_, err := ParseFile(writeSample(t, "bogus record\n"))
	require.ErrorContains(t, err, "sample.test:1")
	_, err = ParseFile(writeSample(t, "query I sideways\nSELECT 1\n"))
	require.ErrorContains(t, err, "unknown sort mode")
	_, err = ParseFile(writeSample(t, "statement ok\n\n"))
	require.ErrorContains(t, err, "without SQL")
}

func TestFormatValue_Types_AsSqllogictest(t *testing.T) {
	cases := []struct {
		v    any
		typ  byte
		want string
	}{
		{nil, 'I', "NULL"},
		{int64(-7), 'I', "-7"},
		{2.9, 'I', "2"},
		{"12abc", 'I', "12"},
		{true, 'I', "1"},
		{int64(3), 'R', "3.000"},
		{1.23456, 'R', "1.235"},
		{"", 'T', "(empty)"},
		{"a\tb", 'T', "a@b"},
		{"héllo", 'T', "héllo"},
		{[]byte{'A', 0, 0xff}, 'T', "A@@"},
		{2.0, 'T', "2.0"},
		{1e20, 'T', "1.0e+20"},
		{math.Inf(-1), 'T', "-Inf"},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), 'T', "2024-01-02 03:04:05"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatValue(c.v, c.typ), "%#v as %c", c.v, c.typ)
	}
}

func TestHashValues_Known_Md5OfLines(t *testing.T) {
	// md5("1\n2\n")
	assert.Equal(t, "6ddb4095eb719e2a9f0a3f95677d24e0", HashValues([]string{"1", "2"}))
}

func TestMatchError_CodeAndSubstring(t *testing.T) {
	le := &ladybug.Error{Code: ladybug.CodeConstraint, ExtendedCode: 2067, Msg: "UNIQUE constraint failed: t.a"}
	assert.True(t, MatchError(le, "2067"))
	assert.True(t, MatchError(le, "19"))
	assert.True(t, MatchError(le, "unique CONSTRAINT"))
	assert.True(t, MatchError(le, ""))
	assert.False(t, MatchError(le, "1555"))
	assert.False(t, MatchError(errors.New("x"), "19"))
	assert.False(t, MatchError(nil, ""))
}

func TestCheck_Query_SortModesAndHash(t *testing.T) {
	rows := &Rows{Columns: []string{"a", "b"}, Values: [][]any{{int64(2), "b"}, {int64(1), "z"}}}
	rec := &Record{Kind: KindQuery, Types: "IT", Sort: RowSort, Expected: []string{"1", "z", "2", "b"}}
	assert.NoError(t, Check(rec, formatRows(rec, rows)))
	rec.Sort = ValueSort
	rec.Expected = []string{"1", "2", "b", "z"}
	assert.NoError(t, Check(rec, formatRows(rec, rows)))
	rec.Sort = NoSort
	assert.ErrorContains(t, Check(rec, formatRows(rec, rows)), "wrong result")
	rec.Expected, rec.Hash, rec.HashCount = nil, HashValues([]string{"2", "b", "1", "z"}), 4
	assert.NoError(t, Check(rec, formatRows(rec, rows)))
	rec.Types = "I"
	assert.ErrorContains(t, Check(rec, formatRows(rec, rows)), "2 columns")
}

func TestInferTypes_MixedColumns(t *testing.T) {
	rows := &Rows{Columns: []string{"i", "r", "t", "n"}, Values: [][]any{
		{int64(1), int64(1), int64(1), nil},
		{nil, 2.5, "x", nil},
	}}
	assert.Equal(t, "IRTT", inferTypes(rows))
}

func TestRewriter_SetResult_FillsTypesAndValues(t *testing.T) {
	path := writeSample(t, "query ? rowsort\nSELECT 1\n\nquery\nSELECT 2\n----\nold\n")
	f, err := ParseFile(path)
	require.NoError(t, err)
	w := NewRewriter(f)
	w.SetResult(f.Records[0], Outcome{Types: "I", Values: []string{"1"}}, 0)
	w.SetResult(f.Records[1], Outcome{Types: "I", Values: []string{"7", "8", "9"}}, 2)
	require.NoError(t, w.Write())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "query I rowsort\nSELECT 1\n----\n1\n\nquery I\nSELECT 2\n----\n3 values hashing to "+
		HashValues([]string{"7", "8", "9"})+"\n", string(got))
}

func TestKnownFailures_SaveLoad_RoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "known.txt")
	k := KnownFailures{"b.test:10": "x", "a.test:9": "y\tz", "a.test:10": "w"}
	require.NoError(t, k.Save(path))
	got, err := LoadKnownFailures(path)
	require.NoError(t, err)
	assert.Equal(t, KnownFailures{"b.test:10": "x", "a.test:9": "y z", "a.test:10": "w"}, got)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Regexp(t, `(?s)a\.test:9.*a\.test:10.*b\.test:10`, string(data))
}

func TestTarget_Oracle_ExecQueryAndGuard(t *testing.T) {
	tg := OpenTarget(EngineSQLite)
	defer tg.Close()
	n, err := tg.Exec("CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	rows, err := tg.Query("SELECT a, 'x' FROM t ORDER BY a")
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(1), "x"}, {int64(2), "x"}}, rows.Values)
	_, err = tg.Query("SELECT nosuch FROM t")
	require.Error(t, err)
	assert.NoError(t, tg.Broken())
	err = tg.guard(func(ctx context.Context) error { panic("boom") })
	require.ErrorContains(t, err, "panic: boom")
	require.Error(t, tg.Broken())
	_, err = tg.Exec("SELECT 1")
	require.ErrorContains(t, err, "unusable")
}

func TestIsQuery_Keywords(t *testing.T) {
	assert.True(t, isQuery("-- c\nSELECT 1"))
	assert.True(t, isQuery("with x as (select 1) select * from x"))
	assert.True(t, isQuery("VALUES(1)"))
	assert.True(t, isQuery("INSERT INTO t VALUES (1) RETURNING *"))
	assert.False(t, isQuery("INSERT INTO t VALUES (1)"))
}
