package types

import "encoding/binary"

// WordLayout is a ColumnPicker's most used cached layout when it reads
// every picked column as one big-endian word (INTEGERs and REALs far
// enough from the record's start: the columns of a numeric table), copied
// out so that a scan reads matching records with inlined code and no call
// per record. The zero WordLayout matches no record.
type WordLayout struct {
	pickKey
	ok    bool
	n     int    // picked columns
	reals uint64 // which are REAL (bit j for column j)
	pos   [maxWordCols]uint32
	shift [maxWordCols]uint8
}

// maxWordCols is the most picked columns a WordLayout reads.
const maxWordCols = 8

// Matches reports whether rec has the layout, so Word may read it.
func (l *WordLayout) Matches(rec []byte) bool { return l.ok && l.matches(rec) }

// Len is the number of picked columns.
func (l *WordLayout) Len() int { return l.n }

// Reals reports which picked columns are REAL: bit j for column j.
func (l *WordLayout) Reals() uint64 { return l.reals }

// Word returns picked column j (0 <= j < Len) of rec, which Matches: the
// integer, or the REAL's float64 bits.
func (l *WordLayout) Word(rec []byte, j int) int64 {
	u := binary.BigEndian.Uint64(rec[l.pos[j]:])
	return int64(u<<l.shift[j]) >> l.shift[j]
}

// HotWords sets dst to the picker's k-th most used cached layout (k = 0
// the most used) when every picked column of it is read as a word, else to
// the zero WordLayout. It is worth calling again after a record dst did
// not match, once Pick or PickNumbers has read that record (the order of
// the layouts may have changed).
func (p *ColumnPicker) HotWords(dst *WordLayout, k int) {
	dst.ok = false
	if k < 0 || k >= p.nlay || len(p.cols) > maxWordCols {
		return
	}
	l := &p.lay[k]
	for j := range l.at {
		a := &l.at[j]
		if a.how != pickWord {
			return
		}
		dst.pos[j], dst.shift[j] = a.pos, a.shift
	}
	dst.pickKey, dst.n, dst.reals, dst.ok = l.pickKey, len(l.at), l.reals, true
}

// ReadWords reads the picked words of consecutive records, each with the
// first of ls it matches, as Matches and Word would one record at a time:
// record i is buf[s>>8 : s>>8+s&0xFF] for s = spans[i] (a short record's
// offset in buf and its length); its words go to dst[i*stride :
// i*stride+Len()] and the layout's Reals to reals[i]. It returns how many
// records it read: all of spans, or the index of the first that matches
// none of ls (or lies past buf). A scan reads a leaf's cells this way in
// one call, the slice headers in registers, the record's first header word
// loaded once for all layouts.
func ReadWords(ls []WordLayout, buf []byte, spans []uint32, dst []int64, stride int, reals []uint64) int {
	reals = reals[:len(spans)]
	for i, sp := range spans {
		vs := int(sp >> 8)
		ve := vs + int(sp&0xFF)
		if ve-vs < 8 || ve > len(buf) {
			return i
		}
		rec := buf[vs:ve]
		h := binary.LittleEndian.Uint64(rec)
		k := 0
		for ; k < len(ls); k++ {
			l := &ls[k]
			if l.ok && len(rec) >= l.need && h&l.mask[0] == l.key[0] &&
				(l.klen <= 8 || len(rec) >= 16 && binary.LittleEndian.Uint64(rec[8:])&l.mask[1] == l.key[1]) {
				break
			}
		}
		if k == len(ls) {
			return i
		}
		l := &ls[k]
		row := dst[i*stride : i*stride+l.n]
		for j := range row {
			s := l.shift[j&(maxWordCols-1)] & 63
			u := binary.BigEndian.Uint64(rec[l.pos[j&(maxWordCols-1)]:])
			row[j] = int64(u<<s) >> s
		}
		reals[i] = l.reals
	}
	return len(spans)
}
