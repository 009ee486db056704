package factorized

import (
	"cmp"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

var zeroModes = []struct {
	name  string
	eager bool
}{{"lazy", false}, {"eager", true}}

// meter snapshots the pool's zeroed-bytes counter and the process CPU time
// before a benchmark loop.
type meter struct{ zeroed, cpu int64 }

func startMeter(p *Pool) meter { return meter{p.ZeroedBytes(), cpuNanos()} }

// report adds bytes zeroed and CPU time per operation.
func (m meter) report(b *testing.B, p *Pool) {
	b.ReportMetric(float64(p.ZeroedBytes()-m.zeroed)/float64(b.N), "zeroed-B/op")
	b.ReportMetric(float64(cpuNanos()-m.cpu)/float64(b.N), "cpu-ns/op")
}

// oneRow builds and reads the one-row, one-column result of SELECT 1.
func oneRow(t *Table) uint64 {
	t.Append().SetValue(0, KindInt, 1, nil)
	_, bits, _ := t.Value(0, 0)
	return bits
}

// BenchmarkTable_OneRow is the constant scan behind SELECT 1 on a warm
// pool: the table of a cached plan, released after each query (Release),
// reset after each query (Reset), or made per query (New).
func BenchmarkTable_OneRow(b *testing.B) {
	s := MustSchema(Value())
	queries := []struct {
		name string
		run  func(p *Pool, cached *Table)
	}{
		{"Release", func(_ *Pool, t *Table) { oneRow(t); t.Release() }},
		{"Reset", func(_ *Pool, t *Table) { oneRow(t); t.Reset() }},
		{"New", func(p *Pool, _ *Table) { t := NewTable(p, s); oneRow(t); t.Release() }},
	}
	for _, q := range queries {
		for _, m := range zeroModes {
			b.Run(q.name+"/"+m.name, func(b *testing.B) {
				p := NewPool(PoolOptions{EagerZero: m.eager})
				t := NewTable(p, s)
				q.run(p, t) // warm: the pool holds a used block
				b.ReportAllocs()
				m0 := startMeter(p)
				for b.Loop() {
					q.run(p, t)
				}
				m0.report(b, p)
			})
		}
	}
}

const aggGroups = 1 << 20

// BenchmarkHashTable_Aggregate1MGroups is GROUP BY over 1M distinct int
// keys (a count and a sum per group), A/B against eager zeroing: every
// block is filled, so lazy zeroing clears the same bytes and costs nothing
// extra.
func BenchmarkHashTable_Aggregate1MGroups(b *testing.B) {
	keys := make([][]byte, aggGroups)
	for i := range keys {
		keys[i] = keycodec.AppendInt(nil, int64(rand.Uint64()>>1))
	}
	// One pool for both modes, so they run on the same blocks.
	p := NewPool(PoolOptions{MaxFree: 1024})
	h, _ := NewHashTable(p, MustSchema(Int64(), Int64()))
	for _, m := range zeroModes {
		b.Run(m.name, func(b *testing.B) {
			p.SetEagerZero(m.eager)
			aggregate := func() {
				for i, k := range keys {
					r, _ := h.FindOrInsert(k)
					r.SetInt64(0, r.Int64(0)+1)
					r.SetInt64(1, r.Int64(1)+int64(i))
				}
				h.Release()
			}
			aggregate() // warm: the pool holds every block a run needs
			b.ReportAllocs()
			m0 := startMeter(p)
			for b.Loop() {
				aggregate()
			}
			m0.report(b, p)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/aggGroups, "ns/group")
		})
	}
}

// BenchmarkTable_Append1M appends 1M two-column tuples: the materialising
// side of an aggregate, without hashing.
func BenchmarkTable_Append1M(b *testing.B) {
	p := NewPool(PoolOptions{MaxFree: 1024})
	t := NewTable(p, MustSchema(Int64(), Int64()))
	for _, m := range zeroModes {
		b.Run(m.name, func(b *testing.B) {
			p.SetEagerZero(m.eager)
			fill := func() {
				for i := range aggGroups {
					r := t.Append()
					r.SetInt64(0, int64(i))
					r.SetInt64(1, 1)
				}
				t.Release()
			}
			fill() // warm
			b.ReportAllocs()
			m0 := startMeter(p)
			for b.Loop() {
				fill()
			}
			m0.report(b, p)
		})
	}
}

const joinRows = 100000

func joinKeys() [][]byte {
	keys := make([][]byte, joinRows)
	for i := range keys {
		keys[i] = binary.BigEndian.AppendUint64(nil, uint64(i*7919))
	}
	return keys
}

// BenchmarkHashTable_Build inserts 100k build rows with one payload column.
func BenchmarkHashTable_Build(b *testing.B) {
	keys := joinKeys()
	p := NewPool(PoolOptions{MaxFree: 256})
	h, _ := NewHashTable(p, MustSchema(Int64()))
	b.ReportAllocs()
	for b.Loop() {
		for i, k := range keys {
			h.Insert(k).SetInt64(0, int64(i))
		}
		h.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/joinRows, "ns/row")
}

// BenchmarkHashTable_Probe probes 100k keys, half of them absent, against
// a 100k-row build side.
func BenchmarkHashTable_Probe(b *testing.B) {
	keys := joinKeys()
	h, _ := NewHashTable(NewPool(PoolOptions{}), MustSchema(Int64()))
	for i, k := range keys {
		h.Insert(k).SetInt64(0, int64(i))
	}
	probes := make([][]byte, joinRows)
	for i := range probes {
		probes[i] = binary.BigEndian.AppendUint64(nil, uint64(i*7919/2))
	}
	b.ReportAllocs()
	var sum int64
	for b.Loop() {
		for _, k := range probes {
			m := h.Probe(k)
			for r, ok := m.Next(); ok; r, ok = m.Next() {
				sum += r.Int64(0)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/joinRows, "ns/probe")
	_ = sum
}

const sortRows = 1 << 20

func sortTable() *Table {
	t := NewTable(NewPool(PoolOptions{MaxFree: 256}), MustSchema(Int64()))
	rng := rand.New(rand.NewPCG(1, 2))
	for range sortRows {
		t.Append().SetInt64(0, rng.Int64()-1<<62)
	}
	return t
}

// BenchmarkSorter_Sort1M encodes and sorts 1M int keys by memcmp.
func BenchmarkSorter_Sort1M(b *testing.B) {
	t := sortTable()
	s := NewSorter(NewPool(PoolOptions{}))
	var key []byte
	sortAll := func() {
		for i, r := range t.All() {
			key = keycodec.AppendInt(key[:0], r.Int64(0))
			s.Add(i, key)
		}
		s.Sort()
		s.Reset()
	}
	sortAll() // warm: entry slices at full size
	b.ReportAllocs()
	for b.Loop() {
		sortAll()
	}
}

// BenchmarkSortRows_Comparator1M sorts 1M rows with a comparator.
func BenchmarkSortRows_Comparator1M(b *testing.B) {
	t := sortTable()
	order := make([]int, 0, sortRows)
	b.ReportAllocs()
	for b.Loop() {
		order = SortRows(t, order, func(x, y Row) int { return cmp.Compare(x.Int64(0), y.Int64(0)) })
	}
}

// BenchmarkTopN_100Of1M is ORDER BY x LIMIT 100 over 1M rows.
func BenchmarkTopN_100Of1M(b *testing.B) {
	t := sortTable()
	p := NewPool(PoolOptions{})
	h := NewTopN(p, 100)
	out := NewTable(p, MustSchema(Int64()))
	var key []byte
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range t.All() {
			key = keycodec.AppendInt(key[:0], r.Int64(0))
			if slot, ok := h.Offer(key); ok {
				if slot == out.Len() {
					out.Append()
				}
				out.SetInt64(slot, 0, r.Int64(0))
			}
		}
		h.Sort()
		h.Reset()
		out.Reset()
	}
}
