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
// none of ls (or lies past buf). Only the first maxReadLayouts of ls are
// tried.
//
// A scan reads a leaf's cells this way in one call: first it finds each
// record's layout (one header word compared with the previous record's
// layout, the usual case, else with each of ls), then it reads the words
// a column at a time, so neither loop keeps more values live than there
// are registers.
func ReadWords(ls []WordLayout, buf []byte, spans []uint32, dst []int64, stride int, reals []uint64) int {
	ls = ls[:min(len(ls), maxReadLayouts)]
	var lay [readChunk]uint8
	done := 0
	for done < len(spans) {
		chunk := spans[done:min(len(spans), done+readChunk)]
		m := classify(ls, buf, chunk, lay[:len(chunk)])
		if m == 0 {
			break
		}
		readColumns(ls, buf, chunk[:m], lay[:m], dst[done*stride:], stride, reals[done:done+m])
		done += m
		if m < len(chunk) {
			break
		}
	}
	return done
}

const (
	// maxReadLayouts is how many layouts ReadWords tries (an index fits
	// two bits).
	maxReadLayouts = 4
	// readChunk is how many records ReadWords classifies before reading
	// their words (its stack array of layout indexes).
	readChunk = 256
)

// classify sets lay[i] to the index in ls of the layout record i of spans
// (see ReadWords) matches, and returns how many leading records match one.
func classify(ls []WordLayout, buf []byte, spans []uint32, lay []uint8) int {
	lay = lay[:len(spans)]
	// The previous record's layout when its key is one word: a record
	// whose first header word equals it under the mask has it too (no two
	// layouts of one picker match one record). key 1 under mask 0 matches
	// nothing.
	last, key, mask, need := uint8(0), uint64(1), uint64(0), 0
	for i, sp := range spans {
		vs := int(sp >> 8)
		ve := vs + int(sp&0xFF)
		if ve-vs < 8 || ve > len(buf) {
			return i
		}
		h := binary.LittleEndian.Uint64(buf[vs:])
		if h&mask == key && ve-vs >= need {
			lay[i] = last
			continue
		}
		k := matchLayout(ls, buf[vs:ve], h)
		if k < 0 {
			return i
		}
		lay[i] = uint8(k)
		if l := &ls[k]; l.klen <= 8 {
			last, key, mask, need = uint8(k), l.key[0], l.mask[0], l.need
		} else {
			key, mask = 1, 0
		}
	}
	return len(spans)
}

// matchLayout is the index of the first of ls that rec (whose first eight
// bytes are h) matches, or -1.
func matchLayout(ls []WordLayout, rec []byte, h uint64) int {
	for k := range ls {
		l := &ls[k]
		if l.ok && len(rec) >= l.need && h&l.mask[0] == l.key[0] &&
			(l.klen <= 8 || len(rec) >= 16 && binary.LittleEndian.Uint64(rec[8:])&l.mask[1] == l.key[1]) {
			return k
		}
	}
	return -1
}

// readColumns reads the words of the records of spans, record i with
// layout ls[lay[i]] (which it matches), a column at a time.
func readColumns(ls []WordLayout, buf []byte, spans []uint32, lay []uint8, dst []int64, stride int, reals []uint64) {
	var pos [maxReadLayouts][maxWordCols]uint32
	var shift [maxReadLayouts][maxWordCols]uint8
	var rl [maxReadLayouts]uint64
	for k := range ls {
		pos[k], shift[k], rl[k] = ls[k].pos, ls[k].shift, ls[k].reals
	}
	lay = lay[:len(spans)]
	reals = reals[:len(spans)]
	for i, k := range lay {
		reals[i] = rl[k&(maxReadLayouts-1)]
	}
	n := ls[lay[0]&(maxReadLayouts-1)].n // every layout of a picker reads all its columns
	for j := range n {
		// Column j's offset and shift under each layout, a small array
		// indexed by the record's layout.
		var pj [maxReadLayouts]int
		var sj [maxReadLayouts]uint8
		for k := range pj {
			pj[k], sj[k] = int(pos[k][j&(maxWordCols-1)]), shift[k][j&(maxWordCols-1)]
		}
		col := dst[j:]
		for i, sp := range spans {
			k := lay[i] & (maxReadLayouts - 1)
			s := sj[k] & 63
			u := binary.BigEndian.Uint64(buf[int(sp>>8)+pj[k]:])
			col[i*stride] = int64(u<<s) >> s
		}
	}
}
