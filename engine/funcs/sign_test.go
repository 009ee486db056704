package funcs

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// TestSign_BlobIsNull: SQLite's sign() takes sqlite3_value_numeric_type,
// which leaves a blob a blob, so any blob gives NULL (even x'35', "5").
// Found by the differential generator (seed 42, statement 3309).
func TestSign_BlobIsNull(t *testing.T) {
	c := newTestContext()
	cases := []struct {
		in   types.Value
		want types.Value
	}{
		{types.NewBlob([]byte("5")), types.Null},
		{types.NewBlob(nil), types.Null},
		{types.NewText("5"), types.NewInt(1)},
		{types.NewText("-2.5"), types.NewInt(-1)},
		{types.NewText("x"), types.Null},
		{types.NewInt(0), types.NewInt(0)},
	}
	for _, tc := range cases {
		got, err := call(c, "sign", tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if types.Compare(got, tc.want, types.CollBinary) != 0 || got.Kind() != tc.want.Kind() {
			t.Errorf("sign(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
