package exec

import (
	"github.com/ladybugsql/ladybug/factorized"
)

// distinctOp streams rows not seen before, remembering their keys in a
// factorized hash table.
type distinctOp struct {
	in    Operator
	colls []string
	ht    *factorized.HashTable
	sel   []int32
	key   []byte
}

func (d *distinctOp) Next(c *Ctx) (*Batch, error) {
	if d.ht == nil {
		ht, err := factorized.NewHashTable(c.Pool, factorized.MustSchema())
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
			if _, found := d.ht.FindOrInsert(d.key); !found {
				d.sel = append(d.sel, int32(i))
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

func (d *distinctOp) Close() {
	d.in.Close()
	if d.ht != nil {
		d.ht.Release()
		d.ht = nil
	}
}
