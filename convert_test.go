package ladybug

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine"
	"github.com/ladybugsql/ladybug/engine/types"
)

func TestConvertArg_EveryKindDatabaseSQLPasses(t *testing.T) {
	ts := time.Date(2026, 3, 4, 5, 6, 7, 8, time.FixedZone("X", 3600))
	cases := []struct {
		in   any
		want any
	}{
		{nil, nil},
		{int(-1), int64(-1)}, {int8(-8), int64(-8)}, {int16(16), int64(16)}, {int32(32), int64(32)}, {int64(64), int64(64)},
		{uint(1), int64(1)}, {uint8(8), int64(8)}, {uint16(16), int64(16)}, {uint32(math.MaxUint32), int64(math.MaxUint32)},
		{uint64(math.MaxInt64), int64(math.MaxInt64)},
		{float32(1.5), float64(1.5)}, {2.25, 2.25},
		{true, true}, {"s", "s"}, {[]byte("b"), []byte("b")}, {ts, ts},
		{json.RawMessage(`{"a":1}`), `{"a":1}`},
		{sql.NullInt64{Int64: 5, Valid: true}, int64(5)},
		{sql.NullInt64{}, nil},
		{sql.NullString{String: "x", Valid: true}, "x"},
		{sql.NullTime{Time: ts, Valid: true}, ts},
		{sql.NullBool{Bool: true, Valid: true}, true},
		{sql.NullInt32{Int32: 3, Valid: true}, int64(3)},
		{sql.Null[float64]{V: 1, Valid: true}, float64(1)},
		{(*sql.NullInt64)(nil), nil},
	}
	for _, c := range cases {
		got, err := convertArg(c.in)
		require.NoError(t, err, "%T", c.in)
		assert.Equal(t, c.want, got, "%T", c.in)
	}
	_, err := convertArg(uint64(math.MaxInt64) + 1)
	assert.ErrorContains(t, err, "larger than the largest INTEGER")
	_, err = convertArg(struct{}{})
	assert.Equal(t, driver.ErrSkip, err, "unknown kinds go to database/sql's default converter")
}

func TestToValue_CopiesBytesAndFormatsTimes(t *testing.T) {
	b := []byte("abc")
	v, err := toValue(b)
	require.NoError(t, err)
	b[0] = 'X'
	assert.Equal(t, "abc", v.Str(), "the caller may reuse its buffer")
	assert.Equal(t, types.KindBlob, v.Kind())

	v, err = toValue(time.Date(2026, 3, 4, 5, 6, 7, 500000000, time.FixedZone("X", 3600)))
	require.NoError(t, err)
	assert.Equal(t, "2026-03-04 04:06:07.5+00:00", v.Str(), "stored in UTC, SQLite's text form")

	v, err = toValue([]byte(nil))
	require.NoError(t, err)
	assert.True(t, v.IsNull())
}

func TestFromValue_ByDeclaredType(t *testing.T) {
	want := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, s := range []string{"2026-03-04 05:06:07", "2026-03-04T05:06:07Z", "2026-03-04 06:06:07+01:00", "2026-03-04 05:06:07.000"} {
		got := fromValue(types.NewText(s), declTime, nil)
		require.IsType(t, time.Time{}, got, s)
		assert.True(t, want.Equal(got.(time.Time)), "%s -> %v", s, got)
		assert.Equal(t, time.UTC, got.(time.Time).Location())
	}
	assert.Equal(t, "not a time", fromValue(types.NewText("not a time"), declTime, nil), "unparseable text stays text")
	assert.Equal(t, want, fromValue(types.NewInt(want.Unix()), declTime, nil))
	jd := 2440587.5 + float64(want.Unix())/86400
	assert.True(t, want.Equal(fromValue(types.NewReal(jd), declTime, nil).(time.Time)))
	assert.Equal(t, true, fromValue(types.NewInt(1), declBool, nil))
	assert.Equal(t, false, fromValue(types.NewInt(0), declBool, nil))
	assert.Equal(t, int64(1), fromValue(types.NewInt(1), declInt, nil))
	assert.Nil(t, fromValue(types.Null, declBool, nil))
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err == nil {
		assert.Equal(t, berlin, fromValue(types.NewText("2026-03-04 05:06:07"), declTime, berlin).(time.Time).Location())
	}

	src := []byte("blob")
	out := fromValue(types.NewBlob(src), declBlob, nil).([]byte)
	src[0] = 'X'
	assert.Equal(t, []byte("blob"), out, "returned bytes are a copy the caller may keep")
}

func TestClassifyDecl_AffinityAndGoClasses(t *testing.T) {
	cases := map[string]declKind{
		"":                         declAny,
		"INTEGER":                  declInt,
		"bigint":                   declInt,
		"VARCHAR(255)":             declText,
		"text":                     declText,
		"BLOB":                     declBlob,
		"DOUBLE PRECISION":         declReal,
		"decimal(10,2)":            declNumeric,
		"BOOLEAN":                  declBool,
		"bool":                     declBool,
		"DATETIME":                 declTime,
		"timestamp with time zone": declTime,
		"DATE":                     declTime,
	}
	for decl, want := range cases {
		assert.Equal(t, want, classifyDecl(decl), decl)
	}
	name, args := splitDecl("decimal( 10 , 2 )")
	assert.Equal(t, "DECIMAL", name)
	assert.Equal(t, []string{"10", "2"}, args)
}

func TestSyncMode_MatchesEngine(t *testing.T) {
	assert.EqualValues(t, engine.SyncFull, SyncFull)
	assert.EqualValues(t, engine.SyncNormal, SyncNormal)
	assert.EqualValues(t, engine.SyncOff, SyncOff)
	cfg, err := ParseDSN("x.db?sync=normal")
	require.NoError(t, err)
	assert.Equal(t, engine.SyncNormal, cfg.engineOptions().Sync, "the DSN's sync setting reaches the engine")
}

func TestDriver_ValuesStored_NoGoMapping(t *testing.T) {
	db, err := sql.Open("ladybug", "file:valuesstored?mode=memory&values=stored")
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE t(b BOOLEAN, d DATE, ts TIMESTAMP); INSERT INTO t VALUES (1, '2026-01-02', '2026-01-02 03:04:05')`)
	require.NoError(t, err)
	var b, d, ts any
	require.NoError(t, db.QueryRow(`SELECT b, d, ts FROM t`).Scan(&b, &d, &ts))
	assert.Equal(t, int64(1), b)
	assert.Equal(t, "2026-01-02", d)
	assert.Equal(t, "2026-01-02 03:04:05", ts)

	_, err = sql.Open("ladybug", ":memory:?values=raw")
	assert.ErrorContains(t, err, "go or stored")
}
