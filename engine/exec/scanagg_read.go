package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// aggReader reads the picked values (see scanAggOp.width) of the rows of
// one rowid range of a table, a leaf run at a time: read in place
// (txn.Cursor.Cells) where the leaf allows, else copied out
// (txn.Cursor.AppendRun). Each goroutine of a scanAggOp has its own.
type aggReader struct {
	cur          *txn.Cursor
	hi           int64 // the range's last rowid
	pick         *types.ColumnPicker
	width, rowid int
	vals         []types.Value // the last run's values, row-major
	run          []storage.Entry
	key          []byte
	moved        bool // a run was read: the next starts after it
	ended        bool // the range is over
}

// seek positions the reader at the first row of rowids [lo, hi].
func (r *aggReader) seek(lo, hi int64) error {
	r.hi, r.moved, r.ended = hi, false, false
	r.key = storage.AppendRowidKey(r.key[:0], lo)
	if !r.cur.Seek(r.key) {
		r.ended = true
		return r.cur.Err()
	}
	return nil
}

// next decodes the next run's rows into r.vals and returns how many;
// 0 at the end of the range.
func (r *aggReader) next() (int, error) {
	if r.ended {
		return 0, nil
	}
	if r.moved && !r.cur.Next() {
		r.ended = true
		return 0, r.cur.Err()
	}
	r.moved = true
	if c, ok := r.cur.Cells(BatchSize); ok {
		n := c.Len()
		if r.hi != math.MaxInt64 && storage.DecodeRowidKey(c.Key(n-1)) > r.hi {
			for n > 0 && storage.DecodeRowidKey(c.Key(n-1)) > r.hi {
				n--
			}
			r.ended = true
		}
		return n, r.decodeCells(c, n)
	}
	r.run = r.cur.AppendRun(r.run[:0], BatchSize)
	if len(r.run) == 0 {
		r.ended = true
		return 0, r.cur.Err()
	}
	run := r.inRange(r.run)
	return len(run), r.decodeEntries(run)
}

// inRange trims run to the rows at or below the range's last rowid,
// ending the range when it cuts. An open bound costs no key decoding, a
// bound past the run's last row one.
func (r *aggReader) inRange(run []storage.Entry) []storage.Entry {
	if r.hi == math.MaxInt64 || storage.DecodeRowidKey(run[len(run)-1].Key) <= r.hi {
		return run
	}
	r.ended = true
	for i, e := range run {
		if storage.DecodeRowidKey(e.Key) > r.hi {
			return run[:i]
		}
	}
	return run
}

// decodeCells decodes the first n cells of c into r.vals.
func (r *aggReader) decodeCells(c storage.Cells, n int) error {
	vals, w := r.room(n), r.width
	if r.pick != nil {
		for i := 0; i < n; i++ {
			if err := r.pick.Pick(c.Value(i), vals[i*w:]); err != nil {
				return errs.Wrap(errs.CodeCorrupt, err)
			}
		}
	}
	if r.rowid >= 0 {
		for i := 0; i < n; i++ {
			vals[i*w+r.rowid] = types.NewInt(storage.DecodeRowidKey(c.Key(i)))
		}
	}
	return nil
}

// decodeEntries decodes run into r.vals.
func (r *aggReader) decodeEntries(run []storage.Entry) error {
	vals, w := r.room(len(run)), r.width
	if r.pick != nil {
		for i, e := range run {
			if err := r.pick.Pick(e.Value, vals[i*w:]); err != nil {
				return errs.Wrap(errs.CodeCorrupt, err)
			}
		}
	}
	if r.rowid >= 0 {
		for i, e := range run {
			vals[i*w+r.rowid] = types.NewInt(storage.DecodeRowidKey(e.Key))
		}
	}
	return nil
}

// room returns r.vals with room for n rows.
func (r *aggReader) room(n int) []types.Value {
	if need := n * r.width; cap(r.vals) < need {
		r.vals = make([]types.Value, need, max(need, BatchSize*r.width))
	}
	return r.vals[:n*r.width]
}
