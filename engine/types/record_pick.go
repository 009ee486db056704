package types

import "encoding/binary"

// ColumnPicker decodes a fixed set of columns from record after record, for
// a scan that reads the same few columns of every row of a table. Rows of
// one table mostly repeat the serial types of those columns (the same
// integer widths, the same NULLs), so the picker keeps the header prefix of
// the last record it walked and the body offsets it found there; a record
// whose prefix has the same bytes is read at those offsets with no header
// walk. The answers are DecodeRowMask's for the same columns.
type ColumnPicker struct {
	cols []int // picked columns, ascending
	// lay holds up to pickLayouts cached layouts, the most used first (a
	// hit swaps an entry one place forward): a table's rows mostly share a
	// few header shapes, such as a column of 3-byte integers with the odd
	// 2-byte one.
	lay  [pickLayouts]pickLayout
	nlay int
	walk pickLayout // the layout of a record whose header is not cacheable
}

// pickLayouts is how many layouts a picker keeps.
const pickLayouts = 4

// pickLayout is where the picked columns are in records whose header
// prefix is key.
type pickLayout struct {
	pickKey
	at []pickAt // where each picked column is
	// num is whether every picked column is an INTEGER or a REAL (no
	// NULL, text or blob), reals which of them are REAL (bit j for
	// column cols[j]): PickNumbers' answer for the layout.
	num   bool
	reals uint64
}

// pickKey is the header prefix a layout is filed under.
type pickKey struct {
	key  [2]uint64 // header prefix, little-endian
	mask [2]uint64 // bytes of key that count
	klen int       // bytes in key
	need int       // record length the layout reads up to
}

// NewColumnPicker returns a picker of cols, which must be ascending,
// distinct and non-negative.
func NewColumnPicker(cols []int) *ColumnPicker {
	p := &ColumnPicker{cols: cols}
	at := make([]pickAt, (pickLayouts+1)*len(cols))
	for i := range p.lay {
		p.lay[i].at = at[i*len(cols) : (i+1)*len(cols)]
	}
	p.walk.at = at[pickLayouts*len(cols):]
	return p
}

// pickAt says how to read one picked column of a record with the cached
// layout, decided once per layout from the column's serial type.
type pickAt struct {
	how   pickHow
	kind  Kind
	shift uint8  // pickWord: 64 - 8 × the integer's width (0 for a real)
	pos   uint32 // pickWord: offset of the 8 bytes ending with the value; else the body offset
	n     uint32 // pickBytes: the value's length; pickNarrow: its serial type
	c     int64  // pickConst: the value (0 or 1; NULL has kind KindNull)
}

type pickHow uint8

const (
	pickConst  pickHow = iota // NULL, 0 or 1: no body bytes
	pickWord                  // an integer or real read as one big-endian word
	pickNarrow                // an integer too near the record's start for a word read
	pickBytes                 // text or blob
)

// maxPickKey is the longest header prefix a picker caches: the header
// length byte and up to 15 one-byte serial types.
const maxPickKey = 16

// Pick decodes the picked columns of rec into dst (dst[j] is column
// cols[j]; len(dst) >= len(cols)); a column past the record's end is NULL.
// Text and blob values alias rec. Malformed bytes give ErrCorruptRecord,
// never a panic.
func (p *ColumnPicker) Pick(rec []byte, dst []Value) error {
	lay, err := p.lookup(rec)
	if err != nil {
		return err
	}
	lay.pick(rec, dst)
	return nil
}

// PickNumbers is Pick for a fold of numbers, with no 32-byte Value per
// column: when every picked column of rec is an INTEGER or a REAL
// (always so for at most 63 columns of a NOT NULL numeric table) it
// writes them to nums (nums[j] is column cols[j]: the integer, or the
// REAL's float64 bits), leaves vals alone and returns num true and which
// columns are REAL (bit j for nums[j]). Otherwise it decodes rec into vals
// as Pick does and returns num false. The errors are Pick's.
func (p *ColumnPicker) PickNumbers(rec []byte, nums []int64, vals []Value) (reals uint64, num bool, err error) {
	lay, err := p.lookup(rec)
	if err != nil {
		return 0, false, err
	}
	if !lay.num {
		lay.pick(rec, vals)
		return 0, false, nil
	}
	nums = nums[:len(lay.at)]
	for j := range lay.at {
		a := &lay.at[j]
		switch a.how {
		case pickWord:
			u := binary.BigEndian.Uint64(rec[a.pos:])
			nums[j] = int64(u<<a.shift) >> a.shift
		case pickConst:
			nums[j] = a.c
		default: // pickNarrow: num layouts hold no pickBytes
			nums[j] = decodeNumber(uint64(a.n), rec[a.pos:a.pos+uint32(shortSerialSize[a.n])]).i
		}
	}
	return lay.reals, true, nil
}

// lookup returns rec's layout: a cached one, else one walked from rec's
// header (and cached when it can be).
func (p *ColumnPicker) lookup(rec []byte) (*pickLayout, error) {
	if lay := p.find(rec); lay != nil {
		return lay, nil
	}
	return p.layout(rec)
}

// pick decodes the picked columns of rec, which has layout l, into dst.
func (l *pickLayout) pick(rec []byte, dst []Value) {
	for j := range l.at {
		a := &l.at[j]
		switch a.how {
		case pickWord:
			u := binary.BigEndian.Uint64(rec[a.pos:])
			dst[j] = Value{i: int64(u<<a.shift) >> a.shift, k: a.kind}
		case pickConst:
			dst[j] = Value{i: a.c, k: a.kind}
		case pickNarrow:
			dst[j] = decodeNumber(uint64(a.n), rec[a.pos:a.pos+uint32(shortSerialSize[a.n])])
		default:
			dst[j] = Value{s: unsafeString(rec[a.pos : a.pos+a.n]), k: a.kind}
		}
	}
}

// setNum works out l's num and reals from its columns.
func (l *pickLayout) setNum() {
	l.num, l.reals = len(l.at) < 64, 0
	for j, a := range l.at {
		switch {
		case a.kind == KindReal && j < 64:
			l.reals |= 1 << j
		case a.kind != KindInt:
			l.num = false
		}
	}
}

// find returns the cached layout of rec's header prefix, or nil.
func (p *ColumnPicker) find(rec []byte) *pickLayout {
	if p.nlay > 0 && p.lay[0].matches(rec) {
		return &p.lay[0] // the common case, checked before the loop
	}
	for k := 1; k < p.nlay; k++ {
		if p.lay[k].matches(rec) {
			p.lay[k-1], p.lay[k] = p.lay[k], p.lay[k-1]
			return &p.lay[k-1]
		}
	}
	return nil
}

// matches reports whether rec's header prefix is l's, so l's offsets hold
// for rec.
func (l *pickKey) matches(rec []byte) bool {
	if len(rec) < l.need {
		return false
	}
	if l.klen <= 8 {
		return len(rec) >= 8 && binary.LittleEndian.Uint64(rec)&l.mask[0] == l.key[0]
	}
	return len(rec) >= 16 && binary.LittleEndian.Uint64(rec)&l.mask[0] == l.key[0] &&
		binary.LittleEndian.Uint64(rec[8:])&l.mask[1] == l.key[1]
}

// layout walks rec's header up to the last picked column, works out how
// to read each picked column, and caches the layout under the header bytes
// walked when they are all one-byte varints (replacing the least used
// cached one when all are taken).
func (p *ColumnPicker) layout(rec []byte) (*pickLayout, error) {
	if len(rec) == 0 {
		return nil, ErrCorruptRecord
	}
	pos, end := 1, 1+int(rec[0])
	short := rec[0] < 0x80 // every header varint walked is one byte
	if !short {
		var err error
		if pos, end, err = recordHeader(rec); err != nil {
			return nil, err
		}
	} else if end > len(rec) {
		return nil, ErrCorruptRecord
	}
	off := uint64(end)
	w := &p.walk
	c := 0
	for j, col := range p.cols {
		w.at[j] = pickAt{how: pickConst, kind: KindNull}
		for ; c <= col && pos < end; c++ {
			t := uint64(rec[pos])
			var size uint64
			if t < 0x80 {
				pos++
				if size = uint64(shortSerialSize[t]); size == badSerial {
					return nil, ErrCorruptRecord
				}
			} else {
				short = false
				var n int
				if t, n = binary.Uvarint(rec[pos:end]); n <= 0 {
					return nil, ErrCorruptRecord
				}
				pos += n
				var ok bool
				if size, ok = serialSize(t); !ok {
					return nil, ErrCorruptRecord
				}
			}
			if size > uint64(len(rec))-off {
				return nil, ErrCorruptRecord
			}
			if c == col {
				w.at[j] = pickFor(t, off, size)
			}
			off += size
		}
	}
	w.setNum()
	if !short || pos > maxPickKey {
		return w, nil
	}
	i := min(p.nlay, pickLayouts-1)
	p.nlay = i + 1
	l := &p.lay[i]
	copy(l.at, w.at)
	l.num, l.reals = w.num, w.reals
	l.setKey(rec[:pos], int(off))
	return l, nil
}

// setKey files l under header prefix h; need is the record length the
// layout reads up to.
func (l *pickKey) setKey(h []byte, need int) {
	var buf [maxPickKey]byte
	copy(buf[:], h)
	var full [maxPickKey]byte
	for i := range h {
		full[i] = 0xFF
	}
	l.key[0], l.key[1] = binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:])
	l.mask[0], l.mask[1] = binary.LittleEndian.Uint64(full[:]), binary.LittleEndian.Uint64(full[8:])
	l.klen, l.need = len(h), need
}

// pickFor is how to read a value of serial type t and size bytes at body
// offset off.
func pickFor(t, off, size uint64) pickAt {
	switch {
	case t == stNull:
		return pickAt{how: pickConst, kind: KindNull}
	case t == stZero || t == stOne:
		return pickAt{how: pickConst, kind: KindInt, c: int64(t - stZero)}
	case t >= stBlob0:
		return pickAt{how: pickBytes, kind: KindBlob - Kind(t&1), pos: uint32(off), n: uint32(size)}
	case off+size < 8:
		return pickAt{how: pickNarrow, kind: KindInt, pos: uint32(off), n: uint32(t)}
	case t == stReal:
		return pickAt{how: pickWord, kind: KindReal, pos: uint32(off + size - 8)}
	}
	return pickAt{how: pickWord, kind: KindInt, pos: uint32(off + size - 8), shift: uint8(64 - 8*size)}
}
