package exec

import (
	"bytes"

	"github.com/ladybugsql/ladybug/factorized"
)

// distinctOp streams rows not seen before, remembering their keys in a
// factorized hash table, or, over input sorted by every column
// (plan.Distinct.Sorted), comparing each row's key with the previous one.
type distinctOp struct {
	in     Operator
	colls  []string
	ht     *factorized.HashTable
	sel    []int32
	key    []byte
	sorted bool
	last   []byte
	any    bool // last holds a row's key
	mem    held // ht, charged to the memory limit
	kept   keptHash
}

func (d *distinctOp) Next(c *Ctx) (*Batch, error) {
	if d.ht == nil && !d.sorted {
		ht, err := d.kept.take(c.Pool, noPayload)
		if err != nil {
			return nil, err
		}
		d.ht = ht
	}
	for {
		b, err := d.in.Next(c)
		if err != nil || b == nil {
			return nil, err
		}
		d.sel = d.sel[:0]
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			d.key = d.key[:0]
			for col, coll := range d.colls {
				d.key = appendKey(d.key, b.Cols[col][i], coll, false, true)
			}
			if d.isNew() {
				d.sel = append(d.sel, int32(i))
			}
		}
		if d.ht != nil {
			if err := d.mem.set(c, d.ht.SizeBytes()); err != nil {
				return nil, err
			}
		}
		if len(d.sel) > 0 {
			b.Sel = d.sel
			return b, nil
		}
		if err := c.Check(); err != nil {
			return nil, err
		}
	}
}

// isNew reports whether the row with key d.key was not seen before.
func (d *distinctOp) isNew() bool {
	if !d.sorted {
		_, found := d.ht.FindOrInsert(d.key)
		return !found
	}
	if d.any && bytes.Equal(d.key, d.last) {
		return false
	}
	d.last, d.any = append(d.last[:0], d.key...), true
	return true
}

func (d *distinctOp) Close() {
	d.mem.release()
	d.any = false
	d.in.Close()
	if d.ht != nil {
		d.ht.Release()
		d.ht = nil
	}
}
