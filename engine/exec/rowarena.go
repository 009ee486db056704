package exec

import "github.com/ladybugsql/ladybug/engine/types"

// Arena bounds: a program keeps at most this much room between
// executions, so one huge statement does not pin its rows.
const (
	arenaKeepVals = 4096
	arenaKeepRows = 1024
)

// rowArena hands out fixed-width rows from reused chunks, so a compiled
// UPDATE or DELETE collecting its target rows allocates only when a
// statement touches more rows than the room it kept. Rows stay valid until
// reset; the program using it runs one execution at a time.
type rowArena struct {
	vals []types.Value
	rows [][]types.Value
}

// reset forgets every row handed out, dropping the values they reference.
func (a *rowArena) reset() {
	clear(a.vals)
	clear(a.rows)
	a.vals, a.rows = a.vals[:0], a.rows[:0]
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
	a.vals = a.vals[:n+width]
	return a.vals[n : n+width : n+width]
}
