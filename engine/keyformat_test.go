package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// testdata/keyformat_v1.db was written by ladybug before the key codecs
// moved to engine/keycodec (page_size 1024; one table with an index on
// every kind of value key: integers at the int64 and 2^53 edges, reals,
// -0.0, text with a zero byte, NOCASE, RTRIM and DESC columns, blobs,
// NULLs, and a WITHOUT ROWID table keyed by NOCASE text). Today's code must
// read it unchanged: integrity_check re-encodes every row's index keys and
// compares them with the stored ones, and index seeks and ordered index
// scans find what they found then.
func TestKeyFormat_V1File_OpensAndComparesTheSame(t *testing.T) {
	src, err := os.ReadFile("testdata/keyformat_v1.db")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "keyformat_v1.db")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	db, err := Open(Options{Path: path})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	require.Equal(t, []string{"ok"}, integrityRows(t, s))
	for _, c := range []struct {
		sql  string
		want []int64
	}{
		{"SELECT id FROM k INDEXED BY k_v WHERE v = 9007199254740993", []int64{6}},
		{"SELECT id FROM k INDEXED BY k_v WHERE v = -9007199254740993", []int64{7}},
		{"SELECT id FROM k INDEXED BY k_v WHERE v = 9223372036854775807", []int64{4}},
		{"SELECT id FROM k INDEXED BY k_v WHERE v = 5", []int64{12}},
		{"SELECT id FROM k INDEXED BY k_v WHERE v = x'0102'", []int64{10}},
		{"SELECT id FROM k INDEXED BY k_v WHERE v > 1 AND v < 1e19", []int64{8, 12, 6, 13, 4}},
		{"SELECT id FROM k INDEXED BY k_v ORDER BY v, id", []int64{11, 5, -5, 7, 3, 1, 2, 8, 12, 6, 13, 4, 9, 10}},
		{"SELECT id FROM k INDEXED BY k_r WHERE r = 0", []int64{1, 2}},
		{"SELECT id FROM k INDEXED BY k_r ORDER BY r DESC, id", []int64{4, 9, 6, 12, -5, 3, 8, 1, 2, 13, 7, 10, 5, 11}},
		{"SELECT id FROM k INDEXED BY k_s WHERE s = 'a' || char(0) || 'b'", []int64{3}},
		{"SELECT id FROM k INDEXED BY k_s WHERE s = 'a' ORDER BY v DESC", []int64{10, 9, 2}},
		{"SELECT id FROM k INDEXED BY k_s ORDER BY s, v DESC, id", []int64{7, 1, 12, 8, 10, 9, 2, 3, 13, 4, 6, 5, -5, 11}},
		{"SELECT id FROM k INDEXED BY k_n WHERE n = 'ABC' ORDER BY id", []int64{1, 2}},
		{"SELECT id FROM k INDEXED BY k_n ORDER BY n, id", []int64{6, 12, 9, 10, 13, 1, 2, 3, 7, -5, 8, 4, 5, 11}},
		{"SELECT id FROM k INDEXED BY k_t WHERE t = 'x' ORDER BY id", []int64{1, 2}},
		{"SELECT id FROM k INDEXED BY k_t ORDER BY t DESC, id", []int64{11, 8, 3, 1, 2, -5, 7, 9, 10, 13, 12, 4, 5, 6}},
		{"SELECT id FROM k INDEXED BY k_b WHERE b = x'00ff'", []int64{3}},
		{"SELECT id FROM k INDEXED BY k_b ORDER BY b, id", []int64{6, 1, 11, 2, 5, 3, 7, 13, 12, 9, 10, 8, -5, 4}},
		{"SELECT c FROM w WHERE a = 'ANN' ORDER BY c", []int64{1, 2}},
		{"SELECT c FROM w ORDER BY a, c", []int64{-9223372036854775808, 1, 2, 9223372036854775807, -1}},
		{"SELECT id FROM k WHERE id BETWEEN -5 AND 2", []int64{-5, 1, 2}},
	} {
		require.Equal(t, c.want, queryInts(t, s, c.sql), c.sql)
	}
}
