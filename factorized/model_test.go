package factorized

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// modelCell is what one cell of the model table holds.
type modelCell struct {
	null bool
	kind uint8 // column 1 only
	n    int64
	b    []byte
}

type modelTable struct {
	tb   *Table
	rows [][3]modelCell // Int64, Value, Bytes(5)
}

var modelSchema = MustSchema(Int64(), Value(), Bytes(5))

func (m *modelTable) setRandom(rng *rand.Rand, row, c int) {
	cell := modelCell{}
	r := m.tb.Row(row)
	switch {
	case rng.IntN(5) == 0:
		cell.null = true
		if c == 1 {
			cell.kind = KindNull
		}
		r.SetNull(c)
	case c == 0:
		cell.n = rng.Int64()
		r.SetInt64(0, cell.n)
	case c == 1:
		cell.kind = KindInt + uint8(rng.IntN(4))
		switch cell.kind {
		case KindInt, KindReal:
			cell.n = rng.Int64()
		default:
			cell.b = make([]byte, rng.IntN(3)*rng.IntN(40))
			for i := range cell.b {
				cell.b[i] = byte('a' + rng.IntN(26))
			}
		}
		r.SetValue(1, cell.kind, uint64(cell.n), cell.b)
	default:
		cell.b = []byte{byte(rng.IntN(256)), 1, 2}
		r.SetBytes(2, cell.b)
		cell.b = append(cell.b, 0, 0)
	}
	m.rows[row][c] = cell
}

func (m *modelTable) appendRandom(rng *rand.Rand) {
	m.tb.Append()
	m.rows = append(m.rows, [3]modelCell{{}, {kind: KindNull}, {b: make([]byte, 5)}})
	for c := range 3 {
		if rng.IntN(2) == 0 {
			m.setRandom(rng, len(m.rows)-1, c)
		}
	}
}

func (m *modelTable) check(t *testing.T, step int) {
	t.Helper()
	require.Equal(t, len(m.rows), m.tb.Len(), "step %d", step)
	for i, r := range m.tb.All() {
		want := m.rows[i]
		for c := range 3 {
			require.Equal(t, want[c].null || c == 1 && want[c].kind == KindNull, r.IsNull(c), "step %d row %d col %d null", step, i, c)
		}
		if !want[0].null {
			require.Equal(t, want[0].n, r.Int64(0), "step %d row %d", step, i)
		}
		k, bits, b := r.Value(1)
		require.Equal(t, want[1].kind, k, "step %d row %d", step, i)
		if k == KindInt || k == KindReal {
			require.Equal(t, uint64(want[1].n), bits, "step %d row %d", step, i)
		}
		require.True(t, bytes.Equal(want[1].b, b), "step %d row %d", step, i)
		if !want[2].null {
			require.Equal(t, want[2].b, r.Bytes(2), "step %d row %d", step, i)
		}
	}
}

// TestTable_RandomOperations_MatchModel runs random appends, updates,
// truncations, resets and merges on recycled blocks against a model.
func TestTable_RandomOperations_MatchModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	p := dirtyPool(t, 6)
	m := &modelTable{tb: NewTable(p, modelSchema)}
	for step := range stress(500, 20000) {
		switch op := rng.IntN(100); {
		case op < 60:
			for range rng.IntN(300) {
				m.appendRandom(rng)
			}
		case op < 80 && len(m.rows) > 0:
			m.setRandom(rng, rng.IntN(len(m.rows)), rng.IntN(3))
		case op < 90:
			n := rng.IntN(len(m.rows) + 1)
			require.NoError(t, m.tb.Truncate(n))
			m.rows = m.rows[:n]
		case op < 93:
			m.tb.Reset()
			m.rows = m.rows[:0]
		default:
			o := &modelTable{tb: NewTable(p, modelSchema)}
			for range rng.IntN(3000) {
				o.appendRandom(rng)
			}
			require.NoError(t, m.tb.Merge(o.tb))
			m.rows = append(m.rows, o.rows...)
		}
		if len(m.rows) > 20000 {
			require.NoError(t, m.tb.Truncate(100))
			m.rows = m.rows[:100]
		}
		if step%25 == 0 {
			m.check(t, step)
		}
	}
	m.check(t, -1)
}

func TestPool_EagerZero_TuplesReadTheSame(t *testing.T) {
	for _, eager := range []bool{false, true} {
		p := NewPool(PoolOptions{EagerZero: eager})
		tb := NewTable(p, wideSchema(t))
		for i := range 100 {
			fillTuple(tb.Append(), i)
		}
		tb.Reset()
		for range 200 {
			requireZeroTuple(t, tb.Append(), "append after reset")
		}
	}
}
