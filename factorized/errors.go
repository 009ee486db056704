package factorized

import "errors"

// Sentinel errors. Callers match them with errors.Is.
var (
	// ErrBadColumn is returned by NewSchema for a column of unknown type or a
	// fixed-width byte column whose width is not positive.
	ErrBadColumn = errors.New("factorized: bad column")

	// ErrTupleTooWide is returned by NewSchema when one tuple would not fit
	// in a block.
	ErrTupleTooWide = errors.New("factorized: tuple wider than a block")

	// ErrSchemaMismatch is returned by Table.Merge when the two tables do not
	// have the same column types.
	ErrSchemaMismatch = errors.New("factorized: schemas differ")

	// ErrSelfMerge is returned by Table.Merge when a table is merged into
	// itself.
	ErrSelfMerge = errors.New("factorized: table merged into itself")

	// ErrOutOfRange is returned by Truncate when asked to grow instead of
	// shrink, or for a negative length.
	ErrOutOfRange = errors.New("factorized: length out of range")
)
