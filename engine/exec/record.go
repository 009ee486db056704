package exec

import (
	"math/bits"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Table rows are stored in types' record format (types.AppendRecord);
// this file decodes them into batches.

// arena holds the bytes of decoded text and blob values of one batch.
type arena struct{ buf []byte }

func (a *arena) reset() { a.buf = a.buf[:0] }

// keep copies b into the arena and returns the copy. When the arena must
// grow it moves to a new buffer, leaving earlier copies intact.
func (a *arena) keep(b []byte) []byte {
	if len(a.buf)+len(b) > cap(a.buf) {
		// Start small (a one-off statement's few rows) and double.
		n := max(2*cap(a.buf)+len(b), 512)
		a.buf = make([]byte, 0, n)
	}
	off := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[off:len(a.buf):len(a.buf)]
}

// keepValue returns v with its bytes copied into the arena.
func (a *arena) keepValue(v types.Value) types.Value {
	switch v.Kind() {
	case types.KindText:
		return types.NewText(unsafeString(a.keep(v.Bytes())))
	case types.KindBlob:
		return types.NewBlob(a.keep(v.Bytes()))
	}
	return v
}

// rowDecoder decodes records into batch columns. It walks each record's
// header only up to the last needed column.
type rowDecoder struct {
	ncol  int  // columns to walk: the last needed one + 1
	ready bool // ncol is set
}

// decode decodes the columns of rec marked in needed (nil = all) into
// dst[c][row]; columns missing from the record are NULL. Text and blob
// bytes are copied into ar, since rec is only valid until the cursor moves.
// needed must be the same on every call.
func (d *rowDecoder) decode(rec []byte, needed []bool, dst [][]types.Value, row int, ar *arena) error {
	if !d.ready {
		d.ncol, d.ready = walkedColumns(needed, len(dst)), true
	}
	n := min(d.ncol, len(dst))
	texts, err := types.DecodeRowMask(rec, needed, dst[:n], row)
	if err != nil {
		return errs.Wrap(errs.CodeCorrupt, err)
	}
	for texts != 0 {
		c := bits.TrailingZeros64(texts)
		texts &= texts - 1
		if c == 63 {
			for ; c < n; c++ {
				if needed == nil || needed[c] {
					dst[c][row] = ar.keepValue(dst[c][row])
				}
			}
			break
		}
		dst[c][row] = ar.keepValue(dst[c][row])
	}
	return nil
}

// walkedColumns is how many leading columns of n a decode must walk to
// reach every needed one.
func walkedColumns(needed []bool, n int) int {
	if needed == nil {
		return n
	}
	for c := min(n, len(needed)) - 1; c >= 0; c-- {
		if needed[c] {
			return c + 1
		}
	}
	return 0
}
