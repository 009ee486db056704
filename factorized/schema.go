package factorized

import (
	"fmt"
	"sync/atomic"
)

// Type is the type of a column's fixed-width slot.
type Type uint8

// Column types.
const (
	// TypeInt64 is an 8-byte little-endian integer.
	TypeInt64 Type = iota + 1
	// TypeFloat64 is an 8-byte IEEE 754 double, little-endian bits.
	TypeFloat64
	// TypeBool is one byte, 0 or 1.
	TypeBool
	// TypeValue is a SQL value of any storage class: an 8-byte slot plus a
	// kind byte; text and blob bytes of more than 8 bytes live in the
	// table's overflow buffer.
	TypeValue
	// TypeBytes is a raw fixed-width byte slot of Column.Width bytes.
	TypeBytes
)

// valueWidth is the slot width of a TypeValue column: 8 bytes + kind.
const valueWidth = 9

// Column describes one column of a Schema.
type Column struct {
	Type  Type
	Width int // TypeBytes only: the slot width in bytes
}

// Int64 returns an int64 column.
func Int64() Column { return Column{Type: TypeInt64} }

// Float64 returns a float64 column.
func Float64() Column { return Column{Type: TypeFloat64} }

// Bool returns a bool column.
func Bool() Column { return Column{Type: TypeBool} }

// Value returns a SQL value column.
func Value() Column { return Column{Type: TypeValue} }

// Bytes returns a raw fixed-width column of width bytes.
func Bytes(width int) Column { return Column{Type: TypeBytes, Width: width} }

// width returns the slot width of c, or 0 if c is invalid.
func (c Column) width() int {
	switch c.Type {
	case TypeInt64, TypeFloat64:
		return 8
	case TypeBool:
		return 1
	case TypeValue:
		return valueWidth
	case TypeBytes:
		return max(c.Width, 0)
	}
	return 0
}

// Schema is the fixed layout of a table's tuples: each column's slot at a
// fixed offset, then a null bitmap of one bit per column. It is immutable
// and may be shared by many tables.
type Schema struct {
	cols    []Column
	offs    []int
	values  []int // indexes of TypeValue columns, for merge fix-ups
	nullOff int   // offset of the null bitmap
	width   int   // tuple width; at least 1
	// hashed is s extended with a hash table's key and link columns,
	// made by the first NewHashTable over s and shared by the later ones.
	hashed atomic.Pointer[Schema]
}

// NewSchema builds the layout for cols. A schema with no columns has
// one-byte tuples, so a table can still count rows (a constant scan).
func NewSchema(cols ...Column) (*Schema, error) {
	s := &Schema{cols: append([]Column(nil), cols...), offs: make([]int, len(cols))}
	off := 0
	for i, c := range cols {
		w := c.width()
		if w == 0 {
			return nil, fmt.Errorf("factorized: column %d (type %d, width %d): %w", i, c.Type, c.Width, ErrBadColumn)
		}
		if c.Type == TypeValue {
			s.values = append(s.values, i)
		}
		s.offs[i] = off
		off += w
		if off > BlockSize {
			return nil, fmt.Errorf("factorized: %d columns: %w", len(cols), ErrTupleTooWide)
		}
	}
	s.nullOff = off
	s.width = max(off+(len(cols)+7)/8, 1)
	if s.width > BlockSize {
		return nil, fmt.Errorf("factorized: %d columns: %w", len(cols), ErrTupleTooWide)
	}
	return s, nil
}

// MustSchema is NewSchema for fixed layouts known to be valid (package-level
// schemas of an operator); it panics on an invalid one.
func MustSchema(cols ...Column) *Schema {
	s, err := NewSchema(cols...)
	if err != nil {
		panic(err)
	}
	return s
}

// NumColumns returns the number of columns.
func (s *Schema) NumColumns() int { return len(s.cols) }

// Column returns column i's description.
func (s *Schema) Column(i int) Column { return s.cols[i] }

// Offset returns the byte offset of column i's slot within a tuple.
func (s *Schema) Offset(i int) int { return s.offs[i] }

// NullOffset returns the byte offset of the null bitmap within a tuple.
func (s *Schema) NullOffset() int { return s.nullOff }

// Width returns the tuple width in bytes.
func (s *Schema) Width() int { return s.width }

// Equal reports whether s and o have the same columns.
func (s *Schema) Equal(o *Schema) bool {
	if s == o {
		return true
	}
	if len(s.cols) != len(o.cols) {
		return false
	}
	for i, c := range s.cols {
		if c.Type != o.cols[i].Type || c.width() != o.cols[i].width() {
			return false
		}
	}
	return true
}

// Extend returns a schema with s's columns followed by more.
func (s *Schema) Extend(more ...Column) (*Schema, error) {
	return NewSchema(append(append([]Column(nil), s.cols...), more...)...)
}
