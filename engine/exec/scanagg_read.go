package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// aggReader reads the picked values (see scanAggOp.width) of the rows of
// one rowid range of a table, a leaf run at a time: read in place
// (txn.Cursor.Cells) where the leaf allows, else copied out
// (txn.Cursor.AppendRun). A scanAggOp has one, on the statement's goroutine.
//
// A row whose picked values are all INTEGER or REAL (every row of a
// numeric table) is read as plain words into nums, row-major, with its
// tags entry saying which are REAL; any other row (a NULL, text, a blob)
// is decoded into vals, row-major, and tagged tagValues.
type aggReader struct {
	cur          *txn.Cursor
	hi           int64 // the range's last rowid
	pick         *types.ColumnPicker
	width, rowid int
	nums         []int64                      // nums[i*width+j]: value j of row i, an integer or a REAL's bits
	tags         []uint64                     // tags[i]: row i's REAL values (bit j), or tagValues
	hot          [hotLayouts]types.WordLayout // the picker's most used layouts, read inline
	// same is the tag every row of the last run has, else tagMixed.
	same  uint64
	vals  []types.Value // the tagValues rows' values, row-major
	run   []storage.Entry
	key   []byte
	moved bool // a run was read: the next starts after it
	ended bool // the range is over
}

// hotLayouts is how many of the picker's layouts a reader reads inline:
// a table's rows mostly share a handful (a narrower integer now and then,
// a 0 or 1 in a column before the picked ones).
const hotLayouts = 4

const (
	// tagValues marks a row read into aggReader.vals.
	tagValues uint64 = 1 << 63
	// tagMixed is aggReader.same for a run whose rows' tags differ.
	tagMixed uint64 = 1<<63 | 1
)

// seek positions the reader at the first row of rowids [lo, hi].
func (r *aggReader) seek(lo, hi int64) error {
	r.hi, r.moved, r.ended = hi, false, false
	r.key = keycodec.AppendRowid(r.key[:0], lo)
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
		if r.hi != math.MaxInt64 && keycodec.DecodeRowid(c.Key(n-1)) > r.hi {
			for n > 0 && keycodec.DecodeRowid(c.Key(n-1)) > r.hi {
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
	if r.hi == math.MaxInt64 || keycodec.DecodeRowid(run[len(run)-1].Key) <= r.hi {
		return run
	}
	r.ended = true
	for i, e := range run {
		if keycodec.DecodeRowid(e.Key) > r.hi {
			return run[:i]
		}
	}
	return run
}

// decodeCells decodes the first n cells of c: the cells with a hot layout
// as words in one call per run of them (types.ReadWords), any other
// through the picker.
func (r *aggReader) decodeCells(c storage.Cells, n int) error {
	r.room()
	w := r.width
	if r.pick == nil { // no record column is read: count(*), the rowid
		clear(r.tags[:n])
	} else {
		page, spans := c.Spans()
		spans = spans[:n]
		for i := 0; i < n; {
			i += types.ReadWords(r.hot[:], page, spans[i:], r.nums[i*w:], w, r.tags[i:])
			if i == n {
				break
			}
			if err := r.decodeRow(i, c.Value(i)); err != nil { // no hot layout fits
				return err
			}
			i++
		}
	}
	if r.rowid >= 0 {
		for i := 0; i < n; i++ {
			r.setRowid(i, keycodec.DecodeRowid(c.Key(i)))
		}
	}
	r.setSame(n)
	return nil
}

// decodeEntries decodes run.
func (r *aggReader) decodeEntries(run []storage.Entry) error {
	r.room()
	for i, e := range run {
		if !r.readHot(i, e.Value) {
			if err := r.decodeRow(i, e.Value); err != nil {
				return err
			}
		}
	}
	if r.rowid >= 0 {
		for i, e := range run {
			r.setRowid(i, keycodec.DecodeRowid(e.Key))
		}
	}
	r.setSame(len(run))
	return nil
}

// readHot reads row i's picked record columns from rec as words when rec
// has a hot layout, reporting whether it did.
func (r *aggReader) readHot(i int, rec []byte) bool {
	h := 0
	for h < hotLayouts && !r.hot[h].Matches(rec) {
		h++
	}
	if h == hotLayouts {
		return false
	}
	l, w := &r.hot[h], r.width
	row := r.nums[i*w : i*w+l.Len()]
	for j := range row {
		row[j] = l.Word(rec, j)
	}
	r.tags[i] = l.Reals()
	return true
}

// decodeRow reads row i's picked record columns from rec: as words when
// they are all numbers, else as values; then it refreshes the hot layout,
// which rec may have changed.
func (r *aggReader) decodeRow(i int, rec []byte) error {
	defer r.refreshHot()
	if r.pick == nil {
		r.tags[i] = 0
		return nil
	}
	w := r.width
	if w > 63 { // too wide for a tag
		r.tags[i] = tagValues
		if err := r.pick.Pick(rec, r.vals[i*w:i*w+w]); err != nil {
			return errs.Wrap(errs.CodeCorrupt, err)
		}
		return nil
	}
	reals, num, err := r.pick.PickNumbers(rec, r.nums[i*w:i*w+w], r.vals[i*w:i*w+w])
	if err != nil {
		return errs.Wrap(errs.CodeCorrupt, err)
	}
	if !num {
		reals = tagValues
	}
	r.tags[i] = reals
	return nil
}

// refreshHot sets the hot layouts to the picker's most used ones.
func (r *aggReader) refreshHot() {
	if r.pick != nil && r.width <= 63 {
		for h := range r.hot {
			r.pick.HotWords(&r.hot[h], h)
		}
	}
}

// setRowid stores row i's rowid, an integer, where its other values are.
func (r *aggReader) setRowid(i int, id int64) {
	if r.tags[i] == tagValues {
		r.vals[i*r.width+r.rowid] = types.NewInt(id)
		return
	}
	r.nums[i*r.width+r.rowid] = id
}

// setSame sets r.same for a run of n rows.
func (r *aggReader) setSame(n int) {
	if n == 0 {
		r.same = tagMixed
		return
	}
	r.same = r.tags[0]
	for _, t := range r.tags[1:n] {
		if t != r.same {
			r.same = tagMixed
			return
		}
	}
}

// room sizes the reader's buffers for runs of up to BatchSize rows
// (point reads one row, the others at most BatchSize).
func (r *aggReader) room() {
	if len(r.tags) == 0 {
		r.nums = make([]int64, r.width*BatchSize)
		r.tags = make([]uint64, BatchSize)
		r.vals = make([]types.Value, r.width*BatchSize)
	}
}
