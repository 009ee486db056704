package exec

import (
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
		n := 2*cap(a.buf) + len(b)
		if n < 4096 {
			n = 4096
		}
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

// rowDecoder decodes records into batch columns.
type rowDecoder struct{}

// decode decodes the columns of rec marked in needed (nil = all) into
// dst[c][row]; columns missing from the record are NULL. Text and blob
// bytes are copied into ar, since rec is only valid until the cursor moves.
func (d *rowDecoder) decode(rec []byte, needed []bool, dst [][]types.Value, row int, ar *arena) error {
	if err := types.DecodeRow(rec, needed, dst, row); err != nil {
		return errs.Wrap(errs.CodeCorrupt, err)
	}
	for c := range dst {
		if needed == nil || needed[c] {
			if k := dst[c][row].Kind(); k == types.KindText || k == types.KindBlob {
				dst[c][row] = ar.keepValue(dst[c][row])
			}
		}
	}
	return nil
}
