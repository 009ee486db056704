package storage

import (
	"bytes"
	"fmt"
)

// maxBigKey bounds keys: longer ones are rejected with ErrKeyTooLarge.
const maxBigKey = 1 << 24

// searchLeaf is node.search that also handles big keys, whose order the
// inline prefix cannot always decide.
func (tx *Tx) searchLeaf(n node, key []byte) (int, bool, error) {
	if !n.hasBigKeys() {
		i, found := n.search(key)
		return i, found, nil
	}
	lo, hi := 0, n.count()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c, err := tx.compareCell(n.leafCell(m), key)
		if err != nil {
			return 0, false, err
		}
		if c == 0 {
			return m, true, nil
		}
		if c < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, false, nil
}

// compareCell compares a leaf entry's full key with key.
func (tx *Tx) compareCell(e leafEntry, key []byte) (int, error) {
	if e.keyRest() == 0 {
		return compareKeys(e.key, key), nil
	}
	p := len(e.key)
	if c := bytes.Compare(e.key, key[:min(p, len(key))]); c != 0 || len(key) <= p {
		if c == 0 {
			return 1, nil // key is a proper prefix of the entry's longer key
		}
		return c, nil
	}
	full, err := tx.entryKey(e)
	if err != nil {
		return 0, err
	}
	return bytes.Compare(full, key), nil
}

// entryKey returns a leaf entry's full key (reading the overflow chain
// for a big key; the result is then freshly allocated).
func (tx *Tx) entryKey(e leafEntry) ([]byte, error) {
	if e.keyRest() == 0 {
		return e.key, nil
	}
	full := make([]byte, 0, e.klen)
	full = append(full, e.key...)
	err := tx.walkOverflow(e.ovfl, e.chain, func(_ uint32, data []byte) {
		if need := e.klen - len(full); need > 0 {
			full = append(full, data[:min(need, len(data))]...)
		}
	})
	return full, err
}

// entryValue returns a leaf entry's value.
func (tx *Tx) entryValue(e leafEntry) ([]byte, error) {
	if e.ovfl == 0 {
		return e.val, nil
	}
	data, err := tx.readOverflow(e.ovfl, e.chain)
	if err != nil {
		return nil, err
	}
	return data[e.keyRest():], nil
}

// separator returns the branch key between two adjacent leaf cells: the
// right cell's key when it is short (so table trees keep 8-byte
// separators), else the shortest prefix of it that is greater than the
// left key.
func (tx *Tx) separator(left, right []byte) ([]byte, error) {
	ps := tx.s.ps
	re := decodeLeafCell(right, ps)
	if re.keyRest() == 0 {
		return re.key, nil
	}
	rk, err := tx.entryKey(re)
	if err != nil {
		return nil, err
	}
	lk, err := tx.entryKey(decodeLeafCell(left, ps))
	if err != nil {
		return nil, err
	}
	i := 0
	for i < len(lk) && i < len(rk) && lk[i] == rk[i] {
		i++
	}
	if i+1 > maxKey(ps) {
		return nil, tx.fail(fmt.Errorf("%w: adjacent keys share a %d-byte prefix, limit %d", ErrKeyTooLarge, i, maxKey(ps)-1))
	}
	return rk[:i+1], nil
}
