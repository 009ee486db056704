package catalog

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEntry_Encode_RoundTrip(t *testing.T) {
	e := Entry{Type: "table", Name: "t", TblName: "t", Root: 7, SQL: "CREATE TABLE t(a)"}
	got, err := DecodeEntry(e.Encode())
	require.NoError(t, err)
	require.Equal(t, e, got)
	_, err = DecodeEntry([]byte{0xff})
	require.ErrorIs(t, err, ErrBadEntry)
}

func TestCatalog_Clone_Isolated(t *testing.T) {
	c := New()
	c.PutTable(&Table{Name: "A", RowidCol: -1})
	n := c.Clone()
	n.PutTable(&Table{Name: "b", RowidCol: -1})
	n.PutIndex(&Index{Name: "ia", Table: "a"})
	require.NotNil(t, n.Table("a"))
	require.Nil(t, c.Table("B"))
	require.Len(t, n.Entries(), 3)
	require.Len(t, c.Entries(), 1)
	require.Len(t, n.TableIndexes("A"), 1)
	n.Drop("IA")
	require.Nil(t, n.Index("ia"))
}
