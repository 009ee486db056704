package engine

import "github.com/ladybugsql/ladybug/engine/types"

// Value is an SQL value as statements take it in (parameters) and Rows
// hand it out; it is engine/types' value, named here so the driver needs
// the engine façade alone.
type Value = types.Value

// Kind is a value's storage class, as in SQLite.
type Kind = types.Kind

// Storage classes.
const (
	KindNull = types.KindNull
	KindInt  = types.KindInt
	KindReal = types.KindReal
	KindText = types.KindText
	KindBlob = types.KindBlob
)

// Null is the SQL NULL value.
var Null = types.Null

// NewInt returns an INTEGER value.
func NewInt(i int64) Value { return types.NewInt(i) }

// NewReal returns a REAL value.
func NewReal(f float64) Value { return types.NewReal(f) }

// NewText returns a TEXT value.
func NewText(s string) Value { return types.NewText(s) }

// NewBlob returns a BLOB value that aliases b.
func NewBlob(b []byte) Value { return types.NewBlob(b) }

// NewBool returns 1 or 0 as an INTEGER value, as SQLite stores booleans.
func NewBool(b bool) Value { return types.NewBool(b) }
