package txn

import "hash/maphash"

// tombFilter is a blocked Bloom filter over the keys of a tombSet's map:
// a key whose bits are clear was never put there, so get answers it
// without hashing into the map and comparing strings. Scans check every
// key they visit and nearly all of them have no tombstone, so most checks
// end here. Keys leaving the map leave their bits set (a false positive
// costs only the map lookup); rebuilding on growth clears them.
type tombFilter struct {
	words []uint64
	added int // keys added since the filter was last sized
}

// tombSeed seeds the filter's hash; any fixed seed works.
var tombSeed = maphash.MakeSeed()

const (
	filterFirstWords = 64 // 512 bytes
	filterKeysAWord  = 4  // 16 bits a key: about 1 false positive in 70
)

// mask returns the word index of hash h and the two bits it sets there.
func (f *tombFilter) mask(h uint64) (int, uint64) {
	return int(h & uint64(len(f.words)-1)), 1<<(h>>52&63) | 1<<(h>>58)
}

// mayHold reports whether key may have been added.
func (f *tombFilter) mayHold(key []byte) bool {
	if len(f.words) == 0 {
		return true
	}
	i, m := f.mask(maphash.Bytes(tombSeed, key))
	return f.words[i]&m == m
}

// add records key, growing the filter from other (the map it covers, key
// already in it) when it holds too many keys for its size.
func (f *tombFilter) add(key string, other map[string]tombState) {
	if f.added >= filterKeysAWord*len(f.words) {
		f.resize(max(4*len(f.words), filterFirstWords), other)
		return
	}
	f.set(key)
}

func (f *tombFilter) set(key string) {
	i, m := f.mask(maphash.String(tombSeed, key))
	f.words[i] |= m
	f.added++
}

// resize makes an empty filter of n words and adds every key of other.
func (f *tombFilter) resize(n int, other map[string]tombState) {
	for n < len(other)/filterKeysAWord {
		n *= 2
	}
	f.words, f.added = make([]uint64, n), 0
	for k := range other {
		f.set(k)
	}
}
