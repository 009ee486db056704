package exec

import (
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Arena bounds: a program keeps at most this much room between
// executions, so one huge statement does not pin its rows.
const (
	arenaKeepVals  = 4096
	arenaKeepRows  = 1024
	arenaKeepBytes = 64 << 10
)

// rowArena hands out fixed-width rows from reused chunks, so a compiled
// UPDATE or DELETE collecting its target rows allocates only when a
// statement touches more rows than the room it kept. Rows stay valid until
// reset; the program using it runs one execution at a time.
type rowArena struct {
	vals  []types.Value
	rows  [][]types.Value
	bytes []byte // text and blob copies; never rewritten while referenced
	// size is the bytes handed out since reset (values and their text),
	// which collectRows charges to the memory limit through mem.
	size int64
	mem  held
}

// valueSize is the bytes of one types.Value.
const valueSize = int64(unsafe.Sizeof(types.Value{}))

// reset forgets every row handed out, dropping the values they reference.
func (a *rowArena) reset() {
	a.mem.release()
	a.size = 0
	clear(a.vals)
	clear(a.rows)
	a.vals, a.rows, a.bytes = a.vals[:0], a.rows[:0], a.bytes[:0]
	if cap(a.bytes) > arenaKeepBytes {
		a.bytes = nil
	}
	if cap(a.vals) > arenaKeepVals {
		a.vals = nil
	}
	if cap(a.rows) > arenaKeepRows {
		a.rows = nil
	}
}

// row returns a zeroed row of width values; nil a allocates it.
func (a *rowArena) row(width int) []types.Value {
	if a == nil {
		return make([]types.Value, width)
	}
	if cap(a.vals)-len(a.vals) < width {
		// Rows already handed out keep the old chunk alive.
		a.vals = make([]types.Value, 0, max(2*cap(a.vals), 8*width))
	}
	n := len(a.vals)
	a.size += int64(width) * valueSize
	a.vals = a.vals[:n+width]
	return a.vals[n : n+width : n+width]
}

// clone is Value.Clone with the text or blob bytes copied into the arena,
// valid until reset; nil a clones onto the heap.
func (a *rowArena) clone(v types.Value) types.Value {
	k := v.Kind()
	if a == nil || (k != types.KindText && k != types.KindBlob) {
		return v.Clone()
	}
	src := v.Bytes()
	if cap(a.bytes)-len(a.bytes) < len(src) {
		// Values already handed out keep the old chunk alive.
		a.bytes = make([]byte, 0, max(2*cap(a.bytes), 256, len(src)))
	}
	n := len(a.bytes)
	a.size += int64(len(src))
	a.bytes = append(a.bytes, src...)
	b := a.bytes[n:len(a.bytes):len(a.bytes)]
	switch {
	case k == types.KindBlob:
		return types.NewBlob(b)
	case v.IsJSON():
		return types.NewJSON(unsafeString(b))
	}
	return types.NewText(unsafeString(b))
}
