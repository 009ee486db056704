package types

import (
	"errors"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

// Errors returned by the record and key decoders. They mean the bytes were
// not written by AppendRecord / AppendKey, or were damaged since; callers
// above storage report them as corruption.
var (
	// ErrCorruptRecord is returned when a record's header or body is
	// malformed or truncated.
	ErrCorruptRecord = errors.New("types: corrupt record")
	// ErrCorruptKey is returned when an index key is malformed or truncated
	// (the key codec's own error).
	ErrCorruptKey = keycodec.ErrCorrupt
	// ErrBadTime is returned by ParseTime for text in none of the forms.
	ErrBadTime = errors.New("types: not a time value")
)
