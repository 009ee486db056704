package engine

import (
	"io"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Column describes one result column.
type Column struct {
	Name     string
	DeclType string // declared type of the source column, "" for expressions
	Nullable int8   // 1 yes, 0 no, -1 unknown
}

// Rows streams a statement's result sets.
type Rows struct {
	cols []Column
}

// Columns returns the current result set's columns.
func (r *Rows) Columns() []Column { return r.cols }

// Next fills dest with the next row; io.EOF at the end. Values are valid
// until the next Next or Close.
func (r *Rows) Next(dest []types.Value) error { return io.EOF }

// HasNextResultSet reports whether another result set follows.
func (r *Rows) HasNextResultSet() bool { return false }

// NextResultSet advances to the next result set; io.EOF when none.
func (r *Rows) NextResultSet() error { return io.EOF }

// Close releases the rows.
func (r *Rows) Close() error { return nil }
